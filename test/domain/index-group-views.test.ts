// Older snapshot groups through views, and the newest release's index never pushed out (issue 32,
// session 24). A chain of five releases stored with groups of three (chainDefaults.keyframeEvery):
// the two oldest are deltas over the middle release (an older keyframe), the fourth over the newest.
// The cache keeps the newest's index whatever another release's load needs (count or bytes); an
// older release's code pages and searches answer through a view over its own group's keyframe,
// loaded as a base, with the bytes of the SQL path and of its whole index; a base evicted drops its
// views; the byte budget holds. PGlite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importSyntheticChain } from '../helpers/syntheticChain.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { OLDER_ROOM_SHARE, olderRoom, SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { OverlayView } from '../../src/domain/releaseIndex/overlayView.ts';
import { overlayOf } from '../../src/domain/releaseIndex/overlay.ts';
import { chainDefaults } from '../../src/domain/releaseIndex/snapshotChain.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { compose } from '../../src/compose.ts';
import { createApp } from '../../src/http/app.ts';
import { LEVELS } from '../../src/domain/levels.ts';
import { counts } from '../../src/observability/signals.ts';

let db: TestDatabase;
let dir: string;
const queries: string[] = [];
let counting = false;
const closers: (() => Promise<void>)[] = [];
/** Oldest first by ordinal. */
let list: { id: number; version: string }[];
let base: Map<number, number | null>;

beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => void (counting && queries.push(sql)) });
  dir = mkdtempSync(path.join(tmpdir(), 'group-views-'));
  await importSyntheticChain(db, dir, ['96.0', '96.1', '96.2', '96.3', '96.4'], { seed: 21, scale: 0.02, keyframeEvery: 3 });
  list = await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal');
  const rows = await db.prisma.$queryRawUnsafe<{ id: number; base: number | null }[]>('SELECT release_id AS id, base_release_id AS base FROM release_index_snapshot');
  base = new Map(rows.map((r) => [r.id, r.base]));
}, 300_000);

