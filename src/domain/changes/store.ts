// Stored change sets: consecutive releases are computed at import, any other pair on
// first request; both are kept (releases are immutable, so a change set never goes stale).
import { LRUCache } from 'lru-cache';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import { bulkInsert, type Column } from '../../db/bulk.ts';
import type { Level } from '../levels.ts';
import { hasHierarchyFilter, underNodeSql, type HierarchyFilter } from '../hierarchyFilter.ts';
import type { ChangeRecord, ChangeType } from './engine.ts';
import type { ChangeCounts, ChangePage, StoredChange } from './pageTypes.ts';

export type { ChangeCounts, ChangePage, StoredChange } from './pageTypes.ts';
import { metadataWithStringCodes } from './metadata.ts';
import { canDiff, computeChangesFromIndexes, sharedBase, twoBases } from './indexDiff.ts';
import { computeChangesFromRanges } from './rangedDiff.ts';
import { encodedSize, encodedSlice, type EncodedChanges } from './encoded.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';
import { encodeOffThread } from './offThread.ts';
import { encodeChangesOverBase } from './encodeIndexes.ts';
import type { ReleaseIndex } from '../releaseIndex/releaseIndex.ts';
import type { OverlayView } from '../releaseIndex/overlayView.ts';

export interface ReleaseRef {
  id: number;
  version: string;
}

/**
 * A change set computed: its records, or (computed off the serving thread, offThread.ts) the
 * same encoded, in the listing's order when computed for a page (encoded.ts).
 */
export type Computed = { counts: ChangeCounts; size: number } & ({ records: ChangeRecord[]; encoded?: undefined } | { encoded: EncodedChanges; records?: undefined });

/**
 * A change set being computed on demand: its records as soon as they are computed (a listing
 * can answer from them, listing.ts) and its counts once its rows are stored.
 */
export interface ChangeComputation {
  computed: Promise<Computed>;
  stored: Promise<ChangeCounts>;
  /**
   * Lets the rows' store begin, for a computation started to list a page (pages.ts calls it once
   * the listing is built): the listing's term order and sort then run without the store's
   * statements and their serialising beside them (first → last of 24 full-size releases: 217k rows).
   */
  listed: () => void;
}

/** How long a store waits for its listing at most (a lister that never calls listed()). */
const LISTING_WAIT_MS = 10_000;

/** Computations in flight, per database client (release ids are only unique within one database), by `from:to`. */
const inFlightByDb = new WeakMap<object, Map<string, ChangeComputation>>();
function inFlightIn(prisma: object): Map<string, ChangeComputation> {
  let m = inFlightByDb.get(prisma);
  if (!m) inFlightByDb.set(prisma, (m = new Map()));
  return m;
}

export async function storedCounts(prisma: PrismaClient, fromId: number, toId: number): Promise<ChangeCounts | null> {
  const s = await prisma.changeSet.findUnique({ where: { fromReleaseId_toReleaseId: { fromReleaseId: fromId, toReleaseId: toId } } });
  return s ? { added: s.added, updated: s.updated, retired: s.retired } : null;
}

/** A release_change row's columns from a change record (bulkInsert). */
const CHANGE_ROW: Column<ChangeRecord>[] = [
  { name: 'level', type: 'text', cast: '"Level"', get: (r) => r.level },
  { name: 'code', type: 'int', get: (r) => r.code },
  { name: 'change_type', type: 'text', cast: '"ChangeType"', get: (r) => r.changeType },
  { name: 'term', type: 'text', get: (r) => r.term },
  { name: 'details', type: 'text', get: (r) => r.details },
  { name: 'previous_term', type: 'text', get: (r) => r.previousTerm },
  { name: 'metadata', type: 'jsonb', get: (r) => r.metadata },
];

/** Writes a computed change set inside tx, unless another process stored the pair first. */
async function storeIn(tx: Prisma.TransactionClient, from: ReleaseRef, to: ReleaseRef, records: ChangeRecord[], counts: ChangeCounts): Promise<void> {
  // Another process may be computing the same pair: the primary key decides, and the
  // loser's insert waits for the winner's commit and then does nothing.
  const claimed = await tx.$executeRawUnsafe(
    `INSERT INTO change_set (from_release_id, to_release_id, added, updated, retired) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING`,
    from.id, to.id, counts.added, counts.updated, counts.retired,
  );
  if (claimed === 0) return;
  await bulkInsert(tx, 'release_change', { from_release_id: from.id, to_release_id: to.id }, CHANGE_ROW, records);
}

