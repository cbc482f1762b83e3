-- Shared storage across releases (docs/storage.md, issue 32 step 4, milestone B): a content row is
-- stored once for the run of consecutive releases it belongs to, [valid_from, valid_to) over
-- release.seq, instead of once per release. release.seq is the publication position numbered with
-- gaps (ordinal << 32), so that a release imported between two hosted ones takes a seq between theirs
-- without renumbering rows. Existing stores are converted in place: per table, rows are grouped into
-- runs of consecutive hosted releases (row_number over the releases, not ordinal - 1: a deleted
-- release leaves an ordinal gap) whose content is equal per key; a key absent from a release starts a
-- new run. valid_to is the seq of the first hosted release after the run (9223372036854775807: open).
-- Only the *_at read functions change for the readers (same columns, inlined as before).
ALTER TABLE "release" ADD COLUMN "seq" BIGINT;
UPDATE "release" SET "seq" = "ordinal"::bigint << 32;
ALTER TABLE "release" ALTER COLUMN "seq" SET NOT NULL;
CREATE UNIQUE INDEX "release_seq_key" ON "release"("seq");

-- Hosted releases in publication order: position (1, 2, ... without gaps), seq and the next one's seq.
CREATE TEMPORARY TABLE release_position ON COMMIT DROP AS
  SELECT r.id, row_number() OVER (ORDER BY r.ordinal) AS pos, r.seq, lead(r.seq) OVER (ORDER BY r.ordinal) AS next_seq
  FROM "release" r;

-- concept: key (level, code)
CREATE TABLE "concept_ranged" (
    "level" "Level" NOT NULL,
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_norm" TEXT NOT NULL,
    "current" BOOLEAN NOT NULL DEFAULT true,
    "pt_code" INTEGER,
    "primary_soc_code" INTEGER,
    "soc_abbrev" TEXT,
    "intl_order" INTEGER,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "concept_ranged" ("level", "code", "name", "name_norm", "current", "pt_code", "primary_soc_code", "soc_abbrev", "intl_order", "valid_from", "valid_to")
SELECT "level", "code", "name", "name_norm", "current", "pt_code", "primary_soc_code", "soc_abbrev", "intl_order", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."level", y."code", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."level", x."code" ORDER BY x.pos) AS run FROM (
      SELECT t."level", t."code", t."name", t."name_norm", t."current", t."pt_code", t."primary_soc_code", t."soc_abbrev", t."intl_order", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."name") OVER w IS NOT DISTINCT FROM t."name"
                 AND lag(t."name_norm") OVER w IS NOT DISTINCT FROM t."name_norm"
                 AND lag(t."current") OVER w IS NOT DISTINCT FROM t."current"
                 AND lag(t."pt_code") OVER w IS NOT DISTINCT FROM t."pt_code"
                 AND lag(t."primary_soc_code") OVER w IS NOT DISTINCT FROM t."primary_soc_code"
                 AND lag(t."soc_abbrev") OVER w IS NOT DISTINCT FROM t."soc_abbrev"
                 AND lag(t."intl_order") OVER w IS NOT DISTINCT FROM t."intl_order"
             THEN 0 ELSE 1 END AS starts
      FROM "concept" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."level", t."code" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "concept";
ALTER TABLE "concept_ranged" RENAME TO "concept";
ALTER TABLE "concept" ADD CONSTRAINT "concept_pkey" PRIMARY KEY ("level", "code", "valid_from");
CREATE INDEX "concept_code_valid_from_idx" ON "concept"("code", "valid_from");
CREATE INDEX "concept_pt_code_valid_from_idx" ON "concept"("pt_code", "valid_from");
CREATE INDEX "concept_level_name_norm_idx" ON "concept"("level", "name_norm");
CREATE INDEX "concept_valid_from_idx" ON "concept"("valid_from");
CREATE INDEX "concept_valid_to_idx" ON "concept"("valid_to");
CREATE INDEX "concept_name_norm_trgm_idx" ON "concept" USING GIN ("name_norm" gin_trgm_ops);

