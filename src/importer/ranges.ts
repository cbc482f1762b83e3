// Writes of ranged release content (docs/storage.md, issue 32 step 4): a row holds the releases
// [valid_from, valid_to) of release.seq it belongs to, so a release is written as its differences
// from its neighbours. The store is kept canonical — every boundary is a hosted release's seq (or
// OPEN), and a key never has two adjacent rows of equal content — so that its rows are a function
// of the hosted releases' contents and seqs: a replace restoring the same content leaves the
// store as it was, and the diff of two releases is the rows with a boundary between them.
import type { Prisma } from '../generated/prisma/client.ts';
import { bulkInsert, type Column } from '../db/bulk.ts';

type Tx = Prisma.TransactionClient;

/** valid_to of a row the latest release still holds. */
export const OPEN = 9223372036854775807n;
/** Distance between consecutive releases' seqs when numbered afresh (ordinal × 2³²). */
export const SEQ_STEP = 1n << 32n;

export interface RangedTable {
  table: string;
  /** Columns identifying a record: its rows' ranges never overlap. */
  key: readonly string[];
  /** Every other column: rows of one key with equal content in consecutive releases are one row. */
  content: readonly string[];
}

const table = (name: string, key: string[], content: string[]): RangedTable => ({ table: name, key, content });

export const RANGED = {
  concept: table('concept', ['level', 'code'], ['name', 'name_norm', 'current', 'pt_code', 'primary_soc_code', 'soc_abbrev', 'intl_order']),
  conceptName: table('concept_name', ['language', 'level', 'code'], ['name', 'name_norm']),
  link: table('hierarchy_link', ['parent_level', 'parent_code', 'child_level', 'child_code'], ['is_primary']),
  path: table('hierarchy_path', ['pt_code', 'hlt_code', 'hlgt_code', 'soc_code'], ['is_primary']),
  grade: table('grade_definition', ['code', 'grade'], ['definition']),
  smq: table('smq', ['code'], ['name', 'level', 'description', 'source', 'note', 'version', 'status', 'algorithm']),
  smqTerm: table('smq_term', ['smq_code', 'term_level', 'term_code'], ['term_scope', 'term_category', 'term_weight', 'term_status', 'term_addition_version', 'term_last_modified_version']),
  smqName: table('smq_name', ['language', 'code'], ['name', 'description']),
} as const;

export const ALL_RANGED: readonly RangedTable[] = Object.values(RANGED);

/** Where a release sits: its seq and the next hosted release's (OPEN when it is the latest). */
export interface Position {
  seq: bigint;
  next: bigint;
}

