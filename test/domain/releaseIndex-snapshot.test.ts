// The persisted release index (src/domain/releaseIndex/snapshot.ts): an index loaded from its
// snapshot answers exactly as the one built from rows, for every concept of a synthetic
// release; loading it is one statement; a snapshot of another format or with damaged bytes
// is ignored, the index rebuilt and the snapshot rewritten; an import writes it. PGlite and
// PostgreSQL (TEST_DATABASE_URL): each as the product runs it, through its binary COPY channel
// (src/db/blobs.ts) with the value stored raw; an earlier version's deflated row is still read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import { deflateSync } from 'node:zlib';
import { CorruptSnapshotError, SNAPSHOT_FORMAT, deserializeIndex, serializeIndex, unpackIndex } from '../../src/domain/releaseIndex/snapshot.ts';
import { copyRow, firstField, readSnapshot, readStoredBytes, writeSnapshot, type SnapshotDb } from '../../src/domain/releaseIndex/snapshotStore.ts';
import type { BlobChannel } from '../../src/db/blobs.ts';
import type { ConceptKey } from '../../src/domain/concepts.ts';
import { LEVELS } from '../../src/domain/levels.ts';

let db: TestDatabase;
let releaseId: number;
let keys: ConceptKey[];
let sqlBuilt: ReleaseIndex;
const statements: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated', onQuery: (sql) => statements.push(sql) });
  const dir = mkdtempSync(path.join(tmpdir(), 'syn-'));
  const syn = generateRelease({ seed: 12, version: '82.0', scale: 0.02, withSmq: false });
  await writeMedAscii(syn, path.join(dir, '82.0'));
  releaseId = (await importRelease(db, path.join(dir, '82.0'))).releaseId;
  const rows = await db.prisma.$queryRawUnsafe<{ level: ConceptKey['level']; code: number }[]>(
    `SELECT level::text AS level, code FROM concept_at($1) ORDER BY level, code`,
    releaseId,
  );
  keys = rows.map((r) => ({ releaseId, ...r }));
  sqlBuilt = await ReleaseIndex.load(db.prisma, releaseId);
}, 180_000);

afterAll(async () => {
  await db?.cleanup();
});

/** The product's channel for this database (compose.ts passes db.blobs), its statements counted too. */
const blobs = (): BlobChannel => ({
  copyOut: (sql) => (statements.push(sql), db.blobs.copyOut(sql)),
  copyIn: (steps, data) => (statements.push(...steps.before, `COPY ${steps.into}`, ...steps.after), db.blobs.copyIn(steps, data)),
});
const store = (): SnapshotDb => ({ db: db.prisma, blobs: blobs() });
const newCache = () => new SearchIndexCache(2, undefined, blobs());

const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));
const snapshotRow = () =>
  db.prisma.$queryRawUnsafe<{ format: number; bytes: number; len: number }[]>(
    `SELECT format, bytes, octet_length(data) AS len FROM release_index_snapshot WHERE release_id = $1`,
    releaseId,
  );

/** Every answer of `ix` against the row-built index, for every concept, and search pages. */
async function expectSameAnswers(ix: ReleaseIndex): Promise<void> {
  expect(ix.size).toBe(sqlBuilt.size);
  expect(ix.hasHierarchy).toBe(true);
  for (const k of keys) {
    same(ix.children(k.level, k.code), sqlBuilt.children(k.level, k.code));
    same(ix.parents(k.level, k.code), sqlBuilt.parents(k.level, k.code));
    same(ix.allPaths(k.level, k.code), sqlBuilt.allPaths(k.level, k.code));
    same(ix.primaryPath(k.level, k.code), sqlBuilt.primaryPath(k.level, k.code));
    same(ix.byCodeAll(k.code).map((i) => ix.concept(i)), sqlBuilt.byCodeAll(k.code).map((i) => sqlBuilt.concept(i)));
    if (k.level === 'PT') same(ix.synonyms(k.code), sqlBuilt.synonyms(k.code));
  }
  // Search (substring, prefix and typo passes) over both, the same pages.
  const fixed = (index: ReleaseIndex) => ({ db: db.prisma, indexes: { get: async () => index, within: async () => index, searchView: async () => undefined } as unknown as SearchIndexCache });
  const names = keys.filter((_, i) => i % 97 === 0).map((k) => sqlBuilt.concept(sqlBuilt.find(k.level, k.code)).name);
  const queries = names.flatMap((n) => [n, n.slice(0, 5), n.slice(2, 9), n.slice(0, 3) + n.slice(4)]);
  expect(queries.length).toBeGreaterThan(40);
  for (const q of queries) {
    same(await searchConcepts(fixed(ix), releaseId, q, {}, 0, 20), await searchConcepts(fixed(sqlBuilt), releaseId, q, {}, 0, 20));
  }
}