-- concept_name: key (language, level, code)
CREATE TABLE "concept_name_ranged" (
    "language" TEXT NOT NULL,
    "level" "Level" NOT NULL,
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_norm" TEXT NOT NULL,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "concept_name_ranged" ("language", "level", "code", "name", "name_norm", "valid_from", "valid_to")
SELECT "language", "level", "code", "name", "name_norm", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."language", y."level", y."code", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."language", x."level", x."code" ORDER BY x.pos) AS run FROM (
      SELECT t."language", t."level", t."code", t."name", t."name_norm", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."name") OVER w IS NOT DISTINCT FROM t."name"
                 AND lag(t."name_norm") OVER w IS NOT DISTINCT FROM t."name_norm"
             THEN 0 ELSE 1 END AS starts
      FROM "concept_name" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."language", t."level", t."code" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "concept_name";
ALTER TABLE "concept_name_ranged" RENAME TO "concept_name";
ALTER TABLE "concept_name" ADD CONSTRAINT "concept_name_pkey" PRIMARY KEY ("language", "level", "code", "valid_from");
CREATE INDEX "concept_name_language_level_name_norm_idx" ON "concept_name"("language", "level", "name_norm");
CREATE INDEX "concept_name_valid_from_idx" ON "concept_name"("valid_from");
CREATE INDEX "concept_name_valid_to_idx" ON "concept_name"("valid_to");

-- hierarchy_link: key (parent_level, parent_code, child_level, child_code)
CREATE TABLE "hierarchy_link_ranged" (
    "parent_level" "Level" NOT NULL,
    "parent_code" INTEGER NOT NULL,
    "child_level" "Level" NOT NULL,
    "child_code" INTEGER NOT NULL,
    "is_primary" BOOLEAN NOT NULL,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "hierarchy_link_ranged" ("parent_level", "parent_code", "child_level", "child_code", "is_primary", "valid_from", "valid_to")
SELECT "parent_level", "parent_code", "child_level", "child_code", "is_primary", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."parent_level", y."parent_code", y."child_level", y."child_code", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."parent_level", x."parent_code", x."child_level", x."child_code" ORDER BY x.pos) AS run FROM (
      SELECT t."parent_level", t."parent_code", t."child_level", t."child_code", t."is_primary", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."is_primary") OVER w IS NOT DISTINCT FROM t."is_primary"
             THEN 0 ELSE 1 END AS starts
      FROM "hierarchy_link" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."parent_level", t."parent_code", t."child_level", t."child_code" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "hierarchy_link";
ALTER TABLE "hierarchy_link_ranged" RENAME TO "hierarchy_link";
ALTER TABLE "hierarchy_link" ADD CONSTRAINT "hierarchy_link_pkey" PRIMARY KEY ("parent_level", "parent_code", "child_level", "child_code", "valid_from");
CREATE INDEX "hierarchy_link_child_level_child_code_valid_from_idx" ON "hierarchy_link"("child_level", "child_code", "valid_from");
CREATE INDEX "hierarchy_link_valid_from_idx" ON "hierarchy_link"("valid_from");
CREATE INDEX "hierarchy_link_valid_to_idx" ON "hierarchy_link"("valid_to");

-- hierarchy_path: key (pt_code, hlt_code, hlgt_code, soc_code)
CREATE TABLE "hierarchy_path_ranged" (
    "pt_code" INTEGER NOT NULL,
    "hlt_code" INTEGER NOT NULL,
    "hlgt_code" INTEGER NOT NULL,
    "soc_code" INTEGER NOT NULL,
    "is_primary" BOOLEAN NOT NULL,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "hierarchy_path_ranged" ("pt_code", "hlt_code", "hlgt_code", "soc_code", "is_primary", "valid_from", "valid_to")
SELECT "pt_code", "hlt_code", "hlgt_code", "soc_code", "is_primary", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."pt_code", y."hlt_code", y."hlgt_code", y."soc_code", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."pt_code", x."hlt_code", x."hlgt_code", x."soc_code" ORDER BY x.pos) AS run FROM (
      SELECT t."pt_code", t."hlt_code", t."hlgt_code", t."soc_code", t."is_primary", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."is_primary") OVER w IS NOT DISTINCT FROM t."is_primary"
             THEN 0 ELSE 1 END AS starts
      FROM "hierarchy_path" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."pt_code", t."hlt_code", t."hlgt_code", t."soc_code" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "hierarchy_path";
