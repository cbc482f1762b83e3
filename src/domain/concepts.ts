// Concept rows and batched lookups by (release, level, code). Every function takes
// many keys and issues one SQL statement, so GraphQL loaders never cause N+1.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Level } from './levels.ts';

export interface Concept {
  releaseId: number;
  level: Level;
  code: number;
  name: string;
  current: boolean;
  ptCode: number | null;
  primarySocCode: number | null;
  socAbbrev: string | null;
  intlOrder: number | null;
  /** Set when `name` is in this non-primary language of the release (issue 28); absent: the primary language. */
  language?: string | undefined;
}

export interface ConceptKey {
  releaseId: number;
  level: Level;
  code: number;
}

export interface CodeKey {
  releaseId: number;
  code: number;
}

export const conceptKey = (k: ConceptKey) => `${k.releaseId}:${k.level}:${k.code}`;
export const codeKey = (k: CodeKey) => `${k.releaseId}:${k.code}`;

/**
 * Columns of a `concept_at(release)` row aliased to the Concept shape: `alias` is the row's alias,
 * `release` the SQL expression of the release it was read for (the rows carry no release of their own).
 */
export const CONCEPT_COLUMNS = (alias: string, release: string) =>
  `${release} AS "releaseId", ${alias}.level::text AS level, ${alias}.code, ${alias}.name, ${alias}.current,
   ${alias}.pt_code AS "ptCode", ${alias}.primary_soc_code AS "primarySocCode", ${alias}.soc_abbrev AS "socAbbrev",
   ${alias}.intl_order AS "intlOrder"`;

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export async function conceptsByKeys(db: Db, keys: readonly ConceptKey[]): Promise<Map<string, Concept>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<Concept[]>(
    `SELECT ${CONCEPT_COLUMNS('c', 'k.r')}
     FROM json_to_recordset($1::json) AS k(r int, l text, c int)
     JOIN concept_at(k.r) c ON c.level = k.l::"Level" AND c.code = k.c`,
    JSON.stringify(keys.map((k) => ({ r: k.releaseId, l: k.level, c: k.code }))),
  );
  return new Map(rows.map((r) => [conceptKey(r), r]));
}

/** Every level a code exists at (a PT and its own LLT share a code), highest level first. */
export async function conceptsByCodes(db: Db, keys: readonly CodeKey[]): Promise<Map<string, Concept[]>> {
  const out = new Map<string, Concept[]>();
  if (keys.length === 0) return out;
  const rows = await db.$queryRawUnsafe<Concept[]>(
    `SELECT ${CONCEPT_COLUMNS('c', 'k.r')}
     FROM json_to_recordset($1::json) AS k(r int, c int)
     JOIN concept_at(k.r) c ON c.code = k.c
     ORDER BY c.level`,
    JSON.stringify(keys.map((k) => ({ r: k.releaseId, c: k.code }))),
  );
  for (const r of rows) {
    const k = codeKey(r);
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}

/** Concepts per level of a release (every level present, 0 when it has none). */
export async function conceptCountsByLevel(db: Db, releaseId: number): Promise<Record<Level, number>> {
  const rows = await db.$queryRawUnsafe<{ level: Level; n: number }[]>(
    'SELECT c.level::text AS level, count(*)::int AS n FROM concept_at($1) c GROUP BY c.level',
    releaseId,
  );
  const out: Record<Level, number> = { SOC: 0, HLGT: 0, HLT: 0, PT: 0, LLT: 0 };
  for (const r of rows) out[r.level] = r.n;
  return out;
}

export type TermRow = Pick<Concept, 'level' | 'code' | 'name' | 'current' | 'ptCode'>;

/** Every PT and LLT of a release, PTs first, each by code (the coding engine's vocabulary). */
export async function ptAndLltRows(db: Db, releaseId: number): Promise<TermRow[]> {
  return db.$queryRawUnsafe<TermRow[]>(
    `SELECT c.level::text AS level, c.code, c.name, c.current, c.pt_code AS "ptCode"
     FROM concept_at($1) c WHERE c.level IN ('PT', 'LLT') ORDER BY c.level, c.code`,
    releaseId,
  );
}
