// Built search indexes by release id in a bounded LRU. Releases never change once
// imported (a replaced release gets a new id), so entries leave only to make room.
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { ReleaseIndex } from './releaseIndex.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export class SearchIndexCache {
  private readonly cache: LRUCache<number, Promise<ReleaseIndex>>;

  /** `max`: releases kept indexed at once (~30 MB each at full size). */
  constructor(max = 3) {
    this.cache = new LRUCache({ max });
  }

  /** The release's index, loaded with `db` on first use; concurrent callers share one build. */
  get(releaseId: number, db: Db): Promise<ReleaseIndex> {
    let p = this.cache.get(releaseId);
    if (!p) {
      p = ReleaseIndex.load(db, releaseId);
      this.cache.set(releaseId, p);
      p.catch(() => this.cache.delete(releaseId));
    }
    return p;
  }

  has(releaseId: number): boolean {
    return this.cache.has(releaseId);
  }
}