ALTER TABLE "hierarchy_path_ranged" RENAME TO "hierarchy_path";
ALTER TABLE "hierarchy_path" ADD CONSTRAINT "hierarchy_path_pkey" PRIMARY KEY ("pt_code", "hlt_code", "hlgt_code", "soc_code", "valid_from");
CREATE INDEX "hierarchy_path_soc_code_valid_from_idx" ON "hierarchy_path"("soc_code", "valid_from");
CREATE INDEX "hierarchy_path_hlgt_code_valid_from_idx" ON "hierarchy_path"("hlgt_code", "valid_from");
CREATE INDEX "hierarchy_path_hlt_code_valid_from_idx" ON "hierarchy_path"("hlt_code", "valid_from");
CREATE INDEX "hierarchy_path_valid_from_idx" ON "hierarchy_path"("valid_from");
CREATE INDEX "hierarchy_path_valid_to_idx" ON "hierarchy_path"("valid_to");

-- grade_definition: key (code, grade)
CREATE TABLE "grade_definition_ranged" (
    "code" INTEGER NOT NULL,
    "grade" INTEGER NOT NULL,
    "definition" TEXT NOT NULL,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "grade_definition_ranged" ("code", "grade", "definition", "valid_from", "valid_to")
SELECT "code", "grade", "definition", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."code", y."grade", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."code", x."grade" ORDER BY x.pos) AS run FROM (
      SELECT t."code", t."grade", t."definition", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."definition") OVER w IS NOT DISTINCT FROM t."definition"
             THEN 0 ELSE 1 END AS starts
      FROM "grade_definition" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."code", t."grade" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "grade_definition";
ALTER TABLE "grade_definition_ranged" RENAME TO "grade_definition";
ALTER TABLE "grade_definition" ADD CONSTRAINT "grade_definition_pkey" PRIMARY KEY ("code", "grade", "valid_from");
CREATE INDEX "grade_definition_valid_from_idx" ON "grade_definition"("valid_from");
CREATE INDEX "grade_definition_valid_to_idx" ON "grade_definition"("valid_to");

-- smq: key (code)
CREATE TABLE "smq_ranged" (
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "description" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "smq_ranged" ("code", "name", "level", "description", "source", "note", "version", "status", "algorithm", "valid_from", "valid_to")
SELECT "code", "name", "level", "description", "source", "note", "version", "status", "algorithm", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."code", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."code" ORDER BY x.pos) AS run FROM (
      SELECT t."code", t."name", t."level", t."description", t."source", t."note", t."version", t."status", t."algorithm", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."name") OVER w IS NOT DISTINCT FROM t."name"
                 AND lag(t."level") OVER w IS NOT DISTINCT FROM t."level"
                 AND lag(t."description") OVER w IS NOT DISTINCT FROM t."description"
                 AND lag(t."source") OVER w IS NOT DISTINCT FROM t."source"
                 AND lag(t."note") OVER w IS NOT DISTINCT FROM t."note"
                 AND lag(t."version") OVER w IS NOT DISTINCT FROM t."version"
                 AND lag(t."status") OVER w IS NOT DISTINCT FROM t."status"
                 AND lag(t."algorithm") OVER w IS NOT DISTINCT FROM t."algorithm"
             THEN 0 ELSE 1 END AS starts
      FROM "smq" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."code" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "smq";
ALTER TABLE "smq_ranged" RENAME TO "smq";
ALTER TABLE "smq" ADD CONSTRAINT "smq_pkey" PRIMARY KEY ("code", "valid_from");
CREATE INDEX "smq_valid_from_idx" ON "smq"("valid_from");
CREATE INDEX "smq_valid_to_idx" ON "smq"("valid_to");

