// Older releases keep room beside a newest index larger than the budget (issue 32, session 25: at 24
// full-size releases the newest's index alone passed the default share, so no older release got a view
// or an index and every older search went to SQL, seconds on PostgreSQL). A chain of five releases with
// groups of three (as index-group-views.test.ts): the two oldest are deltas over the middle release,
// the fourth over the newest. With a budget below the newest's bytes, the fourth's view over the
// newest and the oldest's view over the newest (computed here) are made and kept, within the newest
// plus OLDER_ROOM_SHARE of the budget; with room for the older keyframe by its entry count but not by
// the newest's bytes, the keyframe is loaded as its group's base. Answers as the whole index's. The
// start's views (src/services/olderViewWarming.ts): every older release's made from its stored delta,
// so the oldest's first code page issues no statement; with one place in the LRU, only the newest's
// group's. PGlite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSyntheticChain } from '../helpers/syntheticChain.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { OLDER_ROOM_SHARE, SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { compose } from '../../src/compose.ts';
import { createApp } from '../../src/http/app.ts';
import { warmOlderViews } from '../../src/services/olderViewWarming.ts';

let db: TestDatabase;
const queries: string[] = [];
let counting = false;
const closers: (() => Promise<void>)[] = [];
let dir: string;
/** Oldest first by ordinal. */
let list: { id: number; version: string }[];

beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => void (counting && queries.push(sql)) });
  dir = mkdtempSync(path.join(tmpdir(), 'older-room-'));
  await importSyntheticChain(db, dir, ['97.0', '97.1', '97.2', '97.3', '97.4'], { seed: 23, scale: 0.02, keyframeEvery: 3 });
  list = await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal');
}, 300_000);

