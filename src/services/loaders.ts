// Per-request DataLoaders keyed by (release, level, code): every hierarchy lookup
// of one tree level is batched into one SQL statement.
import DataLoader from 'dataloader';
import { changesForCodes, ensureChangeSet, type ChangeCounts, type ReleaseRef, type StoredChange } from '../domain/changes/store.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { codeKey, conceptKey, conceptsByCodes, conceptsByKeys, type CodeKey, type Concept, type ConceptKey } from '../domain/concepts.ts';
import type { SearchIndexCache } from '../domain/search/indexCache.ts';
import type { ReleaseIndex } from '../domain/search/releaseIndex.ts';
import {
  childrenOf, parentsOf, pathsOf, synonymCounts, synonymPageKey, synonymPages,
  type HierarchyItem, type PathCodes, type SynonymPageKey,
} from '../domain/hierarchy.ts';
import {
  parentSmqsOf, smqConceptKey, smqKey, smqsByKeys, smqsOfConcepts, subSmqsOf,
  type CodeSmqRow, type Smq, type SmqConceptKey, type SmqKey,
} from '../domain/smqs.ts';

function loader<K, V>(batch: (keys: readonly K[]) => Promise<Map<string, V>>, key: (k: K) => string, empty: () => V) {
  return new DataLoader<K, V, string>(
    async (keys) => {
      const found = await batch(keys);
      return keys.map((k) => found.get(key(k)) ?? empty());
    },
    { cacheKeyFn: key },
  );
}

/**
 * Concepts and primary paths from a release's in-memory index when one is built
 * (search builds it): no SQL for what search hits and predictions show. Other keys go
 * to the database in one statement.
 */
function fromIndex<K extends ConceptKey, V>(
  indexes: SearchIndexCache | undefined,
  fromDb: (keys: K[]) => Promise<Map<string, V>>,
  answer: (ix: ReleaseIndex, k: K) => V,
): (keys: readonly K[]) => Promise<Map<string, V>> {
  return async (keys) => {
    const out = new Map<string, V>();
    const rest: K[] = [];
    for (const k of keys) {
      const ix = indexes?.peek(k.releaseId);
      if (ix) out.set(conceptKey(k), answer(ix, k));
      else rest.push(k);
    }
    if (rest.length) for (const [key, v] of await fromDb(rest)) out.set(key, v);
    return out;
  };
}

/** `prisma` is the primary (change sets are written there); `read` serves catalog lookups. */
export function createLoaders(prisma: PrismaClient, read: PrismaClient = prisma, indexes?: SearchIndexCache) {
  const paths = loader<ConceptKey, PathCodes[]>((k) => pathsOf(read, k), conceptKey, () => []);
  return {
    /** Ensures a change set exists (computing it once) and yields its counts. */
    changeSet: new DataLoader<{ from: ReleaseRef; to: ReleaseRef }, ChangeCounts, string>(
      (keys) => Promise.all(keys.map((k) => ensureChangeSet(prisma, k.from, k.to))),
      { cacheKeyFn: (k) => `${k.from.id}:${k.to.id}` },
    ),
    codeChanges: new DataLoader<{ fromId: number; toId: number; code: number }, StoredChange[], string>(
      async (keys) => {
        const rows = await changesForCodes(prisma, keys);
        return keys.map((k) => rows.filter((r) => r.fromId === k.fromId && r.toId === k.toId && r.code === k.code));
      },
      { cacheKeyFn: (k) => `${k.fromId}:${k.toId}:${k.code}` },
    ),
    concept: loader<ConceptKey, Concept | null>(
      fromIndex(indexes, (k) => conceptsByKeys(read, k), (ix, k) => {
        const i = ix.find(k.level, k.code);
        return i < 0 ? null : ix.concept(i);
      }),
      conceptKey,
      () => null,
    ),
    /** The primary path of a code (from the index when built; otherwise among all its paths, by SQL). */
    primaryPath: loader<ConceptKey, PathCodes | null>(
      fromIndex(
        indexes,
        async (keys) => {
          const all = await paths.loadMany(keys);
          return new Map(keys.map((k, j) => {
            const p = all[j];
            return [conceptKey(k), p instanceof Error || !p ? null : (p.find((x) => x.isPrimary) ?? null)];
          }));
        },
        // The index holds the whole release: no path there means none at all.
        (ix, k) => {
          const nodes = ix.primaryPath(k.level, k.code);
          return nodes && { isPrimary: true, nodes: nodes.map((n) => ({ releaseId: k.releaseId, ...n })) };
        },
      ),
      conceptKey,
      () => null,
    ),
    conceptsByCode: loader<CodeKey, Concept[]>((k) => conceptsByCodes(read, k), codeKey, () => []),
    children: loader<ConceptKey, HierarchyItem[]>((k) => childrenOf(read, k), conceptKey, () => []),
    parents: loader<ConceptKey, HierarchyItem[]>((k) => parentsOf(read, k), conceptKey, () => []),
    paths,
    synonymPage: loader<SynonymPageKey, Concept[]>((k) => synonymPages(read, k), synonymPageKey, () => []),
    synonymCount: loader<{ releaseId: number; ptCode: number }, number>(
      (k) => synonymCounts(read, k),
      (k) => `${k.releaseId}:${k.ptCode}`,
      () => 0,
    ),
    // SMQs (src/services/smqs.ts): one statement per batch.
    smq: loader<SmqKey, Smq | null>((k) => smqsByKeys(read, k), smqKey, () => null),
    subSmqs: loader<SmqKey, Smq[]>((k) => subSmqsOf(read, k), smqKey, () => []),
    parentSmq: loader<SmqKey, Smq | null>((k) => parentSmqsOf(read, k), smqKey, () => null),
    smqsOfConcept: loader<SmqConceptKey, CodeSmqRow[]>((k) => smqsOfConcepts(read, k), smqConceptKey, () => []),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