-- smq_term: key (smq_code, term_level, term_code)
CREATE TABLE "smq_term_ranged" (
    "smq_code" INTEGER NOT NULL,
    "term_level" INTEGER NOT NULL,
    "term_code" INTEGER NOT NULL,
    "term_scope" INTEGER NOT NULL,
    "term_category" TEXT NOT NULL,
    "term_weight" INTEGER NOT NULL,
    "term_status" TEXT NOT NULL,
    "term_addition_version" TEXT NOT NULL,
    "term_last_modified_version" TEXT NOT NULL,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "smq_term_ranged" ("smq_code", "term_level", "term_code", "term_scope", "term_category", "term_weight", "term_status", "term_addition_version", "term_last_modified_version", "valid_from", "valid_to")
SELECT "smq_code", "term_level", "term_code", "term_scope", "term_category", "term_weight", "term_status", "term_addition_version", "term_last_modified_version", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."smq_code", y."term_level", y."term_code", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."smq_code", x."term_level", x."term_code" ORDER BY x.pos) AS run FROM (
      SELECT t."smq_code", t."term_level", t."term_code", t."term_scope", t."term_category", t."term_weight", t."term_status", t."term_addition_version", t."term_last_modified_version", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."term_scope") OVER w IS NOT DISTINCT FROM t."term_scope"
                 AND lag(t."term_category") OVER w IS NOT DISTINCT FROM t."term_category"
                 AND lag(t."term_weight") OVER w IS NOT DISTINCT FROM t."term_weight"
                 AND lag(t."term_status") OVER w IS NOT DISTINCT FROM t."term_status"
                 AND lag(t."term_addition_version") OVER w IS NOT DISTINCT FROM t."term_addition_version"
                 AND lag(t."term_last_modified_version") OVER w IS NOT DISTINCT FROM t."term_last_modified_version"
             THEN 0 ELSE 1 END AS starts
      FROM "smq_term" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."smq_code", t."term_level", t."term_code" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "smq_term";
ALTER TABLE "smq_term_ranged" RENAME TO "smq_term";
ALTER TABLE "smq_term" ADD CONSTRAINT "smq_term_pkey" PRIMARY KEY ("smq_code", "term_level", "term_code", "valid_from");
CREATE INDEX "smq_term_term_code_valid_from_idx" ON "smq_term"("term_code", "valid_from");
CREATE INDEX "smq_term_valid_from_idx" ON "smq_term"("valid_from");
CREATE INDEX "smq_term_valid_to_idx" ON "smq_term"("valid_to");

-- smq_name: key (language, code)
CREATE TABLE "smq_name_ranged" (
    "language" TEXT NOT NULL,
    "code" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "valid_from" BIGINT NOT NULL,
    "valid_to" BIGINT NOT NULL
);
INSERT INTO "smq_name_ranged" ("language", "code", "name", "description", "valid_from", "valid_to")
SELECT "language", "code", "name", "description", z.seq, z.run_to FROM (
  SELECT y.*, max(y.next_to) OVER (PARTITION BY y."language", y."code", y.run) AS run_to FROM (
    SELECT x.*, sum(x.starts) OVER (PARTITION BY x."language", x."code" ORDER BY x.pos) AS run FROM (
      SELECT t."language", t."code", t."name", t."description", p.pos, p.seq, coalesce(p.next_seq, 9223372036854775807) AS next_to,
             CASE WHEN lag(p.pos) OVER w = p.pos - 1
                 AND lag(t."name") OVER w IS NOT DISTINCT FROM t."name"
                 AND lag(t."description") OVER w IS NOT DISTINCT FROM t."description"
             THEN 0 ELSE 1 END AS starts
      FROM "smq_name" t JOIN release_position p ON p.id = t.release_id
      WINDOW w AS (PARTITION BY t."language", t."code" ORDER BY p.pos)
    ) x
  ) y
) z WHERE z.starts = 1;
DROP TABLE "smq_name";
ALTER TABLE "smq_name_ranged" RENAME TO "smq_name";
ALTER TABLE "smq_name" ADD CONSTRAINT "smq_name_pkey" PRIMARY KEY ("language", "code", "valid_from");
CREATE INDEX "smq_name_valid_from_idx" ON "smq_name"("valid_from");
CREATE INDEX "smq_name_valid_to_idx" ON "smq_name"("valid_to");


ANALYZE "concept", "concept_name", "hierarchy_link", "hierarchy_path", "grade_definition", "smq", "smq_term", "smq_name";

