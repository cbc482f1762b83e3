// Per-request DataLoaders keyed by (release, level, code): every hierarchy lookup
// of one tree level is answered from the release's in-memory index when it is built (or
// being read from its snapshot: see fromIndex), otherwise batched into one SQL statement.
import DataLoader from 'dataloader';
import { CountingMap } from '../observability/countingMap.ts';
import { changesForCodes, ensureChangeSet, type ChangeCounts, type ReleaseRef, type StoredChange } from '../domain/changes/store.ts';
import type { ChangeSetMemory, PairChanges } from '../domain/changes/memory.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { codeKey, conceptKey, conceptsByCodes, conceptsByKeys, type CodeKey, type Concept, type ConceptKey } from '../domain/concepts.ts';
import type { SearchIndexCache } from '../domain/releaseIndex/indexCache.ts';
import type { CodePageIndex } from '../domain/releaseIndex/overlayView.ts';
import type { LanguageNameHistories } from '../domain/languageNameHistory.ts';
import type { Level } from '../domain/levels.ts';
import { nameKey, namesByKeys, otherNamesByKeys, type NameKey } from '../domain/conceptNames.ts';
import {
  childrenByKeys, parentsByKeys, pathsByKeys, synonymCounts, synonymPageKey, synonymPages,
  type HierarchyItem, type PathCodes, type SynonymPageKey,
} from '../domain/hierarchy.ts';
import {
  parentSmqsOf, smqConceptKey, smqKey, smqNameKey, smqNamesByKeys, smqsByKeys, smqsOfConcepts, subSmqsOf,
  type CodeSmqRow, type Smq, type SmqConceptKey, type SmqKey, type SmqNameKey,
} from '../domain/smqs.ts';

function loader<K, V>(batch: (keys: readonly K[]) => Promise<Map<string, V>>, key: (k: K) => string, empty: () => V) {
  return new DataLoader<K, V, string>(
    async (keys) => {
      const found = await batch(keys);
      return keys.map((k) => found.get(key(k)) ?? empty());
    },
    { cacheKeyFn: key, cacheMap: new CountingMap() },
  );
}

/**
 * Answers from a release's in-memory index when one is built (the server warms the
 * latest release's at start; search builds others): a code page and a whole tree then
 * issue no SQL. Keys of a release whose index is being read from its snapshot (the first
 * requests after a start) wait for it, bounded: the read takes a fraction of a second and a
 * whole tree by SQL about as long again. Then a release whose index is not built but whose
 * snapshot is a delta over one that is (every release but the newest, as stored) answers through
 * its overlay view (overlayView.ts: its delta row read once, nothing materialised). Keys of
 * releases not indexed yet (or being built from rows) go to the database in one statement.
 */
function fromIndex<K extends { releaseId: number }, V>(
  indexes: SearchIndexCache | undefined,
  read: PrismaClient,
  keyOf: (k: K) => string,
  fromDb: (keys: K[]) => Promise<Map<string, V>>,
  answer: (ix: CodePageIndex, k: K) => V,
  needsHierarchy = true,
): (keys: readonly K[]) => Promise<Map<string, V>> {
  const usable = (ix: CodePageIndex | undefined): ix is CodePageIndex => !!ix && (!needsHierarchy || ix.hasHierarchy);
  return async (keys) => {
    const out = new Map<string, V>();
    let rest: K[] = [];
    for (const k of keys) {
      const ix = indexes?.peek(k.releaseId) ?? indexes?.peekView(k.releaseId);
      if (usable(ix)) out.set(keyOf(k), answer(ix, k));
      else rest.push(k);
    }
    if (rest.length && indexes) {
      const waits = new Map<number, Promise<CodePageIndex | undefined>>();
      for (const id of new Set(rest.map((k) => k.releaseId))) {
        // After the read started, at most the cache's waitMs (INDEX_WAIT_MS: 150 ms): the longest a read holds a request.
        const w = indexes.whenLoading(id, indexes.waitMs);
        if (w) waits.set(id, w);
      }
      if (waits.size) {
        const loaded = new Map(await Promise.all([...waits].map(async ([id, w]) => [id, await w] as const)));
        rest = rest.filter((k) => {
          const ix = loaded.get(k.releaseId);
          if (!usable(ix)) return true;
          out.set(keyOf(k), answer(ix, k));
          return false;
        });
      }
    }
    // Not loaded nor being read: through the release's overlay view when its snapshot is a delta over a kept index.
    if (rest.length && indexes) {
      const views = new Map(await Promise.all([...new Set(rest.map((k) => k.releaseId))].map(async (id) => [id, await indexes.view(id, read, indexes.waitMs, false, true)] as const)));
      rest = rest.filter((k) => {
        const v = views.get(k.releaseId);
        if (!usable(v)) return true;
        out.set(keyOf(k), answer(v, k));
        return false;
      });
    }
    if (rest.length) for (const [key, v] of await fromDb(rest)) out.set(key, v);
    return out;
  };
}

