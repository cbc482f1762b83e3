// One built vocabulary per release, kept in a bounded LRU: releases never change,
// so an entry is dropped only for room (or when an import replaces the release).
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { buildVocabulary, type Vocabulary } from '../nlp/index.ts';
import { loadVocabularySource } from './loadVocabulary.ts';

export class VocabularyCache {
  private readonly cache: LRUCache<number, Promise<Vocabulary>>;

  constructor(
    private readonly prisma: Pick<PrismaClient, '$queryRawUnsafe'>,
    /** Releases kept built at once; a full-size vocabulary takes tens of MB. */
    max = 3,
  ) {
    this.cache = new LRUCache({ max });
  }

  get(releaseId: number): Promise<Vocabulary> {
    let p = this.cache.get(releaseId);
    if (!p) {
      p = loadVocabularySource(this.prisma, releaseId).then((src) => {
        const vocab = buildVocabulary(src.terms, { grades: src.grades });
        // Build the lazy indexes now, not on the first request.
        vocab.warm();
        return vocab;
      });
      this.cache.set(releaseId, p);
      p.catch(() => this.cache.delete(releaseId));
    }
    return p;
  }
}
