// Per-request DataLoaders keyed by (release, level, code): every hierarchy lookup
// of one tree level is batched into one SQL statement.
import DataLoader from 'dataloader';
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

export function createLoaders(prisma: PrismaClient) {
  return {
    concept: loader<ConceptKey, Concept | null>((k) => conceptsByKeys(prisma, k), conceptKey, () => null),
    conceptsByCode: loader<CodeKey, Concept[]>((k) => conceptsByCodes(prisma, k), codeKey, () => []),
    children: loader<ConceptKey, HierarchyItem[]>((k) => childrenOf(prisma, k), conceptKey, () => []),
    parents: loader<ConceptKey, HierarchyItem[]>((k) => parentsOf(prisma, k), conceptKey, () => []),
    paths: loader<ConceptKey, PathCodes[]>((k) => pathsOf(prisma, k), conceptKey, () => []),
    synonymPage: loader<SynonymPageKey, Concept[]>((k) => synonymPages(prisma, k), synonymPageKey, () => []),
    synonymCount: loader<{ releaseId: number; ptCode: number }, number>(
      (k) => synonymCounts(prisma, k),
      (k) => `${k.releaseId}:${k.ptCode}`,
      () => 0,
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
