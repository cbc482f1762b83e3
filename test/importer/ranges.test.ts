// Imports into ranged storage (src/importer/ranges.ts, docs/storage.md): after every operation —
// a release imported between two, --replace with the same and with other content, a language
// added in the middle of a chain, a release deleted, seqs renumbered when a gap is exhausted —
// each release holds exactly its folder's content, and the tables are canonical: one row per run
// of consecutive hosted releases with equal content per key, bounded by hosted releases' seqs
// (the runs computed here in JavaScript from what each release reads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { editFile } from '../helpers/medascii.ts';
import { importRelease, loadRelease } from '../../src/importer/import.ts';
import { deleteRelease } from '../../src/importer/releases.ts';
import { ALL_RANGED, OPEN, renumber } from '../../src/importer/ranges.ts';
import { writeManyReleases } from '../../bench/lib/manyData.ts';
import { otherNamesByKeys } from '../../src/domain/conceptNames.ts';

let db: TestDatabase;
let chain: Awaited<ReturnType<typeof writeManyReleases>>;
const q = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => db.prisma.$queryRawUnsafe<T[]>(sql, ...params);

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await writeManyReleases(mkdtempSync(path.join(tmpdir(), 'te-ranges-')), 3, { scale: 0.01, languages: 2 });
}, 120_000);
afterAll(async () => {
  await db?.cleanup();
});

const dir = (version: string) => chain.dirs.find((d) => d.version === version)!;