afterAll(async () => {
  for (const close of closers) await close();
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function syncNewest(cache: SearchIndexCache) {
  cache.sync([...list].reverse().map((r) => ({ id: r.id, version: r.version, languages: [] }) as unknown as ReleaseInfo));
}

/** A view's answers are the whole index's: code pages (every 5th entry) and a few searches. */
async function sameAnswers(cache: SearchIndexCache, releaseId: number) {
  const full = await ReleaseIndex.load(db.prisma, releaseId);
  const v = cache.peekView(releaseId)!;
  for (let i = 0; i < full.size; i += 5) {
    const level = full.levelOf(i);
    const code = full.code[i]!;
    expect(JSON.stringify([v.concept(v.find(level, code)), v.allPaths(level, code), v.children(level, code)]), `${level} ${code}`).toBe(
      JSON.stringify([full.concept(i), full.allPaths(level, code), full.children(level, code)]),
    );
  }
  const whole = new SearchIndexCache(4, undefined, db.blobs);
  for (const q of ['pain', 'infec', 'hepatits']) {
    const viaView = await searchConcepts({ db: db.prisma, indexes: cache }, releaseId, q, {}, 0, 30);
    const viaWhole = await searchConcepts({ db: db.prisma, indexes: whole }, releaseId, q, {}, 0, 30);
    expect(JSON.stringify(viaView), q).toBe(JSON.stringify(viaWhole));
  }
}

describe('older releases beside a newest index larger than the budget', () => {
  it('views over the newest are made and kept though the newest alone passes the budget; within the newest plus the older releases\' share', async () => {
    const [a, , k, d, newest] = list;
    const probe = new SearchIndexCache(4, undefined, db.blobs);
    const topBytes = (await probe.get(newest!.id, db.prisma)).approximateBytes();
    const bound = Math.floor(topBytes * 0.8);
    const cache = new SearchIndexCache(4, undefined, db.blobs, {}, bound);
    syncNewest(cache);
    cache.waitMs = 60_000;
    const top = await cache.get(newest!.id, db.prisma);
    expect(cache.bytes()).toBeGreaterThan(bound);
    // The fourth: its stored delta is over the newest.
    const vd = await cache.view(d!.id, db.prisma);
    expect(vd?.baseIndex, 'a view of the newest\'s group').toBe(top);
    // The oldest: its keyframe does not fit beside the newest (not loaded); a view over the newest computed here does.
    const va = await cache.view(a!.id, db.prisma);
    expect(va?.baseIndex, 'a view of the oldest over the newest').toBe(top);
    expect(cache.peek(k!.id)).toBeUndefined();
    expect(cache.peek(a!.id)).toBeUndefined();
    expect(cache.peekView(d!.id)).toBe(vd);
    expect(cache.peekView(a!.id)).toBe(va);
    expect(cache.viewCount()).toBe(2);
    expect(cache.bytes()).toBeLessThanOrEqual(top.approximateBytes() + OLDER_ROOM_SHARE * bound);
    await sameAnswers(cache, d!.id);
    await sameAnswers(cache, a!.id);
    expect(cache.peek(newest!.id)).toBe(top);
  }, 120_000);

  it('an older group\'s keyframe is loaded as its base when it fits by its own entry count, not the newest\'s bytes', async () => {
    const [a, b, k, , newest] = list;
    const top = await new SearchIndexCache(4, undefined, db.blobs).get(newest!.id, db.prisma);
    // As the cache holds it: read from its snapshot (its estimate counts the read's buffer, kept whole).
    const kIx = await new SearchIndexCache(4, undefined, db.blobs).get(k!.id, db.prisma);
    expect(kIx.size).toBeLessThan(top.size);
    // Room for the keyframe (and its views) beside the newest, not for another index as large as the newest.
    const room = kIx.approximateBytes() * 1.1;
    expect(room).toBeLessThan(top.approximateBytes());
    // The budget whose older releases' share is that room, and leaves less beside the newest otherwise.
    const bound = Math.floor(room / OLDER_ROOM_SHARE);
    expect(bound - top.approximateBytes()).toBeLessThan(room);
    const cache = new SearchIndexCache(4, undefined, db.blobs, {}, bound);
    syncNewest(cache);
    cache.waitMs = 60_000;
    await cache.get(newest!.id, db.prisma);
    const va = await cache.view(a!.id, db.prisma);
    expect(va?.baseIndex.releaseId, 'a view over the older keyframe').toBe(k!.id);
    expect(cache.peek(k!.id)).toBe(va!.baseIndex);
    expect((await cache.view(b!.id, db.prisma))?.baseIndex).toBe(va!.baseIndex);
    expect(cache.bytes()).toBeLessThanOrEqual(Math.max(bound, top.approximateBytes() + OLDER_ROOM_SHARE * bound));
    await sameAnswers(cache, a!.id);
  }, 120_000);

  it('the start makes the older releases\' views from their deltas: the oldest\'s first code page issues no statement; one LRU place: the newest\'s group only', async () => {
    const [a, b, k, d, newest] = list;
    const fresh = async (env: Record<string, string> = {}) => {
      const composed = compose(loadConfig({ ...TEST_ENV, ...env }), db, createLogger('silent'), { catalogTtlMs: 600_000 });
      closers.push(composed.close);
      const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
      const { catalog } = composed.services;
      await catalog.releases();
      await catalog.searchIndexes.get(newest!.id, db.prisma);
      return { catalog, indexes: catalog.searchIndexes, ask: async (p: string) => (await app.fetch(new Request(`http://test${p}`))).text() };
    };
    const full = await ReleaseIndex.load(db.prisma, a!.id);
    const code = String(full.code[full.size - 1]!);
    const page = `/codes/${code}?version=${a!.version}`;
    const plain = await fresh();
    plain.indexes.useViews = false;
    const want = await plain.ask(page);
    expect(want).not.toMatch(/"status":(4|5)\d\d/);

    const warmed = await fresh();
    const result = await warmOlderViews(warmed.catalog, db.prisma, () => false);
    expect(result.made).toEqual([d!.version, b!.version, a!.version]);
    expect(warmed.indexes.peek(k!.id), 'the older keyframe kept as its group\'s base').toBeDefined();
    queries.length = 0;
    counting = true;
    const got = await warmed.ask(page);
    counting = false;
    expect(got).toBe(want);
    expect(queries, 'the oldest\'s first code page: through its view').toEqual([]);
    expect(warmed.indexes.peek(a!.id)).toBeUndefined();

    // One place in the LRU (the newest's): no base loaded, the newest's group's view only.
    const one = await fresh({ SEARCH_INDEX_RELEASES: '1' });
    expect((await warmOlderViews(one.catalog, db.prisma, () => false)).made).toEqual([d!.version]);
    expect(one.indexes.peek(k!.id)).toBeUndefined();
    expect(one.indexes.peek(newest!.id)).toBeDefined();
  }, 120_000);
});
