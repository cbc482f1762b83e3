// Change sets held in memory, per (from, to) release pair, in bounded LRUs: a code page's
// change record is then a binary search, not a statement, and the change list of a pair
// computed on demand a slice (listing.ts). A stored change set never
// goes stale (releases are immutable and a replaced release gets a new id, see store.ts),
// so entries leave only to make room. One statement loads a pair; concurrent callers share it.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { CHANGE_COLUMNS, readStored, type StoredChange } from './store.ts';
import type { Listing as ChangeListing } from './listing.ts';
import { memoryGauges } from '../../observability/signals.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** One pair's stored changes, sorted by code then level (the order changesForCodes answers in). */
export class PairChanges {
  /** Estimated bytes held (the memory share's accounting). */
  readonly bytes: number;

  private constructor(
    private readonly codes: Int32Array,
    private readonly rows: StoredChange[],
  ) {
    this.bytes = codes.byteLength + rowsBytes(rows);
  }

  get size(): number {
    return this.rows.length;
  }

  /** The stored changes of a code (one per level it changed at), as changesForCodes lists them. */
  of(code: number): StoredChange[] {
    // Lower bound of code in the sorted codes.
    let lo = 0;
    let hi = this.codes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.codes[mid]! < code) lo = mid + 1;
      else hi = mid;
    }
    const out: StoredChange[] = [];
    for (let i = lo; i < this.codes.length && this.codes[i] === code; i++) out.push(this.rows[i]!);
    return out;
  }

  /**
   * Reads the pair's rows in one statement; null when the change set is not stored (yet):
   * an absent set must not be remembered as an empty one.
   */
  static async load(db: Db, fromId: number, toId: number): Promise<PairChanges | null> {
    // The LEFT JOIN tells "stored, nothing changed" (one row of nulls) from "not stored" (no row).
    const rows = await db.$queryRawUnsafe<(StoredChange | { code: null })[]>(
      `SELECT ${CHANGE_COLUMNS}
       FROM change_set s LEFT JOIN release_change rc ON rc.from_release_id = s.from_release_id AND rc.to_release_id = s.to_release_id
       WHERE s.from_release_id = $1 AND s.to_release_id = $2
       ORDER BY rc.code, rc.level`,
      fromId,
      toId,
    );
    if (rows.length === 0) return null;
    const stored = rows.filter((r): r is StoredChange => r.code !== null).map(readStored);
    return new PairChanges(Int32Array.from(stored, (r) => r.code), stored);
  }
}

/** Bytes held by a pair's rows, estimated once: strings at two bytes a character, metadata objects at about twice their JSON text, ~200 bytes of object per row. */
function rowsBytes(rows: readonly StoredChange[]): number {
  let bytes = 0;
  for (const r of rows) bytes += 2 * (r.term.length + r.details.length + (r.previousTerm?.length ?? 0)) + 4 * JSON.stringify(r.metadata).length + 200;
  return bytes;
}

/**
 * The process's change sets in memory: stored pairs by code (PairChanges, code pages) and
 * computed pairs in listing order (ChangeListing, the change list of a pair computed on
 * demand). Both are LRUs bounded by count and together by bytes (MEMORY_BUDGET_MB's
 * `changeSets` share, reported as memory_cache_bytes{cache="changeSets"}); entries leave only
 * to make room, since a change set never goes stale. Loads and builds in flight are shared.
 */
export class ChangeSetMemory {
  private readonly pairs: LRUCache<string, PairChanges>;
  private readonly pairLoads = new Map<string, Promise<PairChanges | null>>();
  private readonly listings: LRUCache<string, ChangeListing>;
  private readonly listingBuilds = new Map<string, Promise<ChangeListing>>();

  /**
   * `max`: pairs kept at once of each kind (a full-size consecutive pair is ~10k rows, a few
   * MB; first → last of a long chain ~50k rows, tens of MB). `maxBytes`: the bytes both kinds
   * may hold together; an entry larger than that alone is not kept (SQL answers for it).
   */
  constructor(max = 8, readonly maxBytes = 64 * 2 ** 20) {
    // Each kind may use the whole share, and bytes() says what both hold; trim() keeps their sum within it.
    this.pairs = new LRUCache({ max, maxSize: maxBytes, sizeCalculation: (p) => Math.max(1, p.bytes) });
    this.listings = new LRUCache({ max, maxSize: maxBytes, sizeCalculation: (l) => Math.max(1, l.bytes) });
  }