/** Where built release indexes come from (the search index cache): get() loads from a snapshot or builds; peek() answers only one in memory. */
export interface IndexSource {
  get(releaseId: number, db: Pick<PrismaClient, '$queryRawUnsafe'>): Promise<ReleaseIndex>;
  peek(releaseId: number): ReleaseIndex | undefined;
  /** The release's overlay view over an index in memory (read from its delta snapshot, waited for maxMs), or undefined. */
  view?(releaseId: number, db: Pick<PrismaClient, '$queryRawUnsafe'>, maxMs?: number): Promise<OverlayView | undefined>;
  /** The release's overlay view if made, without reading. */
  peekView?(releaseId: number): OverlayView | undefined;
  /** 'one' on the embedded store, whose statements run on the serving thread (compose.ts); 'each' on PostgreSQL. */
  readonly sqlFallbacks: 'one' | 'each';
}

/**
 * The change records from → to. Both releases' indexes in memory: compared there (indexDiff.ts,
 * no statement, sliced CPU). Otherwise on PostgreSQL from the rows with a range boundary between
 * the two releases (rangedDiff.ts: the server's processes do the reading, no index is loaded);
 * on the embedded store, whose statements run on the serving thread at a higher cost per row,
 * from the indexes after loading the missing one from its snapshot (measured at half size, first
 * → last of 6 releases: the ranged read took 1.7–3.1× the process's CPU of loading and comparing
 * indexes, bench/results.md). Without an index source, the ranged read. All give engine.ts's
 * records (test/domain/changes-ranged.test.ts; on a store migrated in place:
 * test/db/rangedMigration.test.ts).
 */
async function changeRecords(
  db: Pick<PrismaClient, '$queryRawUnsafe'>,
  from: ReleaseRef,
  to: ReleaseRef,
  indexes?: IndexSource,
  listing = false,
  offThread = false,
): Promise<ChangeRecord[] | EncodedChanges> {
  if (indexes) {
    let a = indexes.peek(from.id);
    let b = indexes.peek(to.id);
    const viewed = await throughViews(db, from, to, a, b, indexes, listing);
    if (viewed) return viewed;
    if ((!a || !b) && indexes.sqlFallbacks === 'one') [a, b] = await Promise.all([indexes.get(from.id, db), indexes.get(to.id, db)]);
    if (a && b && canDiff(a, b)) return computeChangesFromIndexes({ version: from.version, index: a }, { version: to.version, index: b });
  }
  // On PostgreSQL (the index source's 'each') the ranged read's statements may overlap.
  const opts = { overlap: indexes?.sqlFallbacks === 'each', termOrder: listing };
  // On demand (not in an import's transaction): off the serving thread, encoded.
  if (offThread) return encodeOffThread(db, from, to, { ...opts, list: listing });
  return computeChangesFromRanges(db, from, to, opts);
}

/** How long a change set waits for a release's view to be read (its delta row and the base index it is over). */
const VIEW_WAIT_MS = 30_000;

/**
 * The records from the releases' overlay views over one index in memory (as after a start: the
 * latest's index, every older release's delta snapshot over it), compared only where they differ
 * from that index (indexDiff.ts diffOverBase): no index materialised and no release read whole,
 * on either database. On the embedded store also through two bases in memory (an older group's
 * keyframe, kept as the base of its views, and the newest's index: twoBases()), where the bases
 * differing is compared too, rather than the missing index loaded whole and compared. Encoded
 * (encodeIndexes.ts), in the listing's order when a page is asked. Undefined when the two are not
 * read through bases in memory.
 */
async function throughViews(db: Pick<PrismaClient, '$queryRawUnsafe'>, from: ReleaseRef, to: ReleaseRef, a: ReleaseIndex | undefined, b: ReleaseIndex | undefined, indexes: IndexSource, listing: boolean): Promise<EncodedChanges | undefined> {
  if (!indexes.view || (a && b)) return undefined;
  if (indexes.sqlFallbacks === 'each' && !(await viewOverIndex(db, from, to, a, b, indexes))) return undefined;
  // Its read (one delta row) is waited for whole: the other ways cost seconds (bench/results.md).
  const [va, vb] = await Promise.all([a ?? indexes.view(from.id, db, VIEW_WAIT_MS), b ?? indexes.view(to.id, db, VIEW_WAIT_MS)]);
  // Through two bases only on the embedded store, where the other way loads the missing index whole on the serving
  // thread too; on PostgreSQL the ranged read runs on the worker, and measured at full size (first → last of 24,
  // bench/results.md) the comparison of two whole bases here took 6 s of this thread, its turns up to 0.7 s under load.
  if (!va || !vb || !(sharedBase(va, vb) || (indexes.sqlFallbacks === 'one' && twoBases(va, vb)))) return undefined;
  // Encoded as described (as the worker answers): no record kept on the serving heap while listed and stored.
  return encodeChangesOverBase(db, { version: from.version, index: va }, { version: to.version, index: vb }, listing);
}

