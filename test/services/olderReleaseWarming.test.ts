// The start's warm-up of an older release's paths (src/services/olderReleaseWarming.ts, issue 32):
// on the demo store with German and Japanese index snapshots stored, it runs the newest-but-one's
// view, index and language loads and searches, then lets go of them — the cache holds afterwards
// exactly what it held before (the newest's index, its bytes) and every answer is the one a cache
// that never warmed gives; without room in the cache's budget, or with the release already loaded,
// it loads nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { compose } from '../../src/compose.ts';
import { createApp } from '../../src/http/app.ts';
import { warmOlderReleasePaths } from '../../src/services/olderReleaseWarming.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';

let db: TestDatabase;
let releases: ReleaseInfo[];
const closers: (() => Promise<void>)[] = [];

/** An app over the store with caches of its own (the index cache's byte budget as given). */
function freshApp(env: Record<string, string> = {}) {
  const composed = compose(loadConfig({ ...TEST_ENV, ...env }), db, createLogger('silent'), { catalogTtlMs: 600_000 });
  closers.push(composed.close);
  const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
  const ask = async (p: string) => {
    const res = await app.fetch(new Request(`http://test${p}`));
    return `${res.status} ${await res.text()}`;
  };
  return { catalog: composed.services.catalog, indexes: composed.services.catalog.searchIndexes, ask };
}

const urls = (r: ReleaseInfo) =>
  ['q=a', 'q=a&lang=de', 'q=a&lang=ja', 'q=kopf&lang=de', 'q=head', 'q=頭&lang=ja', 'lang=de'].map((x) => `/codes?limit=50&version=${encodeURIComponent(r.version)}&${x}`);

beforeAll(async () => {
  db = await createTestDatabase({ template: 'demo' });
  // An earlier life of the store: each release searched in each language once, its snapshots stored.
  const earlier = freshApp();
  releases = await earlier.catalog.releases();
  for (const r of releases) for (const u of urls(r)) expect(await earlier.ask(u)).toMatch(/^200 /);
  await earlier.indexes.flushed();
}, 180_000);

afterAll(async () => {
  for (const c of closers) await c();
  await db?.cleanup();
});

describe('the start-up warm-up of an older release (issue 32)', () => {
  it('runs the newest-but-one release in every language stored, lets go of all of it, and changes no answer', async () => {
    const [newest, middle] = releases;
    expect(middle!.languages.length).toBeGreaterThan(1);
    const plain = freshApp();
    const warmed = freshApp();
    for (const a of [plain, warmed]) await a.indexes.get(newest!.id, db.prisma);
    const before = warmed.indexes.bytes();
    const result = await warmOlderReleasePaths(warmed.catalog, db.prisma, () => false);
    expect(result).toMatchObject({ warmed: true, release: middle!.version, languages: expect.arrayContaining(['de', 'ja']) });
    // Nothing of it kept: the newest's index alone, as before.
    expect(warmed.indexes.holds(middle!.id)).toBe(false);
    expect(warmed.indexes.peekLanguage(middle!.id, 'de')).toBeUndefined();
    expect(warmed.indexes.viewCount()).toBe(0);
    expect(warmed.indexes.bytes()).toBe(before);
    // Every answer on every release as a cache that never warmed gives it.
    for (const r of releases) for (const u of urls(r)) expect(await warmed.ask(u), u).toBe(await plain.ask(u));
  }, 120_000);

  it('loads nothing without room in the index cache beside what it keeps, or with the release already loaded', async () => {
    const [newest, middle] = releases;
    // One place in the LRU, the newest's: no room.
    const one = freshApp({ SEARCH_INDEX_RELEASES: '1' });
    await one.indexes.get(newest!.id, db.prisma);
    expect(await warmOlderReleasePaths(one.catalog, db.prisma, () => false)).toMatchObject({ warmed: false, reason: 'no room in the index cache' });
    expect(one.indexes.holds(middle!.id)).toBe(false);
    expect(one.indexes.peek(newest!.id)).toBeDefined();
    // The byte budget: room for another index the size of the largest kept, or not.
    const sized = new SearchIndexCache(2);
    const ix = await sized.get(newest!.id, db.prisma);
    const bytes = ix.approximateBytes();
    expect(new SearchIndexCache(2, undefined, undefined, {}, 2.5 * bytes).fits(1)).toBe(true); // nothing kept yet
    for (const [max, fits] of [[2.5 * bytes, true], [1.5 * bytes, false]] as const) {
      const c = new SearchIndexCache(2, undefined, undefined, {}, max);
      await c.get(newest!.id, db.prisma);
      expect(c.fits(1), `budget ${max} for ${bytes} bytes kept`).toBe(fits);
    }
    // A client's load of that release is left as it is.
    const loaded = freshApp();
    await loaded.indexes.get(newest!.id, db.prisma);
    await loaded.indexes.get(middle!.id, db.prisma);
    expect(await warmOlderReleasePaths(loaded.catalog, db.prisma, () => false)).toMatchObject({ warmed: false, reason: 'already loaded' });
    expect(loaded.indexes.peek(middle!.id)).toBeDefined();
  }, 120_000);
});
