// A release's index kept as an overlay on another release's and materialised again
// (src/domain/releaseIndex/overlay.ts) is the index built from the release's rows: the same
// parts(), array by array, for every demo release over the latest and for a synthetic chain
// (the generator's realistic changes) in either direction; and answers the
// same code page and search. The overlay holds a share of the entries, not all of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { ReleaseIndex, type ReleaseIndexParts } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { materialise, overlayOf } from '../../src/domain/releaseIndex/overlay.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { partsDifference } from '../helpers/indexParts.ts';

let db: TestDatabase;
let demoIds: number[];
let chainIds: number[];
let dir: string;
const queries: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ template: 'demo', onQuery: (sql) => queries.push(sql) });
  demoIds = (await db.prisma.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM release ORDER BY id`)).map((r) => r.id);
  // Two consecutive synthetic releases, the second the generator's next of the first (each import
  // is seconds on a loaded host: two give both directions).
  dir = mkdtempSync(path.join(tmpdir(), 'index-overlay-'));
  chainIds = [];
  let prev: SyntheticRelease | undefined;
  for (const version of ['95.0', '95.1']) {
    const r = generateRelease({ seed: 7, version, scale: 0.01, withSmq: false, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    chainIds.push((await importRelease(db, path.join(dir, version))).releaseId);
    prev = r;
  }
}, 240_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function roundTrip(baseId: number, releaseId: number) {
  const base = await ReleaseIndex.load(db.prisma, baseId);
  const full = await ReleaseIndex.load(db.prisma, releaseId);
  const overlay = await overlayOf(base, full);
  const made = await materialise(base, overlay);
  const want: ReleaseIndexParts = full.parts();
  expect(partsDifference(made.parts(), want), `release ${releaseId} over ${baseId}`).toBe('');
  return { base, full, overlay, made };
}

describe('index overlays', () => {
  it('every demo release over the latest materialises to the index built from its rows', async () => {
    const latest = demoIds.at(-1)!;
    for (const id of demoIds.slice(0, -1)) {
      const { full, overlay } = await roundTrip(latest, id);
      expect(overlay.at.length).toBeLessThan(full.size);
    }
    // Over itself: nothing of its own.
    const { overlay } = await roundTrip(latest, latest);
    expect(overlay.at.length).toBe(0);
    expect(overlay.down.entry.length + overlay.up.entry.length + overlay.ptPaths.replaced.length).toBe(0);
  }, 120_000);

  it('a synthetic chain: the older release over the newer, and the newer over the older', async () => {
    const [a, b] = chainIds as [number, number];
    const pairs: [number, number][] = [[b, a], [a, b]];
    for (const [base, release] of pairs) {
      const { full, overlay } = await roundTrip(base, release);
      // The generator changes a few per cent between neighbours: an overlay is a share of its index.
      expect(overlay.at.length, `${release} over ${base}`).toBeGreaterThan(0);
      expect(overlay.at.length, `${release} over ${base}`).toBeLessThan(full.size / 2);
    }
  }, 120_000);

  it('a materialised index answers as the built one: code pages and searches', async () => {
    const [a, b] = chainIds as [number, number];
    const { full, made } = await roundTrip(b, a);
    for (let i = 0; i < full.size; i += 37) {
      const level = full.levelOf(i);
      const code = full.code[i]!;
      expect(JSON.stringify([made.concept(i), made.parents(level, code), made.children(level, code), made.allPaths(level, code), made.primaryPath(level, code)])).toBe(
        JSON.stringify([full.concept(i), full.parents(level, code), full.children(level, code), full.allPaths(level, code), full.primaryPath(level, code)]),
      );
      if (level === 'PT') expect(made.synonyms(code)).toEqual(full.synonyms(code));
    }
    for (const q of [full.norm[5]!, full.norm[Math.floor(full.size / 2)]!.slice(0, 5), 'pain']) expect(made.containing(q)).toEqual(full.containing(q));
    expect(Array.from(made.listingOrder())).toEqual(Array.from(full.listingOrder()));
  }, 120_000);

  it('the index cache keeps an evicted release as an overlay and, with no snapshot to read, materialises it: no statement', async () => {
    const [first, second] = demoIds as [number, number];
    const latest = demoIds.at(-1)!;
    const sources: string[] = [];
    // No binary channel: no snapshots, so a release comes back from its overlay or from rows.
    const cache = new SearchIndexCache(2, undefined, undefined, { onLoaded: (id, source) => sources.push(`${id}:${source}`) });
    await cache.get(first, db.prisma);
    await cache.get(latest, db.prisma);
    await cache.get(second, db.prisma); // evicts `first`: its overlay over `latest`, the newest built
    for (let i = 0; i < 2_000 && !cache.hasOverlay(first); i++) await new Promise((r) => setTimeout(r, 5));
    expect(cache.hasOverlay(first)).toBe(true);
    await cache.get(latest, db.prisma); // now `second` is the least recently used
    queries.length = 0;
    const made = await cache.get(first, db.prisma);
    expect(queries).toEqual([]);
    expect(sources.at(-1)).toBe(`${first}:overlay`);
    expect(partsDifference(made.parts(), (await ReleaseIndex.load(db.prisma, first)).parts())).toBe('');
    // Its base dropped, an overlay is no longer used: rows again.
    await cache.get(second, db.prisma); // evicts `latest`
    expect(cache.hasOverlay(first)).toBe(false);
  }, 60_000);

  it('refuses an overlay over another base', async () => {
    const [a, b] = chainIds as [number, number];
    const overlay = await overlayOf(await ReleaseIndex.load(db.prisma, b), await ReleaseIndex.load(db.prisma, a));
    await expect(materialise(await ReleaseIndex.load(db.prisma, demoIds.at(-1)!), overlay)).rejects.toThrow(/over release/);
  }, 60_000);
});
