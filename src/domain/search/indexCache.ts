// Built release indexes by release id in a bounded LRU. Releases never change once
// imported (a replaced release gets a new id), so entries leave only to make room.
// Search builds an index on a release's first query and the server warms the latest
// release's at start; other catalog reads (concepts, parents, children, paths, synonyms)
// use one only when it is already built (peek), never waiting for it: meanwhile they go
// to SQL.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { ReleaseIndex } from './releaseIndex.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export class SearchIndexCache {
  private readonly cache: LRUCache<number, Promise<ReleaseIndex>>;
  private readonly built = new Map<number, ReleaseIndex>();

  /** `max`: releases kept indexed at once (~50 MB each at full size). */
  constructor(max = 2) {
    this.cache = new LRUCache({ max, dispose: (_p, releaseId) => this.built.delete(releaseId) });
  }

  /** The release's index, loaded with `db` on first use; concurrent callers share one build. */
  get(releaseId: number, db: Db): Promise<ReleaseIndex> {
    let p = this.cache.get(releaseId);
    if (!p) {
      const loading = ReleaseIndex.load(db, releaseId);
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
}
