// SMQs (smq_list.asc / smq_content.asc as imported): lists, batched lookups for the
// loaders, content pages through sub-SMQs, the terms an SMQ applies to coded data, and
// what changed in SMQs between two releases. One SQL statement per list or batch.
import type { PrismaClient } from '../generated/prisma/client.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export interface Smq {
  releaseId: number;
  code: number;
  name: string;
  level: number;
  description: string;
  source: string;
  note: string;
  /** smq_list MedDRA_version: the release the SMQ was last changed in. */
  definitionVersion: string;
  /** A (active) or I (inactive), as in the file. */
  status: string;
  /** N when not algorithmic. */
  algorithm: string;
}

export interface SmqKey {
  releaseId: number;
  code: number;
}

export const smqKey = (k: SmqKey) => `${k.releaseId}:${k.code}`;

/** Scope of a content term: smq_content term_scope 2 narrow, 1 broad. */
export type SmqScope = 'NARROW' | 'BROAD';
export const SCOPE_OF = (n: number): SmqScope | null => (n === 2 ? 'NARROW' : n === 1 ? 'BROAD' : null);

/** Level of a content term: term_level 4 PT, 5 LLT. */
export type SmqTermLevel = 'PT' | 'LLT';

/** Columns of an `smq_at(release)` row `a` as an Smq; `release` is the SQL expression of its release. */
const SMQ_COLUMNS = (a: string, release: string) =>
  `${release} AS "releaseId", ${a}.code, ${a}.name, ${a}.level, ${a}.description, ${a}.source, ${a}.note,
   ${a}.version AS "definitionVersion", ${a}.status, ${a}.algorithm`;

const keysJson = (keys: readonly SmqKey[]) => JSON.stringify(keys.map((k) => ({ r: k.releaseId, c: k.code })));

/** SMQs of a release whose name contains `q` (any case), by name. */
export async function listSmqRows(db: Db, releaseId: number, q: string | null, offset: number, limit: number): Promise<{ items: Smq[]; total: number }> {
  const [row] = await db.$queryRawUnsafe<{ total: number; items: Smq[] }[]>(
    `WITH m AS (
       SELECT ${SMQ_COLUMNS('s', '$1::int')} FROM smq_at($1) s
       WHERE ($2::text IS NULL OR strpos(lower(s.name), $2::text) > 0)
     )
     SELECT (SELECT count(*) FROM m)::int AS total,
            COALESCE((SELECT json_agg(x) FROM (SELECT * FROM m ORDER BY lower(m.name), m.code OFFSET $3 LIMIT $4) x), '[]'::json) AS items`,
    releaseId,
    q === null ? null : q.toLowerCase(),
    offset,
    limit,
  );
  return { items: row?.items ?? [], total: row?.total ?? 0 };
}

export interface SmqNameKey extends SmqKey {
  language: string;
}
export const smqNameKey = (k: SmqNameKey) => `${k.releaseId}:${k.language}:${k.code}`;

/** SMQ names and descriptions in a non-primary language (smq_name; absent when the language folder had none). */
export async function smqNamesByKeys(db: Db, keys: readonly SmqNameKey[]): Promise<Map<string, { name: string; description: string }>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ r: number; g: string; c: number; name: string; description: string }[]>(
    `SELECT k.r, n.language AS g, n.code AS c, n.name, n.description
     FROM json_to_recordset($1::json) AS k(r int, g text, c int)
     JOIN smq_name_at(k.r) n ON n.language = k.g AND n.code = k.c`,
    JSON.stringify(keys.map((k) => ({ r: k.releaseId, g: k.language, c: k.code }))),
  );
  return new Map(rows.map((x) => [smqNameKey({ releaseId: x.r, language: x.g, code: x.c }), { name: x.name, description: x.description }]));
}

/**
 * Every SMQ of a release with its name and description in a non-primary language (the primary's
 * where the language has none): a release holds a few hundred SMQs, so a search in the language
 * folds and filters them in memory (SQL's lower() does not fold every script alike).
 */
