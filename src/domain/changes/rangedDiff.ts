// The change engine's diff (engine.ts diffReleases) read from the ranged rows (docs/storage.md):
// only the keys with a range boundary between the two releases can differ, so neither release is
// materialised. A key whose row covers the older release and ends at or before the newer one, or
// starts after the older one, has a boundary in (lo, hi]; a key with none has the same row (and
// the same links) in both. Releases far apart (first → last of a long chain) then cost their
// differences, not two whole releases (or two release indexes, one loaded from its snapshot only
// for this, as indexDiff.ts needed).
//
// Bounded statements, not one: on the embedded store PGlite runs each statement on the serving
// thread, so the keys are read one hosted release step at a time and the rows in batches of keys,
// with a turn for other requests between them. Rows are the statement's (same columns, same
// order): test/domain/changes-ranged.test.ts checks every pair on both databases.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { LEVELS } from '../levels.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';
import { describeChange, nameMap, type ChangeRecord, type DiffRow } from './engine.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Keys read per rows statement: a few milliseconds of the database's work each. */
const KEY_BATCH = 2_000;
/** Records described between two turns. */
const SLICE = 8_192;

const keyOf = (level: number, code: number) => level * 2 ** 32 + code;

/** Seqs (as text: bigint) of the two releases. */
async function seqs(db: Db, fromId: number, toId: number): Promise<[string, string]> {
  const rows = await db.$queryRawUnsafe<{ id: number; seq: string }[]>(`SELECT id, seq::text AS seq FROM "release" WHERE id IN ($1, $2)`, fromId, toId);
  const seq = (id: number) => {
    const r = rows.find((x) => x.id === id);
    if (!r) throw new Error(`release ${id} is not hosted`);
    return r.seq;
  };
  return [seq(fromId), seq(toId)];
}

/**
 * The (level, code) keys with a row or a (non-LLT child's) link starting or ending in (lo, hi]:
 * one statement per hosted release in that interval, each reading the boundary rows of one step
 * through the valid_from and valid_to indexes.
 */
async function boundaryKeys(db: Db, lo: string, hi: string): Promise<number[]> {
  const steps = await db.$queryRawUnsafe<{ seq: string }[]>(
    `SELECT r.seq::text AS seq FROM "release" r WHERE r.seq > $1::bigint AND r.seq <= $2::bigint ORDER BY r.seq`,
    lo,
    hi,
  );
  const keys = new Set<number>();
  let prev = lo;
  // The last step ends at hi whatever the release list says (a release removed meanwhile).
  const ends = [...steps.map((s) => s.seq).filter((s) => s !== hi), hi];
  for (const end of ends) {
    const rows = await db.$queryRawUnsafe<{ l: number; code: number }[]>(
      `SELECT array_position(enum_range(NULL::"Level"), level) AS l, code FROM concept
        WHERE (valid_from > $1::bigint AND valid_from <= $2::bigint) OR (valid_to > $1::bigint AND valid_to <= $2::bigint)
       UNION
       SELECT array_position(enum_range(NULL::"Level"), child_level), child_code FROM hierarchy_link
        WHERE child_level <> 'LLT' AND ((valid_from > $1::bigint AND valid_from <= $2::bigint) OR (valid_to > $1::bigint AND valid_to <= $2::bigint))`,
      prev,
      end,
    );
    for (const r of rows) keys.add(keyOf(r.l - 1, r.code));
    prev = end;
    await nextTurn();
  }
  return [...keys].sort((x, y) => x - y);
}

/**
 * diffReleases()'s rows for the given keys, at seqs sa (from) and sb (to). Every read is a lateral
 * lookup by a key (nested loops over the key list through the primary key and the child index),
 * whatever the planner estimates: joined as sets, it read both releases whole through the
 * valid_from index and hashed them (the key list's size is unknown to it); the LIMIT 1 (a key has
 * one row at a seq) keeps a lookup from being flattened into such a join.
 */
