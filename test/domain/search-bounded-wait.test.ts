// A search on a release whose index is not loaded yet waits for the load at most INDEX_WAIT_MS
// (issue 32) — longer only for a snapshot read in flight, which is faster than the SQL path —
// then answers from SQL (the listing's statement, or the candidate names ranked by the index's
// own code) while the load goes on: the same bytes as the loaded index's answer, for every
// query, filter and page below; and the next search, once loaded, issues no SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { normalizeName } from '../../src/domain/text.ts';
import { demoReleases } from '../../src/importer/demo.ts';
import { INDEX_WAIT_MS, SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts, type SearchFilters } from '../../src/domain/releaseIndex/search.ts';
import type { BlobChannel } from '../../src/db/blobs.ts';

let db: TestDatabase;
const queries: string[] = [];
let releaseId: number;
let previousId: number;
let indexed: SearchIndexCache;

/** The database with every statement held until `open()`: an index load that does not finish. */
function held() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const read = {
    $queryRawUnsafe: (async (sql: string, ...args: unknown[]) => {
      await opened;
      return db.prisma.$queryRawUnsafe(sql, ...args);
    }) as TestDatabase['prisma']['$queryRawUnsafe'],
  };
  return { read, open };
}

beforeAll(async () => {
  db = await sharedDemoDatabase({ onQuery: (sql) => queries.push(sql) });
  const [prev, latest] = demoReleases().slice(-2);
  const ids = await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>(`SELECT id, version FROM release WHERE version IN ($1, $2)`, prev!.version, latest!.version);
  releaseId = ids.find((r) => r.version === latest!.version)!.id;
  previousId = ids.find((r) => r.version === prev!.version)!.id;
  indexed = new SearchIndexCache();
  await indexed.get(releaseId, db.prisma);
  // The change filter reads the stored change set of the pair.
  const { ensureChangeSet } = await import('../../src/domain/changes/store.ts');
  await ensureChangeSet(db.prisma, { id: previousId, version: prev!.version }, { id: releaseId, version: latest!.version });
}, 120_000);

afterAll(async () => {
  await db?.cleanup();
});

const QUERIES = ['headache', 'hedache', 'nausea', 'naus', 'febrile neutropnia', 'pain', 'ain', 'eye', 'ab', 'abdominal pain upper', 'alanine aminotransferase increesed', "meniere's", 'x', '100%_', 'Ödème', undefined];

const FILTERED = ['hedache', 'pain', 'ab', 'eye', 'x', undefined];
const PAGES = [[0, 10], [3, 7], [0, 1000]] as const;

async function filterSets(): Promise<SearchFilters[]> {
  const ix = indexed.peek(releaseId)!;
  const soc = (await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, 'pain', {}, 0, 1)).hits[0]!.concept.primarySocCode!;
  const llt = ix.concept(ix.containing('pain').find((i) => ix.levelOf(i) === 'LLT')!).code;
  return [
    {},
    { level: 'LLT' },
    { level: 'PT' },
    { level: 'SOC' },
    { currentOnly: true },
    { soc },
    { llt },
    { level: 'PT', soc },
    { change: { fromReleaseId: previousId, type: 'added' } },
    { change: { fromReleaseId: previousId, type: 'updated' } },
  ];
}

