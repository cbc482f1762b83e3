// Changes between any two releases read from the ranged rows (rangedDiff.ts, issue 32): for every
// ordered pair of a generated chain (one release imported between two hosted ones, so seqs are
// not evenly spaced) and of the demo releases, the rows and records equal the SQL engine's over
// both whole releases (engine.ts diffReleases, the reference), and the diff reads no whole
// release. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { computeChanges, diffReleases } from '../../src/domain/changes/engine.ts';
import { computeChangesFromRanges, diffRanges } from '../../src/domain/changes/rangedDiff.ts';

const json = (v: unknown) => JSON.stringify(v);

let chain: TestDatabase;
let demo: TestDatabase;
const queries: string[] = [];
/** Releases of the chain in publication order. */
let releases: { id: number; version: string }[] = [];

beforeAll(async () => {
  chain = await createTestDatabase({ template: 'migrated', onQuery: (sql) => queries.push(sql) });
  const dir = mkdtempSync(path.join(tmpdir(), 'ranged-chain-'));
  let prev: SyntheticRelease | undefined;
  const versions = ['85.0', '85.1', '85.2', '85.3', '85.4'];
  for (const version of versions) {
    const r = generateRelease({ seed: 11, version, scale: 0.02, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    prev = r;
  }
  // 85.3 last: it lands between 85.2 and 85.4 (a midpoint seq, rows cut and extended around it).
  const ids = new Map<string, number>();
  for (const version of ['85.0', '85.1', '85.2', '85.4', '85.3']) ids.set(version, (await importRelease(chain, path.join(dir, version))).releaseId);
  releases = versions.map((version) => ({ id: ids.get(version)!, version }));
  demo = await createTestDatabase({ template: 'demo' });
}, 300_000);

afterAll(async () => {
  await chain?.cleanup();
  await demo?.cleanup();
});

async function expectSameAsEngine(db: TestDatabase, list: { id: number; version: string }[]): Promise<number> {
  let pairs = 0;
  for (const from of list) {
    for (const to of list) {
      if (from.id === to.id) continue;
      const label = `${from.version} → ${to.version}`;
      expect(json(await diffRanges(db.prisma, from.id, to.id)), label).toBe(json(await diffReleases(db.prisma, from.id, to.id)));
      expect(json(await computeChangesFromRanges(db.prisma, from, to)), label).toBe(json(await computeChanges(db.prisma, from, to)));
      pairs++;
    }
  }
  return pairs;
}

describe('changes between any two releases, from the ranged rows', () => {
  it('equal the SQL engine\'s rows and records for every ordered pair of a chain with a release imported in between', async () => {
    expect(await expectSameAsEngine(chain, releases)).toBe(20);
    // The seqs really are uneven (85.3 took a midpoint), and first → last really moves.
    const seqs = await chain.prisma.$queryRawUnsafe<{ version: string; seq: string }[]>(`SELECT r.version, r.seq::text AS seq FROM "release" r ORDER BY r.seq`);
    expect(seqs.map((s) => s.version)).toEqual(releases.map((r) => r.version));
    expect(BigInt(seqs[3]!.seq) % 2n ** 32n).not.toBe(0n); // a midpoint, not a multiple of 2³² as appended releases
    const records = await computeChangesFromRanges(chain.prisma, releases[0]!, releases[4]!);
    expect(records.length).toBeGreaterThan(100);
    expect(new Set(records.flatMap((r) => r.metadata.kinds)).size).toBeGreaterThan(4);
  }, 300_000);

  it('equal the SQL engine\'s for every ordered pair of the demo releases (every kind of change)', async () => {
    const list = (await demo.prisma.release.findMany({ orderBy: { ordinal: 'asc' } })).map((r) => ({ id: r.id, version: r.version }));
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(await expectSameAsEngine(demo, list)).toBe(list.length * (list.length - 1));
  }, 120_000);

  it('reads the rows of the differences only: no statement over a whole release', async () => {
    queries.length = 0;
    const rows = await diffRanges(chain.prisma, releases[0]!.id, releases[4]!.id);
    expect(rows.length).toBeGreaterThan(100);
    expect(queries.length).toBeGreaterThan(0);
    // Every read of concept or link rows is keyed (the batch's keys) or by a range boundary, never concept_at over a release.
    for (const q of queries) expect(q).not.toMatch(/_at\(/);
    // One boundary statement per hosted release step (four from 85.0 to 85.4), and one rows statement here (a small chain).
    expect(queries.filter((q) => /valid_from > \$1::bigint/.test(q))).toHaveLength(4);
  });
});