/**
 * On PostgreSQL, where the ranged read runs off the serving thread: whether the missing side's view
 * is made, or would be over the other side's index in memory (its delta's base is that release).
 * A view over another base (an older group's keyframe) is no shared base, and making it loaded that
 * keyframe's index on the serving thread for nothing (first → last of 24 full-size releases: one
 * turn of ~0.3 s, bench/results.md); a release with no such delta would load its whole index to be
 * diffed here. Both sides missing: as before (their views read).
 */
async function viewOverIndex(db: Pick<PrismaClient, '$queryRawUnsafe'>, from: ReleaseRef, to: ReleaseRef, a: ReleaseIndex | undefined, b: ReleaseIndex | undefined, indexes: IndexSource): Promise<boolean> {
  const [missing, kept] = a ? [to, a] : b ? [from, b] : [undefined, undefined];
  if (!missing || !kept) return true;
  if (indexes.peekView?.(missing.id)) return true;
  const [row] = await db.$queryRawUnsafe<{ base: number | null }[]>(`SELECT base_release_id AS base FROM release_index_snapshot WHERE release_id = $1`, missing.id);
  return row?.base === kept.releaseId;
}

async function compute(db: Pick<PrismaClient, '$queryRawUnsafe'>, from: ReleaseRef, to: ReleaseRef, indexes?: IndexSource, listing = false, offThread = false): Promise<Computed> {
  const got = await changeRecords(db, from, to, indexes, listing, offThread);
  if (!Array.isArray(got)) return { encoded: got, counts: got.counts, size: encodedSize(got) };
  const counts: ChangeCounts = { added: 0, updated: 0, retired: 0 };
  for (const r of got) counts[r.changeType]++;
  return { records: got, counts, size: got.length };
}

/** bulkInsert's statement for CHANGE_ROW over encoded rows (encoded.ts: keys as a stored row reads back), with no object made per row. */
const ENCODED_INSERT = `INSERT INTO "release_change" ("from_release_id", "to_release_id", "level", "code", "change_type", "term", "details", "previous_term", "metadata")
  SELECT $2::int, $3::int, x.level::"Level", x.code, x."changeType"::"ChangeType", x.term, x.details, x."previousTerm", x.metadata
  FROM json_to_recordset($1::json) AS x(level text, code int, "changeType" text, term text, details text, "previousTerm" text, metadata jsonb) ON CONFLICT DO NOTHING`;

/** Rows written per statement when a change set is stored on demand: each its own short transaction (on the embedded database, a request waits for at most one: ~0.1 s under load). */
const STORE_CHUNK = 1_000;

/** Tests write small sets in several statements (the chunk's size); the product keeps STORE_CHUNK. */
export const storeHooks = { chunk: STORE_CHUNK };

/**
 * Stores a change set computed on demand in short statements, not one long transaction: on
 * the embedded database a transaction holds its only connection, and 50k rows written in one
 * would hold every other request for seconds. Rows first, the change_set row last: only that
 * row says "stored" (readers look for it), so a stop half way leaves rows that nothing reads
 * and that the next computation writes again. Two processes may store the same pair at once:
 * the set is a function of the two (immutable) releases, so their rows are the same and
 * ON CONFLICT DO NOTHING makes the second writer's rows and claim no-ops.
 */