  /**
   * The process's change-set memory, its bytes reported as memory_cache_bytes{cache="changeSets"}
   * beside its budget (one app per process: the latest registered wins, as for every cache).
   */
  static forApp(maxBytes: number): ChangeSetMemory {
    const m = new ChangeSetMemory(8, maxBytes);
    // The gauges' key list (src/observability/signals.ts) does not name this cache yet; the
    // metric reads every registered entry, so it is reported all the same.
    memoryGauges.changeSets = { bytes: () => m.bytes(), budget: maxBytes };
    return m;
  }

  /** Estimated bytes held (both kinds). */
  bytes(): number {
    let pinned = 0;
    for (const l of this.pinned.values()) pinned += l.bytes;
    return this.pairs.calculatedSize + this.listings.calculatedSize + pinned;
  }

  /** Drops the least recently used of the other kind while both together exceed the share (the entry just added stays). */
  private trim(kept: 'pairs' | 'listings'): void {
    const other = kept === 'pairs' ? this.listings : this.pairs;
    // Pinned listings leave by themselves once stored: only the two LRUs are trimmed.
    while (this.pairs.calculatedSize + this.listings.calculatedSize > this.maxBytes && other.size > 0) other.pop();
  }

  /** The pair's changes, loaded with `db` on first use (null while its change set is not stored). */
  get(fromId: number, toId: number, db: Db): Promise<PairChanges | null> {
    const key = `${fromId}:${toId}`;
    const built = this.pairs.get(key);
    if (built) return Promise.resolve(built);
    let p = this.pairLoads.get(key);
    if (!p) {
      p = PairChanges.load(db, fromId, toId);
      this.pairLoads.set(key, p);
      // An absent set is not remembered (it may be stored later), nor a failed load.
      p.then((pc) => {
        if (pc) {
          this.pairs.set(key, pc);
          this.trim('pairs');
        }
      }, () => undefined).finally(() => this.pairLoads.delete(key));
    }
    return p;
  }

  /** The pair's changes if loaded, without loading or waiting. */
  peek(fromId: number, toId: number): PairChanges | undefined {
    return this.pairs.get(`${fromId}:${toId}`);
  }

  /**
   * The listing of a computed pair, built once by `build` for concurrent callers. Kept, whatever
   * its size, until `pinnedUntil` settles (the pair's rows being stored): until then the store
   * cannot answer its pages, and a listing larger than the share, not kept by the LRU, was built
   * again for every page, its term order a statement queued behind the rows being written (the
   * embedded store's one connection: page 2 of first → last took 18.8 s, bench/results.md).
   */
  listing(fromId: number, toId: number, build: () => Promise<ChangeListing>, pinnedUntil?: Promise<unknown>): Promise<ChangeListing> {
    const key = `${fromId}:${toId}`;
    const built = this.peekListing(fromId, toId);
    if (built) return Promise.resolve(built);
    let p = this.listingBuilds.get(key);
    if (!p) {
      p = build();
      this.listingBuilds.set(key, p);
      p.then((l) => {
        this.listings.set(key, l);
        this.trim('listings');
        if (pinnedUntil && !this.listings.has(key)) {
          this.pinned.set(key, l);
          const unpin = () => {
            if (this.pinned.get(key) === l) this.pinned.delete(key);
          };
          pinnedUntil.then(unpin, unpin);
        }
      }, () => undefined).finally(() => this.listingBuilds.delete(key));
    }
    return p;
  }

  /** Listings too large for the LRU, held while their pair's rows are stored (listing()). */
  private readonly pinned = new Map<string, ChangeListing>();

  /** Pairs found stored (their pages are read from the store): releases² at most, a few hundred keys. */
  private readonly stored = new Set<string>();

  isStored(fromId: number, toId: number): boolean {
    return this.stored.has(`${fromId}:${toId}`);
  }

  markStored(fromId: number, toId: number): void {
    this.stored.add(`${fromId}:${toId}`);
  }

  /** The listing of a pair if built (kept or pinned), without building or waiting. */
  peekListing(fromId: number, toId: number): ChangeListing | undefined {
    const key = `${fromId}:${toId}`;
    return this.listings.get(key) ?? this.pinned.get(key);
  }
}