/** A loader answered from the release index when it is built or being read (fromIndex), otherwise by `fromDb`. */
function indexedLoader<K extends { releaseId: number }, V>(
  indexes: SearchIndexCache | undefined,
  read: PrismaClient,
  key: (k: K) => string,
  fromDb: (keys: K[]) => Promise<Map<string, V>>,
  answer: (ix: CodePageIndex, k: K) => V,
  empty: () => V,
  needsHierarchy = true,
) {
  return loader(fromIndex(indexes, read, key, fromDb, answer, needsHierarchy), key, empty);
}

/**
 * Change sets already ensured, per database: a stored change set never changes (releases
 * are immutable and a replaced release gets a new id), so after the first request a code
 * page's change record costs one statement, not two. Bounded: oldest pairs leave first.
 */
const ensuredChangeSets = new WeakMap<PrismaClient, Map<string, ChangeCounts>>();
const ENSURED_MAX = 256;

async function ensureOnce(prisma: PrismaClient, from: ReleaseRef, to: ReleaseRef, indexes?: SearchIndexCache): Promise<ChangeCounts> {
  let seen = ensuredChangeSets.get(prisma);
  if (!seen) ensuredChangeSets.set(prisma, (seen = new Map()));
  const key = `${from.id}:${to.id}`;
  const known = seen.get(key);
  if (known) return known;
  const counts = await ensureChangeSet(prisma, from, to, indexes);
  if (seen.size >= ENSURED_MAX) seen.delete(seen.keys().next().value!);
  seen.set(key, counts);
  return counts;
}

/** Counts of a change set this process has ensured, if it has. */
const ensuredCounts = (prisma: PrismaClient, fromId: number, toId: number) => ensuredChangeSets.get(prisma)?.get(`${fromId}:${toId}`);

/**
 * A batch with this few pairs not in memory yet (a code page: one; a short history: two)
 * loads them in place of its one batched statement; a longer history reads SQL for them
 * rather than push the LRU's other pairs out.
 */
const LOAD_PAIRS_PER_BATCH = 2;
/** A pair this large loads in the background while SQL answers (a full-size consecutive pair is ~10k rows). */
const INLINE_LOAD_MAX_ROWS = 50_000;

type CodeChangeKey = { fromId: number; toId: number; code: number };

/**
 * The stored changes of codes: from a pair's in-memory change set when loaded (no SQL),
 * loading it first when the pair is small and the batch touches few pairs; every other
 * key in one statement. Only pairs ensured by this process are loaded (an absent set is not
 * remembered as empty, and its size is known).
 */
function codeChangesBatch(prisma: PrismaClient, memory: ChangeSetMemory | undefined) {
  return async (keys: readonly CodeChangeKey[]): Promise<StoredChange[][]> => {
    const pairs = new Map<string, PairChanges | undefined>();
    for (const k of keys) pairs.set(`${k.fromId}:${k.toId}`, memory?.peek(k.fromId, k.toId));
    if (memory) {
      const missing = [...pairs].filter(([, pc]) => !pc).map(([key]) => key);
      const loads: Promise<void>[] = [];
      for (const key of missing) {
        const [fromId, toId] = key.split(':').map(Number) as [number, number];
        const counts = ensuredCounts(prisma, fromId, toId);
        if (!counts) continue;
        const large = counts.added + counts.updated + counts.retired > INLINE_LOAD_MAX_ROWS;
        if (!large && missing.length > LOAD_PAIRS_PER_BATCH) continue;
        const load = memory.get(fromId, toId, prisma);
        // A failed load only means SQL answers: this batch's statement, and the next batch retries.
        if (large) load.catch(() => undefined); // in the background: SQL answers meanwhile
        else loads.push(load.then((pc) => void pairs.set(key, pc ?? undefined), () => undefined));
      }
      await Promise.all(loads);
    }
    const rest = keys.filter((k) => !pairs.get(`${k.fromId}:${k.toId}`));
    const rows = await changesForCodes(prisma, rest);
    return keys.map(
      (k) =>
        pairs.get(`${k.fromId}:${k.toId}`)?.of(k.code) ??
        rows.filter((r) => r.fromId === k.fromId && r.toId === k.toId && r.code === k.code),
    );
  };
}

/**
 * Names in a non-primary language: from the language's built index, else from the hosted
 * releases' names read once (languageNameHistory.ts; no SQL either), else one statement per batch.
 */
function indexedNameLoader(indexes: SearchIndexCache | undefined, read: PrismaClient, names?: LanguageNameHistories) {
  return loader<NameKey, string | null>(
    async (keys) => {
      const out = new Map<string, string | null>();
      const rest: NameKey[] = [];
      for (const k of keys) {
        const ix = indexes?.peekLanguage(k.releaseId, k.language);
        const i = ix ? ix.find(k.level, k.code) : -1;
        if (ix && i >= 0) {
          out.set(nameKey(k), ix.name[i]!);
          continue;
        }
        const known = names?.nameAt(k.releaseId, k.language, k.level, k.code);
        if (known !== undefined) out.set(nameKey(k), known);
        else rest.push(k);
      }
      if (rest.length) for (const [key, v] of await namesByKeys(read, rest)) out.set(key, v);
      return out;
    },
    nameKey,
    () => null,
  );
}

