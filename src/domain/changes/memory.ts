// Stored change sets held in memory, per (from, to) release pair, in a bounded LRU: a code
// page's change record is then a binary search, not a statement. A stored change set never
// goes stale (releases are immutable and a replaced release gets a new id, see store.ts),
// so entries leave only to make room. One statement loads a pair; concurrent callers share it.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { CHANGE_COLUMNS, readStored, type StoredChange } from './store.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** One pair's stored changes, sorted by code then level (the order changesForCodes answers in). */
export class PairChanges {
  private constructor(
    private readonly codes: Int32Array,
    private readonly rows: StoredChange[],
  ) {}

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

export class ChangeSetMemory {
  private readonly cache: LRUCache<string, Promise<PairChanges | null>>;
  private readonly loaded = new Map<string, PairChanges>();

  /** `max`: pairs kept at once (a full-size consecutive pair is ~10k rows, a few MB). */
  constructor(max = 8) {
    this.cache = new LRUCache({ max, dispose: (_p, key) => this.loaded.delete(key) });
  }

  /** The pair's changes, loaded with `db` on first use (null while its change set is not stored). */
  get(fromId: number, toId: number, db: Db): Promise<PairChanges | null> {
    const key = `${fromId}:${toId}`;
    let p = this.cache.get(key);
    if (!p) {
      const loading = PairChanges.load(db, fromId, toId);
      p = loading;
      this.cache.set(key, p);
      const forget = () => {
        if (this.cache.peek(key) === loading) this.cache.delete(key);
      };
      loading.then((pc) => {
        if (!pc) forget();
        else if (this.cache.peek(key) === loading) this.loaded.set(key, pc);
      }, forget);
    }
    return p;
  }

  /** The pair's changes if loaded, without loading or waiting. */
  peek(fromId: number, toId: number): PairChanges | undefined {
    return this.loaded.get(`${fromId}:${toId}`);
  }
}
