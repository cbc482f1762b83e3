// Parents, children, full paths and synonyms, each batched over many keys in one
// SQL statement (the GraphQL loaders call these once per tree level).
import type { PrismaClient } from '../generated/prisma/client.ts';
import { CONCEPT_COLUMNS, conceptKey, type Concept, type ConceptKey } from './concepts.ts';
import type { Level } from './levels.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** RelationshipType type names as the contract spells them, e.g. HLT_TO_PT. */
export type RelationshipType = `${Level}_TO_${Level}`;

export interface HierarchyItem {
  relationshipType: RelationshipType;
  /** The edge lies on the primary path (for a PT: its primary SOC). */
  isPrimary: boolean;
  concept: Concept;
}

const keysJson = (keys: readonly ConceptKey[]) =>
  JSON.stringify(keys.map((k) => ({ r: k.releaseId, l: k.level, c: k.code })));

type Row = Concept & { kr: number; kl: Level; kc: number; isPrimary: boolean; rel: RelationshipType };

function group(keys: readonly ConceptKey[], rows: Row[]): Map<string, HierarchyItem[]> {
  const out = new Map<string, HierarchyItem[]>(keys.map((k) => [conceptKey(k), []]));
  for (const { kr, kl, kc, isPrimary, rel, ...concept } of rows) {
    out.get(conceptKey({ releaseId: kr, level: kl, code: kc }))?.push({ relationshipType: rel, isPrimary, concept });
  }
  return out;
}

// SOCs in international order, everything else alphabetically.
const CHILD_ORDER = 'c.intl_order NULLS LAST, c.name_norm, c.code';