afterAll(async () => {
  for (const close of closers) await close();
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The cache told which release is the newest, as the catalog's release list does (newest first). */
function syncNewest(cache: SearchIndexCache) {
  cache.sync([...list].reverse().map((r) => ({ id: r.id, version: r.version, languages: [] }) as unknown as ReleaseInfo));
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('older snapshot groups and the newest release', () => {
  it('the store has an older group: the two oldest are deltas over the middle release, the fourth over the newest', () => {
    const [a, b, k, d, newest] = list;
    expect(base.get(newest!.id)).toBeNull();
    expect(base.get(k!.id)).toBeNull();
    expect(base.get(a!.id)).toBe(k!.id);
    expect(base.get(b!.id)).toBe(k!.id);
    expect(base.get(d!.id)).toBe(newest!.id);
  });

  it('never evicts the newest release\'s index for an older one\'s: by count, and by bytes (an older index that does not fit is handed over, not kept)', async () => {
    const [a, b, k, , newest] = list;
    // By count: two kept; the newest least recently used when two older ones load after it.
    const byCount = new SearchIndexCache(2, undefined, db.blobs);
    syncNewest(byCount);
    const top = await byCount.get(newest!.id, db.prisma);
    await byCount.get(k!.id, db.prisma);
    await byCount.get(a!.id, db.prisma);
    await settle();
    expect(byCount.peek(newest!.id)).toBe(top);
    expect(byCount.peek(k!.id), 'the older one went instead').toBeUndefined();
    expect(byCount.peek(a!.id)).toBeDefined();

    // By bytes: room for the newest and a third of another (the older releases' share of a budget below the newest's bytes).
    const bound = Math.floor((top.approximateBytes() * 0.3) / OLDER_ROOM_SHARE);
    const loads: number[] = [];
    const byBytes = new SearchIndexCache(4, undefined, db.blobs, { onLoaded: (id) => void loads.push(id) }, bound);
    syncNewest(byBytes);
    byBytes.useViews = false;
    const kept = await byBytes.get(newest!.id, db.prisma);
    const evictions = counts.indexEvictions;
    // The first load of an older one is estimated at the newest's size: handed to its caller, never kept.
    const old = await byBytes.get(a!.id, db.prisma);
    expect(old.releaseId).toBe(a!.id);
    await settle();
    expect(byBytes.peek(a!.id)).toBeUndefined();
    expect(byBytes.peek(newest!.id)).toBe(kept);
    expect(counts.indexEvictions).toBe(evictions);
    expect(byBytes.bytes()).toBeLessThanOrEqual(Math.max(bound, kept.approximateBytes()));
    // Searches interleaved oldest / newest: the oldest by SQL, no load of its index, no eviction.
    const src = { db: db.prisma, indexes: byBytes, waitMs: 50 };
    loads.length = 0;
    for (const q of ['a', 'pain', 'infec', 'ache']) {
      await searchConcepts(src, a!.id, q, {}, 0, 20);
      await searchConcepts(src, newest!.id, q, {}, 0, 20);
      await searchConcepts(src, b!.id, q, {}, 0, 20);
    }
    await settle();
    expect(byBytes.peek(newest!.id)).toBe(kept);
    expect(byBytes.peek(a!.id)).toBeUndefined();
    expect(byBytes.holds(a!.id)).toBe(false);
    expect(loads, 'no index loaded for those searches').toEqual([]);
    expect(counts.indexEvictions).toBe(evictions);
  }, 120_000);

  it('an older group\'s releases answer through views over their keyframe, loaded once as their base: the same answers as their whole index', async () => {
    const [a, b, k, , newest] = list;
    const cache = new SearchIndexCache(2, undefined, db.blobs);
    syncNewest(cache);
    cache.waitMs = 60_000; // a loaded host: the view's read (and its base's load) is not cut short
    await cache.get(newest!.id, db.prisma);
    const va = await cache.view(a!.id, db.prisma);
    expect(va, 'a view over the older keyframe').toBeDefined();
    expect(va!.baseIndex.releaseId).toBe(k!.id);
    const vb = await cache.view(b!.id, db.prisma);
    expect(vb!.baseIndex, 'the group shares one base').toBe(va!.baseIndex);
    expect(cache.peek(k!.id)).toBe(va!.baseIndex);
    expect(cache.peek(a!.id), 'the release\'s own index was not loaded').toBeUndefined();
    expect(cache.peek(b!.id)).toBeUndefined();
    // Every code of the release and of its base: the view's answers are the whole index's.
    const full = await ReleaseIndex.load(db.prisma, a!.id);
    const baseIx = va!.baseIndex;
    let compared = 0;
    for (const ix of [full, baseIx]) {
      for (let i = 0; i < ix.size; i += 3) {
        const level = ix.levelOf(i);
        const code = ix.code[i]!;
        const ask = (x: typeof va | ReleaseIndex) => {
          const j = x!.find(level, code);
          return JSON.stringify([j < 0 ? null : x!.concept(j), x!.primaryPath(level, code), x!.children(level, code), x!.parents(level, code), x!.allPaths(level, code)]);
        };
        expect(ask(va), `${level} ${code}`).toBe(ask(full));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(full.size / 3);
    // Searches through the view (no index of the release loaded) as on its whole index.
    const whole = new SearchIndexCache(4, undefined, db.blobs);
    for (const q of ['a', 'pain', 'infec', 'hepatits', 'ache']) {
      const viaView = await searchConcepts({ db: db.prisma, indexes: cache }, a!.id, q, {}, 0, 30);
      const viaWhole = await searchConcepts({ db: db.prisma, indexes: whole }, a!.id, q, {}, 0, 30);
      expect(JSON.stringify(viaView), q).toBe(JSON.stringify(viaWhole));
    }
    expect(cache.peek(a!.id)).toBeUndefined();
    expect(whole.peek(a!.id)).toBeDefined();
  }, 120_000);

  it('a base evicted drops its views; the byte budget holds with the newest, a base and its views', async () => {
    const [a, b, k, d, newest] = list;
    const cache = new SearchIndexCache(2, undefined, db.blobs);
    syncNewest(cache);
    cache.waitMs = 60_000;
    const top = await cache.get(newest!.id, db.prisma);
    await cache.view(a!.id, db.prisma);
    await cache.view(b!.id, db.prisma);
    expect(cache.viewCount()).toBe(2);
    // Another older release's whole index takes the one place beside the newest: the base goes, and its views with it.
    await cache.get(d!.id, db.prisma);
    await settle();
    expect(cache.peek(k!.id)).toBeUndefined();
    expect(cache.peekView(a!.id)).toBeUndefined();
    expect(cache.peekView(b!.id)).toBeUndefined();
    expect(cache.peek(newest!.id)).toBe(top);

    // A budget with room for the newest and one more index: the base and its views fit, and stay within it.
    // As the cache holds it: read from its snapshot (its estimate counts the read's buffer, kept whole).
    const kBytes = (await new SearchIndexCache(4, undefined, db.blobs).get(k!.id, db.prisma)).approximateBytes();
    const bound = Math.ceil(top.approximateBytes() + kBytes * 1.2);
    const budgeted = new SearchIndexCache(4, undefined, db.blobs, {}, bound);
    syncNewest(budgeted);
    budgeted.waitMs = 60_000;
    await budgeted.get(newest!.id, db.prisma);
    expect(await budgeted.view(a!.id, db.prisma)).toBeDefined();
    expect(await budgeted.view(b!.id, db.prisma)).toBeDefined();
    // Within the bound it holds to (the newest plus the older releases' room: olderRoom.bound()).
    expect(budgeted.bytes()).toBeLessThanOrEqual(olderRoom.bound(bound, top.approximateBytes()));
    // A budget without room for a base but for a view: the release's view over the newest's index, from
    // an overlay computed here (its index loaded once, not kept), the base not loaded, within the budget.
    const fullA = await ReleaseIndex.load(db.prisma, a!.id);
    const viewBytes = OverlayView.of(top, await overlayOf(top, fullA))!.bytes;
    expect(viewBytes * 2).toBeLessThan(kBytes);
    // Room for the view as estimated before it is made (a fifth of an index), not for the base: beside a
    // newest larger than the budget, older releases have OLDER_ROOM_SHARE of it (a quarter of the newest here).
    const tightBound = Math.ceil((top.approximateBytes() * 0.25) / OLDER_ROOM_SHARE);
    const tightCap = top.approximateBytes() + OLDER_ROOM_SHARE * tightBound;
    expect(tightCap).toBeLessThan(top.approximateBytes() + kBytes);
    const tight = new SearchIndexCache(4, undefined, db.blobs, {}, tightBound);
    syncNewest(tight);
    tight.waitMs = 60_000;
    const tightTop = await tight.get(newest!.id, db.prisma);
    const derived = await tight.view(a!.id, db.prisma);
    expect(derived?.baseIndex, 'a view over the newest').toBe(tightTop);
    expect(tight.peek(k!.id), 'no base loaded').toBeUndefined();
    expect(tight.peek(a!.id)).toBeUndefined();
    expect(tight.bytes()).toBeLessThanOrEqual(tightCap);
    // Its answers are the whole index's.
    for (let i = 0; i < fullA.size; i += 7) {
      const level = fullA.levelOf(i);
      const code = fullA.code[i]!;
      expect(JSON.stringify([derived!.concept(derived!.find(level, code)), derived!.allPaths(level, code), derived!.children(level, code)])).toBe(
        JSON.stringify([fullA.concept(i), fullA.allPaths(level, code), fullA.children(level, code)]),
      );
    }
    // A second release's view is not made into room that is not there (it would push the first out, and
    // releases used in turn would each push the next out: a load and a diff per request): SQL answers it.
    const loadsBefore = counts.indexMisses;
    expect(await tight.view(b!.id, db.prisma)).toBeUndefined();
    await settle();
    expect(tight.peekView(a!.id), 'the first view stays').toBe(derived);
    expect(counts.indexMisses, 'no load for it').toBe(loadsBefore);
    expect(tight.bytes()).toBeLessThanOrEqual(tightCap);
    // No room even for a view: none made (no load), nothing kept but the newest.
    const loads: number[] = [];
    const none = new SearchIndexCache(4, undefined, db.blobs, { onLoaded: (id) => void loads.push(id) }, 1);
    syncNewest(none);
    none.waitMs = 60_000;
    await none.get(newest!.id, db.prisma);
    loads.length = 0;
    expect(await none.view(a!.id, db.prisma)).toBeUndefined();
    await settle();
    expect(none.peekView(a!.id)).toBeUndefined();
    expect(loads).toEqual([]);
    expect(none.peek(k!.id)).toBeUndefined();
    expect(none.peek(newest!.id)).toBeDefined();
    expect(none.bytes()).toBeLessThanOrEqual(top.approximateBytes() + 1);
  }, 120_000);

  it('REST code pages and searches on the oldest release: through the view over its keyframe, no SQL for a code page once the view exists, the bytes of the SQL path', async () => {
    const [a, , k] = list;
    const full = await ReleaseIndex.load(db.prisma, a!.id);
    const codes: string[] = [];
    for (const level of LEVELS) {
      let taken = 0;
      for (let i = 0; i < full.size && taken < 3; i += 5) if (full.levelOf(i) === level) (codes.push(String(full.code[i]!)), taken++);
    }
    const paths = [...codes.map((c) => `/codes/${c}?version=${a!.version}`), ...['pain', 'infec', 'a'].map((q) => `/codes?q=${q}&version=${a!.version}`)];
    const freshApp = async (views: boolean) => {
      const composed = compose(loadConfig(TEST_ENV), db, createLogger('silent'), { catalogTtlMs: 600_000 });
      closers.push(composed.close);
      const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
      const indexes = composed.services.catalog.searchIndexes;
      indexes.useViews = views;
      await composed.services.catalog.releases();
      await indexes.get(list.at(-1)!.id, db.prisma);
      return { indexes, ask: async (p: string) => (await app.fetch(new Request(`http://test${p}`))).text() };
    };
    // The SQL path: no view, the oldest's index not loaded (nor loaded by these requests: it would not be waited for).
    const sql = await freshApp(false);
    sql.indexes.waitMs = 0;
    const want: string[] = [];
    for (const p of paths) want.push(await sql.ask(p));
    for (const w of want) expect(w).not.toMatch(/"status":(4|5)\d\d/);
    const viewed = await freshApp(true);
    viewed.indexes.waitMs = 60_000;
    // The first code page starts the view (its base loading) and answers by SQL meanwhile, without
    // waiting for the load (issue 32: the first page on an older release); once the view is made,
    // each page issues no statement.
    queries.length = 0;
    counting = true;
    expect(await viewed.ask(paths[0]!)).toBe(want[0]);
    counting = false;
    expect(queries.some((q) => q.includes('json_to_recordset')), 'the first page answered by SQL, not after the base\'s load').toBe(true);
    await vi.waitFor(() => expect(viewed.indexes.peekView(a!.id)?.baseIndex.releaseId).toBe(k!.id), { timeout: 60_000, interval: 20 });
    for (const [i, p] of paths.entries()) {
      queries.length = 0;
      counting = true;
      const got = await viewed.ask(p);
      counting = false;
      expect(got, p).toBe(want[i]);
      if (p.startsWith('/codes/')) expect(queries, p).toEqual([]);
    }
    expect(viewed.indexes.peek(a!.id), 'the oldest release\'s index was not loaded').toBeUndefined();
  }, 120_000);
});
