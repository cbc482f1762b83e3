// Per-request DataLoaders keyed by (release, level, code): every hierarchy lookup
// of one tree level is batched into one SQL statement.
import DataLoader from 'dataloader';
import { changesForCodes, ensureChangeSet, type ChangeCounts, type ReleaseRef, type StoredChange } from '../domain/changes/store.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { codeKey, conceptKey, conceptsByCodes, conceptsByKeys, type CodeKey, type Concept, type ConceptKey } from '../domain/concepts.ts';
import {
  childrenOf, parentsOf, pathsOf, synonymCounts, synonymPageKey, synonymPages,
  type HierarchyItem, type PathCodes, type SynonymPageKey,
} from '../domain/hierarchy.ts';

function loader<K, V>(batch: (keys: readonly K[]) => Promise<Map<string, V>>, key: (k: K) => string, empty: () => V) {
  return new DataLoader<K, V, string>(
    async (keys) => {
      const found = await batch(keys);
      return keys.map((k) => found.get(key(k)) ?? empty());
    },
    { cacheKeyFn: key },
  );
}

/** `prisma` is the primary (change sets are written there); `read` serves catalog lookups. */
export function createLoaders(prisma: PrismaClient, read: PrismaClient = prisma) {
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
    concept: loader<ConceptKey, Concept | null>((k) => conceptsByKeys(read, k), conceptKey, () => null),
    conceptsByCode: loader<CodeKey, Concept[]>((k) => conceptsByCodes(read, k), codeKey, () => []),
    children: loader<ConceptKey, HierarchyItem[]>((k) => childrenOf(read, k), conceptKey, () => []),
    parents: loader<ConceptKey, HierarchyItem[]>((k) => parentsOf(read, k), conceptKey, () => []),
    paths: loader<ConceptKey, PathCodes[]>((k) => pathsOf(read, k), conceptKey, () => []),
    synonymPage: loader<SynonymPageKey, Concept[]>((k) => synonymPages(read, k), synonymPageKey, () => []),
    synonymCount: loader<{ releaseId: number; ptCode: number }, number>(
      (k) => synonymCounts(read, k),
      (k) => `${k.releaseId}:${k.ptCode}`,
      () => 0,
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
