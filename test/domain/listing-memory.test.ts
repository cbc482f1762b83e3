// Listings without a query and the hierarchy filters answer from the release index
// (search.ts, underNode.ts) exactly as the single SQL statement they replaced: the same
// items in the same order (the database's collation) and the same totals, for every
// SOC, HLGT and HLT filter of the demo release and of a small release built to be
// multiaxial at every level; searches with a query under a filter agree with the SQL
// filter path (an index without hierarchy still takes it); and a listing under a SOC
// issues no SQL at all. PGlite and PostgreSQL (TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { writeFixture, type FixtureSpec } from '../helpers/medascii.ts';
import { CONCEPT_COLUMNS, type Concept } from '../../src/domain/concepts.ts';
import { underNodeSql } from '../../src/domain/hierarchyFilter.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import type { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts, type SearchFilters } from '../../src/domain/releaseIndex/search.ts';
import { deserializeIndex, serializeIndex } from '../../src/domain/releaseIndex/snapshot.ts';

/**
 * Multiaxial at every level: an HLGT under two SOCs, an HLT under two HLGTs of different
 * SOCs, PTs on several HLTs; a SOC without HLGTs, an HLT without PTs (on no path, so under
 * nothing); names whose order differs between the database's collation and code units.
 */
const MULTI: FixtureSpec = {
  version: '1.0',
  socs: [
    [10000001, 'Beta disorders', 'Beta'],
    [10000002, 'alpha disorders', 'Alph'],
    [10000003, 'Empty disorders', 'Empt'],
  ],
  hlgts: [
    [20000001, 'Group one', [10000001]],
    [20000002, 'group shared', [10000001, 10000002]],
    [20000003, 'Group three', [10000002]],
    [20000004, 'Group four', [10000002]],
  ],
  hlts: [
    [30000001, 'Terms a', [20000001]],
    [30000002, 'terms b-c', [20000001, 20000003]],
    [30000003, 'Terms bc', [20000002]],
    [30000004, 'Terms b c', [20000003]],
    [30000005, 'Terms empty', [20000004]],
  ],
  pts: [
    [10100001, 'Éclair syndrome', 10000001, [30000001]],
    [10100002, 'eclair', 10000001, [30000002]],
    [10100003, 'Zeta pain', 10000002, [30000003, 30000004]],
    [10100004, 'a-b pain', 10000002, [30000001, 30000004]],
    [10100005, 'ab pain', 10000001, [30000003]],
    [10100006, 'A b pain', 10000002, [30000002, 30000003]],
  ],
  llts: [
    [10200001, 'Same name', 10100001],
    [10200002, 'Same name', 10100003],
    [10200003, 'same-name', 10100004, false],
    [10200004, 'Old eclair', 10100002, false],
    [10200005, 'zz last', 10100006],
    [10200006, 'Ab pain', 10100005],
  ],
};

let db: TestDatabase;
const statements: string[] = [];
let demo: number;
let demoPrev: number;
let multi: number;
const indexes = new Map<number, ReleaseIndex>();

/** A search source over a fixed, already built index (statements counted are the answer's own). */
const source = (ix: ReleaseIndex) => ({ db: db.prisma, indexes: { get: async () => ix, within: async () => ix, searchView: async () => undefined } as unknown as SearchIndexCache });
const memory = (releaseId: number) => source(indexes.get(releaseId)!);
/** The same index without its hierarchy: search sends the filters to SQL (the path it replaced). */
const sqlFilters = (releaseId: number) => {
  const ix = deserializeIndex(serializeIndex(indexes.get(releaseId)!), releaseId);
  ix.hasHierarchy = false;
  return source(ix);
};

