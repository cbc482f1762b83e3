// The ranged diff reads a changed key's content from its boundary rows (rangedDiff.ts: its row at
// lo ends in (lo, hi], its row at hi starts there) and looks up only what they cannot say: a
// non-LLT key's parents held at both ends, a link-only key's row, a promoted or demoted code's LLT,
// PT presence. A chain made for the cases that read relies on: A; B generated from A (codes
// promoted LLT → PT and demoted PT → LLT, links added and removed on unchanged PTs); C with A's
// content again (every key of A → B changed back: boundary rows, no difference); D generated from
// C. Every ordered pair equals the reference engine over both whole releases (engine.ts
// diffReleases, computeChanges), with the statements in sequence and overlapping. On PGlite and
// PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { computeChanges, diffReleases, type ChangeRecord } from '../../src/domain/changes/engine.ts';
import { computeChangesFromRanges, diffRanges } from '../../src/domain/changes/rangedDiff.ts';
import { changeComputation } from '../../src/domain/changes/store.ts';

const json = (v: unknown) => JSON.stringify(v);

let db: TestDatabase;
let releases: { id: number; version: string }[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated' });
  const dir = mkdtempSync(path.join(tmpdir(), 'ranged-content-'));
  const a = generateRelease({ seed: 7, version: '86.0', scale: 0.02 });
  const b = generateRelease({ seed: 7, version: '86.1', scale: 0.02, changesFrom: a });
  const c: SyntheticRelease = { ...structuredClone(a), version: '86.2' };
  const d = generateRelease({ seed: 7, version: '86.3', scale: 0.02, changesFrom: c });
  for (const r of [a, b, c, d]) {
    await writeMedAscii(r, path.join(dir, r.version));
    releases.push({ id: (await importRelease(db, path.join(dir, r.version))).releaseId, version: r.version });
  }
}, 300_000);

afterAll(async () => {
  await db?.cleanup();
});

describe('the ranged diff from the boundary rows', () => {
  it('equals the reference engine for every ordered pair, statements in sequence or overlapping', async () => {
    const kinds = new Set<string>();
    let linkOnly = 0;
    for (const from of releases) {
      for (const to of releases) {
        if (from.id === to.id) continue;
        const label = `${from.version} → ${to.version}`;
        const reference = json(await diffReleases(db.prisma, from.id, to.id));
        expect(json(await diffRanges(db.prisma, from.id, to.id)), label).toBe(reference);
        expect(json(await diffRanges(db.prisma, from.id, to.id, { overlap: true })), `${label}, overlapping`).toBe(reference);
        const records: ChangeRecord[] = await computeChangesFromRanges(db.prisma, from, to, { overlap: true });
        expect(json(records), label).toBe(json(await computeChanges(db.prisma, from, to)));
        for (const r of records) r.metadata.kinds.forEach((k) => kinds.add(k));
        linkOnly += records.filter((r) => r.level !== 'LLT' && r.metadata.kinds.every((k) => k === 'parents_added' || k === 'parents_removed')).length;
      }
    }
    // The chain holds the cases: codes promoted and demoted, parents changed on unchanged concepts.
    expect([...kinds]).toEqual(expect.arrayContaining(['promoted', 'demoted', 'parents_added', 'parents_removed', 'renamed', 'added', 'retired', 'llt_moved']));
    expect(linkOnly).toBeGreaterThan(0);
  }, 300_000);

  it('finds no difference across keys changed and changed back (boundary rows, equal content)', async () => {
    const [a, , c] = releases;
    const [{ n }] = (await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM concept WHERE valid_to > (SELECT seq FROM release WHERE id = $1) AND valid_to <= (SELECT seq FROM release WHERE id = $2)`,
      a!.id,
      c!.id,
    )) as [{ n: number }];
    expect(n).toBeGreaterThan(100);
    expect(await diffReleases(db.prisma, a!.id, c!.id)).toEqual([]);
    expect(await diffRanges(db.prisma, a!.id, c!.id, { overlap: true })).toEqual([]);
    expect(await diffRanges(db.prisma, c!.id, a!.id)).toEqual([]);
  });

  it('stores a pair computed for a page only once its listing is built (listed()), and at once otherwise', async () => {
    const [a, b, , d] = releases;
    const rowsOf = async (from: number, to: number) =>
      ((await db.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM release_change WHERE from_release_id = $1 AND to_release_id = $2', from, to)) as [{ n: number }])[0].n;
    const listed = (await changeComputation(db.prisma, a!, d!, undefined, true))!;
    const { size } = await listed.computed;
    expect(size).toBeGreaterThan(100);
    await new Promise((r) => setTimeout(r, 500));
    expect(await rowsOf(a!.id, d!.id)).toBe(0);
    listed.listed();
    await listed.stored;
    expect(await rowsOf(a!.id, d!.id)).toBe(size);
    // Not for a page: stored without waiting for anyone.
    const plain = (await changeComputation(db.prisma, b!, d!))!;
    await plain.stored;
    expect(await rowsOf(b!.id, d!.id)).toBe((await plain.computed).size);
  });
});
