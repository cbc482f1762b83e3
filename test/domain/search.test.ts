// The in-memory search index against the database it replaced: pg_trgm's own
// similarity functions and the substring/trigram operators decide the expected answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { demoReleases } from '../../src/importer/demo.ts';
import { writeFixture, miniSpec } from '../helpers/medascii.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import { normalizeName } from '../../src/domain/text.ts';

let db: TestDatabase;
const queries: string[] = [];
let releaseId: number;

beforeAll(async () => {
  // The latest demo release, from the worker's shared demo store (this file only reads it).
  db = await sharedDemoDatabase({ onQuery: (sql) => queries.push(sql) });
  const latest = demoReleases().at(-1)!;
  const rows = await db.prisma.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM release WHERE version = $1`, latest.version);
  expect(rows).toHaveLength(1);
  releaseId = rows[0]!.id;
}, 120_000);

afterAll(async () => {
  await db?.cleanup();
});

const QUERIES = ['headache', 'hedache', 'nausea', 'naus', 'febrile neutropnia', 'pain', 'ain', 'eye', 'ab', 'abdominal pain upper', 'alanine aminotransferase increesed', "meniere's", 'x'];

describe('trigram similarity', () => {
  it('agrees with pg_trgm similarity() and word_similarity() on every demo name', async () => {
    // The scoring search uses: the release index's, on packed trigram ids.
    const ix = await ReleaseIndex.load(db.prisma, releaseId);
    let compared = 0;
    for (const q of QUERIES) {
      const rows = await db.prisma.$queryRawUnsafe<{ level: 'SOC' | 'HLGT' | 'HLT' | 'PT' | 'LLT'; code: number; name_norm: string; s: number; w: number }[]>(
        `SELECT level::text AS level, code, name_norm, similarity(name_norm, $2)::float8 AS s, word_similarity($2, name_norm)::float8 AS w
         FROM concept_at($1)`,
        releaseId,
        q,
      );
      const { size, ids } = ix.queryTrigrams(q);
      const mask = ix.mask(ids);
      for (const r of rows) {
        const got = ix.score(ix.find(r.level, r.code), mask, size);
        // float4 in PostgreSQL: agree to its precision. sim = greatest(similarity, word_similarity).
        expect(got.full, `${q} ~ ${r.name_norm}`).toBeCloseTo(r.s, 5);
        expect(got.sim, `${q} <% ${r.name_norm}`).toBeCloseTo(Math.max(r.s, r.w), 5);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});

describe('search index', () => {
  const source = () => ({ db: db.prisma, indexes: new SearchIndexCache() });

  it('matches exactly the names the database operators match (LIKE, %, <%)', async () => {
    const src = source();
    for (const q of QUERIES) {
      const nq = normalizeName(q);
      const page = await searchConcepts(src, releaseId, q, { level: 'LLT' }, 0, 10_000);
      const got = new Set(page.hits.map((h) => h.concept.code));
      // Reference: substrings, plus trigram-similar names when nothing is named exactly and
      // substrings leave the page unfilled (the documented rule).
      const substr = await db.prisma.$queryRawUnsafe<{ code: number; exact: boolean }[]>(
        `SELECT code, name_norm = $2 AS exact FROM concept_at($1) WHERE level = 'LLT' AND strpos(name_norm, $2) > 0`,
        releaseId,
        nq,
      );
      let expected = substr.map((r) => r.code);
      if (!substr.some((r) => r.exact) && substr.length < 10_000) {
        const similar = await db.prisma.$queryRawUnsafe<{ code: number }[]>(
          `SELECT code FROM concept_at($1) WHERE level = 'LLT' AND (strpos(name_norm, $2) > 0 OR name_norm % $2 OR $2 <% name_norm)`,
          releaseId,
          nq,
        );
        expected = similar.map((r) => r.code);
      }
      expect([...got].sort(), q).toEqual([...new Set(expected)].sort());
      expect(page.total, q).toBe(new Set(expected).size);
    }
  });

  it('ranks exact > prefix > word prefix > typo, reports pg_trgm scores, and pages consistently', async () => {
    const src = source();
    const all = await searchConcepts(src, releaseId, 'pain', {}, 0, 500);
    const tiers = all.hits.map((h) => ({ EXACT: 4, PREFIX: 3, WORD_PREFIX: 2, FUZZY: 1 })[h.match!.type]);
    expect(tiers).toEqual([...tiers].sort((a, b) => b - a));
    expect(all.hits[0]!.match!.type).toBe('EXACT');
    // Pages are slices of the whole ranking.
    const pages = [];
    for (let off = 0; off < all.total; off += 7) pages.push(...(await searchConcepts(src, releaseId, 'pain', {}, off, 7)).hits);
    expect(pages.map((h) => `${h.concept.level}:${h.concept.code}`)).toEqual(all.hits.map((h) => `${h.concept.level}:${h.concept.code}`));
    const fuzzy = await searchConcepts(src, releaseId, 'hedache', {}, 0, 5);
    expect(fuzzy.hits[0]!.concept.name).toBe('Headache');
    const [ref] = await db.prisma.$queryRawUnsafe<{ s: number }[]>(
      `SELECT greatest(similarity('headache', 'hedache'), word_similarity('hedache', 'headache'))::float8 AS s`,
    );
    expect(fuzzy.hits[0]!.match!.score).toBeCloseTo(ref!.s, 3);
    // Past the end: no hits, the total still reported.
    const past = await searchConcepts(src, releaseId, 'pain', {}, all.total + 10, 5);
    expect(past.hits).toEqual([]);
    expect(past.total).toBe(all.total);
  });

  it('answers from memory once built: no SQL without filters nor with a hierarchy filter', async () => {
    const src = source();
    await searchConcepts(src, releaseId, 'nausea', {}, 0, 20); // builds the index
    queries.length = 0;
    const page = await searchConcepts(src, releaseId, 'vomiting', {}, 0, 20);
    expect(page.hits.length).toBeGreaterThan(0);
    expect(queries).toEqual([]);
    const soc = page.hits[0]!.concept.primarySocCode!;
    const filtered = await searchConcepts(src, releaseId, 'vomiting', { soc }, 0, 20);
    expect(queries).toEqual([]);
    expect(filtered.hits.length).toBeGreaterThan(0);
    expect(filtered.total).toBeLessThanOrEqual(page.total);
  });

  // A store of its own, empty but for the release: the two imports over the demo chain were
  // 3-5 s of CPU (its ranges and snapshots) for an assertion about one release's id and index.
  it('a replaced release is searched afresh (new release id, new index)', async () => {
    const own = await createTestDatabase({ template: 'migrated' });
    try {
      const spec = miniSpec('7.0');
      const first = await importRelease(own, writeFixture(spec));
      const src = { db: own.prisma, indexes: new SearchIndexCache() };
      expect((await searchConcepts(src, first.releaseId, 'giddiness', {}, 0, 5)).total).toBe(1);
      spec.llts = spec.llts.map((l) => (l[1] === 'Giddiness' ? [l[0], 'Lightheadedness', l[2]] : l));
      const second = await importRelease(own, writeFixture(spec), { replace: true });
      expect(second.releaseId).not.toBe(first.releaseId);
      expect((await searchConcepts(src, second.releaseId, 'lightheadedness', {}, 0, 5)).total).toBe(1);
      expect((await searchConcepts(src, second.releaseId, 'giddiness', {}, 0, 5)).total).toBe(0);
    } finally {
      await own.cleanup();
    }
  });
});

describe('catalog reads from a built index', () => {
  it('answer concepts and primary paths exactly as the database does, for every code of the release', async () => {
    const { createLoaders } = await import('../../src/services/loaders.ts');
    const indexes = new SearchIndexCache();
    await indexes.get(releaseId, db.prisma);
    const fromDb = createLoaders(db.prisma, db.prisma);
    const fromMemory = createLoaders(db.prisma, db.prisma, indexes);
    const rows = await db.prisma.$queryRawUnsafe<{ level: 'SOC' | 'HLGT' | 'HLT' | 'PT' | 'LLT'; code: number }[]>(
      `SELECT level::text AS level, code FROM concept_at($1)`,
      releaseId,
    );
    const keys = [...rows.map((r) => ({ releaseId, level: r.level, code: r.code })), { releaseId, level: 'PT' as const, code: 99999999 }];
    queries.length = 0;
    const [mc, mp] = await Promise.all([fromMemory.concept.loadMany(keys), fromMemory.primaryPath.loadMany(keys)]);
    expect(queries).toEqual([]);
    const [dc, dp] = await Promise.all([fromDb.concept.loadMany(keys), fromDb.primaryPath.loadMany(keys)]);
    expect(mc).toEqual(dc);
    expect(mp).toEqual(dp);
    expect(mc.at(-1)).toBeNull();
    expect(dp.filter((p) => p !== null).length).toBeGreaterThan(500);
  });
});
