// Release index snapshots stored as deltas over a keyframe (src/domain/releaseIndex/snapshotChain.ts,
// issue 32): an import stores the newest release's whole and stores the previous ones' again as small
// deltas over it;
// each loads (base + delta, materialised) to exactly the index built from its rows; a delta's base
// is always whole, and a keyframe serves a bounded number of deltas; a damaged or vanished base is
// never a failed load (built from rows, stored again); replacing or deleting a release whose
// snapshot is a base stores its dependants again first, so every other release still loads from a
// snapshot. PGlite and PostgreSQL: the rows, the foreign key and the binary channel are each database's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { canonicalParts, partsDifference } from '../helpers/indexParts.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { buildLanguageIndex } from '../../src/domain/releaseIndex/languageIndex.ts';
import { DELTA_MAX_SHARE, KEYFRAME_EVERY, chainDefaults, loadStoredIndex, storeIndex } from '../../src/domain/releaseIndex/snapshotChain.ts';
import { serializeIndex } from '../../src/domain/releaseIndex/snapshot.ts';
import type { SnapshotDb } from '../../src/domain/releaseIndex/snapshotStore.ts';
import { importRelease } from '../../src/importer/import.ts';
import { deleteRelease } from '../../src/importer/releases.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { writeLanguageFolder } from '../../tools/synthetic/language.ts';

