// Built release indexes by release id in a bounded LRU. Releases never change once
// imported (a replaced release gets a new id), so entries leave only to make room.
// Search builds an index on a release's first query and the server warms the latest
// release's at start; other catalog reads (concepts, parents, children, paths, synonyms)
// use one only when it is already built (peek), never waiting for it: meanwhile they go
// to SQL. An index comes from its persisted snapshot (snapshot.ts: one read, well under a
// second at full size) when there is one of the current format; otherwise it is built from
// rows (seconds) and its snapshot written in the background for the next start or replica.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { ReleaseIndex } from './releaseIndex.ts';
import { unpackIndex } from './snapshot.ts';
import { hasSnapshot, readSnapshot, writeSnapshot } from './snapshotStore.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export type IndexWarning = (message: string, detail: { releaseId: number; error: string }) => void;

export class SearchIndexCache {
  private readonly cache: LRUCache<number, Promise<ReleaseIndex>>;
  private readonly built = new Map<number, ReleaseIndex>();
  private writes = new Set<Promise<void>>();
  /** Where snapshot problems are reported (the server sets its logger); they never fail a request. */
  onWarning: IndexWarning = () => {};
  /** Told of each index made ready, where it came from and how long it took (the server logs it). */
  onLoaded: (releaseId: number, source: 'snapshot' | 'rows', ms: number) => void = () => {};

  /**
   * `max`: releases kept indexed at once (~50 MB each at full size). `writer`: where snapshots
   * are written (the primary); reads may come from a replica, which would refuse the write.
   */
  constructor(
    max = 2,
    private readonly writer?: Db,
  ) {
    this.cache = new LRUCache({ max, dispose: (_p, releaseId) => this.built.delete(releaseId) });
  }

  /** The release's index, loaded with `db` on first use; concurrent callers share one build. */
  get(releaseId: number, db: Db): Promise<ReleaseIndex> {
    let p = this.cache.get(releaseId);
    if (!p) {
      const loading = this.load(releaseId, db);
      p = loading;
      this.cache.set(releaseId, p);
      loading.then(
        (ix) => {
          if (this.cache.peek(releaseId) === loading) this.built.set(releaseId, ix);
        },
        () => this.cache.delete(releaseId),
      );
    }
    return p;
  }

  /** The index if it is built, without loading or waiting. */
  peek(releaseId: number): ReleaseIndex | undefined {
    return this.built.get(releaseId);
  }

  /** Whether loading the release's index is one snapshot read rather than a build from rows. */
  hasSnapshot(releaseId: number, db: Db): Promise<boolean> {
    return hasSnapshot(db, releaseId);
  }

  /** Settles once the snapshot writes started so far are done (tests, shutdown). */
  async flushed(): Promise<void> {
    while (this.writes.size) await Promise.all(this.writes);
  }

  private async load(releaseId: number, db: Db): Promise<ReleaseIndex> {
    const warn = (message: string, e: unknown) => this.onWarning(message, { releaseId, error: e instanceof Error ? e.message : String(e) });
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let data: Uint8Array | null = null;
    try {
      data = await readSnapshot(db, releaseId);
    } catch (e) {
      warn('release index snapshot not readable; building the index from rows', e);
    }
    if (data) {
      try {
        const ix = await unpackIndex(data, releaseId);
        this.onLoaded(releaseId, 'snapshot', ms());
        return ix;
      } catch (e) {
        warn('release index snapshot is corrupt; rebuilding it from rows', e);
      }
    }
    const ix = await ReleaseIndex.load(db, releaseId);
    this.onLoaded(releaseId, 'rows', ms());
    // In the background: the answer waiting on this index never waits on the write.
    const writing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => writeSnapshot(this.writer ?? db, ix))
      .then(
        () => undefined,
        (e: unknown) => warn('release index snapshot not written; the next start builds the index again', e),
      )
      .finally(() => this.writes.delete(writing));
    this.writes.add(writing);
    return ix;
  }
}
