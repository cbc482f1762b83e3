// Search on a release through its overlay (src/domain/releaseIndex/overlaySearch.ts: the base's whole
// index plus the release's delta, nothing materialised) answers as the index built from the
// release's rows: every query of a generated set — each name the release and the base differ on
// (added, removed, renamed, moved, made non-current) and a sample of the others, cut into whole
// names, words, prefixes, inner substrings, two-letter queries and typos — with each filter (level,
// current only, SOC/HLGT/HLT/LLT, change type against the previous release) and several pages, and
// listings without a query; on every demo release and a synthetic chain, over the newest and over
// the oldest as base. Then through the cache from the stored deltas, and REST /codes and GraphQL
// `codes` on the oldest release: the same bytes as with its whole index, which is not materialised.
// PGlite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { overlayOf } from '../../src/domain/releaseIndex/overlay.ts';
import { OverlayView } from '../../src/domain/releaseIndex/overlayView.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts, searchOn, type SearchFilters } from '../../src/domain/releaseIndex/search.ts';
import type { SearchableIndex } from '../../src/domain/releaseIndex/searchable.ts';
import { importRelease } from '../../src/importer/import.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { compose } from '../../src/compose.ts';
import { createApp } from '../../src/http/app.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { lcg } from '../../tools/random.ts'; // seeded: the queries are the same every run

let demo: TestDatabase;
let chain: TestDatabase;
let dir: string;
const closers: (() => Promise<void>)[] = [];

const releases = async (db: TestDatabase) => db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal');

beforeAll(async () => {
  // Only read (indexes loaded, searched, compared): the worker's demo store on PGlite (test/helpers/db.ts).
  demo = await sharedDemoDatabase();
  chain = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'overlay-search-'));
  let prev: SyntheticRelease | undefined;
  for (const version of ['96.0', '96.1', '96.2']) {
    const r = generateRelease({ seed: 29, version, scale: 0.015, withSmq: false, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    await importRelease(chain, path.join(dir, version));
    prev = r;
  }
}, 300_000);

afterAll(async () => {
  for (const close of closers) await close();
  await demo?.cleanup();
  await chain?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});


/** Names the two indexes differ on (by level and code), and every `every`-th name of each. */
function sourceNames(full: ReleaseIndex, base: ReleaseIndex, every: number): string[] {
  const names = new Set<string>();
  const key = (ix: ReleaseIndex, i: number) => `${ix.levelOf(i)}:${ix.code[i]}`;
  const fullAt = new Map<string, number>();
  for (let i = 0; i < full.size; i++) fullAt.set(key(full, i), i);
  for (let j = 0; j < base.size; j++) {
    const i = fullAt.get(key(base, j));
    if (i === undefined || full.name[i] !== base.name[j] || full.current[i] !== base.current[j] || full.ptCode[i] !== base.ptCode[j]) {
      names.add(base.name[j]!);
      if (i !== undefined) names.add(full.name[i]!);
    }
  }
  const baseKeys = new Set(Array.from({ length: base.size }, (_, j) => key(base, j)));
  for (let i = 0; i < full.size; i++) if (!baseKeys.has(key(full, i))) names.add(full.name[i]!);
  for (const ix of [full, base]) for (let i = 0; i < ix.size; i += every) names.add(ix.name[i]!);
  return [...names];
}

/** Queries cut from names: whole, first word, prefixes, an inner piece, two letters, typos (a letter dropped, two swapped). */
function queriesOf(names: readonly string[], seed: number): string[] {
  const rnd = lcg(seed);
  const out = new Set<string>();
  for (const name of names) {
    const n = name.toLowerCase();
    out.add(name);
    const word = n.split(/\s+/)[0]!;
    out.add(word);
    out.add(n.slice(0, 4));
    out.add(n.slice(0, 2));
    if (n.length > 8) {
      const at = 1 + Math.floor(rnd() * (n.length - 6));
      out.add(n.slice(at, at + 5));
      const d = 1 + Math.floor(rnd() * (n.length - 2));
      out.add(n.slice(0, d) + n.slice(d + 1));
      const w = Math.floor(rnd() * (n.length - 1));
      out.add(n.slice(0, w) + n[w + 1] + n[w] + n.slice(w + 2));
    }
    if (word.length > 5) out.add(`${word.slice(0, -2)}${word.at(-1)}`);
  }
  return [...out].filter((q) => q.trim() !== '');
}