const VERSIONS = ['96.0', '96.1', '96.2'];
let db: TestDatabase;
let dir: string;
const statements: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated', onQuery: (sql) => statements.push(sql) });
  dir = mkdtempSync(path.join(tmpdir(), 'snapshot-delta-'));
  let prev: SyntheticRelease | undefined;
  for (const version of VERSIONS) {
    const r = generateRelease({ seed: 5, version, scale: 0.01, withSmq: false, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    await importRelease(db, path.join(dir, version));
    // A second language on each (language snapshots: their own tests below).
    writeLanguageFolder(path.join(dir, version), path.join(dir, `${version}-de`), 'de');
    await importRelease(db, path.join(dir, `${version}-de`));
    prev = r;
  }
}, 300_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const store = (): SnapshotDb => ({ db: db.prisma, blobs: db.blobs });

interface Row {
  version: string;
  id: number;
  base: string | null;
  bytes: number;
}

/** Each hosted release's stored snapshot: its bytes and the version of its base (null: whole). */
const rows = async (): Promise<Record<string, Omit<Row, 'version'>>> => {
  const list = await db.prisma.$queryRawUnsafe<Row[]>(
    `SELECT r.version, r.id, b.version AS base, s.bytes FROM release r
     LEFT JOIN release_index_snapshot s ON s.release_id = r.id LEFT JOIN release b ON b.id = s.base_release_id ORDER BY r.ordinal`,
  );
  return Object.fromEntries(list.map(({ version, ...x }) => [version, x]));
};

const idOf = async (version: string) => (await rows())[version]!.id;

/** '' when the two indexes are the same, up to the order of tied names (canonicalParts). */
const sameAsRows = (ix: ReleaseIndex, built: ReleaseIndex) => partsDifference(canonicalParts(ix.parts()), canonicalParts(built.parts()));

/** The release's index through a fresh cache as a server loads it, against the one built from its rows; where it came from. */
async function load(version: string): Promise<{ source: string; warnings: string[] }> {
  const id = await idOf(version);
  const sources: string[] = [];
  const warnings: string[] = [];
  const cache = new SearchIndexCache(2, undefined, db.blobs, { onLoaded: (_id, s) => sources.push(s), onWarning: (m) => warnings.push(m) });
  const ix = await cache.get(id, db.prisma);
  await cache.flushed();
  expect(sameAsRows(ix, await ReleaseIndex.load(db.prisma, id)), version).toBe('');
  return { source: sources.join(','), warnings };
}

describe('release index snapshots as deltas over a keyframe', () => {
  it('an import stores the newest release whole and the earlier ones again as deltas over it: a small share each, loading to the index built from rows', async () => {
    const r = await rows();
    expect(r['96.2']!.base).toBeNull();
    expect(r['96.1']!.base).toBe('96.2');
    expect(r['96.0']!.base).toBe('96.2');
    const whole = serializeIndex(await ReleaseIndex.load(db.prisma, r['96.0']!.id)).byteLength;
    for (const v of ['96.0', '96.1']) {
      expect(r[v]!.bytes, v).toBeLessThan(DELTA_MAX_SHARE * whole);
      expect(r[v]!.bytes, v).toBeGreaterThan(0);
    }
    // Further from its base, a larger delta (the generator's changes accumulate).
    expect(r['96.0']!.bytes).toBeGreaterThan(r['96.1']!.bytes);
    for (const v of VERSIONS) expect(await load(v), v).toEqual({ source: 'snapshot', warnings: [] });
  }, 120_000);

  it("a language's index snapshot is a delta over the same language's of the primary's base: a small share, loading to the very index stored", async () => {
    const [base, delta] = [await idOf('96.2'), await idOf('96.1')];
    const first = new SearchIndexCache(2, undefined, db.blobs);
    await first.getLanguage(base, 'de', db.prisma);
    await first.flushed();
    const stored = await first.getLanguage(delta, 'de', db.prisma);
    await first.flushed();
    const langRows = await db.prisma.$queryRawUnsafe<{ id: number; base: number | null; bytes: number }[]>(
      `SELECT release_id AS id, base_release_id AS base, bytes FROM release_language_index_snapshot WHERE language = 'de' ORDER BY release_id`,
    );
    expect(langRows.map((r) => [r.id, r.base])).toEqual([[delta, base], [base, null]]);
    expect(langRows[0]!.bytes).toBeLessThan(DELTA_MAX_SHARE * langRows[1]!.bytes);
    const sources: string[] = [];
    const warnings: string[] = [];
    const again = new SearchIndexCache(2, undefined, db.blobs, { onLoaded: (_id, s, _ms, language) => sources.push(`${s}:${language ?? ''}`), onWarning: (m) => warnings.push(m) });
    const loaded = await again.getLanguage(delta, 'de', db.prisma);
    expect(sources).toEqual(['snapshot:', 'snapshot:de']);
    expect(warnings).toEqual([]);
    expect(partsDifference(loaded.languageParts(), stored.languageParts())).toBe('');
    // Its base damaged: not used, built from rows with a warning, stored again (whole: no usable base).
    await db.prisma.$executeRawUnsafe(
      `UPDATE release_language_index_snapshot SET data = set_byte(data, octet_length(data) / 2, (get_byte(data, octet_length(data) / 2) + 1) % 256) WHERE release_id = $1`,
      base,
    );
    const third = new SearchIndexCache(2, undefined, db.blobs, { onLoaded: (_id, s, _ms, language) => sources.push(`${s}:${language ?? ''}`), onWarning: (m) => warnings.push(m) });
    sources.length = 0;
    const rebuilt = await third.getLanguage(delta, 'de', db.prisma);
    await third.flushed();
    expect(sources).toEqual(['snapshot:', 'rows:de']);
    expect(warnings).toEqual([expect.stringMatching(/de index snapshot not usable/)]);
    expect(partsDifference(rebuilt.languageParts().name, stored.languageParts().name)).toBe('');
    const [row] = await db.prisma.$queryRawUnsafe<{ base: number | null }[]>(`SELECT base_release_id AS base FROM release_language_index_snapshot WHERE release_id = $1 AND language = 'de'`, delta);
    expect(row!.base).toBeNull();
  }, 120_000);

  it('a delta is applied over the base index the cache holds when that is its very snapshot: no second read', async () => {
    const [base, delta] = [await idOf('96.2'), await idOf('96.1')];
    const cache = new SearchIndexCache(2, undefined, db.blobs);
    await cache.get(base, db.prisma);
    statements.length = 0;
    const ix = await cache.get(delta, db.prisma);
    expect(statements.filter((s) => /FROM release_index_snapshot/.test(s)).join('\n')).not.toMatch(new RegExp(`release_id = ${base}\\b`));
    expect(sameAsRows(ix, await ReleaseIndex.load(db.prisma, delta))).toBe('');
  }, 60_000);

  it('a delta is always over a whole snapshot, and a keyframe serves at most KEYFRAME_EVERY - 1 deltas, moved over the newest only within that bound', async () => {
    const ix = await Promise.all(VERSIONS.map(async (v) => ReleaseIndex.load(db.prisma, await idOf(v))));
    // The newest stays whole; nothing before it is whole, so nothing moves.
    expect(await storeIndex(store(), ix[2]!, { keyframeEvery: 2 })).toMatchObject({ baseReleaseId: null });
    // One delta per keyframe: 96.2 already serves 96.0, so 96.1 becomes a keyframe, and 96.0 goes over the nearer 96.1.
    expect(await storeIndex(store(), ix[1]!, { keyframeEvery: 2 })).toMatchObject({ baseReleaseId: null });
    expect(await storeIndex(store(), ix[0]!, { keyframeEvery: 2 })).toMatchObject({ baseReleaseId: ix[1]!.releaseId });
    // The newest stored again (its snapshot's own index: the deltas over it still fit): 96.1 and
    // 96.0 would make two deltas over it, more than one per keyframe, so nothing moves…
    const newest = async () => (await loadStoredIndex(store(), ix[2]!.releaseId))!.ix;
    expect(await storeIndex(store(), await newest(), { keyframeEvery: 2 })).toMatchObject({ baseReleaseId: null });
    expect(Object.values(await rows()).map((r) => r.base)).toEqual(['96.1', null, null]);
    // …and with room (the default) both move over the newest, dependant first.
    expect(await storeIndex(store(), await newest())).toMatchObject({ baseReleaseId: null });
    expect(Object.values(await rows()).map((r) => r.base)).toEqual(['96.2', '96.2', null]);
    const chained = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM release_index_snapshot d JOIN release_index_snapshot b ON b.release_id = d.base_release_id WHERE b.base_release_id IS NOT NULL`,
    );
    expect(chained[0]!.n).toBe(0);
    for (const v of VERSIONS) expect((await load(v)).source, v).toBe('snapshot');
  }, 120_000);

  it('a delta over a damaged base is not used: its index is built from rows with a warning, and its snapshot stored again', async () => {
    const base = await idOf('96.2');
    await db.prisma.$executeRawUnsafe(
      `UPDATE release_index_snapshot SET data = set_byte(data, octet_length(data) / 2, (get_byte(data, octet_length(data) / 2) + 1) % 256) WHERE release_id = $1`,
      base,
    );
    const got = await load('96.1');
    expect(got.source).toBe('rows');
    expect(got.warnings).toEqual([expect.stringMatching(/corrupt/)]);
    // No usable base: stored whole, and it loads from it.
    expect((await rows())['96.1']!.base).toBeNull();
    expect((await load('96.1')).source).toBe('snapshot');
    // The base itself, rewritten from rows; then the chain as an import leaves it.
    expect((await load('96.2')).source).toBe('rows');
    for (const v of VERSIONS) await storeIndex(store(), await ReleaseIndex.load(db.prisma, await idOf(v)));
    expect(Object.values(await rows()).map((r) => r.base)).toEqual(['96.2', '96.2', null]);
  }, 120_000);

  it('replacing the release whose snapshot is the base: the others are stored again first and load from a snapshot', async () => {
    // 96.2 hosts two languages: --replace of its English folder replaces its primary names (the
    // release keeps its id), and its index snapshot goes with them all the same.
    const moved: string[] = [];
    await importRelease(db, path.join(dir, '96.2'), { replace: true, onProgress: (p) => p.phase === 'index' && moved.push(p.message) });
    const after = await rows();
    // Meanwhile 96.1 was the newest (whole) with 96.0 over it; the new 96.2 is whole again and both moved over it.
    expect(after['96.2']!.base).toBeNull();
    expect(after['96.1']!.base).toBe('96.2');
    expect(after['96.0']!.base).toBe('96.2');
    expect(moved.join('\n')).toMatch(/written, whole/);
    for (const v of VERSIONS) expect(await load(v), v).toEqual({ source: 'snapshot', warnings: [] });
  }, 180_000);

  it('deleting the release whose snapshot is the base: the others are stored again first and load from a snapshot', async () => {
    // Every German snapshot a delta over 96.2's (their primaries' base), as first searches leave them.
    const [id0, id1, id2] = [await idOf('96.0'), await idOf('96.1'), await idOf('96.2')];
    const cache = new SearchIndexCache(3, undefined, db.blobs);
    for (const id of [id2, id1, id0]) {
      await cache.getLanguage(id, 'de', db.prisma);
      await cache.flushed();
    }
    const german = () => db.prisma.$queryRawUnsafe<{ id: number; base: number | null }[]>(`SELECT release_id AS id, base_release_id AS base FROM release_language_index_snapshot WHERE language = 'de' ORDER BY release_id`);
    expect(await german()).toEqual([{ id: id0, base: id2 }, { id: id1, base: id2 }, { id: id2, base: null }]);
    const stored = (await cache.getLanguage(id0, 'de', db.prisma)).languageParts();
    const d = await deleteRelease(db, '96.2');
    expect(d).toMatchObject({ version: '96.2', snapshotsRestored: 4 });
    const after = await rows();
    expect(Object.keys(after)).toEqual(['96.0', '96.1']);
    // 96.1 the newest now: whole, 96.0 over it; their German snapshots likewise.
    expect(after['96.1']!.base).toBeNull();
    expect(after['96.0']!.base).toBe('96.1');
    for (const v of ['96.0', '96.1']) expect(await load(v), v).toEqual({ source: 'snapshot', warnings: [] });
    expect(await german()).toEqual([{ id: id0, base: id1 }, { id: id1, base: null }]);
    const sources: string[] = [];
    const warnings: string[] = [];
    const again = new SearchIndexCache(2, undefined, db.blobs, { onLoaded: (_id, s, _ms, language) => sources.push(`${s}:${language ?? ''}`), onWarning: (m) => warnings.push(m) });
    const loaded = await again.getLanguage(id0, 'de', db.prisma);
    expect({ sources, warnings }).toEqual({ sources: ['snapshot:', 'snapshot:de'], warnings: [] });
    expect(partsDifference(loaded.languageParts().name, stored.name)).toBe('');
  }, 120_000);

  it('a base removed without that (the foreign key takes its deltas along): the release is built from rows, never failed', async () => {
    await db.prisma.$executeRawUnsafe(`DELETE FROM release_index_snapshot WHERE release_id = $1`, await idOf('96.1'));
    expect((await rows())['96.0']!.bytes).toBeNull();
    expect(await load('96.0')).toEqual({ source: 'rows', warnings: [] });
    expect((await rows())['96.0']!.base).toBeNull();
    expect((await load('96.0')).source).toBe('snapshot');
  }, 120_000);
});

describe('a store whose snapshots an earlier policy wrote (the oldest release the keyframe)', () => {
  let old: TestDatabase;
  let oldDir: string;
  let prev: SyntheticRelease | undefined;
  const oldStore = (): SnapshotDb => ({ db: old.prisma, blobs: old.blobs });
  const layout = async () =>
    Object.fromEntries(
      (
        await old.prisma.$queryRawUnsafe<{ version: string; base: string | null; de: string | null }[]>(
          `SELECT r.version, b.version AS base, CASE WHEN l.release_id IS NOT NULL THEN coalesce(lb.version, 'whole') END AS de FROM release r
           JOIN release_index_snapshot s ON s.release_id = r.id LEFT JOIN release b ON b.id = s.base_release_id
           LEFT JOIN release_language_index_snapshot l ON l.release_id = r.id AND l.language = 'de' LEFT JOIN release lb ON lb.id = l.base_release_id
           ORDER BY r.ordinal`,
        )
      ).map((r) => [r.version, `${r.base ?? 'whole'}${r.de === null ? '' : `, de over ${r.de}`}`]),
    );
  const importNext = async (version: string) => {
    const r = generateRelease({ seed: 6, version, scale: 0.01, withSmq: false, changesFrom: prev });
    await writeMedAscii(r, path.join(oldDir, version));
    await importRelease(old, path.join(oldDir, version));
    writeLanguageFolder(path.join(oldDir, version), path.join(oldDir, `${version}-de`), 'de');
    await importRelease(old, path.join(oldDir, `${version}-de`));
    prev = r;
  };
  /** Every release's primary and German index through a fresh cache, from snapshots, equal to those built from rows. */
  const allLoad = async (noGermanYet?: string) => {
    const list = await old.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal');
    for (const { id, version } of list) {
      const sources: string[] = [];
      const warnings: string[] = [];
      const cache = new SearchIndexCache(2, undefined, old.blobs, { onLoaded: (_id, s, _ms, language) => sources.push(`${s}:${language ?? ''}`), onWarning: (m) => warnings.push(m) });
      const de = await cache.getLanguage(id, 'de', old.prisma);
      expect({ version, sources, warnings }).toEqual({ version, sources: ['snapshot:', version === noGermanYet ? 'rows:de' : 'snapshot:de'], warnings: [] });
      await cache.flushed();
      const built = await ReleaseIndex.load(old.prisma, id);
      expect(sameAs(await cache.get(id, old.prisma), built), version).toBe('');
      expect(partsDifference(de.languageParts().name, (await buildLanguageIndex(old.prisma, built, 'de', 0)).languageParts().name), version).toBe('');
    }
  };
  /** German snapshots written as first searches write them, oldest first. */
  const searchGerman = async () => {
    const cache = new SearchIndexCache(2, undefined, old.blobs);
    for (const { id } of await old.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release ORDER BY ordinal')) {
      await cache.getLanguage(id, 'de', old.prisma);
      await cache.flushed();
    }
  };
  const sameAs = (ix: ReleaseIndex, built: ReleaseIndex) => partsDifference(canonicalParts(ix.parts()), canonicalParts(built.parts()));

  beforeAll(async () => {
    old = await createTestDatabase({ template: 'migrated' });
    oldDir = mkdtempSync(path.join(tmpdir(), 'snapshot-old-'));
    chainDefaults.newestWhole = false;
    try {
      for (const v of ['97.0', '97.1', '97.2']) await importNext(v);
      await searchGerman();
    } finally {
      chainDefaults.newestWhole = true;
    }
  }, 300_000);

  afterAll(async () => {
    await old?.cleanup();
    if (oldDir) rmSync(oldDir, { recursive: true, force: true });
  });

  it('loads as written, and its next newest release moves the group over itself, languages too', async () => {
    expect(await layout()).toEqual({ '97.0': 'whole, de over whole', '97.1': '97.0, de over 97.0', '97.2': '97.0, de over 97.0' });
    await allLoad();
    await importNext('97.3');
    expect(await layout()).toEqual({ '97.0': '97.3, de over whole', '97.1': '97.3, de over 97.0', '97.2': '97.3, de over 97.0', '97.3': 'whole' });
    // Still every one from a snapshot (the German deltas over 97.0's whole German snapshot, as they
    // were); 97.3's German snapshot, written whole by its first search, takes the others' over it.
    await allLoad('97.3');
    expect(await layout()).toEqual({ '97.0': '97.3, de over 97.3', '97.1': '97.3, de over 97.3', '97.2': '97.3, de over 97.3', '97.3': 'whole, de over whole' });
    await allLoad();
  }, 300_000);

  it('a full group stays over its keyframe; the next newest starts a group of its own', async () => {
    chainDefaults.keyframeEvery = 3;
    try {
      // 97.3 serves three deltas: no room for a fourth and itself, so it stays whole.
      await importNext('97.4');
      expect(await layout()).toMatchObject({ '97.2': '97.3, de over 97.3', '97.3': 'whole, de over whole', '97.4': 'whole' });
      await importNext('97.5');
      expect(await layout()).toMatchObject({ '97.3': 'whole, de over whole', '97.4': '97.5', '97.5': 'whole' });
    } finally {
      chainDefaults.keyframeEvery = KEYFRAME_EVERY;
    }
    const chained = await old.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM release_index_snapshot d JOIN release_index_snapshot b ON b.release_id = d.base_release_id WHERE b.base_release_id IS NOT NULL`,
    );
    expect(chained[0]!.n).toBe(0);
    await searchGerman();
    await allLoad();
  }, 300_000);
});