export async function smqsInLanguage(db: Db, releaseId: number, language: string): Promise<Smq[]> {
  return db.$queryRawUnsafe<Smq[]>(
    `SELECT ${SMQ_COLUMNS('s', '$1::int').replace('s.name,', 'COALESCE(n.name, s.name) AS name,').replace('s.description,', 'COALESCE(n.description, s.description) AS description,')}
     FROM smq_at($1) s LEFT JOIN smq_name_at($1) n ON n.language = $2 AND n.code = s.code`,
    releaseId,
    language,
  );
}

export async function smqsByKeys(db: Db, keys: readonly SmqKey[]): Promise<Map<string, Smq>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<Smq[]>(
    `SELECT ${SMQ_COLUMNS('s', 'k.r')}
     FROM json_to_recordset($1::json) AS k(r int, c int)
     JOIN smq_at(k.r) s ON s.code = k.c`,
    keysJson(keys),
  );
  return new Map(rows.map((r) => [smqKey(r), r]));
}

/** Sub-SMQs (term_level 0 rows) of each SMQ, by name. */
export async function subSmqsOf(db: Db, keys: readonly SmqKey[]): Promise<Map<string, Smq[]>> {
  const out = new Map<string, Smq[]>(keys.map((k) => [smqKey(k), []]));
  if (keys.length === 0) return out;
  const rows = await db.$queryRawUnsafe<(Smq & { kc: number })[]>(
    `SELECT k.c AS kc, ${SMQ_COLUMNS('s', 'k.r')}
     FROM json_to_recordset($1::json) AS k(r int, c int)
     JOIN smq_term_at(k.r) t ON t.smq_code = k.c AND t.term_level = 0
     JOIN smq_at(k.r) s ON s.code = t.term_code
     ORDER BY lower(s.name), s.code`,
    keysJson(keys),
  );
  for (const { kc, ...s } of rows) out.get(smqKey({ releaseId: s.releaseId, code: kc }))?.push(s);
  return out;
}

/** The SMQ listing each SMQ as a sub-SMQ (null for a top-level SMQ). */
export async function parentSmqsOf(db: Db, keys: readonly SmqKey[]): Promise<Map<string, Smq | null>> {
  const out = new Map<string, Smq | null>();
  if (keys.length === 0) return out;
  const rows = await db.$queryRawUnsafe<(Smq & { kc: number })[]>(
    `SELECT DISTINCT ON (k.r, k.c) k.c AS kc, ${SMQ_COLUMNS('s', 'k.r')}
     FROM json_to_recordset($1::json) AS k(r int, c int)
     JOIN smq_term_at(k.r) t ON t.term_code = k.c AND t.term_level = 0
     JOIN smq_at(k.r) s ON s.code = t.smq_code
     ORDER BY k.r, k.c, s.code`,
    keysJson(keys),
  );
  for (const { kc, ...s } of rows) out.set(smqKey({ releaseId: s.releaseId, code: kc }), s);
  return out;
}

export interface SmqTerm {
  releaseId: number;
  /** The SMQ whose content lists the term (a sub-SMQ when read through a parent). */
  smqCode: number;
  code: number;
  level: SmqTermLevel;
  /** Name in the release (null if the release lacks the concept). */
  name: string | null;
  scope: number;
  category: string;
  weight: number;
  status: string;
  additionVersion: string;
  lastModifiedVersion: string;
}

export interface SmqTermFilter {
  scope?: number | undefined;
  level?: SmqTermLevel | undefined;
  /** true: active terms only; false: inactive only; undefined: both. */
  active?: boolean | undefined;
  /** true: terms whose concept is current in the release (no non-current LLT, none the release lacks). */
  current?: boolean | undefined;
}

// Content of an SMQ and of its sub-SMQs (at most five levels: the depth bound also stops a cycle).
const TREE = `tree(code, depth) AS (
    SELECT $2::int, 1
    UNION ALL
    SELECT t.term_code, tree.depth + 1 FROM smq_term_at($1) t JOIN tree ON t.smq_code = tree.code AND t.term_level = 0
    WHERE tree.depth < 5
  )`;

