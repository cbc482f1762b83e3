// A release needed now gets its group's base although views fill the older releases' room (issue 32,
// helper rsspeak: at 24 releases the start's views and their search parts filled the room beside the
// newest, admits() counted them as pinned, the oldest group's keyframe no longer fitted and every
// search of that group went to SQL, ~10× slower). A chain of eight releases with groups of three: two
// older keyframes, K1 (older) and K2, each the base of its group's views, and the newest's group.
// The room beside the newest holds one keyframe and a few views, not both keyframes. The start's
// warming (warmView) fills it (K2 and views), never pushing out what it made; then a search on the
// oldest release loads K1 as its view's base, the least recently used (K2 and its views) going; and
// back. The cache's estimate never exceeds the bound it reports (memory_cache_budget_bytes). PGlite
// and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSyntheticChain } from '../helpers/syntheticChain.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { olderRoom, SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import { storedSnapshots } from '../../src/domain/releaseIndex/snapshotStore.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';
import { memoryGauges } from '../../src/observability/signals.ts';

let db: TestDatabase;
let dir: string;
/** Newest first. */
let list: { id: number; version: string }[];
/** Each release's snapshot base (null: whole). */
const baseOf = new Map<number, number | null>();

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'base-admission-'));
  const versions = ['96.0', '96.1', '96.2', '96.3', '96.4', '96.5', '96.6', '96.7'];
  await importSyntheticChain(db, dir, versions, { seed: 31, scale: 0.02, keyframeEvery: 3 });
  list = await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal DESC');
  for (const r of list) baseOf.set(r.id, (await storedSnapshots(db.prisma, r.id)).base ?? null);
}, 600_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The bound a cache reports (memory_cache_budget_bytes), taken when it is made (the last cache made reports). */
const bounds = new WeakMap<SearchIndexCache, { budget: number }>();
/** The view reads started (in flight or settled): private to the cache, read here to tell a search's read from the test's wait. */
const viewReads = (cache: SearchIndexCache) => (cache as unknown as { viewReads: Map<number, unknown> }).viewReads;
const within = (cache: SearchIndexCache) => expect(cache.bytes(), 'the estimate within the bound reported').toBeLessThanOrEqual(bounds.get(cache)!.budget);

describe('a release needed now gets its base beside views that fill the room', () => {
  it('warmed views fill the room; a search on the oldest group loads its keyframe, the least recently used going; never over the bound', async () => {
    const newest = list[0]!;
    const keyframes = [...new Set([...baseOf.values()].filter((b): b is number => b !== null && b !== newest.id))];
    expect(keyframes.length, `two older keyframes (${JSON.stringify([...baseOf])})`).toBeGreaterThanOrEqual(2);
    const [k2, k1] = keyframes.sort((a, b) => b - a) as [number, number];
    const oldest = list.find((r) => baseOf.get(r.id) === k1)!;
    const inK2 = list.find((r) => baseOf.get(r.id) === k2)!;
    const probe = new SearchIndexCache(8, undefined, db.blobs);
    const nBytes = (await probe.get(newest.id, db.prisma)).approximateBytes();
    const k1Bytes = (await probe.get(k1, db.prisma)).approximateBytes();
    const k2Bytes = (await probe.get(k2, db.prisma)).approximateBytes();
    // Room for the larger keyframe and a fifth of the smaller beside it: one keyframe at a time, and views.
    const room = Math.max(k1Bytes, k2Bytes) + 0.2 * Math.min(k1Bytes, k2Bytes);
    const budget = Math.ceil(olderRoom.budgetFor(nBytes, room));
    const loads: string[] = [];
    const cache = new SearchIndexCache(4, undefined, db.blobs, { onLoaded: (id, source) => loads.push(`${id}:${source}`) }, budget);
    bounds.set(cache, memoryGauges.releaseIndexes!);
    cache.sync(list.map((r) => ({ id: r.id, version: r.version, languages: [] }) as unknown as ReleaseInfo));
    cache.waitMs = 60_000;
    await cache.get(newest.id, db.prisma);
    expect(bounds.get(cache)!.budget).toBeGreaterThanOrEqual(nBytes + room - 1);

    // The start's warming, newest first (src/services/olderViewWarming.ts): K2 as a base, views, never K1 beside them.
    let largest = 0;
    const made: number[] = [];
    for (const r of list.slice(1)) {
      const v = await cache.warmView(r.id, db.prisma, largest);
      if (v) made.push(r.id), (largest = Math.max(largest, v.bytes));
      within(cache);
    }
    expect(made).toContain(inK2.id);
    expect(cache.peek(k2)).toBeDefined();
    expect(cache.peek(k1), 'not beside K2 and its views').toBeUndefined();
    // Searches on the views made: their search parts count too.
    for (const id of made) {
      await searchConcepts({ db: db.prisma, indexes: cache }, id, 'pain', {}, 0, 10);
      within(cache);
    }

    // The oldest group's release is searched: its base K1 comes in, what was least recently used goes.
    const whole = new SearchIndexCache(8, undefined, db.blobs);
    for (const q of ['pain', 'infec', 'hepatits']) {
      const got = await searchConcepts({ db: db.prisma, indexes: cache }, oldest.id, q, {}, 0, 30);
      expect(JSON.stringify(got), q).toBe(JSON.stringify(await searchConcepts({ db: db.prisma, indexes: whole }, oldest.id, q, {}, 0, 30)));
      within(cache);
    }
    // A search answers by SQL at once while the view's base loads (searchView): the read it started is waited for here.
    expect(viewReads(cache).has(oldest.id), 'the searches started the view\'s read (not the wait below)').toBe(true);
    await cache.view(oldest.id, db.prisma);
    expect(cache.peekView(oldest.id)?.baseIndex.releaseId, 'the oldest\'s view over its own group\'s keyframe').toBe(k1);
    expect(cache.peek(k1)).toBeDefined();
    expect(loads, 'K1 read, not the oldest\'s own index').toEqual([`${newest.id}:snapshot`, `${k2}:snapshot`, `${k1}:snapshot`]);
    expect(cache.peek(k2), 'K2 the least recently used: gone').toBeUndefined();
    expect(cache.peek(newest.id), 'the newest stays').toBeDefined();

    // And back: K2's group's release searched, K2 returns.
    await searchConcepts({ db: db.prisma, indexes: cache }, inK2.id, 'pain', {}, 0, 10);
    expect(viewReads(cache).has(inK2.id)).toBe(true);
    await cache.view(inK2.id, db.prisma);
    expect(cache.peekView(inK2.id)?.baseIndex.releaseId).toBe(k2);
    within(cache);
  }, 300_000);
});
