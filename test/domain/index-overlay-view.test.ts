// A release's code pages through its overlay view (src/domain/releaseIndex/overlayView.ts: the
// overlay over the base's whole index, nothing materialised) answer as the index built from the
// release's rows: for every code of every demo release and of a synthetic chain, all eight methods
// the code-page loaders use (find, concept, byCodeAll, primaryPath, children, parents, allPaths,
// synonyms), and codes the release does not hold are absent. Then through the store as a server
// reads it (the delta snapshot over the newest's whole one, the cache's view), and a code page over
// REST and GraphQL on an old release: the same bytes as with its whole index, and the cache did not
// materialise that release's index. PGlite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { TEST_ENV } from '../helpers/app.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { overlayOf } from '../../src/domain/releaseIndex/overlay.ts';
import { OverlayView, type CodePageIndex } from '../../src/domain/releaseIndex/overlayView.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { importRelease } from '../../src/importer/import.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { compose } from '../../src/compose.ts';
import { createApp } from '../../src/http/app.ts';
import { LEVELS } from '../../src/domain/levels.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';

let demo: TestDatabase;
let chain: TestDatabase;
let dir: string;
const closers: (() => Promise<void>)[] = [];

/** Hosted releases, oldest first by ordinal. */
const releases = async (db: TestDatabase) => (await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal'));

beforeAll(async () => {
  // Only read (indexes loaded, searched, compared): the worker's demo store on PGlite (test/helpers/db.ts).
  demo = await sharedDemoDatabase();
  chain = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'overlay-view-'));
  let prev: SyntheticRelease | undefined;
  for (const version of ['97.0', '97.1', '97.2']) {
    const r = generateRelease({ seed: 13, version, scale: 0.01, withSmq: false, changesFrom: prev });
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

/** One code's answers of all eight methods, as a string (concepts by value, not entry numbers). */
function answers(ix: CodePageIndex, level: (typeof LEVELS)[number], code: number): string {
  const i = ix.find(level, code);
  return JSON.stringify([
    i < 0 ? null : ix.concept(i),
    ix.byCodeAll(code).map((j) => ix.concept(j)),
    ix.primaryPath(level, code),
    ix.children(level, code),
    ix.parents(level, code),
    ix.allPaths(level, code),
    level === 'PT' ? ix.synonyms(code).map((j) => ix.concept(j)) : null,
  ]);
}

/**
 * Every code of `full` (the release built from rows) and of `other` (codes it may not hold) answered
 * by `view` as by `full`; the differing ones listed (empty when exact). Returns how many were compared.
 */
function compare(view: CodePageIndex, full: ReleaseIndex, other: ReleaseIndex): { compared: number; differ: string[] } {
  const differ: string[] = [];
  let compared = 0;
  const seen = new Set<string>();
  for (const ix of [full, other]) {
    for (let i = 0; i < ix.size; i++) {
      const level = ix.levelOf(i);
      const code = ix.code[i]!;
      const key = `${level}:${code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      compared++;
      const want = answers(full, level, code);
      if (answers(view, level, code) !== want && differ.length < 5) differ.push(`${key}: ${answers(view, level, code).slice(0, 300)} ≠ ${want.slice(0, 300)}`);
    }
  }
  return { compared, differ };
}

describe('code pages through an overlay view', () => {
  it('every code of every demo release and of a synthetic chain, over the newest and over an older base, answers as the index built from rows', async () => {
    for (const db of [demo, chain]) {
      const list = await releases(db);
      const built = new Map<number, ReleaseIndex>();
      for (const r of list) built.set(r.id, await ReleaseIndex.load(db.prisma, r.id));
      // Every release over the newest (the stored layout), and over the oldest (deltas pointing forwards).
      for (const baseId of [list.at(-1)!.id, list[0]!.id]) {
        const base = built.get(baseId)!;
        for (const r of list) {
          const full = built.get(r.id)!;
          const view = OverlayView.of(base, await overlayOf(base, full))!;
          expect(view).toBeDefined();
          const { compared, differ } = compare(view, full, base);
          expect(differ, `${r.version} over ${baseId}`).toEqual([]);
          expect(compared).toBeGreaterThanOrEqual(full.size);
        }
      }
    }
  }, 300_000);

  it('the cache makes a view from each release\'s delta snapshot over the newest\'s whole one, never materialising: the same answers', async () => {
    for (const db of [demo, chain]) {
      const list = await releases(db);
      const newest = list.at(-1)!;
      const cache = new SearchIndexCache(2, undefined, db.blobs);
      cache.waitMs = 60_000; // a loaded host: the view's read is not cut short (the bound: fromIndex's)
      // Before any index is kept, no view (and no statement spent on one).
      expect(await cache.view(list[0]!.id, db.prisma)).toBeUndefined();
      const base = await cache.get(newest.id, db.prisma);
      const deltas = await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT release_id AS id FROM release_index_snapshot WHERE base_release_id = $1', newest.id);
      expect(deltas.length, 'every older release stored as a delta over the newest').toBe(list.length - 1);
      for (const r of list.slice(0, -1)) {
        const view = await cache.view(r.id, db.prisma);
        expect(view, r.version).toBeDefined();
        expect(cache.peekView(r.id)).toBe(view);
        const { differ } = compare(view!, await ReleaseIndex.load(db.prisma, r.id), base);
        expect(differ, r.version).toEqual([]);
        expect(cache.peek(r.id), 'no index of the release was loaded').toBeUndefined();
      }
      // The newest's snapshot is whole: no view of it (its index answers).
      expect(await cache.view(newest.id, db.prisma)).toBeUndefined();
      expect(cache.viewCount()).toBe(list.length - 1);
      // Views are counted in the cache's bytes, and each is a share of a whole index.
      expect(cache.bytes()).toBeGreaterThan(base.approximateBytes());
      for (const r of list.slice(0, -1)) expect(cache.peekView(r.id)!.bytes).toBeLessThan(base.approximateBytes() / 2);
    }
  }, 300_000);

  it('REST and GraphQL code pages on the oldest release answer through its view, without materialising its index, with the bytes of its whole index', async () => {
    const list = await releases(chain);
    const oldest = list[0]!;
    const newest = list.at(-1)!;
    // A few codes of each level, with hierarchy both ways and synonyms.
    const full = await ReleaseIndex.load(chain.prisma, oldest.id);
    const codes: string[] = [];
    for (const level of LEVELS) {
      let taken = 0;
      for (let i = 0; i < full.size && taken < 4; i += 7) if (full.levelOf(i) === level) (codes.push(String(full.code[i]!)), taken++);
    }
    const page = (code: string) => `/codes/${code}?version=${oldest.version}`;
    const GQL = `query($code: String!, $v: String!) { code(code: $code, version: $v) { code term level status
      parents { relationshipType isPrimary code { code term level } } children { relationshipType code { code term level } }
      primaryPath { nodes { code level } } paths { isPrimary nodes { code } } pt { code term }
      synonyms(first: 50) { totalCount edges { node { code term status isPrimary } } } } }`;
    const freshApp = async () => {
      const composed = compose(loadConfig(TEST_ENV), chain, createLogger('silent'), { catalogTtlMs: 600_000 });
      closers.push(composed.close);
      const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
      const ask = async (code: string) => {
        const rest = await (await app.fetch(new Request(`http://test${page(code)}`))).text();
        const gql = await (
          await app.fetch(new Request('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query: GQL, variables: { code, v: oldest.version } }) }))
        ).text();
        return `${rest}\n${gql}`;
      };
      await composed.services.catalog.releases();
      return { indexes: composed.services.catalog.searchIndexes, ask };
    };
    // With the oldest release's whole index.
    const whole = await freshApp();
    await whole.indexes.get(oldest.id, chain.prisma);
    const want = await Promise.all(codes.map((c) => whole.ask(c)));
    for (const w of want) expect(w).not.toMatch(/"errors"|"status":(4|5)\d\d/);
    // Through the view: only the newest's index kept (as a server after its warm-up).
    const viewed = await freshApp();
    viewed.indexes.waitMs = 60_000;
    await viewed.indexes.get(newest.id, chain.prisma);
    const got = await Promise.all(codes.map((c) => viewed.ask(c)));
    expect(got).toEqual(want);
    expect(viewed.indexes.peekView(oldest.id)).toBeDefined();
    expect(viewed.indexes.peek(oldest.id), 'the oldest release\'s index was not materialised').toBeUndefined();
  }, 300_000);
});