const TERM_COLUMNS = `$1::int AS "releaseId", t.smq_code AS "smqCode", t.term_code AS code,
   CASE t.term_level WHEN 4 THEN 'PT' ELSE 'LLT' END AS level, c.name, t.term_scope AS scope, t.term_category AS category,
   t.term_weight AS weight, t.term_status AS status, t.term_addition_version AS "additionVersion",
   t.term_last_modified_version AS "lastModifiedVersion"`;

const CONCEPT_OF_TERM = `LEFT JOIN concept_at($1) c ON c.code = t.term_code
     AND c.level = (CASE t.term_level WHEN 4 THEN 'PT' ELSE 'LLT' END)::"Level"`;

/** One page of an SMQ's terms (its sub-SMQs' included): narrow first, then by name; counts per scope under the other filters. */
export async function smqTermPage(
  db: Db,
  releaseId: number,
  smqCode: number,
  filter: SmqTermFilter,
  offset: number,
  limit: number,
): Promise<{ items: SmqTerm[]; total: number; narrow: number; broad: number }> {
  const [row] = await db.$queryRawUnsafe<{ total: number; narrow: number; broad: number; items: SmqTerm[] }[]>(
    `WITH RECURSIVE ${TREE},
     terms AS (
       SELECT ${TERM_COLUMNS}
       FROM (SELECT DISTINCT code FROM tree) tr
       JOIN smq_term_at($1) t ON t.smq_code = tr.code AND t.term_level IN (4, 5)
       ${CONCEPT_OF_TERM}
       WHERE ($3::text IS NULL OR (CASE t.term_level WHEN 4 THEN 'PT' ELSE 'LLT' END) = $3::text)
         AND ($4::boolean IS NULL OR (upper(t.term_status) <> 'I') = $4::boolean)
         AND ($8::boolean IS NULL OR c.current = $8::boolean)
     ),
     filtered AS (SELECT * FROM terms WHERE $5::int IS NULL OR scope = $5::int)
     SELECT (SELECT count(*) FROM filtered)::int AS total,
            (SELECT count(*) FROM terms WHERE scope = 2)::int AS narrow,
            (SELECT count(*) FROM terms WHERE scope = 1)::int AS broad,
            COALESCE((SELECT json_agg(x) FROM (
              SELECT * FROM filtered ORDER BY scope DESC, level DESC, lower(name), code, "smqCode" OFFSET $6 LIMIT $7
            ) x), '[]'::json) AS items`,
    releaseId,
    smqCode,
    filter.level ?? null,
    filter.active ?? null,
    filter.scope ?? null,
    offset,
    limit,
    filter.current ?? null,
  );
  return { items: row?.items ?? [], total: row?.total ?? 0, narrow: row?.narrow ?? 0, broad: row?.broad ?? 0 };
}

/** Every active term an SMQ applies (its sub-SMQs' included), for running it over coded data. */
export async function activeSmqTerms(db: Db, releaseId: number, smqCode: number): Promise<SmqTerm[]> {
  return db.$queryRawUnsafe<SmqTerm[]>(
    `WITH RECURSIVE ${TREE}
     SELECT ${TERM_COLUMNS}
     FROM (SELECT DISTINCT code FROM tree) tr
     JOIN smq_term_at($1) t ON t.smq_code = tr.code AND t.term_level IN (4, 5)
     ${CONCEPT_OF_TERM}
     WHERE upper(t.term_status) <> 'I'
     ORDER BY t.term_scope DESC, t.term_code`,
    releaseId,
    smqCode,
  );
}

export interface CodeLevel {
  code: number;
  level: string;
  ptCode: number | null;
  name: string;
}

