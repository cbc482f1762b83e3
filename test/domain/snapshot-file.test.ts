// The embedded store's file copy of each release index snapshot (snapshotStore.ts): written by
// the import beside the store, read instead of the row at the next load (one metadata
// statement, no COPY), and never trusted blindly: a missing, resized or damaged copy falls back
// to the row (or a rebuild from rows) and is replaced; copies of replaced releases are removed.
// Embedded only: server mode keeps snapshots in the database alone.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { templatesReady } from '../setup/templates.ts';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/client.ts';
import type { BlobChannel } from '../../src/db/blobs.ts';
import { importRelease } from '../../src/importer/import.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { readSnapshot, writeSnapshot } from '../../src/domain/releaseIndex/snapshotStore.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';
import { usingPostgres } from '../helpers/db.ts';

let root: string;
let db: Database;
let releaseId: number;
let release: string;
const statements: string[] = [];
const copies = () => readdirSync(path.join(root, 'cache')).filter((f) => f.startsWith('index-'));
/** The store's channel with its COPY statements counted (Prisma's are counted by onQuery). */
const counted = (): BlobChannel => ({
  cacheDir: db.blobs.cacheDir,
  copyOut: (sql) => (statements.push(sql), db.blobs.copyOut(sql)),
  copyIn: (steps, data) => (statements.push(steps.into), db.blobs.copyIn(steps, data)),
});
const rowBytes = async () =>
  Buffer.from(
    (await db.prisma.$queryRawUnsafe<{ d: string }[]>(`SELECT encode(data, 'base64') AS d FROM release_index_snapshot WHERE release_id = $1`, releaseId))[0]!.d,
    'base64',
  );

beforeAll(async () => {
  if (usingPostgres) return;
  root = mkdtempSync(path.join(tmpdir(), 'snapfile-'));
  await templatesReady(inject('templates'));
  cpSync(inject('templates').dirs!.migrated, root, { recursive: true });
  db = await openDatabase({ dataDir: root, onQuery: (sql) => statements.push(sql) });
  release = mkdtempSync(path.join(tmpdir(), 'syn-'));
  await writeMedAscii(generateRelease({ seed: 21, version: '83.0', scale: 0.02, withSmq: false }), release);
  releaseId = (await importRelease(db, release)).releaseId;
}, 120_000);

afterAll(async () => {
  await db?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(usingPostgres)('release index snapshot: the embedded file copy', () => {
  it('is written by the import: the row value, named after the row', async () => {
    const [file] = copies();
    expect(copies()).toHaveLength(1);
    const bytes = await rowBytes();
    expect(file).toMatch(new RegExp(`^index-${releaseId}-\\d+-${bytes.byteLength}\\.snapshot$`));
    expect(Buffer.compare(readFileSync(path.join(root, 'cache', file!)), bytes)).toBe(0);
  });

  it('is what a load reads: one metadata statement, no COPY of the value', async () => {
    statements.length = 0;
    const cache = new SearchIndexCache(2, undefined, counted());
    const ix = await cache.get(releaseId, db.prisma);
    expect(ix.size).toBeGreaterThan(1000);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/SELECT format, bytes/);
  });

  it('missing or of another size: the row is read (COPY) and the copy written again', async () => {
    const file = path.join(root, 'cache', copies()[0]!);
    rmSync(file);
    statements.length = 0;
    const bytes = await readSnapshot({ db: db.prisma, blobs: counted() }, releaseId);
    expect(statements.some((s) => /^SELECT data FROM release_index_snapshot/.test(s))).toBe(true);
    expect(Buffer.compare(Buffer.from(bytes!), await rowBytes())).toBe(0);
    expect(statSync(file).size).toBe(bytes!.byteLength);
    writeFileSync(file, readFileSync(file).subarray(0, 1000));
    statements.length = 0;
    const again = await readSnapshot({ db: db.prisma, blobs: counted() }, releaseId);
    expect(statements.some((s) => /^SELECT data FROM release_index_snapshot/.test(s))).toBe(true);
    expect(again!.byteLength).toBe(bytes!.byteLength);
    expect(statSync(file).size).toBe(bytes!.byteLength);
  });

  it('damaged in place: refused by its checksum, the index rebuilt from rows, row and copy replaced', async () => {
    const before = copies()[0]!;
    const file = path.join(root, 'cache', before);
    const damaged = readFileSync(file);
    damaged[damaged.length >> 1]! ^= 1;
    writeFileSync(file, damaged);
    const warnings: string[] = [];
    const cache = new SearchIndexCache(2, undefined, counted());
    cache.onWarning = (message) => warnings.push(message);
    const ix = await cache.get(releaseId, db.prisma);
    await cache.flushed();
    expect(warnings).toEqual([expect.stringMatching(/corrupt/)]);
    expect(ix.size).toBeGreaterThan(1000);
    expect(copies()).toHaveLength(1);
    expect(copies()[0]).not.toBe(before); // the rewritten row has a new creation time
    expect(Buffer.compare(readFileSync(path.join(root, 'cache', copies()[0]!)), await rowBytes())).toBe(0);
  });

  it('an unwritable copy (here its directory is a file) costs nothing: written and read from the row', async () => {
    const blocked = path.join(root, 'not-a-dir');
    writeFileSync(blocked, 'x');
    const channel: BlobChannel = { ...counted(), cacheDir: blocked };
    const ix = await new SearchIndexCache(2, undefined, channel).get(releaseId, db.prisma);
    expect(await writeSnapshot({ db: db.prisma, blobs: channel }, ix)).toBeGreaterThan(1000);
    expect((await readSnapshot({ db: db.prisma, blobs: channel }, releaseId))!.byteLength).toBe((await rowBytes()).byteLength);
  });

  it('a replaced release: the old copy goes, the new one comes', async () => {
    const before = copies()[0]!;
    releaseId = (await importRelease(db, release, { replace: true })).releaseId;
    expect(copies()).toHaveLength(1);
    expect(copies()[0]).not.toBe(before);
    expect(copies()[0]).toMatch(new RegExp(`^index-${releaseId}-`));
  });

  it('a newer release imported: its snapshot whole with a copy, the previous one a delta over it whose copy goes at once', async () => {
    const newer = mkdtempSync(path.join(tmpdir(), 'syn-'));
    try {
      await writeMedAscii(generateRelease({ seed: 21, version: '83.1', scale: 0.02, withSmq: false, changesFrom: generateRelease({ seed: 21, version: '83.0', scale: 0.02, withSmq: false }) }), newer);
      const newest = (await importRelease(db, newer)).releaseId;
      const rows = await db.prisma.$queryRawUnsafe<{ id: number; base: number | null }[]>('SELECT release_id AS id, base_release_id AS base FROM release_index_snapshot ORDER BY release_id');
      expect(rows).toEqual([{ id: releaseId, base: newest }, { id: newest, base: null }]);
      expect(copies()).toHaveLength(1);
      expect(copies()[0]).toMatch(new RegExp(`^index-${newest}-`));
    } finally {
      rmSync(newer, { recursive: true, force: true });
    }
  }, 120_000);
});
