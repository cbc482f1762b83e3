// Searches by SQL while a release's index loads (search.ts bySql, SearchIndexCache.fallback): on
// the embedded store each is a scan on the serving thread, so at most one is in flight per
// release — concurrent searches share it when they are the same statement, others wait for the
// index — and every answer is the loaded index's. 'each' (PostgreSQL's setting) issues one per
// search. The setting is the cache's, so both are tested on either database; compose() picks it
// by the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { demoReleases } from '../../src/importer/demo.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import { compose } from '../../src/compose.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { TEST_ENV } from '../helpers/app.ts';

let db: TestDatabase;
let releaseId: number;
let indexed: SearchIndexCache;

/** A gate every statement waits at until `open()`. `issued`: the statements that reached it. */
function gated(match: RegExp = /./) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const issued: string[] = [];
  const read = {
    $queryRawUnsafe: (async (sql: string, ...args: unknown[]) => {
      if (match.test(sql)) issued.push(sql);
      await opened;
      return db.prisma.$queryRawUnsafe(sql, ...args);
    }) as TestDatabase['prisma']['$queryRawUnsafe'],
  };
  return { read, open, issued };
}

/** Enough turns of the event loop for every search started to reach its statement or its wait. */
async function settle() {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
}

beforeAll(async () => {
  db = await sharedDemoDatabase();
  const latest = demoReleases().at(-1)!;
  releaseId = (await db.prisma.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM release WHERE version = $1`, latest.version))[0]!.id;
  indexed = new SearchIndexCache();
  await indexed.get(releaseId, db.prisma);
}, 120_000);

afterAll(async () => {
  await db?.cleanup();
});

const DISTINCT = ['hedache', 'nausea', 'abdominal pain upper', 'ab', 'eye', 'febrile neutropnia', undefined, 'x'];

/** N concurrent searches while the index load is held; the statements by SQL they issue, and their answers against the loaded index's. */
async function concurrent(mode: 'one' | 'each', qs: readonly (string | undefined)[]) {
  const load = gated();
  const searches = gated(/WITH m AS MATERIALIZED|count\(\*\) OVER/);
  const cache = new SearchIndexCache();
  cache.sqlFallbacks = mode;
  const loading = cache.get(releaseId, load.read);
  const src = { db: searches.read, indexes: cache, waitMs: 0 };
  const answers = qs.map((q) => searchConcepts(src, releaseId, q, {}, 0, 10));
  await settle();
  const inFlight = searches.issued.length;
  searches.open();
  await settle();
  load.open();
  const got = await Promise.all(answers);
  await loading; // not left running into the database's close
  for (const [k, q] of qs.entries()) {
    const want = await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, q, {}, 0, 10);
    expect(JSON.stringify(got[k]), String(q)).toBe(JSON.stringify(want));
  }
  return inFlight;
}

describe('searches by SQL while an index loads', () => {
  it("'one': concurrent different searches issue one statement; the others wait for the index", async () => {
    expect(await concurrent('one', DISTINCT)).toBe(1);
  }, 60_000);

  it("'one': concurrent identical searches share one statement", async () => {
    expect(await concurrent('one', Array(6).fill('hedache'))).toBe(1);
  }, 60_000);

  it("'each': one statement per search", async () => {
    expect(await concurrent('each', DISTINCT)).toBe(DISTINCT.length);
  }, 60_000);

  it('once a search by SQL is done, the next one may run (one at a time, not one per load)', async () => {
    const load = gated();
    const cache = new SearchIndexCache();
    const loading = cache.get(releaseId, load.read);
    const src = { db: db.prisma, indexes: cache, waitMs: 0 };
    const want = await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, 'nausea', {}, 0, 10);
    expect(JSON.stringify(await searchConcepts(src, releaseId, 'hedache', {}, 0, 10))).not.toBe(JSON.stringify(want));
    expect(JSON.stringify(await searchConcepts(src, releaseId, 'nausea', {}, 0, 10))).toBe(JSON.stringify(want));
    expect(cache.peek(releaseId)).toBeUndefined();
    load.open();
    await loading;
  }, 60_000);

  it('compose() picks the setting by the store: one on the embedded store, each on PostgreSQL', async () => {
    const composed = compose(loadConfig(TEST_ENV), db, createLogger('silent'));
    expect(composed.services.catalog.searchIndexes.sqlFallbacks).toBe(db.mode === 'embedded' ? 'one' : 'each');
    await composed.close();
  });
});