/** A subset of a table's rows a write is confined to (one language's names). */
export interface Filter {
  column: string;
  value: string;
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const big = (n: bigint) => `${n}::bigint`;
const keyEq = (t: RangedTable, a: string, b: string) => t.key.map((k) => `${a}."${k}" = ${b}."${k}"`).join(' AND ');
const contentEq = (t: RangedTable, a: string, b: string) => t.content.map((c) => `${a}."${c}" IS NOT DISTINCT FROM ${b}."${c}"`).join(' AND ');
const cols = (t: RangedTable, alias?: string) => [...t.key, ...t.content].map((c) => (alias ? `${alias}."${c}"` : `"${c}"`)).join(', ');
const only = (f: Filter | undefined, alias: string) => (f ? ` AND ${alias}."${f.column}" = ${sqlString(f.value)}` : '');

/** The staging table of `t` (temporary, dropped at commit): the content of the release being written. */
export const stageName = (t: RangedTable) => `stage_${t.table}`;

/** Creates `t`'s empty staging table (its key and content columns, same types). */
export async function createStage(tx: Tx, t: RangedTable): Promise<string> {
  const name = stageName(t);
  await tx.$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`);
  await tx.$executeRawUnsafe(`CREATE TEMPORARY TABLE "${name}" ON COMMIT DROP AS SELECT ${cols(t)} FROM "${t.table}" WITH NO DATA`);
  return name;
}

/** Stages rows of a release for `t` (columns: its key and content, in any order). */
export async function stageRows<R>(tx: Tx, t: RangedTable, columns: Column<R>[], rows: readonly R[], onChunk?: (n: number) => void): Promise<number> {
  const name = await createStage(tx, t);
  const n = await bulkInsert(tx, name, {}, columns, rows, onChunk ? { onChunk } : {});
  await tx.$executeRawUnsafe(`ANALYZE "${name}"`);
  return n;
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

const zero = (): WriteCounts => ({ inserted: 0, updated: 0, deleted: 0 });

/**
 * Makes the release at `at` hold exactly the staged rows of `t` (within `filter`), for a release
 * whose seq holds no row boundary (a new one, or one just removed): rows in force there that the
 * release does not hold are cut (a copy keeps the next release's part), next-release rows equal to
 * a staged one are extended down, and the other staged rows are inserted up to the next release.
 */
export async function insertAt(tx: Tx, t: RangedTable, at: Position, filter?: Filter): Promise<WriteCounts> {
  const stage = stageName(t);
  const { seq, next } = at;
  const inForce = (a: string) => `${a}.valid_from <= ${big(seq)} AND ${a}.valid_to > ${big(seq)}`;
  const notStaged = `NOT EXISTS (SELECT 1 FROM "${stage}" x WHERE ${keyEq(t, 't', 'x')} AND ${contentEq(t, 't', 'x')})`;
  const n = zero();
  if (next !== OPEN) {
    n.inserted += await tx.$executeRawUnsafe(
      `INSERT INTO "${t.table}" (${cols(t)}, valid_from, valid_to)
       SELECT ${cols(t, 't')}, ${big(next)}, t.valid_to FROM "${t.table}" t
       WHERE ${inForce('t')} AND t.valid_to > ${big(next)}${only(filter, 't')} AND ${notStaged}`,
    );
  }
  n.updated += await tx.$executeRawUnsafe(
    `UPDATE "${t.table}" t SET valid_to = ${big(seq)} WHERE ${inForce('t')}${only(filter, 't')} AND ${notStaged}`,
  );
  if (next !== OPEN) {
    n.updated += await tx.$executeRawUnsafe(
      `UPDATE "${t.table}" t SET valid_from = ${big(seq)}
       WHERE t.valid_from = ${big(next)}${only(filter, 't')} AND EXISTS (SELECT 1 FROM "${stage}" x WHERE ${keyEq(t, 't', 'x')} AND ${contentEq(t, 't', 'x')})`,
    );
  }
  // What is in force now is equal to its staged row (the rest was cut): the other staged rows are
  // new. Dropped from the stage first, then the rest inserted: an INSERT whose own anti-join reads
  // the table it writes may be planned as a nested loop over a sequential scan (an empty or
  // unanalysed table), which then rereads every row it has just inserted (quadratic).
  await tx.$executeRawUnsafe(
    `DELETE FROM "${stage}" x WHERE EXISTS (SELECT 1 FROM "${t.table}" t WHERE ${keyEq(t, 't', 'x')} AND ${inForce('t')})`,
  );
  n.inserted += await tx.$executeRawUnsafe(
    `INSERT INTO "${t.table}" (${cols(t)}, valid_from, valid_to) SELECT ${cols(t, 'x')}, ${big(seq)}, ${big(next)} FROM "${stage}" x`,
  );
  return n;
}

/**
 * Removes the release at `at` from `t` (within `filter`): its own rows go, rows starting at it that
 * continue start at the next release, rows ending at it end at the next release (no hosted release
 * lies between), and rows then adjacent at the next release with equal content are merged.
 */
export async function removeAt(tx: Tx, t: RangedTable, at: Position, filter?: Filter): Promise<WriteCounts> {
  const { seq, next } = at;
  const n = zero();
  n.deleted += await tx.$executeRawUnsafe(
    `DELETE FROM "${t.table}" t WHERE t.valid_from = ${big(seq)} AND t.valid_to <= ${big(next)}${only(filter, 't')}`,
  );
  if (next !== OPEN) {
    n.updated += await tx.$executeRawUnsafe(`UPDATE "${t.table}" t SET valid_from = ${big(next)} WHERE t.valid_from = ${big(seq)}${only(filter, 't')}`);
  }
  n.updated += await tx.$executeRawUnsafe(`UPDATE "${t.table}" t SET valid_to = ${big(next)} WHERE t.valid_to = ${big(seq)}${only(filter, 't')}`);
  if (next !== OPEN) {
    // a = [.., next) and b = [next, ..) of one key and equal content become one row: a extended over
    // b, then b (now covered by a) deleted.
    n.updated += await tx.$executeRawUnsafe(
      `UPDATE "${t.table}" a SET valid_to = b.valid_to FROM "${t.table}" b
       WHERE a.valid_to = ${big(next)} AND b.valid_from = ${big(next)}${only(filter, 'a')} AND ${keyEq(t, 'a', 'b')} AND ${contentEq(t, 'a', 'b')}`,
    );
    n.deleted += await tx.$executeRawUnsafe(
      `DELETE FROM "${t.table}" b WHERE b.valid_from = ${big(next)}${only(filter, 'b')}
       AND EXISTS (SELECT 1 FROM "${t.table}" a WHERE ${keyEq(t, 'a', 'b')} AND a.valid_from < ${big(next)} AND a.valid_to = b.valid_to)`,
    );
  }
  return n;
}

export interface HostedRelease {
  id: number;
  version: string;
  seq: bigint;
}

/** Hosted releases in seq order. */
export async function hostedReleases(tx: Tx): Promise<HostedRelease[]> {
  const rows = await tx.$queryRawUnsafe<{ id: number; version: string; seq: string }[]>('SELECT r.id, r.version, r.seq::text AS seq FROM "release" r ORDER BY r.seq');
  return rows.map((r) => ({ id: r.id, version: r.version, seq: BigInt(r.seq) }));
}

/** The position of a hosted release: its seq and the next hosted one's. */
export function positionOf(hosted: readonly HostedRelease[], id: number): Position {
  const i = hosted.findIndex((r) => r.id === id);
  if (i < 0) throw new Error(`release ${id} is not hosted`);
  return { seq: hosted[i]!.seq, next: hosted[i + 1]?.seq ?? OPEN };
}

/**
 * The seq for a new release between `before` and `after` (either may be absent): the midpoint of a
 * gap, one step past the ends. Null when the gap is exhausted (renumber first).
 */
export function seqBetween(before: bigint | undefined, after: bigint | undefined): bigint | null {
  if (before === undefined) return after === undefined ? SEQ_STEP : after - SEQ_STEP;
  if (after === undefined) return before + SEQ_STEP;
  return after - before >= 2n ? before + (after - before) / 2n : null;
}

/**
 * Numbers the hosted releases' seqs afresh, `step` apart in order, and shifts every row's range
 * with them (one bulk UPDATE per table; only when a gap is exhausted). Canonical boundaries are
 * hosted seqs or OPEN, so mapping each one maps the ranges. The values first move out of the way by
 * a constant (the primary keys hold valid_from, and one UPDATE must never meet a value it has not yet moved).
 */
export async function renumber(tx: Tx, step = SEQ_STEP): Promise<void> {
  const hosted = await hostedReleases(tx);
  if (hosted.length === 0) return;
  const lo = hosted[0]!.seq < step ? hosted[0]!.seq : step;
  const hi = hosted.at(-1)!.seq > step * BigInt(hosted.length) ? hosted.at(-1)!.seq : step * BigInt(hosted.length);
  const shift = hi - lo + 1n;
  const map = hosted.map((r, i) => ({ o: (r.seq + shift).toString(), n: (step * BigInt(i + 1)).toString() }));
  const json = JSON.stringify(map);
  await tx.$executeRawUnsafe(`UPDATE "release" SET seq = seq + ${big(shift)}`);
  await tx.$executeRawUnsafe(`UPDATE "release" r SET seq = m.n::bigint FROM json_to_recordset($1::json) AS m(o text, n text) WHERE r.seq = m.o::bigint`, json);
  for (const t of ALL_RANGED) {
    await tx.$executeRawUnsafe(
      `UPDATE "${t.table}" SET valid_from = valid_from + ${big(shift)}, valid_to = CASE WHEN valid_to = ${big(OPEN)} THEN valid_to ELSE valid_to + ${big(shift)} END`,
    );
    await tx.$executeRawUnsafe(
      `UPDATE "${t.table}" t SET valid_from = m.n::bigint FROM json_to_recordset($1::json) AS m(o text, n text) WHERE t.valid_from = m.o::bigint`,
      json,
    );
    await tx.$executeRawUnsafe(
      `UPDATE "${t.table}" t SET valid_to = m.n::bigint FROM json_to_recordset($1::json) AS m(o text, n text) WHERE t.valid_to = m.o::bigint`,
      json,
    );
  }
}