describe('release index snapshot', () => {
  it('is written by the import, in the current format', async () => {
    const [row] = await snapshotRow();
    expect(row).toMatchObject({ format: SNAPSHOT_FORMAT });
    expect(row!.bytes).toBe(row!.len);
    expect(row!.bytes).toBeGreaterThan(10_000);
    // The serialisation itself (it begins with its magic number), not deflated.
    const [first] = await db.prisma.$queryRawUnsafe<{ head: string }[]>(
      `SELECT encode(substring(data from 1 for 4), 'hex') AS head FROM release_index_snapshot WHERE release_id = $1`,
      releaseId,
    );
    expect(first!.head).toBe('52584958');
  });

  it('reads a snapshot stored either way, and the binary COPY row format round-trips', async () => {
    const row = Buffer.concat(copyRow([7, 8], new Uint8Array([0, 1, 255])));
    expect([...firstField([row])!]).toEqual([0, 0, 0, 7]);
    // However the output is cut into parts (as it arrives from a socket), the same field.
    for (const cut of [1, 3, 20, 25, 27, 29]) expect([...firstField([row.subarray(0, cut), row.subarray(cut)])!]).toEqual([0, 0, 0, 7]);
    expect([...firstField([...row].map((x) => new Uint8Array([x])))!]).toEqual([0, 0, 0, 7]);
    expect(firstField([row.subarray(0, 19), Buffer.from([0xff, 0xff])])).toBeNull();
    expect(() => firstField([row.subarray(0, 27)])).toThrow(/truncated/);
    expect(() => firstField([row.subarray(0, 22)])).toThrow(/truncated/);
    expect(() => firstField([new Uint8Array(30)])).toThrow(/not binary COPY/);
    const mine = (await readSnapshot(store(), releaseId))!;
    // The form earlier versions wrote on PostgreSQL (deflated) is read and unpacked alike.
    const other = deflateSync(serializeIndex(sqlBuilt), { level: 1 });
    await db.prisma.$executeRawUnsafe(
      `UPDATE release_index_snapshot SET data = decode($2, 'base64'), bytes = $3 WHERE release_id = $1`,
      releaseId,
      Buffer.from(other).toString('base64'),
      other.byteLength,
    );
    // Stored deflated (as older keyframes are since session 24: snapshotChain.ts), read inflated.
    const theirs = (await readStoredBytes(store(), releaseId))!;
    expect(theirs.byteLength).toBe(other.byteLength);
    expect(theirs.byteLength).not.toBe(mine.byteLength);
    expect(Buffer.from((await readSnapshot(store(), releaseId))!).equals(Buffer.from(serializeIndex(sqlBuilt)))).toBe(true);
    const soc = keys[0]!;
    same((await unpackIndex(theirs, releaseId)).children(soc.level, soc.code), sqlBuilt.children(soc.level, soc.code));
    // The product's own form back, for the tests that follow.
    await writeSnapshot(store(), sqlBuilt);
    expect((await readSnapshot(store(), releaseId))!.byteLength).toBe(mine.byteLength);
  });

  it('is written by two processes at once without either failing (replicas warming up together)', async () => {
    statements.length = 0;
    await Promise.all([1, 2].map(() => writeSnapshot(store(), sqlBuilt)));
    expect(statements.filter((s) => /^INSERT INTO release_index_snapshot/.test(s))).toHaveLength(2);
    const [row] = await snapshotRow();
    expect(row).toMatchObject({ format: SNAPSHOT_FORMAT, len: serializeIndex(sqlBuilt).byteLength });
    expect((await unpackIndex((await readSnapshot(store(), releaseId))!, releaseId)).size).toBe(sqlBuilt.size);
  });

  it('a read that failed is tried again by the next get(), not taken for a missing snapshot', async () => {
    let fail = true;
    const flaky: BlobChannel = {
      copyOut: (sql) => (fail ? ((fail = false), Promise.reject(new Error('connection reset'))) : db.blobs.copyOut(sql)),
      copyIn: (steps, data) => db.blobs.copyIn(steps, data),
    };
    const cache = new SearchIndexCache(2, undefined, flaky);
    const warnings: string[] = [];
    const sources: string[] = [];
    cache.onWarning = (message) => warnings.push(message);
    cache.onLoaded = (_id, source) => sources.push(source);
    expect(await cache.loadSnapshot(releaseId, db.prisma)).toBeUndefined();
    expect((await cache.get(releaseId, db.prisma)).size).toBe(sqlBuilt.size);
    expect(warnings).toEqual([expect.stringMatching(/not readable/)]);
    expect(sources).toEqual(['snapshot']);
  });

  it('round-trips to an index that answers exactly like the one built from rows, for every concept', async () => {
    expect(keys.length).toBeGreaterThan(1000);
    expect(new Set(keys.map((k) => k.level))).toEqual(new Set(LEVELS));
    await expectSameAnswers(deserializeIndex(serializeIndex(sqlBuilt), releaseId));
  });

  it('loads from the database in one statement, and answers the same', async () => {
    const cache = newCache();
    statements.length = 0;
    const ix = await cache.get(releaseId, db.prisma);
    await cache.flushed();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/FROM release_index_snapshot/);
    await expectSameAnswers(ix);
  });

  it('ignores a snapshot of another format: builds from rows and rewrites it', async () => {
    await db.prisma.$executeRawUnsafe(`UPDATE release_index_snapshot SET format = $2 WHERE release_id = $1`, releaseId, SNAPSHOT_FORMAT + 1);
    expect(await readSnapshot(store(), releaseId)).toBeNull();
    const cache = newCache();
    statements.length = 0;
    const ix = await cache.get(releaseId, db.prisma);
    expect(statements.length).toBeGreaterThan(1);
    await cache.flushed();
    expect(statements.some((s) => /(INSERT INTO|COPY) release_index_snapshot/.test(s))).toBe(true);
    expect((await snapshotRow())[0]!.format).toBe(SNAPSHOT_FORMAT);
    same(ix.children('SOC', keys.find((k) => k.level === 'SOC')!.code), sqlBuilt.children('SOC', keys.find((k) => k.level === 'SOC')!.code));
  });

  it('ignores damaged bytes with a warning: builds from rows and overwrites the snapshot', async () => {
    // One byte in the middle changed: only the checksum can tell.
    await db.prisma.$executeRawUnsafe(
      `UPDATE release_index_snapshot SET data = set_byte(data, octet_length(data) / 2, (get_byte(data, octet_length(data) / 2) + 1) % 256) WHERE release_id = $1`,
      releaseId,
    );
    expect(() => deserializeIndex(new Uint8Array(0), releaseId)).toThrow(CorruptSnapshotError);
    const damaged = (await readSnapshot(store(), releaseId))!;
    await expect(unpackIndex(damaged, releaseId)).rejects.toThrow(CorruptSnapshotError);
    await expect(unpackIndex(damaged.subarray(0, 1000), releaseId)).rejects.toThrow(CorruptSnapshotError);
    // Intact deflate data of a damaged serialisation: the checksum tells.
    const raw = serializeIndex(sqlBuilt);
    raw[raw.length >> 1]! ^= 1;
    expect(() => deserializeIndex(raw, releaseId)).toThrow(/checksum/);
    const warnings: string[] = [];
    const cache = newCache();
    cache.onWarning = (message) => warnings.push(message);
    // As a server starts: the warm-up's snapshot read, then the first get(): the damaged value
    // is read (and warned of) once, the second builds from rows at once.
    statements.length = 0;
    expect(await cache.loadSnapshot(releaseId, db.prisma)).toBeUndefined();
    const ix = await cache.get(releaseId, db.prisma);
    await cache.flushed();
    expect(warnings).toEqual([expect.stringMatching(/corrupt/)]);
    expect(statements.filter((q) => /^SELECT (CASE WHEN format|data FROM) .*release_index_snapshot/s.test(q))).toHaveLength(1);
    expect(ix.size).toBe(sqlBuilt.size);
    const again = await readSnapshot(store(), releaseId);
    expect((await unpackIndex(again!, releaseId)).size).toBe(sqlBuilt.size);
    // A snapshot of another release is refused too.
    await expect(unpackIndex(again!, releaseId + 1)).rejects.toThrow(CorruptSnapshotError);
  });
});