export async function childrenByKeys(db: Db, keys: readonly ConceptKey[]): Promise<Map<string, HierarchyItem[]>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT k.r AS kr, k.l AS kl, k.c AS kc, l.is_primary AS "isPrimary",
            (l.parent_level::text || '_TO_' || l.child_level::text) AS rel, ${CONCEPT_COLUMNS('c', 'k.r')}
     FROM json_to_recordset($1::json) AS k(r int, l text, c int)
     JOIN hierarchy_link_at(k.r) l ON l.parent_level = k.l::"Level" AND l.parent_code = k.c
     JOIN concept_at(k.r) c ON c.level = l.child_level AND c.code = l.child_code
     ORDER BY ${CHILD_ORDER}`,
    keysJson(keys),
  );
  return group(keys, rows);
}

/** Parents over links, plus, for a PT, the SOC_TO_PT item of its primary SOC. */
export async function parentsByKeys(db: Db, keys: readonly ConceptKey[]): Promise<Map<string, HierarchyItem[]>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<Row[]>(
    `WITH k AS (SELECT * FROM json_to_recordset($1::json) AS k(r int, l text, c int))
     SELECT * FROM (
       SELECT k.r AS kr, k.l AS kl, k.c AS kc, l.is_primary AS "isPrimary",
              (l.parent_level::text || '_TO_' || l.child_level::text) AS rel, ${CONCEPT_COLUMNS('c', 'k.r')}, 1 AS sort
       FROM k
       JOIN hierarchy_link_at(k.r) l ON l.child_level = k.l::"Level" AND l.child_code = k.c
       JOIN concept_at(k.r) c ON c.level = l.parent_level AND c.code = l.parent_code
       UNION ALL
       SELECT k.r, k.l, k.c, true, 'SOC_TO_PT', ${CONCEPT_COLUMNS('c', 'k.r')}, 0
       FROM k
       JOIN concept_at(k.r) p ON p.level = 'PT' AND p.code = k.c
       JOIN concept_at(k.r) c ON c.level = 'SOC' AND c.code = p.primary_soc_code
       WHERE k.l = 'PT'
     ) x
     ORDER BY x.sort, x."isPrimary" DESC, x.name`,
    keysJson(keys),
  );
  return group(keys, rows.map(({ sort: _s, ...r }: Row & { sort?: number }) => r));
}

export interface PathCodes {
  isPrimary: boolean;
  /** Codes from the SOC down to the concept itself. */
  nodes: ConceptKey[];
}

/**
 * Every path from a concept up to a SOC, primary first. PTs and LLTs use mdhier's
 * paths (an LLT's are its PT's); HLTs and HLGTs follow their links upwards.
 */
export async function pathsByKeys(db: Db, keys: readonly ConceptKey[]): Promise<Map<string, PathCodes[]>> {
  if (keys.length === 0) return new Map();
  type P = { kr: number; kl: Level; kc: number; soc: number; hlgt: number | null; hlt: number | null; pt: number | null; isPrimary: boolean };
  const rows = await db.$queryRawUnsafe<P[]>(
    `WITH k AS (SELECT * FROM json_to_recordset($1::json) AS k(r int, l text, c int)),
     pk AS (
       SELECT k.r, k.l, k.c, CASE WHEN k.l = 'PT' THEN k.c ELSE lc.pt_code END AS pt
       FROM k LEFT JOIN concept_at(k.r) lc ON k.l = 'LLT' AND lc.level = 'LLT' AND lc.code = k.c
       WHERE k.l IN ('PT', 'LLT')
     )
     SELECT * FROM (
       SELECT pk.r AS kr, pk.l AS kl, pk.c AS kc, p.soc_code AS soc, p.hlgt_code AS hlgt, p.hlt_code AS hlt, p.pt_code AS pt, p.is_primary AS "isPrimary"
       FROM pk JOIN hierarchy_path_at(pk.r) p ON p.pt_code = pk.pt
       UNION ALL
       SELECT k.r, k.l, k.c, s.parent_code, g.parent_code, k.c, NULL, (g.is_primary AND s.is_primary)
       FROM k
       JOIN hierarchy_link_at(k.r) g ON g.child_level = 'HLT' AND g.child_code = k.c
       JOIN hierarchy_link_at(k.r) s ON s.child_level = 'HLGT' AND s.child_code = g.parent_code
       WHERE k.l = 'HLT'
       UNION ALL
       SELECT k.r, k.l, k.c, s.parent_code, k.c, NULL, NULL, s.is_primary
       FROM k JOIN hierarchy_link_at(k.r) s ON s.child_level = 'HLGT' AND s.child_code = k.c
       WHERE k.l = 'HLGT'
       UNION ALL
       SELECT k.r, k.l, k.c, k.c, NULL, NULL, NULL, true FROM k WHERE k.l = 'SOC'
     ) x
     ORDER BY x."isPrimary" DESC, x.soc, x.hlgt, x.hlt`,
    keysJson(keys),
  );
  const out = new Map<string, PathCodes[]>(keys.map((k) => [conceptKey(k), []]));
  for (const r of rows) {
    const key = { releaseId: r.kr, level: r.kl, code: r.kc };
    const list = out.get(conceptKey(key));
    if (!list) continue;
    const nodes: ConceptKey[] = [{ releaseId: r.kr, level: 'SOC', code: r.soc }];
    if (r.hlgt !== null) nodes.push({ releaseId: r.kr, level: 'HLGT', code: r.hlgt });
    if (r.hlt !== null) nodes.push({ releaseId: r.kr, level: 'HLT', code: r.hlt });
    if (r.pt !== null) nodes.push({ releaseId: r.kr, level: 'PT', code: r.pt });
    if (r.kl === 'LLT') nodes.push(key);
    // Exactly one primary path: an HLT under two HLGTs may have both edges on primary paths.
    const isPrimary = r.isPrimary && !list.some((p) => p.isPrimary);
    list.push({ isPrimary, nodes });
  }
  return out;
}

export interface SynonymPageKey {
  releaseId: number;
  /** The PT whose LLTs are listed. */
  ptCode: number;
  offset: number;
  limit: number;
}

export const synonymPageKey = (k: SynonymPageKey) => `${k.releaseId}:${k.ptCode}:${k.offset}:${k.limit}`;

/** One page of a PT's LLTs: its own LLT first, then current before non-current, by name. */
export async function synonymPages(db: Db, keys: readonly SynonymPageKey[]): Promise<Map<string, Concept[]>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<(Concept & { i: number })[]>(
    `WITH k AS (SELECT * FROM json_to_recordset($1::json) AS k(i int, r int, c int, o int, n int)),
     a AS (
       SELECT k.i, k.o, k.n, ${CONCEPT_COLUMNS('c', 'k.r')},
              row_number() OVER (PARTITION BY k.i ORDER BY (c.code = k.c) DESC, c.current DESC, c.name_norm, c.code) AS rn
       FROM k JOIN concept_at(k.r) c ON c.level = 'LLT' AND c.pt_code = k.c
     )
     SELECT * FROM a WHERE rn > o AND rn <= o + n ORDER BY i, rn`,
    JSON.stringify(keys.map((k, i) => ({ i, r: k.releaseId, c: k.ptCode, o: k.offset, n: k.limit }))),
  );
  const out = new Map<string, Concept[]>(keys.map((k) => [synonymPageKey(k), []]));
  for (const { i, o: _o, n: _n, rn: _rn, ...c } of rows as (Concept & { i: number; o: number; n: number; rn: unknown })[]) {
    out.get(synonymPageKey(keys[i]!))!.push(c);
  }
  return out;
}

export async function synonymCounts(db: Db, keys: readonly { releaseId: number; ptCode: number }[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ r: number; c: number; n: number }[]>(
    `SELECT k.r, k.c, count(l.code)::int AS n
     FROM json_to_recordset($1::json) AS k(r int, c int)
     LEFT JOIN concept_at(k.r) l ON l.level = 'LLT' AND l.pt_code = k.c
     GROUP BY k.r, k.c`,
    JSON.stringify(keys.map((k) => ({ r: k.releaseId, c: k.ptCode }))),
  );
  return new Map(rows.map((r) => [`${r.r}:${r.c}`, r.n]));
}