async function storeInSteps(prisma: PrismaClient, from: ReleaseRef, to: ReleaseRef, c: Computed): Promise<void> {
  const { records, encoded, counts } = c;
  const chunk = storeHooks.chunk;
  for (let start = 0; start < c.size; start += chunk) {
    // A turn for others between statements: PGlite answers a statement in promise callbacks, so
    // without it the whole set was written in one run of them, every request waiting throughout
    // (first → last of 24 full-size releases embedded: 12–19 s, issue 32).
    if (start > 0) await nextTurn();
    if (encoded) await prisma.$executeRawUnsafe(ENCODED_INSERT, encodedSlice(encoded, start, Math.min(c.size, start + chunk)), from.id, to.id);
    else await bulkInsert(prisma, 'release_change', { from_release_id: from.id, to_release_id: to.id }, CHANGE_ROW, records.slice(start, start + chunk), { onConflict: 'DO NOTHING' });
  }
  await prisma.$executeRawUnsafe(
    `INSERT INTO change_set (from_release_id, to_release_id, added, updated, retired) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    from.id, to.id, counts.added, counts.updated, counts.retired,
  );
}

function startComputation(prisma: PrismaClient, from: ReleaseRef, to: ReleaseRef, indexes: IndexSource | undefined, inFlight: Map<string, ChangeComputation>, key: string, listing: boolean): ChangeComputation {
  let listed = () => undefined as void;
  const gate = listing
    ? new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, LISTING_WAIT_MS);
        timer.unref?.();
        listed = () => {
          clearTimeout(timer);
          resolve();
        };
      })
    : undefined;
  const computed = compute(prisma, from, to, indexes, listing, true);
  const stored = computed.then(async (c) => {
    if (gate) await gate;
    await storeInSteps(prisma, from, to, c);
    return (await storedCounts(prisma, from.id, to.id)) ?? c.counts;
  });
  const c: ChangeComputation = { computed, stored: stored.finally(() => inFlight.delete(key)), listed: () => listed() };
  // A caller that only listed (computed) must not leave a failed store unhandled; ensure callers still see it.
  c.stored.catch(() => undefined);
  inFlight.set(key, c);
  return c;
}

/**
 * The pair's computation when it is not stored: the one in flight, else a new one. null when
 * the change set is stored (then read it from the store). `listing`: the caller lists a page from
 * the computed records and calls listed() once it has, and a new computation's store waits for it.
 */
export async function changeComputation(prisma: PrismaClient, from: ReleaseRef, to: ReleaseRef, indexes?: IndexSource, listing = false): Promise<ChangeComputation | null> {
  const key = `${from.id}:${to.id}`;
  const inFlight = inFlightIn(prisma);
  const running = inFlight.get(key);
  if (running) return running;
  if (await storedCounts(prisma, from.id, to.id)) return null;
  return inFlight.get(key) ?? startComputation(prisma, from, to, indexes, inFlight, key, listing);
}

/**
 * Computes and stores the change set from → to inside a transaction that is still writing
 * one of the releases (the import): the set commits with the release, or neither does.
 */
export async function computeChangeSetIn(tx: Prisma.TransactionClient, from: ReleaseRef, to: ReleaseRef): Promise<ChangeCounts> {
  // The engine's statement is estimated at millions of rows (its CTEs hide the real counts), so
  // PostgreSQL JIT-compiles it: measured on two full-size releases five apart, 12.2 s with JIT and
  // 6.2 s without, in the same run. Off for the rest of this (import) transaction; PGlite accepts it too.
  await tx.$executeRawUnsafe('SET LOCAL jit = off');
  const { records, counts } = await compute(tx, from, to);
  await storeIn(tx, from, to, records!, counts);
  return counts;
}

/** The change set from → to, computed and stored on first use (from the release indexes when `indexes` is given). */
export async function ensureChangeSet(prisma: PrismaClient, from: ReleaseRef, to: ReleaseRef, indexes?: IndexSource): Promise<ChangeCounts> {
  const running = inFlightIn(prisma).get(`${from.id}:${to.id}`);
  if (running) return running.stored;
  const stored = await storedCounts(prisma, from.id, to.id);
  if (stored) return stored;
  return (await changeComputation(prisma, from, to, indexes))?.stored ?? ensureChangeSet(prisma, from, to, indexes);
}

export interface ChangeFilters extends HierarchyFilter {
  level?: Level | undefined;
  changeType?: ChangeType | undefined;
}

/** A stored row as answered: codes in its metadata are strings, whenever it was stored (metadata.ts). */
export function readStored<R extends StoredChange>(r: R): R {
  const metadata = metadataWithStringCodes(r.metadata);
  return metadata === r.metadata ? r : { ...r, metadata };
}

export const CHANGE_COLUMNS = `rc.level::text AS level, rc.code, rc.change_type::text AS "changeType", rc.term,
  rc.details, rc.previous_term AS "previousTerm", rc.metadata`;

const memos = new WeakMap<object, LRUCache<string, ChangeCounts>>();
/** Per database client: release ids are only unique within one database. */
function countsMemo(prisma: object): LRUCache<string, ChangeCounts> {
  let m = memos.get(prisma);
  if (!m) memos.set(prisma, (m = new LRUCache({ max: 10_000 })));
  return m;
}

/** A page of a stored change set; hierarchy filters use the target release, or the baseline for concepts that left. */
export async function listChanges(prisma: PrismaClient, fromId: number, toId: number, f: ChangeFilters, offset: number, limit: number): Promise<ChangePage> {
  const params: unknown[] = [fromId, toId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = ['rc.from_release_id = $1', 'rc.to_release_id = $2'];
  if (f.level) where.push(`rc.level = ${p(f.level)}::"Level"`);
  if (hasHierarchyFilter(f)) {
    // The target's hierarchy, or the baseline's for a concept that left.
    where.push(`(CASE WHEN EXISTS (SELECT 1 FROM concept_at($2) cb WHERE cb.level = rc.level AND cb.code = rc.code)
      THEN ${underNodeSql(f, '$2', 'rc.level', 'rc.code', p)} ELSE ${underNodeSql(f, '$1', 'rc.level', 'rc.code', p)} END)`);
  }
  const typeParam = f.changeType ? p(f.changeType) : null;
  const off = p(offset);
  const lim = p(limit);
  const filtered = `FROM release_change rc WHERE ${where.join(' AND ')}`;
  const pageSql = `SELECT ${CHANGE_COLUMNS} ${filtered} ${typeParam ? `AND rc.change_type = ${typeParam}::"ChangeType"` : ''}
       ORDER BY rc.level, rc.change_type, rc.term, rc.code
       OFFSET ${off} LIMIT ${lim}`;
  const totalOf = (c: ChangeCounts) => (f.changeType ? c[f.changeType] : c.added + c.updated + c.retired);
  // A stored change set never changes, so its counts under a filter are counted once.
  const memo = countsMemo(prisma);
  const countsKey = `${fromId}:${toId}:${f.level ?? ''}:${f.soc ?? ''}:${f.hlgt ?? ''}:${f.hlt ?? ''}:${f.llt ?? ''}`;
  const known = memo.get(countsKey);
  if (known) {
    const items = await prisma.$queryRawUnsafe<StoredChange[]>(pageSql, ...params);
    return { total: totalOf(known), counts: known, items: items.map(readStored) };
  }
  type Row = StoredChange & { added: number; updated: number; retired: number };
  // Counts and one page in one statement; the page follows the (from, to, level, type, term, code)
  // index order, so a page costs an index range scan, not a sort of the whole set.
  const rows = await prisma.$queryRawUnsafe<Row[]>(
    `WITH c AS (
       SELECT count(*) FILTER (WHERE rc.change_type = 'added')::int AS added,
              count(*) FILTER (WHERE rc.change_type = 'updated')::int AS updated,
              count(*) FILTER (WHERE rc.change_type = 'retired')::int AS retired
       ${filtered}
     )
     SELECT c.*, page.*
     FROM c LEFT JOIN LATERAL (${pageSql}) page ON true`,
    ...params,
  );
  const first = rows[0];
  const counts = { added: first?.added ?? 0, updated: first?.updated ?? 0, retired: first?.retired ?? 0 };
  memo.set(countsKey, counts);
  return {
    total: totalOf(counts),
    counts,
    items: rows
      .filter((r) => r.code !== null)
      .map(({ level, code, changeType, term, details, previousTerm, metadata }) => readStored({ level, code, changeType, term, details, previousTerm, metadata })),
  };
}

/** Stored changes of given codes for (from, to) pairs — one statement for many keys (loaders, history). */
export async function changesForCodes(
  prisma: PrismaClient,
  keys: readonly { fromId: number; toId: number; code: number }[],
): Promise<(StoredChange & { fromId: number; toId: number })[]> {
  if (keys.length === 0) return [];
  const rows = await prisma.$queryRawUnsafe<(StoredChange & { fromId: number; toId: number })[]>(
    `SELECT rc.from_release_id AS "fromId", rc.to_release_id AS "toId", ${CHANGE_COLUMNS}
     FROM json_to_recordset($1::json) AS k(f int, t int, c int)
     JOIN release_change rc ON rc.from_release_id = k.f AND rc.to_release_id = k.t AND rc.code = k.c
     ORDER BY rc.level`,
    JSON.stringify(keys.map((k) => ({ f: k.fromId, t: k.toId, c: k.code }))),
  );
  return rows.map(readStored);
}