/** Filters worth asking of a release: none, each level, current only, a SOC, HLGT, HLT and LLT of it, change types. */
function filtersOf(full: ReleaseIndex, prevId: number | undefined): SearchFilters[] {
  const at = (level: string) => {
    for (let i = Math.floor(full.size / 3); i < full.size; i++) if (full.levelOf(i) === level) return full.code[i]!;
    return undefined;
  };
  const out: SearchFilters[] = [{}, { level: 'PT' }, { level: 'LLT' }, { level: 'HLT' }, { currentOnly: true }, { soc: at('SOC') }, { hlgt: at('HLGT') }, { hlt: at('HLT') }, { llt: at('LLT') }, { soc: at('SOC'), level: 'LLT', currentOnly: true }];
  if (prevId !== undefined) for (const type of ['added', 'updated', 'retired'] as const) out.push({ change: { fromReleaseId: prevId, type } });
  return out;
}

/**
 * The statements search sends (the change-type filter's rows of the stored change set) read once per
 * statement and arguments: nothing writes while the answers are compared, and the same few sets were
 * otherwise read again for every filtered query, on both sides — about 40 % of the file's CPU, in
 * PGlite and Prisma, for rows that cannot differ between the two indexes compared. Both sides still
 * take the same code path over the same rows (the statement's own answers: test/domain/listing-memory.test.ts,
 * on both databases).
 */
const readers = new WeakMap<TestDatabase, Parameters<typeof searchOn>[0]>();
function readOnce(db: TestDatabase): Parameters<typeof searchOn>[0] {
  const known = readers.get(db);
  if (known) return known;
  const rows = new Map<string, Promise<unknown>>();
  const reader: Parameters<typeof searchOn>[0] = {
    $queryRawUnsafe: ((sql: string, ...params: unknown[]) => {
      const key = JSON.stringify([sql, params]);
      let got = rows.get(key);
      if (!got) rows.set(key, (got = db.prisma.$queryRawUnsafe(sql, ...params)));
      return got;
    }) as Parameters<typeof searchOn>[0]['$queryRawUnsafe'],
  };
  readers.set(db, reader);
  return reader;
}

/** `full`'s answers, kept per index: the same query, filter and page recur over the two bases. */
const answers = new WeakMap<ReleaseIndex, Map<string, string>>();

/**
 * Every query (page 0..1000: the whole ranking and total) and, for every twelfth, each filter on two
 * pages, plus listings with each filter on three pages, answered by `view` as by `full`. Returns
 * how many pages were compared and the first differing ones.
 */
async function compare(db: TestDatabase, view: SearchableIndex, full: ReleaseIndex, queries: readonly string[], filters: readonly SearchFilters[]) {
  const differ: string[] = [];
  let compared = 0;
  const reads = readOnce(db);
  let known = answers.get(full);
  if (!known) answers.set(full, (known = new Map()));
  const check = async (q: string | undefined, f: SearchFilters, offset: number, limit: number) => {
    const key = JSON.stringify([q, f, offset, limit]);
    let want = known.get(key);
    if (want === undefined) known.set(key, (want = JSON.stringify(await searchOn(reads, full, q, f, offset, limit))));
    const got = JSON.stringify(await searchOn(reads, view, q, f, offset, limit));
    compared++;
    if (got !== want && differ.length < 3) differ.push(`${JSON.stringify({ q, f, offset, limit })}: ${got.slice(0, 400)} ≠ ${want.slice(0, 400)}`);
  };
  for (let k = 0; k < queries.length; k++) {
    await check(queries[k], {}, 0, 1000);
    if (k % 12 === 0) for (const f of filters) for (const [o, l] of [[0, 10], [3, 5]] as const) await check(queries[k], f, o, l);
  }
  for (const f of filters) for (const [o, l] of [[0, 1000], [17, 20], [full.size - 5, 10]] as const) await check(undefined, f, Math.max(0, o), l);
  return { compared, differ };
}