/** The listing statement as it was before the in-memory listing: the oracle. */
async function sqlListing(releaseId: number, f: SearchFilters, offset: number, limit: number): Promise<{ total: number; items: Concept[] }> {
  const params: unknown[] = [releaseId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const collapse = f.level !== 'LLT';
  const where: string[] = [];
  if (f.level) where.push(`t.tlevel = ${p(f.level)}`);
  where.push(underNodeSql(f, '$1', 't.tlevel', 't.tcode', p));
  if (f.change) {
    where.push(`EXISTS (SELECT 1 FROM release_change rc WHERE rc.from_release_id = ${p(f.change.fromReleaseId)} AND rc.to_release_id = $1
      AND rc.code = t.tcode AND rc.level = t.tlevel AND rc.change_type = ${p(f.change.type)}::"ChangeType")`);
  }
  const rows = await db.prisma.$queryRawUnsafe<(Concept & { total: number })[]>(
    `WITH t AS (
      SELECT c.level AS tlevel, c.code AS tcode FROM concept_at($1) c
      WHERE true ${collapse ? "AND NOT (c.level = 'LLT' AND c.code = c.pt_code)" : ''} ${f.currentOnly ? 'AND c.current' : ''}
    )
    SELECT ${CONCEPT_COLUMNS('c', '$1::int')}, count(*) OVER ()::int AS total
    FROM t JOIN concept_at($1) c ON c.level = t.tlevel AND c.code = t.tcode
    WHERE ${where.join(' AND ')}
    ORDER BY c.level, c.intl_order NULLS LAST, c.name_norm, c.code
    OFFSET ${p(offset)} LIMIT ${p(limit)}`,
    ...params,
  );
  return { total: rows[0]?.total ?? 0, items: rows.map(({ total: _t, ...c }) => c) };
}

async function expectSameListing(releaseId: number, f: SearchFilters, offset = 0, limit = 100_000): Promise<number> {
  const got = await searchConcepts(memory(releaseId), releaseId, undefined, f, offset, limit);
  const want = await sqlListing(releaseId, f, offset, limit);
  const label = JSON.stringify(f);
  expect(got.hits.map((h) => h.concept), label).toEqual(want.items);
  if (offset === 0 || want.items.length > 0) expect(got.total, label).toBe(want.total);
  expect(got.best).toBeNull();
  return got.total;
}

const codesAt = async (releaseId: number, level: string) =>
  (
    await db.prisma.$queryRawUnsafe<{ code: number }[]>(`SELECT code FROM concept_at($1) WHERE level = $2::"Level" ORDER BY code`, releaseId, level)
  ).map((r) => r.code);

beforeAll(async () => {
  db = await createTestDatabase({ template: 'demo', onQuery: (sql) => statements.push(sql) });
  multi = (await importRelease(db, writeFixture(MULTI))).releaseId;
  const releases = await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>(`SELECT id, version FROM release ORDER BY id`);
  demo = releases.find((r) => r.version === '5.0.1')!.id;
  demoPrev = releases.find((r) => r.version === '5.0')!.id;
  for (const id of [demo, multi]) indexes.set(id, await ReleaseIndex.load(db.prisma, id));
}, 180_000);

afterAll(async () => {
  await db?.cleanup();
});

describe('listing without a query, from the release index', () => {
  it('lists every SOC, HLGT and HLT subtree of the multiaxial release as the SQL did', async () => {
    const totals: number[] = [];
    for (const [level, key] of [['SOC', 'soc'], ['HLGT', 'hlgt'], ['HLT', 'hlt']] as const) {
      for (const code of await codesAt(multi, level)) {
        for (const extra of [{}, { currentOnly: true }, { level: 'LLT' as const }, { level: 'PT' as const }]) {
          totals.push(await expectSameListing(multi, { [key]: code, ...extra }));
        }
      }
    }
    // Node pairs, on one path or not; LLT filters (a synonym, a PT's own LLT, none such), alone and with a node.
    for (const f of [
      { soc: 10000002, hlgt: 20000002 }, { soc: 10000002, hlt: 30000002 }, { hlgt: 20000001, hlt: 30000004 }, { soc: 10000003, hlt: 30000005 },
      { llt: 10200003 }, { llt: 10100003 }, { llt: 99999999 }, { llt: 10200002, soc: 10000002 }, { llt: 10200002, soc: 10000001 }, { llt: 10200003, level: 'LLT' as const },
    ]) {
      totals.push(await expectSameListing(multi, f));
    }
    await expectSameListing(multi, {});
    await expectSameListing(multi, { level: 'LLT' });
    // Multiaxial answers really are exercised: the shared HLGT lists PTs whose primary SOC differs.
    const shared = await searchConcepts(memory(multi), multi, undefined, { soc: 10000002, level: 'PT' }, 0, 100);
    expect(new Set(shared.hits.map((h) => h.concept.primarySocCode))).toEqual(new Set([10000001, 10000002]));
    expect(totals.filter((t) => t === 0).length).toBeGreaterThan(0); // the empty SOC and HLT
    expect(totals.filter((t) => t > 3).length).toBeGreaterThan(10);
  });

  // The oracle scans every concept per listing (the cost this change removed): the demo release
  // is sampled (its size and real names, on the same code path), the small multiaxial one above —
  // built to hold every case — is compared whole.
  it('lists every fourth SOC and every 30th HLGT and HLT subtree of the demo release as the SQL did, with its pages and totals', async () => {
    let compared = 0;
    for (const [level, key] of [['SOC', 'soc'], ['HLGT', 'hlgt'], ['HLT', 'hlt']] as const) {
      for (const code of (await codesAt(demo, level)).filter((_, k) => k % (level === 'SOC' ? 4 : 30) === 0)) {
        await expectSameListing(demo, { [key]: code });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(15);
    for (const soc of (await codesAt(demo, 'SOC')).filter((_, k) => k % 4 === 1)) {
      await expectSameListing(demo, { soc, currentOnly: true });
      await expectSameListing(demo, { soc, level: 'LLT' });
    }
    // Pages: the whole release and a wide SOC, first, middle and past the end (the total still told).
    for (const f of [{}, { soc: (await codesAt(demo, 'SOC'))[0]! }, { level: 'LLT' as const, currentOnly: true }]) {
      for (const [offset, limit] of [[0, 20], [7, 13], [250, 50]]) await expectSameListing(demo, f, offset, limit);
      const total = (await sqlListing(demo, f, 0, 1)).total;
      expect((await searchConcepts(memory(demo), demo, undefined, f, total + 5, 10)).total).toBe(total);
    }
  });

  it('applies the change-type filter from one statement over the stored change set', async () => {
    let nonEmpty = 0;
    for (const type of ['added', 'updated', 'retired'] as const) {
      const change = { fromReleaseId: demoPrev, type };
      if ((await expectSameListing(demo, { change })) > 0) nonEmpty++;
      await expectSameListing(demo, { change, level: 'LLT' });
      for (const soc of await codesAt(demo, 'SOC')) await expectSameListing(demo, { change, soc });
    }
    expect(nonEmpty).toBeGreaterThan(0);
    const soc = (await codesAt(demo, 'SOC'))[0]!;
    statements.length = 0;
    await searchConcepts(memory(demo), demo, undefined, { change: { fromReleaseId: demoPrev, type: 'added' }, soc }, 0, 50);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/FROM release_change/);
  });

  it('issues no SQL for a listing or a search under a SOC once the index is built', async () => {
    const socs = await codesAt(demo, 'SOC');
    statements.length = 0;
    let listed = 0;
    for (const soc of socs) {
      if ((await searchConcepts(memory(demo), demo, undefined, { soc }, 0, 50)).hits.length > 0) listed++;
      await searchConcepts(memory(demo), demo, 'a', { soc }, 0, 50);
    }
    expect(statements).toEqual([]);
    expect(listed).toBeGreaterThan(20);
  });

  it('orders names by the rank the database gave them, not by JavaScript string order', async () => {
    // Ranks (nr) that contradict code-unit order, as a collation may: the listing follows them.
    const row = (code: number, name: string, nr: number) =>
      ({ level: 'PT' as const, code, name, name_norm: name, current: true, pt_code: null, primary_soc_code: null, soc_abbrev: null, intl_order: null, nr, ar: nr });
    const ix = await ReleaseIndex.build(-1, [row(1, 'b', 1), row(2, 'a', 3), row(3, 'c', 2)], [], { links: [], ptPaths: [] });
    const page = await searchConcepts(source(ix), -1, undefined, {}, 0, 10);
    expect(page.hits.map((h) => h.concept.name)).toEqual(['b', 'c', 'a']);
    // And the rank survives the snapshot.
    const back = deserializeIndex(serializeIndex(ix), -1);
    expect((await searchConcepts(source(back), -1, undefined, {}, 0, 10)).hits.map((h) => h.concept.name)).toEqual(['b', 'c', 'a']);
  });

  it('the index without hierarchy still lists through SQL, the same answers', async () => {
    const soc = (await codesAt(demo, 'SOC'))[1]!;
    const src = sqlFilters(demo);
    for (const f of [{ soc }, { soc, currentOnly: true }, { level: 'LLT' as const }]) {
      statements.length = 0;
      expect(await searchConcepts(src, demo, undefined, f, 3, 30)).toEqual(await searchConcepts(memory(demo), demo, undefined, f, 3, 30));
      expect(statements.length).toBeGreaterThan(0);
    }
  });
});

describe('search with a query under a hierarchy filter', () => {
  it('keeps the targets the SQL filter kept, for every node of the small release and a sample of the demo one', async () => {
    let hits = 0;
    for (const releaseId of [multi, demo]) {
      const viaSql = sqlFilters(releaseId);
      const queries = releaseId === multi ? ['a', 'pain', 'eclair', 'same name', 'zeta pian'] : ['a', 'hedache'];
      for (const [level, key] of [['SOC', 'soc'], ['HLGT', 'hlgt'], ['HLT', 'hlt']] as const) {
        const codes = await codesAt(releaseId, level);
        // Every node of the small release; every sixth SOC and every 40th HLGT/HLT of the demo one.
        for (const code of codes.filter((_, k) => releaseId === multi || k % (level === 'SOC' ? 6 : 40) === 0)) {
          for (const q of queries) {
            for (const extra of [{}, { level: 'LLT' as const }, { currentOnly: true }]) {
              const f = { [key]: code, ...extra };
              const got = await searchConcepts(memory(releaseId), releaseId, q, f, 0, 30);
              expect(got, `${q} ${JSON.stringify(f)}`).toEqual(await searchConcepts(viaSql, releaseId, q, f, 0, 30));
              hits += got.hits.length;
            }
          }
        }
      }
    }
    expect(hits).toBeGreaterThan(600);
  });

  it('applies llt and change-type filters to a query as the SQL did', async () => {
    const viaSql = sqlFilters(demo);
    const soc = (await codesAt(demo, 'SOC'))[0]!;
    const llt = (await codesAt(demo, 'LLT'))[40]!;
    for (const f of [{ llt }, { llt, level: 'LLT' as const }, { change: { fromReleaseId: demoPrev, type: 'updated' as const } }, { change: { fromReleaseId: demoPrev, type: 'added' as const }, soc }]) {
      for (const q of ['a', 'pain', 'e']) {
        expect(await searchConcepts(memory(demo), demo, q, f, 0, 40), `${q} ${JSON.stringify(f)}`).toEqual(await searchConcepts(viaSql, demo, q, f, 0, 40));
      }
    }
  });
});