/** Every row of every ranged table, ranges included: the store's exact state. */
async function storage(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of ALL_RANGED) {
    const rows = await q(`SELECT ${[...t.key, ...t.content].join(', ')}, valid_from::text AS f, valid_to::text AS t FROM "${t.table}"`);
    out[t.table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** What each release reads, per table (rows sorted). */
async function contents(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const r of await q<{ id: number; version: string }>('SELECT id, version FROM "release" ORDER BY seq')) {
    for (const t of ALL_RANGED) out.set(`${r.version} ${t.table}`, (await q(`SELECT * FROM ${t.table}_at($1)`, r.id)).map((x) => JSON.stringify(x)).sort());
  }
  return out;
}

/** The tables hold exactly the runs of what the releases read: one row per run, bounded by hosted seqs. */
async function expectCanonical(): Promise<void> {
  const releases = await q<{ id: number; seq: string }>('SELECT id, seq::text AS seq FROM "release" ORDER BY seq');
  for (const t of ALL_RANGED) {
    const runs = new Map<string, { content: string; first: number; last: number }[]>();
    for (const [i, r] of releases.entries()) {
      for (const row of await q(`SELECT * FROM ${t.table}_at($1)`, r.id)) {
        const key = JSON.stringify(t.key.map((k) => row[k]));
        const content = JSON.stringify(t.content.map((c) => row[c]));
        const list = runs.get(key) ?? [];
        const last = list.at(-1);
        if (last && last.last === i - 1 && last.content === content) last.last = i;
        else list.push({ content, first: i, last: i });
        runs.set(key, list);
      }
    }
    const expected = [...runs].flatMap(([key, list]) =>
      list.map((run) => `${key} ${run.content} ${releases[run.first]!.seq} ${releases[run.last + 1]?.seq ?? OPEN.toString()}`),
    );
    const actual = (await q(`SELECT *, valid_from::text AS f, valid_to::text AS t FROM "${t.table}"`)).map(
      (row) => `${JSON.stringify(t.key.map((k) => row[k]))} ${JSON.stringify(t.content.map((c) => row[c]))} ${row.f} ${row.t}`,
    );
    expect(actual.sort(), t.table).toEqual(expected.sort());
  }
}

/** The release holds its folder's concepts, links and SMQ terms, nothing else (booleans as concat_ws writes them: t, f). */
async function expectHolds(version: string, folder: string): Promise<void> {
  const m = loadRelease(folder);
  const [r] = await q<{ id: number }>('SELECT id FROM "release" WHERE version = $1', version);
  const concepts = await q<{ k: string }>(
    `SELECT concat_ws('/', level, code, name, name_norm, current, pt_code, primary_soc_code, soc_abbrev, intl_order) AS k FROM concept_at($1)`, r!.id,
  );
  expect(concepts.map((c) => c.k).sort(), `${version} concepts`).toEqual(
    m.concepts.map((c) => [c.level, c.code, c.name, c.nameNorm, c.current ? 't' : 'f', c.ptCode, c.primarySocCode, c.socAbbrev, c.intlOrder].filter((x) => x !== null).join('/')).sort(),
  );
  const links = await q<{ k: string }>(`SELECT concat_ws('/', parent_code, child_level, child_code, is_primary) AS k FROM hierarchy_link_at($1)`, r!.id);
  expect(links.map((l) => l.k).sort(), `${version} links`).toEqual(m.links.map((l) => `${l.parentCode}/${l.childLevel}/${l.childCode}/${l.isPrimary ? 't' : 'f'}`).sort());
  const terms = await q<{ n: bigint }>('SELECT count(*) AS n FROM smq_term_at($1)', r!.id);
  expect(Number(terms[0]!.n)).toBe(m.smqTerms.length);
}

describe('importing into ranged storage', () => {
  it('a release imported between two hosted ones: every release holds its folder, the rows stay canonical', async () => {
    await importRelease(db, dir('90.0').en);
    await importRelease(db, dir('90.2').en);
    await expectCanonical();
    const s = await importRelease(db, dir('90.1').en);
    expect(s.changes.map((c) => `${c.from}→${c.to}`).sort()).toEqual(['90.0→90.1', '90.1→90.2']);
    for (const v of ['90.0', '90.1', '90.2']) await expectHolds(v, dir(v).en);
    await expectCanonical();
    const seqs = (await q<{ version: string; seq: string }>('SELECT version, seq::text AS seq FROM "release" ORDER BY ordinal')).map((r) => [r.version, BigInt(r.seq)]);
    expect(seqs).toEqual([['90.0', 1n << 32n], ['90.1', 3n << 31n], ['90.2', 2n << 32n]]);
  });

  it('--replace with the same content leaves the storage as it was; with other content, the release holds the new', async () => {
    const before = await storage();
    await importRelease(db, dir('90.1').en, { replace: true });
    expect(await storage()).toEqual(before);
    // 90.1 with a PT renamed: the rename is 90.1's alone.
    const edited = mkdtempSync(path.join(tmpdir(), 'te-ranges-edit-'));
    const { cpSync } = await import('node:fs');
    cpSync(dir('90.1').en, edited, { recursive: true });
    let renamed = 0;
    editFile(edited, 'pt.asc', (lines) => lines.map((l, i) => (i === 0 ? (renamed = Number(l.split('$')[0]), l.replace(/^(\d+)\$([^$]*)/, '$1$$$2 (renamed)')) : l)));
    const others = await contents();
    await importRelease(db, edited, { replace: true });
    await expectHolds('90.1', edited);
    await expectCanonical();
    const after = await contents();
    for (const k of others.keys()) if (!k.startsWith('90.1 ')) expect(after.get(k), k).toEqual(others.get(k));
    const names = await q<{ version: string; name: string }>(
      `SELECT r.version, c.name FROM "release" r, concept_at(r.id) c WHERE c.level = 'PT' AND c.code = $1 ORDER BY r.seq`, renamed,
    );
    expect(names.filter((n) => n.name.endsWith(' (renamed)')).map((n) => n.version)).toEqual(['90.1']);
    // Back to the folder's content: the storage is the same as before the edit.
    await importRelease(db, dir('90.1').en, { replace: true });
    expect(await storage()).toEqual(before);
  });

  it('a language added in the middle of the chain, then to its neighbours; replaced with the same names, nothing changes', async () => {
    await importRelease(db, dir('90.1').de!);
    await expectCanonical();
    await importRelease(db, dir('90.0').de!);
    await importRelease(db, dir('90.2').de!);
    await expectCanonical();
    for (const v of ['90.0', '90.1', '90.2']) {
      const m = loadRelease(dir(v).de!);
      const [r] = await q<{ id: number }>('SELECT id FROM "release" WHERE version = $1', v);
      const names = await q<{ k: string }>(`SELECT level || '/' || code || '/' || name AS k FROM concept_name_at($1) WHERE language = 'de'`, r!.id);
      expect(names.map((n) => n.k).sort(), v).toEqual(m.concepts.map((c) => `${c.level}/${c.code}/${c.name}`).sort());
    }
    // Shared: most German names are one row for all three releases.
    const [rows] = await q<{ n: bigint }>(`SELECT count(*) AS n FROM concept_name WHERE language = 'de'`);
    expect(Number(rows!.n)).toBeLessThan(loadRelease(dir('90.2').de!).concepts.length * 1.5);
    const before = await storage();
    await importRelease(db, dir('90.1').de!, { replace: true });
    expect(await storage()).toEqual(before);
  });

  it('deleting a release in the middle: the others read what they read before, the rows stay canonical', async () => {
    const before = await contents();
    await deleteRelease(db, '90.1');
    await expectCanonical();
    const after = await contents();
    for (const k of before.keys()) if (!k.startsWith('90.1 ')) expect(after.get(k), k).toEqual(before.get(k));
    expect([...after.keys()].some((k) => k.startsWith('90.1 '))).toBe(false);
    await expect(deleteRelease(db, '90.1')).rejects.toThrow(/not hosted/);
  });

  it('a gap exhausted: the seqs are renumbered within the import, ranges shifted with them', async () => {
    // Seqs 1 and 2: no seq left between 90.0 and 90.2.
    await db.prisma.$transaction((tx) => renumber(tx, 1n));
    expect((await q<{ seq: string }>('SELECT seq::text AS seq FROM "release" ORDER BY seq')).map((r) => r.seq)).toEqual(['1', '2']);
    await expectCanonical();
    await importRelease(db, dir('90.1').en);
    await importRelease(db, dir('90.1').de!);
    expect((await q<{ seq: string }>('SELECT seq::text AS seq FROM "release" ORDER BY seq')).map((r) => BigInt(r.seq))).toEqual([1n << 32n, 3n << 31n, 2n << 32n]);
    for (const v of ['90.0', '90.1', '90.2']) await expectHolds(v, dir(v).en);
    await expectCanonical();
  });

  it("a release whose primary language another release hosts as a second one: that language's name rows are not its other names", async () => {
    // German rows of 90.2 stay open past it; a German-primary release after it lies inside their range.
    const s = await importRelease(db, dir('90.2').de!, { version: '90.9' });
    expect(s).toMatchObject({ kind: 'release', languages: ['de'] });
    const [pt] = await q<{ code: number }>(`SELECT code FROM concept_at($1) WHERE level = 'PT' ORDER BY code LIMIT 1`, s.releaseId);
    const [spanning] = await q<{ n: bigint }>(`SELECT count(*) AS n FROM concept_name_at($1) WHERE language = 'de'`, s.releaseId);
    expect(Number(spanning!.n)).toBeGreaterThan(0);
    const others = await otherNamesByKeys(db.prisma, [{ releaseId: s.releaseId, level: 'PT', code: pt!.code }]);
    expect([...others.values()].flat()).toEqual([]);
    await deleteRelease(db, '90.9');
    await expectCanonical();
  });
});