describe('search before the index is loaded', () => {
  it('answers from SQL with the same bytes as the loaded index, for every query, filter and page', async () => {
    const { read, open } = held();
    const waiting = new SearchIndexCache();
    const load = waiting.get(releaseId, read); // never finishes while held
    // The candidates' statements each search issued: the names containing the query, then the typo step's.
    const steps: string[] = [];
    const counting = {
      $queryRawUnsafe: ((sql: string, ...args: unknown[]) => {
        if (/WITH m AS MATERIALIZED/.test(sql)) steps.push(/<% c\.name_norm/.test(sql) ? 'typos' : 'names');
        return db.prisma.$queryRawUnsafe(sql, ...args);
      }) as TestDatabase['prisma']['$queryRawUnsafe'],
    } as unknown as TestDatabase['prisma'];
    const viaSql = { db: counting, indexes: waiting, waitMs: 0 };
    const viaIndex = { db: db.prisma, indexes: indexed };
    let compared = 0;
    let nonEmpty = 0;
    // Pages answered from the names containing the query alone, and pages that needed the typo step.
    let namesOnly = 0;
    let withTypos = 0;
    try {
      // Every query and page without a filter; a sample under each filter (each SQL answer is a
      // scan of the release's names: the sample keeps this file's cost down).
      for (const [k, filters] of (await filterSets()).entries()) {
        for (const q of k === 0 ? QUERIES : FILTERED) {
          for (const [offset, limit] of k === 0 ? PAGES : PAGES.slice(0, 1)) {
            const want = await searchConcepts(viaIndex, releaseId, q, filters, offset, limit);
            steps.length = 0;
            const got = await searchConcepts(viaSql, releaseId, q, filters, offset, limit);
            expect(JSON.stringify(got), `${q} ${JSON.stringify(filters)} ${offset}+${limit}`).toBe(JSON.stringify(want));
            if (q) expect(steps[0], `${q} ${JSON.stringify(filters)}`).toBe('names');
            // The typo step only when the index's page took its typo pass (no exact name, fewer targets than the page).
            const all = q ? await searchConcepts(viaIndex, releaseId, q, filters, 0, 100_000) : undefined;
            // Substring targets: their best name contains the query (a typo match's does not; both are typed FUZZY inside a word).
            const typoPass = !!all && all.best !== 4 && all.hits.filter((h) => normalizeName(h.match!.term).includes(normalizeName(q!))).length < limit;
            if (q) expect(steps.includes('typos'), `${q} ${JSON.stringify(filters)} ${offset}+${limit}`).toBe(typoPass);
            if (q && typoPass) withTypos++;
            else if (q && want.total > 0) namesOnly++;
            compared++;
            if (want.hits.length) nonEmpty++;
          }
        }
      }
      expect(waiting.peek(releaseId)).toBeUndefined();
    } finally {
      open();
    }
    await load;
    expect(compared).toBe(QUERIES.length * PAGES.length + 9 * FILTERED.length);
    expect(namesOnly).toBeGreaterThan(20);
    expect(withTypos).toBeGreaterThan(20);
    expect(nonEmpty).toBeGreaterThan(compared / 3);
  }, 120_000);

  it('waits at most INDEX_WAIT_MS, and the load goes on: the next search issues no SQL', async () => {
    const { read, open } = held();
    const waiting = new SearchIndexCache();
    const src = { db: db.prisma, indexes: waiting };
    void waiting.get(releaseId, read);
    const want = JSON.stringify(await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, 'hedache', {}, 0, 10));
    queries.length = 0;
    const t0 = performance.now();
    const first = await searchConcepts(src, releaseId, 'hedache', {}, 0, 10);
    const waited = performance.now() - t0;
    expect(JSON.stringify(first)).toBe(want);
    expect(queries.some((q) => /WITH m AS MATERIALIZED/.test(q))).toBe(true);
    // It waited for the load (the timer), then SQL answered: not the load (still held).
    expect(waited).toBeGreaterThanOrEqual(INDEX_WAIT_MS - 5);
    expect(waiting.peek(releaseId)).toBeUndefined();
    open();
    for (let i = 0; i < 2_000 && !waiting.peek(releaseId); i++) await new Promise((r) => setTimeout(r, 5));
    expect(waiting.peek(releaseId)).toBeDefined();
    queries.length = 0;
    expect(JSON.stringify(await searchConcepts(src, releaseId, 'hedache', {}, 0, 10))).toBe(want);
    expect(queries).toEqual([]);
  }, 60_000);

  it('a search statement that fails (on a large release, past the statement timeout) gives way to the load: the index answers, not the error', async () => {
    const { read, open } = held();
    const waiting = new SearchIndexCache();
    void waiting.get(releaseId, read);
    const want = JSON.stringify(await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, 'hedache', {}, 0, 10));
    // The candidates' scan fails as PostgreSQL cancels a statement past statement_timeout; every other statement runs.
    const timeout = new Error('canceling statement due to statement timeout');
    let refused = 0;
    const failing = {
      $queryRawUnsafe: (async (sql: string, ...args: unknown[]) => {
        if (/WITH m AS MATERIALIZED/.test(sql)) {
          refused++;
          throw timeout;
        }
        return db.prisma.$queryRawUnsafe(sql, ...args);
      }) as TestDatabase['prisma']['$queryRawUnsafe'],
    } as unknown as TestDatabase['prisma'];
    const searching = searchConcepts({ db: failing, indexes: waiting, waitMs: 0 }, releaseId, 'hedache', {}, 0, 10);
    for (let i = 0; i < 2_000 && refused === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(refused).toBe(1);
    open();
    expect(JSON.stringify(await searching)).toBe(want);
    // Both failing (every statement refused, the load's too): the statement's error, as before.
    const refusing = { $queryRawUnsafe: (async () => { throw timeout; }) as TestDatabase['prisma']['$queryRawUnsafe'] } as unknown as TestDatabase['prisma'];
    await expect(searchConcepts({ db: refusing, indexes: new SearchIndexCache(), waitMs: 0 }, releaseId, 'hedache', {}, 0, 10)).rejects.toBe(timeout);
  }, 60_000);

  it('a snapshot read still in flight past the wait is waited for (SQL would scan the release): the index answers', async () => {
    // The release's snapshot, written once.
    const writer = new SearchIndexCache(2, db.prisma, db.blobs);
    await writer.get(releaseId, db.prisma);
    await writer.flushed();
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const blobs: BlobChannel = {
      copyOut: async (sql) => {
        await opened;
        return db.blobs.copyOut(sql);
      },
      copyIn: (steps, data) => db.blobs.copyIn(steps, data),
    };
    const waiting = new SearchIndexCache(2, db.prisma, blobs);
    const want = JSON.stringify(await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, 'hedache', {}, 0, 10));
    queries.length = 0;
    const answer = searchConcepts({ db: db.prisma, indexes: waiting }, releaseId, 'hedache', {}, 0, 10);
    await new Promise((r) => setTimeout(r, INDEX_WAIT_MS + 100));
    open();
    expect(JSON.stringify(await answer)).toBe(want);
    expect(queries.some((q) => /WITH m AS MATERIALIZED/.test(q))).toBe(false);
    expect(waiting.peek(releaseId)).toBeDefined();
  }, 60_000);

  it('a load finishing within the wait answers from the index', async () => {
    const waiting = new SearchIndexCache();
    queries.length = 0;
    const page = await searchConcepts({ db: db.prisma, indexes: waiting, waitMs: 60_000 }, releaseId, 'nausea', {}, 0, 10);
    expect(page.hits.length).toBeGreaterThan(0);
    expect(waiting.peek(releaseId)).toBeDefined();
    expect(queries.some((q) => /WITH m AS MATERIALIZED/.test(q))).toBe(false);
  }, 60_000);
});