/** The highest level each code exists at in a release (a PT over its own LLT), with an LLT's PT. */
export async function codeLevels(db: Db, releaseId: number, codes: readonly number[]): Promise<Map<number, CodeLevel>> {
  if (codes.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<CodeLevel[]>(
    `SELECT DISTINCT ON (c.code) c.code, c.level::text AS level, c.pt_code AS "ptCode", c.name
     FROM concept_at($1) c
     WHERE c.code = ANY($2::int[])
     ORDER BY c.code, c.level`,
    releaseId,
    [...codes],
  );
  return new Map(rows.map((r) => [r.code, r]));
}

/** A concept's membership of an SMQ: the SMQ's content lists the concept itself, or (for an LLT) its PT. */
export interface CodeSmqRow {
  smq: Smq;
  scope: number;
  category: string;
  weight: number;
  status: string;
  /** The listed term: the concept itself, or the PT of an LLT. */
  termCode: number;
  termLevel: SmqTermLevel;
  /** True when the SMQ lists the concept itself. */
  direct: boolean;
}

export interface SmqConceptKey {
  releaseId: number;
  level: string;
  code: number;
}

export const smqConceptKey = (k: SmqConceptKey) => `${k.releaseId}:${k.level}:${k.code}`;

export async function smqsOfConcepts(db: Db, keys: readonly SmqConceptKey[]): Promise<Map<string, CodeSmqRow[]>> {
  const out = new Map<string, CodeSmqRow[]>(keys.map((k) => [smqConceptKey(k), []]));
  const wanted = keys.filter((k) => k.level === 'PT' || k.level === 'LLT');
  if (wanted.length === 0) return out;
  const rows = await db.$queryRawUnsafe<(Smq & { kr: number; kl: string; kc: number; tc: number; tl: number; scope: number; category: string; weight: number; tstatus: string })[]>(
    `WITH k AS (SELECT * FROM json_to_recordset($1::json) AS k(r int, l text, c int)),
     listed AS (
       SELECT k.r, k.l, k.c, k.c AS tc, CASE k.l WHEN 'PT' THEN 4 ELSE 5 END AS tl FROM k
       UNION
       SELECT k.r, k.l, k.c, l.pt_code, 4 FROM k
       JOIN concept_at(k.r) l ON l.level = 'LLT' AND l.code = k.c
       WHERE k.l = 'LLT' AND l.pt_code IS NOT NULL
     )
     SELECT listed.r AS kr, listed.l AS kl, listed.c AS kc, listed.tc, listed.tl, t.term_scope AS scope,
            t.term_category AS category, t.term_weight AS weight, t.term_status AS tstatus, ${SMQ_COLUMNS('s', 'listed.r')}
     FROM listed
     JOIN smq_term_at(listed.r) t ON t.term_code = listed.tc AND t.term_level = listed.tl
     JOIN smq_at(listed.r) s ON s.code = t.smq_code
     ORDER BY lower(s.name), s.code, (listed.tc = listed.c AND listed.tl = CASE listed.l WHEN 'PT' THEN 4 ELSE 5 END) DESC`,
    JSON.stringify(wanted.map((k) => ({ r: k.releaseId, l: k.level, c: k.code }))),
  );
  for (const { kr, kl, kc, tc, tl, scope, category, weight, tstatus, ...smq } of rows) {
    const list = out.get(smqConceptKey({ releaseId: kr, level: kl, code: kc }));
    if (!list || list.some((x) => x.smq.code === smq.code)) continue; // the concept's own listing wins over its PT's
    const direct = tc === kc && (tl === 4) === (kl === 'PT');
    list.push({ smq, scope, category, weight, status: tstatus, termCode: tc, termLevel: tl === 4 ? 'PT' : 'LLT', direct });
  }
  return out;
}

// --- changes between releases ------------------------------------------------------

export const SMQ_CHANGE_TYPES = ['SMQ_ADDED', 'SMQ_RETIRED', 'SMQ_UPDATED', 'TERM_ADDED', 'TERM_REMOVED', 'TERM_UPDATED'] as const;
export type SmqChangeType = (typeof SMQ_CHANGE_TYPES)[number];

export interface SmqChange {
  changeType: SmqChangeType;
  smqCode: number;
  /** Name in the target release (in the baseline when the SMQ left). */
  smqName: string;
  /** TERM_*: the term (a sub-SMQ code when termLevel is SMQ). */
  termCode: number | null;
  termLevel: 'SMQ' | SmqTermLevel | null;
  termName: string | null;
  /** The changed values: SMQ_* {name, level, status, algorithm, description}; TERM_* {scope, category, weight, status}. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export type SmqChangeCounts = Record<SmqChangeType, number>;

export interface SmqChangeFilter {
  smqCode?: number | undefined;
  changeType?: SmqChangeType | undefined;
}

/**
 * What changed in the SMQs from one release to another: SMQs added, retired (absent or made
 * inactive) or redefined; terms added (or made active), removed (absent or made inactive) or
 * re-scoped/re-categorised/re-weighted. Computed on request (SMQ content is small next to the
 * terminology); one statement gives the page, the total and the counts per type.
 */
export async function smqChangeRows(
  db: Db,
  fromId: number,
  toId: number,
  filter: SmqChangeFilter,
  offset: number,
  limit: number,
): Promise<{ items: SmqChange[]; total: number; counts: SmqChangeCounts }> {
  // Names are joined for the page's rows only; the order (SMQ name, SMQ-level rows first, type,
  // sub-SMQs then PTs then LLTs, code) needs none of the terminology tables.
  const [row] = await db.$queryRawUnsafe<{ total: number; counts: Partial<SmqChangeCounts> | null; items: SmqChange[] }[]>(
    `WITH f AS (SELECT * FROM smq_at($1) WHERE ($3::int IS NULL OR code = $3::int)),
     t AS (SELECT * FROM smq_at($2) WHERE ($3::int IS NULL OR code = $3::int)),
     smq_changes AS (
       SELECT COALESCE(t.code, f.code) AS smq_code,
              CASE WHEN f.code IS NULL THEN 'SMQ_ADDED'
                   WHEN t.code IS NULL OR (upper(t.status) = 'I' AND upper(f.status) <> 'I') THEN 'SMQ_RETIRED'
                   ELSE 'SMQ_UPDATED' END AS change_type,
              NULL::int AS term_code, NULL::int AS term_level,
              CASE WHEN f.code IS NULL THEN NULL ELSE json_build_object('name', f.name, 'level', f.level, 'status', f.status, 'algorithm', f.algorithm, 'description', f.description) END AS before,
              CASE WHEN t.code IS NULL THEN NULL ELSE json_build_object('name', t.name, 'level', t.level, 'status', t.status, 'algorithm', t.algorithm, 'description', t.description) END AS after,
              0 AS sort
       FROM f FULL JOIN t ON t.code = f.code
       WHERE f.code IS NULL OR t.code IS NULL
          OR (f.name, f.level, f.status, f.algorithm, f.description) IS DISTINCT FROM (t.name, t.level, t.status, t.algorithm, t.description)
     ),
     tf AS (SELECT * FROM smq_term_at($1) WHERE ($3::int IS NULL OR smq_code = $3::int)),
     tt AS (SELECT * FROM smq_term_at($2) WHERE ($3::int IS NULL OR smq_code = $3::int)),
     pairs AS (
       SELECT COALESCE(tt.smq_code, tf.smq_code) AS smq_code, COALESCE(tt.term_code, tf.term_code) AS term_code,
              COALESCE(tt.term_level, tf.term_level) AS term_level,
              tf.term_code IS NOT NULL AND upper(tf.term_status) <> 'I' AS was_active,
              tt.term_code IS NOT NULL AND upper(tt.term_status) <> 'I' AS is_active,
              tf.term_code IS NOT NULL AS in_from, tt.term_code IS NOT NULL AS in_to,
              tf.term_scope AS f_scope, tf.term_category AS f_category, tf.term_weight AS f_weight, tf.term_status AS f_status,
              tt.term_scope AS t_scope, tt.term_category AS t_category, tt.term_weight AS t_weight, tt.term_status AS t_status
       FROM tf FULL JOIN tt ON tt.smq_code = tf.smq_code AND tt.term_level = tf.term_level AND tt.term_code = tf.term_code
     ),
     term_changes AS (
       SELECT p.smq_code,
              CASE WHEN p.is_active AND NOT p.was_active THEN 'TERM_ADDED'
                   WHEN p.was_active AND NOT p.is_active THEN 'TERM_REMOVED'
                   ELSE 'TERM_UPDATED' END AS change_type,
              p.term_code, p.term_level,
              CASE WHEN p.in_from THEN json_build_object('scope', p.f_scope, 'category', p.f_category, 'weight', p.f_weight, 'status', p.f_status) END AS before,
              CASE WHEN p.in_to THEN json_build_object('scope', p.t_scope, 'category', p.t_category, 'weight', p.t_weight, 'status', p.t_status) END AS after,
              1 AS sort
       FROM pairs p
       WHERE p.is_active <> p.was_active
          OR (p.is_active AND p.was_active AND (p.f_scope, p.f_category, p.f_weight) IS DISTINCT FROM (p.t_scope, p.t_category, p.t_weight))
     ),
     everything AS (SELECT * FROM smq_changes UNION ALL SELECT * FROM term_changes),
     filtered AS (SELECT * FROM everything WHERE $4::text IS NULL OR change_type = $4::text),
     names AS (
       SELECT s.code, (array_agg(s.name ORDER BY s.target DESC))[1] AS name
       FROM (SELECT code, name, true AS target FROM smq_at($2) UNION ALL SELECT code, name, false FROM smq_at($1)) s
       WHERE ($3::int IS NULL OR s.code = $3::int) GROUP BY s.code
     ),
     page AS (
       SELECT fl.*, COALESCE(n.name, '') AS smq_name,
              row_number() OVER (ORDER BY lower(COALESCE(n.name, '')), fl.smq_code, fl.sort, fl.change_type, fl.term_level, fl.term_code) AS ord
       FROM filtered fl LEFT JOIN names n ON n.code = fl.smq_code
       ORDER BY ord OFFSET $5 LIMIT $6
     )
     SELECT (SELECT count(*) FROM filtered)::int AS total,
            (SELECT json_object_agg(ct, n) FROM (SELECT change_type AS ct, count(*)::int AS n FROM everything GROUP BY change_type) c) AS counts,
            COALESCE((SELECT json_agg(x ORDER BY x.ord) FROM (
              SELECT pg.ord, pg.change_type AS "changeType", pg.smq_code AS "smqCode", pg.smq_name AS "smqName", pg.term_code AS "termCode",
                     CASE pg.term_level WHEN 0 THEN 'SMQ' WHEN 4 THEN 'PT' WHEN 5 THEN 'LLT' END AS "termLevel",
                     CASE pg.term_level WHEN 0 THEN COALESCE(xt.name, xf.name) ELSE COALESCE(ct.name, cf.name) END AS "termName",
                     pg.before, pg.after
              FROM page pg
              LEFT JOIN concept_at($2) ct ON pg.term_level IN (4, 5) AND ct.code = pg.term_code AND ct.level = (CASE pg.term_level WHEN 4 THEN 'PT' ELSE 'LLT' END)::"Level"
              LEFT JOIN concept_at($1) cf ON pg.term_level IN (4, 5) AND cf.code = pg.term_code AND cf.level = (CASE pg.term_level WHEN 4 THEN 'PT' ELSE 'LLT' END)::"Level"
              LEFT JOIN smq_at($2) xt ON pg.term_level = 0 AND xt.code = pg.term_code
              LEFT JOIN smq_at($1) xf ON pg.term_level = 0 AND xf.code = pg.term_code
            ) x), '[]'::json) AS items`,
    fromId,
    toId,
    filter.smqCode ?? null,
    filter.changeType ?? null,
    offset,
    limit,
  );
  for (const it of row?.items ?? []) delete (it as { ord?: unknown }).ord;
  const counts = Object.fromEntries(SMQ_CHANGE_TYPES.map((t) => [t, row?.counts?.[t] ?? 0])) as SmqChangeCounts;
  return { items: row?.items ?? [], total: row?.total ?? 0, counts };
}
