// The typo pass's candidates and a page's partial ordering (src/domain/releaseIndex/search.ts, issue
// 32's p95 round) against exhaustive answers: on a generated release imported into the database and
// loaded as its index, every query of a set (whole names, long names with a letter replaced or
// dropped, words, prefixes, renamed names of the previous release) gives
//  - the matches scoring every name of the release gives: each name containing the query, and each
//    other name whose similarity to it is ≥ 0.3 or word similarity ≥ 0.6 by the index's own score()
//    (pg_trgm's definitions) — per name at level LLT (no collapse), and as targets (LLTs onto PTs)
//    by default, with the same scores;
//  - pages of 20 at several offsets that are the slices of the whole ranking sorted at once.
// PGlite only (vitest.config.ts: arrays in memory; the loaded index is checked on both databases).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { searchOn, type SearchFilters } from '../../src/domain/releaseIndex/search.ts';
import { normalizeName } from '../../src/domain/text.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { lcg } from '../../tools/random.ts';

let db: TestDatabase;
let dir: string;
let index: ReleaseIndex;
let older: SyntheticRelease;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), 'search-typo-'));
  let prev: SyntheticRelease | undefined;
  for (const version of ['97.0', '97.1']) {
    const r = generateRelease({ seed: 31, version, scale: 0.04, withSmq: false, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    await importRelease(db, path.join(dir, version));
    older ??= r;
    prev = r;
  }
  const [newest] = await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release ORDER BY ordinal DESC LIMIT 1');
  index = await ReleaseIndex.load(db.prisma, newest!.id);
}, 300_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Queries of every kind the typo pass sees: long names with a typo first (many trigrams, long lists). */
function queries(): string[] {
  const rnd = lcg(32);
  const out = new Set<string>();
  const names = [...older.llts.map((l) => l.name), ...older.pts.map((p) => p.name)];
  const long = names.filter((n) => n.length >= 30);
  for (let k = 0; k < 60; k++) {
    const n = long[Math.floor(rnd() * long.length)]!;
    const at = 1 + Math.floor(rnd() * (n.length - 2));
    out.add(n.slice(0, at) + (n[at] === 'e' ? 'a' : 'e') + n.slice(at + 1));
    out.add(n.slice(0, at) + n.slice(at + 1));
  }
  for (let k = 0; k < 60; k++) {
    const n = names[Math.floor(rnd() * names.length)]!;
    out.add(n);
    out.add(n.slice(0, 5));
    out.add(n.split(' ')[0]!);
  }
  return [...out];
}

/** Every entry the query matches, scored one by one: substring, else similarity ≥ 0.3 or word similarity ≥ 0.6. */
function exhaustive(q: string): Map<number, number> {
  const text = normalizeName(q);
  const { size, ids } = index.queryTrigrams(text);
  const mask = index.mask(ids);
  const out = new Map<number, number>();
  for (let i = 0; i < index.size; i++) {
    const s = index.score(i, mask, size);
    if (index.norm[i]!.includes(text) || s.full >= 0.3 || s.sim >= 0.6) out.set(i, Math.round(s.sim * 1000) / 1000);
  }
  return out;
}

const ALL = 100_000;

describe('typo pass and paging against exhaustive answers', () => {
  it('every query: the same matches and scores as scoring every name; pages are slices of the whole ranking', async () => {
    const db0 = db.prisma;
    let typoPasses = 0;
    for (const q of queries()) {
      const text = normalizeName(q);
      const every = exhaustive(q);
      const substrings = [...every.keys()].filter((i) => index.norm[i]!.includes(text));
      // Per LLT (no collapse): with a page this large the typo pass joins unless an LLT is the query.
      const llt: SearchFilters = { level: 'LLT' };
      const whole = await searchOn(db0, index, q, llt, 0, ALL);
      const exactLlt = substrings.some((i) => index.norm[i] === text && index.levelOf(i) === 'LLT');
      const expected = (exactLlt ? substrings : [...every.keys()]).filter((i) => index.levelOf(i) === 'LLT');
      if (!exactLlt) typoPasses++;
      expect(whole.total, q).toBe(expected.length);
      expect(new Map(whole.hits.map((h) => [h.concept.code, h.match!.score])), q).toEqual(new Map(expected.map((i) => [index.code[i]!, every.get(i)!])));
      // Targets by default: LLTs onto their PTs.
      const byTarget = await searchOn(db0, index, q, {}, 0, ALL);
      const exact = substrings.some((i) => index.norm[i] === text && (index.levelOf(i) !== 'LLT' || index.find('PT', index.ptCode[i]!) >= 0));
      const targets = new Set<string>();
      for (const i of exact ? substrings : every.keys()) {
        const t = index.levelOf(i) === 'LLT' ? index.find('PT', index.ptCode[i]!) : i;
        if (t >= 0) targets.add(`${index.levelOf(t)}:${index.code[t]}`);
      }
      expect(byTarget.total, q).toBe(targets.size);
      expect(new Set(byTarget.hits.map((h) => `${h.concept.level}:${h.concept.code}`)), q).toEqual(targets);
      // Pages of 20 (the partial ordering) are the whole ranking's slices, whenever their pass is the same.
      if (byTarget.best === 4 || byTarget.total === 0) continue;
      for (const offset of [0, 20, 60]) {
        const page = await searchOn(db0, index, q, {}, offset, 20);
        const again = await searchOn(db0, index, q, {}, 0, offset + 20);
        if (page.total === again.total) expect(page.hits, `${q} @${offset}`).toEqual(again.hits.slice(offset));
        if (page.total === byTarget.total) expect(page.hits, `${q} @${offset}`).toEqual(byTarget.hits.slice(offset, offset + 20));
      }
    }
    // The set reached the typo pass on most queries (not only substring answers).
    expect(typoPasses).toBeGreaterThan(100);
  }, 300_000);
});
