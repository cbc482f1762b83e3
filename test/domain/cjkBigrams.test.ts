// Japanese search's partial tier from character-bigram postings (issue 28: search in Japanese
// within 1.5× of English). The postings must change nothing but speed: every answer equals the
// one the scan of every name gives (the same index with the postings refused, prepareBigrams(0)),
// over the synthetic generator's Japanese folder and the demo's Japanese names, both imported
// into a real database. And the postings count in the index cache's memory accounting.
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';
import { writeLanguageFolder } from '../../tools/synthetic/language.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { buildLanguageIndex } from '../../src/domain/releaseIndex/languageIndex.ts';
import { BigramPostings } from '../../src/domain/releaseIndex/bigramPostings.ts';
import type { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { searchConcepts, type SearchPage, type SearchSource } from '../../src/domain/releaseIndex/search.ts';
import { searchLanguage } from '../../src/services/language.ts';
import type { ReleaseInfo } from '../../src/domain/releases.ts';
import { rowsAt } from '../helpers/releaseRows.ts';

const ja = searchLanguage({ languages: ['en', 'de', 'ja'] } as unknown as ReleaseInfo, 'ja');

/** A search source answering from the given indexes (the one under test, or the scanning one). */
const sourceOf = (db: TestDatabase, base: ReleaseIndex, lang: ReleaseIndex): SearchSource => ({
  db: db.prisma,
  indexes: { get: async () => base, getLanguage: async () => lang, searchView: async () => undefined } as unknown as SearchIndexCache,
});

/** Queries from the names: prefixes, inner parts, the whole, and mixes of two names (partial overlaps only). */
function queriesFrom(names: readonly string[], count: number): string[] {
  const out = new Set<string>();
  const step = Math.max(1, Math.floor(names.length / count));
  for (let k = 0; k * step < names.length; k++) {
    const a = Array.from(names[k * step]!);
    const b = Array.from(names[(k * step * 7 + 3) % names.length]!);
    out.add(a.slice(0, 2).join(''));
    out.add(a.slice(0, 3).join(''));
    out.add(a.slice(1, 5).join(''));
    out.add(a.join(''));
    out.add([...a.slice(0, 2), ...b.slice(-2)].join(''));
    out.add([...a.slice(0, 2), '〇', ...a.slice(3, 5)].join(''));
  }
  return [...out].filter((q) => q.trim() !== '');
}

const shape = (p: SearchPage) => ({
  total: p.total,
  best: p.best,
  hits: p.hits.map((h) => [h.concept.level, h.concept.code, h.concept.name, h.match?.type, h.match?.score, h.match?.term]),
});

/** Every query through the postings and through the scan: equal pages; returns how many had partial-tier hits. */
async function compareAll(db: TestDatabase, releaseId: number, queries: readonly string[]): Promise<{ partial: number }> {
  const cache = new SearchIndexCache(4);
  const base = await cache.get(releaseId, db.prisma);
  const fast = await buildLanguageIndex(db.prisma, base, 'ja');
  const scan = await buildLanguageIndex(db.prisma, base, 'ja');
  await fast.prepareBigrams();
  await scan.prepareBigrams(0);
  expect(fast.bigrams()).toBeDefined();
  expect(scan.bigrams()).toBeUndefined();
  let partial = 0;
  for (const q of queries) {
    for (const [offset, limit] of [[0, 20], [0, 500]] as const) {
      const a = await searchConcepts(sourceOf(db, base, fast), releaseId, q, {}, offset, limit, ja);
      const b = await searchConcepts(sourceOf(db, base, scan), releaseId, q, {}, offset, limit, ja);
      expect(shape(a), q).toEqual(shape(b));
      if (limit === 500 && a.hits.some((h) => h.match!.score < 0.6)) partial++;
    }
  }
  return { partial };
}

/** The postings against a brute-force substring test, for every bigram of the names and a few absent ones. */
function checkPostings(norms: readonly string[], lists: BigramPostings): number {
  const grams = new Set<string>(['〇〇', 'zz', 'a']);
  for (const n of norms) {
    const cps = Array.from(n);
    for (let i = 0; i + 1 < cps.length; i++) grams.add(cps[i]! + cps[i + 1]!);
  }
  for (const g of grams) {
    const expected = Array.from(g).length === 2 ? norms.flatMap((n, i) => (n.includes(g) ? [i] : [])) : [];
    expect(Array.from(lists.entries(g)), g).toEqual(expected);
  }
  return grams.size;
}

describe('CJK partial matches from bigram postings: the synthetic Japanese folder', () => {
  let db: TestDatabase;
  let dir: string;
  let releaseId: number;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'te-cjk-bigrams-'));
    const en = path.join(dir, '78.0');
    // Japanese names only: no SMQs and no German folder, which the search in Japanese never reads
    // (their import: ~1.5 s of this file's 17 s of CPU).
    await writeMedAscii(generateRelease({ seed: 7, version: '78.0', scale: 0.02, withSmq: false }), en);
    writeLanguageFolder(en, path.join(dir, '78.0-ja'), 'ja');
    for (const d of ['78.0', '78.0-ja']) await importRelease(db, path.join(dir, d));
    releaseId = (await db.prisma.release.findUniqueOrThrow({ where: { version: '78.0' } })).id;
  }, 240_000);
  afterAll(async () => {
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('each bigram list holds exactly the entries whose folded name contains it', async () => {
    const base = await new SearchIndexCache(2).get(releaseId, db.prisma);
    const ix = await buildLanguageIndex(db.prisma, base, 'ja');
    const lists = (await BigramPostings.build(ix.norm))!;
    expect(checkPostings(ix.norm, lists)).toBeGreaterThan(500);
  });

  it('every search answers as the scan did, partial overlaps included', async () => {
    const names = (await rowsAt<{ name: string }>(db.prisma, 'concept_name', releaseId, "t.language = 'ja' ORDER BY t.level, t.code")).map((n) => n.name);
    const queries = queriesFrom(names, 60);
    const { partial } = await compareAll(db, releaseId, queries);
    // The comparison covers the tier the postings serve, not only whole-query matches.
    expect(partial).toBeGreaterThan(queries.length / 4);
  }, 120_000);

  it('over their byte bound they are not built and the search scans', async () => {
    const base = await new SearchIndexCache(2).get(releaseId, db.prisma);
    const ix = await buildLanguageIndex(db.prisma, base, 'ja');
    expect(await BigramPostings.build(ix.norm, 1000)).toBeNull();
  });

  it('count in the index cache\'s bytes once the first partial search has built them', async () => {
    const cache = new SearchIndexCache(4);
    const src: SearchSource = { db: db.prisma, indexes: cache };
    await searchConcepts(src, releaseId, '肝', {}, 0, 20, ja); // one character: no partial tier, no postings
    const ix = await cache.getLanguage(releaseId, 'ja', db.prisma);
    expect(ix.bigrams()).toBeUndefined();
    const before = cache.bytes();
    const name = Array.from(ix.norm.find((n) => Array.from(n).length >= 4)!);
    await searchConcepts(src, releaseId, `${name[0]}${name[1]}〇〇${name[2]}${name[3]}`, {}, 0, 20, ja);
    const lists = ix.bigrams();
    expect(lists).toBeDefined();
    expect(cache.bytes() - before).toBe(lists!.bytes());
  });
});

