-- One read function per table of release content (docs/storage.md, issue 32 step 4): every
-- domain query reads a release's rows as `FROM concept_at($1) c`, never `concept WHERE
-- release_id = $1`, so that storing rows once for the run of releases they belong to changes
-- these bodies and the importer, not the queries. Each is a single-statement `LANGUAGE sql STABLE`
-- function, which the planner inlines into the calling query (test/db/releaseReadFunctions.test.ts
-- checks with EXPLAIN that the callers' predicates still reach the tables' indexes). The columns are
-- a row's content without its release: a caller that needs the release has it as the argument.
CREATE FUNCTION concept_at(rid integer)
RETURNS TABLE (level "Level", code integer, name text, name_norm text, current boolean, pt_code integer,
               primary_soc_code integer, soc_abbrev text, intl_order integer)
LANGUAGE sql STABLE AS $$
  SELECT c.level, c.code, c.name, c.name_norm, c.current, c.pt_code, c.primary_soc_code, c.soc_abbrev, c.intl_order
  FROM concept c WHERE c.release_id = rid
$$;

CREATE FUNCTION concept_name_at(rid integer)
RETURNS TABLE (language text, level "Level", code integer, name text, name_norm text)
LANGUAGE sql STABLE AS $$
  SELECT n.language, n.level, n.code, n.name, n.name_norm FROM concept_name n WHERE n.release_id = rid
$$;

CREATE FUNCTION hierarchy_link_at(rid integer)
RETURNS TABLE (parent_level "Level", parent_code integer, child_level "Level", child_code integer, is_primary boolean)
LANGUAGE sql STABLE AS $$
  SELECT l.parent_level, l.parent_code, l.child_level, l.child_code, l.is_primary FROM hierarchy_link l WHERE l.release_id = rid
$$;

CREATE FUNCTION hierarchy_path_at(rid integer)
RETURNS TABLE (pt_code integer, hlt_code integer, hlgt_code integer, soc_code integer, is_primary boolean)
LANGUAGE sql STABLE AS $$
  SELECT p.pt_code, p.hlt_code, p.hlgt_code, p.soc_code, p.is_primary FROM hierarchy_path p WHERE p.release_id = rid
$$;

CREATE FUNCTION smq_at(rid integer)
RETURNS TABLE (code integer, name text, level integer, description text, source text, note text, version text, status text, algorithm text)
LANGUAGE sql STABLE AS $$
  SELECT s.code, s.name, s.level, s.description, s.source, s.note, s.version, s.status, s.algorithm FROM smq s WHERE s.release_id = rid
$$;

CREATE FUNCTION smq_term_at(rid integer)
RETURNS TABLE (smq_code integer, term_code integer, term_level integer, term_scope integer, term_category text, term_weight integer,
               term_status text, term_addition_version text, term_last_modified_version text)
LANGUAGE sql STABLE AS $$
  SELECT t.smq_code, t.term_code, t.term_level, t.term_scope, t.term_category, t.term_weight, t.term_status,
         t.term_addition_version, t.term_last_modified_version
  FROM smq_term t WHERE t.release_id = rid
$$;

CREATE FUNCTION smq_name_at(rid integer)
RETURNS TABLE (language text, code integer, name text, description text)
LANGUAGE sql STABLE AS $$
  SELECT n.language, n.code, n.name, n.description FROM smq_name n WHERE n.release_id = rid
$$;

CREATE FUNCTION grade_definition_at(rid integer)
RETURNS TABLE (code integer, grade integer, definition text)
LANGUAGE sql STABLE AS $$
  SELECT g.code, g.grade, g.definition FROM grade_definition g WHERE g.release_id = rid
$$;