const withRelease = <T extends { level: Level; code: number }>(releaseId: number, nodes: T[]) => nodes.map((n) => ({ releaseId, level: n.level, code: n.code }));

/**
 * `prisma` is the primary (change sets are written there); `read` serves catalog lookups;
 * `indexes` and `changeSets` are the process's in-memory release indexes and change sets.
 */
export function createLoaders(prisma: PrismaClient, read: PrismaClient = prisma, indexes?: SearchIndexCache, changeSets?: ChangeSetMemory, names?: LanguageNameHistories) {
  const paths = indexedLoader<ConceptKey, PathCodes[]>(
    indexes,
    read,
    conceptKey,
    (k) => pathsByKeys(read, k),
    (ix, k) => ix.allPaths(k.level, k.code).map((p) => ({ isPrimary: p.isPrimary, nodes: withRelease(k.releaseId, p.nodes) })),
    () => [],
  );
  return {
    /** Ensures a change set exists (computing it once) and yields its counts. */
    changeSet: new DataLoader<{ from: ReleaseRef; to: ReleaseRef }, ChangeCounts, string>(
      // Computed from the two releases' indexes (loaded for it if need be) when there are indexes.
      (keys) => Promise.all(keys.map((k) => ensureOnce(prisma, k.from, k.to, indexes))),
      { cacheKeyFn: (k) => `${k.from.id}:${k.to.id}`, cacheMap: new CountingMap() },
    ),
    codeChanges: new DataLoader<CodeChangeKey, StoredChange[], string>(codeChangesBatch(prisma, changeSets), {
      cacheKeyFn: (k) => `${k.fromId}:${k.toId}:${k.code}`,
      cacheMap: new CountingMap(),
    }),
    concept: indexedLoader<ConceptKey, Concept | null>(
      indexes,
      read,
      conceptKey,
      (k) => conceptsByKeys(read, k),
      (ix, k) => {
        const i = ix.find(k.level, k.code);
        return i < 0 ? null : ix.concept(i);
      },
      () => null,
      false,
    ),
    /** The primary path of a code (from the index when built; otherwise among all its paths, by SQL). */
    primaryPath: indexedLoader<ConceptKey, PathCodes | null>(
      indexes,
      read,
      conceptKey,
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
      () => null,
      false,
    ),
    conceptsByCode: indexedLoader<CodeKey, Concept[]>(
      indexes,
      read,
      codeKey,
      (k) => conceptsByCodes(read, k),
      (ix, k) => ix.byCodeAll(k.code).map((i) => ix.concept(i)),
      () => [],
      false,
    ),
    children: indexedLoader<ConceptKey, HierarchyItem[]>(indexes, read, conceptKey, (k) => childrenByKeys(read, k), (ix, k) => ix.children(k.level, k.code), () => []),
    parents: indexedLoader<ConceptKey, HierarchyItem[]>(indexes, read, conceptKey, (k) => parentsByKeys(read, k), (ix, k) => ix.parents(k.level, k.code), () => []),
    paths,
    synonymPage: indexedLoader<SynonymPageKey, Concept[]>(
      indexes,
      read,
      synonymPageKey,
      (k) => synonymPages(read, k),
      (ix, k) => ix.synonyms(k.ptCode).slice(k.offset, k.offset + k.limit).map((i) => ix.concept(i)),
      () => [],
    ),
    synonymCount: indexedLoader<{ releaseId: number; ptCode: number }, number>(
      indexes,
      read,
      (k) => `${k.releaseId}:${k.ptCode}`,
      (k) => synonymCounts(read, k),
      (ix, k) => ix.synonyms(k.ptCode).length,
      () => 0,
    ),
    /** A concept's name in a non-primary language (from that language's index when built): one statement per batch. */
    name: indexedNameLoader(indexes, read, names),
    /** Every non-primary name of a concept (codes.ts namesOf() asks the names read once first: languageNameHistory.ts). */
    otherNames: loader<ConceptKey, { language: string; name: string }[]>((k) => otherNamesByKeys(read, k), conceptKey, () => []),
    // SMQs (src/services/smqs.ts): one statement per batch.
    smq: loader<SmqKey, Smq | null>((k) => smqsByKeys(read, k), smqKey, () => null),
    /** An SMQ's name and description in a non-primary language (issue 28). */
    smqName: loader<SmqNameKey, { name: string; description: string } | null>((k) => smqNamesByKeys(read, k), smqNameKey, () => null),
    subSmqs: loader<SmqKey, Smq[]>((k) => subSmqsOf(read, k), smqKey, () => []),
    parentSmq: loader<SmqKey, Smq | null>((k) => parentSmqsOf(read, k), smqKey, () => null),
    smqsOfConcept: loader<SmqConceptKey, CodeSmqRow[]>((k) => smqsOfConcepts(read, k), smqConceptKey, () => []),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