describe('CJK partial matches from bigram postings: the demo\'s Japanese names', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await sharedDemoDatabase();
  }, 120_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  // The latest release only: the older ones' Japanese names are nearly all among its own (4.03:
  // 18 of 2,477 not; 5.0: 6 of 2,666), so their searches repeated the same comparisons (two thirds
  // of this file's CPU). The postings are built per language index, the same code for each release.
  it('every search of the latest demo release answers as the scan did', async () => {
    const releases = await db.prisma.release.findMany({ select: { id: true, version: true }, where: { version: '5.0.1' } });
    expect(releases).toHaveLength(1);
    for (const r of releases) {
      const names = (await rowsAt<{ name: string }>(db.prisma, 'concept_name', r.id, "t.language = 'ja' ORDER BY t.level, t.code")).map((n) => n.name);
      expect(names.length, r.version).toBeGreaterThanOrEqual(300);
      const base = await new SearchIndexCache(2).get(r.id, db.prisma);
      const norms = (await buildLanguageIndex(db.prisma, base, 'ja')).norm;
      checkPostings(norms, (await BigramPostings.build(norms))!);
      const queries = queriesFrom(names, 50);
      const { partial } = await compareAll(db, r.id, queries);
      expect(partial, r.version).toBeGreaterThan(queries.length / 4);
    }
  }, 180_000);
});