async function rowsOf(db: Db, sa: string, sb: string, keys: number[]): Promise<DiffRow[]> {
  const levels = keys.map((k) => LEVELS[Math.floor(k / 2 ** 32)]!);
  const codes = keys.map((k) => k % 2 ** 32);
  const at = (t: string, s: string) => `${t}.valid_from <= ${s}::bigint AND ${t}.valid_to > ${s}::bigint`;
  const row = (s: string) =>
    `LEFT JOIN LATERAL (SELECT c.code, c.name, c.current, c.pt_code, c.primary_soc_code, c.soc_abbrev, c.intl_order
       FROM concept c WHERE c.level = k.level AND c.code = k.code AND ${at('c', s)} LIMIT 1) AS`;
  const parents = (s: string) =>
    `LEFT JOIN LATERAL (SELECT array_agg(l.parent_code ORDER BY l.parent_code) AS parents
       FROM hierarchy_link l WHERE k.level <> 'LLT' AND l.child_level = k.level AND l.child_code = k.code AND ${at('l', s)}) AS`;
  return db.$queryRawUnsafe<DiffRow[]>(
    `WITH k AS MATERIALIZED (SELECT l::"Level" AS level, code FROM unnest($1::text[], $2::int[]) AS u(l, code)),
     j AS (
       SELECT k.level, k.code, a.code IS NOT NULL AS in_a, b.code IS NOT NULL AS in_b,
              a.name AS a_name, b.name AS b_name, a.current AS a_current, b.current AS b_current,
              a.pt_code AS a_pt, b.pt_code AS b_pt, a.primary_soc_code AS a_soc, b.primary_soc_code AS b_soc,
              a.soc_abbrev AS a_abbrev, b.soc_abbrev AS b_abbrev, a.intl_order AS a_order, b.intl_order AS b_order,
              pa.parents AS a_parents, pb.parents AS b_parents
       FROM k
       ${row('$3')} a ON true
       ${row('$4')} b ON true
       ${parents('$3')} pa ON true
       ${parents('$4')} pb ON true
       WHERE (a.code IS NOT NULL OR b.code IS NOT NULL)
         AND (a.code IS NULL OR b.code IS NULL
          OR a.name <> b.name OR a.current <> b.current
          OR a.pt_code IS DISTINCT FROM b.pt_code OR a.primary_soc_code IS DISTINCT FROM b.primary_soc_code
          OR a.soc_abbrev IS DISTINCT FROM b.soc_abbrev OR a.intl_order IS DISTINCT FROM b.intl_order
          OR pa.parents IS DISTINCT FROM pb.parents)
     )
     SELECT j.level::text AS level, j.code, j.in_a AS "inA", j.in_b AS "inB",
            j.a_name AS "aName", j.b_name AS "bName", j.a_current AS "aCurrent", j.b_current AS "bCurrent",
            j.a_pt AS "aPt", j.b_pt AS "bPt", j.a_soc AS "aSoc", j.b_soc AS "bSoc",
            j.a_abbrev AS "aAbbrev", j.b_abbrev AS "bAbbrev", j.a_order AS "aOrder", j.b_order AS "bOrder",
            j.a_parents AS "aParents", j.b_parents AS "bParents",
            CASE WHEN j.level = 'PT' AND NOT j.in_a THEN
              (SELECT c.pt_code FROM concept c WHERE c.level = 'LLT' AND c.code = j.code AND ${at('c', '$3')}) END AS "promotedFromPt",
            CASE WHEN j.level = 'PT' AND NOT j.in_b THEN
              (SELECT c.pt_code FROM concept c WHERE c.level = 'LLT' AND c.code = j.code AND ${at('c', '$4')}) END AS "demotedToPt",
            EXISTS (SELECT 1 FROM concept c WHERE c.level = 'PT' AND c.code = j.code AND ${at('c', '$3')}) AS "ptInA",
            EXISTS (SELECT 1 FROM concept c WHERE c.level = 'PT' AND c.code = j.code AND ${at('c', '$4')}) AS "ptInB"
     FROM j
     ORDER BY j.level, j.code`,
    levels,
    codes,
    sa,
    sb,
  );
}

/** Every concept that differs between releases a and b, as diffReleases() answers it, read from the boundary rows only. */
export async function diffRanges(db: Db, fromId: number, toId: number): Promise<DiffRow[]> {
  const [sa, sb] = await seqs(db, fromId, toId);
  const [lo, hi] = BigInt(sa) <= BigInt(sb) ? [sa, sb] : [sb, sa];
  const keys = await boundaryKeys(db, lo, hi);
  const out: DiffRow[] = [];
  for (let i = 0; i < keys.length; i += KEY_BATCH) {
    // Batches follow (level, code) order, and each batch's rows are in it: the concatenation is too.
    for (const r of await rowsOf(db, sa, sb, keys.slice(i, i + KEY_BATCH))) out.push(r);
    await nextTurn();
  }
  // The seqs read again: a renumbering (docs/storage.md: a gap exhausted) committed meanwhile would have moved the boundaries read.
  const [sa2, sb2] = await seqs(db, fromId, toId);
  if (sa2 !== sa || sb2 !== sb) return diffRanges(db, fromId, toId);
  return out;
}

/** computeChanges() from the boundary rows: the diff, the names it refers to, then each row described, in slices. */
export async function computeChangesFromRanges(
  db: Db,
  from: { id: number; version: string },
  to: { id: number; version: string },
): Promise<ChangeRecord[]> {
  const rows = await diffRanges(db, from.id, to.id);
  const names = await nameMap(db, [to.id, from.id], rows);
  const name = (c: number) => names.get(c);
  const versions = { from: from.version, to: to.version };
  const out: ChangeRecord[] = [];
  for (let k = 0; k < rows.length; k++) {
    if (k % SLICE === SLICE - 1) await nextTurn();
    const c = describeChange(rows[k]!, name, versions);
    if (c) out.push(c);
  }
  return out;
}