describe('search through an overlay view', () => {
  it('every query of a generated set, with every filter and page, answers as the index built from rows: demo releases and a synthetic chain, over the newest and the oldest', async () => {
    for (const db of [demo, chain]) {
      const list = await releases(db);
      const built = new Map<number, ReleaseIndex>();
      for (const r of list) built.set(r.id, await ReleaseIndex.load(db.prisma, r.id));
      for (const baseId of [list.at(-1)!.id, list[0]!.id]) {
        const base = built.get(baseId)!;
        for (const [n, r] of list.entries()) {
          const full = built.get(r.id)!;
          const view = OverlayView.of(base, await overlayOf(base, full))!.search();
          const queries = queriesOf(sourceNames(full, base, 150), r.id);
          const { compared, differ } = await compare(db, view, full, queries, filtersOf(full, n > 0 ? list[n - 1]!.id : undefined));
          expect(differ, `${r.version} over ${baseId}`).toEqual([]);
          expect(compared).toBeGreaterThan(200);
        }
      }
    }
  }, 600_000);

  it('the view really answers from the base plus the delta: a renamed name is found by its new text only, a dropped one not at all', async () => {
    const list = await releases(chain);
    const newest = await ReleaseIndex.load(chain.prisma, list.at(-1)!.id);
    const oldest = await ReleaseIndex.load(chain.prisma, list[0]!.id);
    const view = OverlayView.of(newest, await overlayOf(newest, oldest))!.search();
    // A concept of the newest release absent from the oldest: its exact name finds it on the newest, not through the view.
    let added = -1;
    for (let j = 0; j < newest.size && added < 0; j++) if (oldest.find(newest.levelOf(j), newest.code[j]!) < 0 && newest.levelOf(j) === 'PT') added = j;
    expect(added).toBeGreaterThanOrEqual(0);
    const name = newest.name[added]!;
    const hits = (page: Awaited<ReturnType<typeof searchOn>>) => page.hits.map((h) => `${h.concept.level}:${h.concept.code}`);
    expect(hits(await searchOn(chain.prisma, newest, name, {}, 0, 1000))).toContain(`PT:${newest.code[added]}`);
    expect(hits(await searchOn(chain.prisma, view, name, {}, 0, 1000))).not.toContain(`PT:${newest.code[added]}`);
    expect(view.size).toBeGreaterThan(newest.size); // own entries exist
  }, 300_000);

  it('masked base entries stay in the posting runs the view hands out and never in its answers: each one\'s whole name, a typo of it, an inner piece and its first two letters', async () => {
    const list = await releases(chain);
    const newest = await ReleaseIndex.load(chain.prisma, list.at(-1)!.id);
    const oldest = await ReleaseIndex.load(chain.prisma, list[0]!.id);
    const view = OverlayView.of(newest, await overlayOf(newest, oldest))!.search();
    const masked: number[] = [];
    for (let j = 0; j < newest.size; j++) if (view.dropped(j)) masked.push(j);
    expect(masked.length).toBeGreaterThan(10);
    let inRuns = 0;
    const differ: string[] = [];
    for (const j of masked.slice(0, 60)) {
      const n = newest.norm[j]!;
      // Every trigram of the masked name is held by it: its runs carry it in place.
      const { ids } = view.queryTrigrams(n);
      if (ids.every((id) => view.postings(id).head.includes(j))) inRuns++;
      const d = Math.floor(n.length / 2);
      for (const q of [newest.name[j]!, n.slice(0, d) + n.slice(d + 1), n.slice(1, 6), n.slice(0, 2)]) {
        for (const level of [undefined, 'LLT'] as const) {
          const got = await searchOn(chain.prisma, view, q, { level }, 0, 1000);
          const want = await searchOn(chain.prisma, oldest, q, { level }, 0, 1000);
          if (JSON.stringify(got) !== JSON.stringify(want) && differ.length < 3) differ.push(`${q} ${level}`);
        }
      }
    }
    expect(inRuns).toBe(Math.min(60, masked.length));
    expect(differ).toEqual([]);
  }, 300_000);

  it('the cache searches an older release through its view from the stored delta, never materialising it, and counts the view\'s search part', async () => {
    for (const db of [demo, chain]) {
      const list = await releases(db);
      const newest = list.at(-1)!;
      const cache = new SearchIndexCache(2, undefined, db.blobs);
      cache.waitMs = 60_000;
      await cache.get(newest.id, db.prisma);
      for (const r of list.slice(0, -1)) {
        const full = await ReleaseIndex.load(db.prisma, r.id);
        const queries = queriesOf(sourceNames(full, cache.peek(newest.id)!, 25), 7).slice(0, 120);
        for (const q of [...queries, undefined]) {
          const got = await searchConcepts({ db: db.prisma, indexes: cache }, r.id, q, {}, 0, 50);
          expect(JSON.stringify(got), `${r.version} ${q}`).toBe(JSON.stringify(await searchOn(db.prisma, full, q, {}, 0, 50)));
        }
        expect(cache.peek(r.id), 'no index of the release was loaded').toBeUndefined();
        const view = cache.peekView(r.id)!;
        expect(view).toBeDefined();
        expect(view.bytes).toBeGreaterThan(0);
      }
      const base = cache.peek(newest.id)!;
      // Each view with its search part stays a share of a whole index, and the cache counts it.
      let views = 0;
      for (const r of list.slice(0, -1)) {
        const v = cache.peekView(r.id)!;
        expect(v.bytes).toBeLessThan(base.approximateBytes() / 2);
        views += v.bytes;
      }
      expect(cache.bytes()).toBe(base.approximateBytes() + views);
    }
  }, 600_000);

  it('REST /codes and GraphQL codes on the oldest release answer through its view with the bytes of its whole index, which is not materialised', async () => {
    const list = await releases(chain);
    const oldest = list[0]!;
    const newest = list.at(-1)!;
    const full = await ReleaseIndex.load(chain.prisma, oldest.id);
    const base = await ReleaseIndex.load(chain.prisma, newest.id);
    const queries = queriesOf(sourceNames(full, base, 200), 3).slice(0, 40);
    let soc = 0;
    for (let i = 0; i < full.size && !soc; i++) if (full.levelOf(i) === 'SOC') soc = full.code[i]!;
    const urls = [
      ...queries.map((q) => `/codes?q=${encodeURIComponent(q)}&version=${oldest.version}`),
      `/codes?version=${oldest.version}&limit=50&page=2`,
      `/codes?q=${encodeURIComponent(queries[0]!)}&level=LLT&version=${oldest.version}`,
      `/codes?version=${oldest.version}&soc=${soc}&level=PT`,
      `/codes?version=${oldest.version}&changeType=ADDED`,
    ];
    const GQL = `query($q: String, $v: String) { codes(q: $q, version: $v, first: 30) { totalCount edges { node { code { code term level status }
      match { term level code type isSynonym score } } } } }`;
    const freshApp = async () => {
      const composed = compose(loadConfig(TEST_ENV), chain, createLogger('silent'), { catalogTtlMs: 600_000 });
      closers.push(composed.close);
      const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
      const ask = async () => {
        const out: string[] = [];
        for (const u of urls) out.push(await (await app.fetch(new Request(`http://test${u}`))).text());
        for (const q of queries.slice(0, 10)) {
          const body = JSON.stringify({ query: GQL, variables: { q, v: oldest.version } });
          out.push(await (await app.fetch(new Request('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body }))).text());
        }
        return out;
      };
      await composed.services.catalog.releases();
      return { indexes: composed.services.catalog.searchIndexes, ask };
    };
    const whole = await freshApp();
    await whole.indexes.get(oldest.id, chain.prisma);
    const want = await whole.ask();
    for (const w of want) expect(w).not.toMatch(/"errors"|"status":(4|5)\d\d/);
    expect(want.some((w) => w.includes('"type":"FUZZY"') || w.includes('"FUZZY"'))).toBe(true);
    const viewed = await freshApp();
    viewed.indexes.waitMs = 60_000;
    await viewed.indexes.get(newest.id, chain.prisma);
    const got = await viewed.ask();
    expect(got).toEqual(want);
    expect(viewed.indexes.peekView(oldest.id)).toBeDefined();
    expect(viewed.indexes.peek(oldest.id), 'the oldest release\'s index was not materialised').toBeUndefined();
  }, 300_000);
});