-- The read functions over the ranges: a row belongs to release r iff valid_from <= r.seq < valid_to.
-- Still single-statement LANGUAGE sql STABLE functions, so the planner inlines them and the range
-- predicate meets the caller's own (code =, a keyed join) on the (key, valid_from) indexes.
CREATE OR REPLACE FUNCTION concept_at(rid integer)
RETURNS TABLE (level "Level", code integer, name text, name_norm text, current boolean, pt_code integer,
               primary_soc_code integer, soc_abbrev text, intl_order integer)
LANGUAGE sql STABLE AS $$
  SELECT c.level, c.code, c.name, c.name_norm, c.current, c.pt_code, c.primary_soc_code, c.soc_abbrev, c.intl_order
  FROM concept c, "release" r
  WHERE r.id = rid AND c.valid_from <= r.seq AND c.valid_to > r.seq
$$;

CREATE OR REPLACE FUNCTION concept_name_at(rid integer)
RETURNS TABLE (language text, level "Level", code integer, name text, name_norm text)
LANGUAGE sql STABLE AS $$
  SELECT n.language, n.level, n.code, n.name, n.name_norm FROM concept_name n, "release" r
  WHERE r.id = rid AND n.valid_from <= r.seq AND n.valid_to > r.seq
$$;

CREATE OR REPLACE FUNCTION hierarchy_link_at(rid integer)
RETURNS TABLE (parent_level "Level", parent_code integer, child_level "Level", child_code integer, is_primary boolean)
LANGUAGE sql STABLE AS $$
  SELECT l.parent_level, l.parent_code, l.child_level, l.child_code, l.is_primary FROM hierarchy_link l, "release" r
  WHERE r.id = rid AND l.valid_from <= r.seq AND l.valid_to > r.seq
$$;

CREATE OR REPLACE FUNCTION hierarchy_path_at(rid integer)
RETURNS TABLE (pt_code integer, hlt_code integer, hlgt_code integer, soc_code integer, is_primary boolean)
LANGUAGE sql STABLE AS $$
  SELECT p.pt_code, p.hlt_code, p.hlgt_code, p.soc_code, p.is_primary FROM hierarchy_path p, "release" r
  WHERE r.id = rid AND p.valid_from <= r.seq AND p.valid_to > r.seq
$$;

CREATE OR REPLACE FUNCTION smq_at(rid integer)
RETURNS TABLE (code integer, name text, level integer, description text, source text, note text, version text, status text, algorithm text)
LANGUAGE sql STABLE AS $$
  SELECT s.code, s.name, s.level, s.description, s.source, s.note, s.version, s.status, s.algorithm FROM smq s, "release" r
  WHERE r.id = rid AND s.valid_from <= r.seq AND s.valid_to > r.seq
$$;

CREATE OR REPLACE FUNCTION smq_term_at(rid integer)
RETURNS TABLE (smq_code integer, term_code integer, term_level integer, term_scope integer, term_category text, term_weight integer,
               term_status text, term_addition_version text, term_last_modified_version text)
LANGUAGE sql STABLE AS $$
  SELECT t.smq_code, t.term_code, t.term_level, t.term_scope, t.term_category, t.term_weight, t.term_status,
         t.term_addition_version, t.term_last_modified_version
  FROM smq_term t, "release" r
  WHERE r.id = rid AND t.valid_from <= r.seq AND t.valid_to > r.seq
$$;

CREATE OR REPLACE FUNCTION smq_name_at(rid integer)
RETURNS TABLE (language text, code integer, name text, description text)
LANGUAGE sql STABLE AS $$
  SELECT n.language, n.code, n.name, n.description FROM smq_name n, "release" r
  WHERE r.id = rid AND n.valid_from <= r.seq AND n.valid_to > r.seq
$$;

CREATE OR REPLACE FUNCTION grade_definition_at(rid integer)
RETURNS TABLE (code integer, grade integer, definition text)
LANGUAGE sql STABLE AS $$
  SELECT g.code, g.grade, g.definition FROM grade_definition g, "release" r
  WHERE r.id = rid AND g.valid_from <= r.seq AND g.valid_to > r.seq
$$;
