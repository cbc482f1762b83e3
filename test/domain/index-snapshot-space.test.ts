// The index snapshots' space on disk stays bounded as releases are imported (issue 32): each import
// stores the newest release whole and the previous newest again as a delta over it
// (snapshotChain.ts), leaving that whole snapshot's TOAST chunks dead; the importer's VACUUM marks
// them free, and the next import's whole snapshot is written into them instead of growing the
// files. What stays is one whole snapshot's worth of free space (the previous newest's, until the
// next import), not one per import. Real stores, both databases: PGlite has no autovacuum, and the
// PostgreSQL server of the tests none either.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { canonicalParts, partsDifference } from '../helpers/indexParts.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { serializeIndex } from '../../src/domain/releaseIndex/snapshot.ts';
import { loadStoredIndex } from '../../src/domain/releaseIndex/snapshotChain.ts';
import { materialise, overlayOf } from '../../src/domain/releaseIndex/overlay.ts';
import { deserializeDelta, serializeDelta } from '../../src/domain/releaseIndex/snapshotDelta.ts';
import { checksumOf } from '../../src/domain/releaseIndex/snapshot.ts';
import { readSnapshot } from '../../src/domain/releaseIndex/snapshotStore.ts';
import { isDeflated, readStoredBytes, type SnapshotDb } from '../../src/domain/releaseIndex/snapshotStore.ts';
import { importRelease } from '../../src/importer/import.ts';
import { deleteRelease } from '../../src/importer/releases.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';

let db: TestDatabase;
let dir: string;
let prev: SyntheticRelease | undefined;

/** Imports the next synthetic release of the chain. */
async function importNext(version: string): Promise<void> {
  const r = generateRelease({ seed: 11, version, scale: 0.02, withSmq: false, changesFrom: prev });
  await writeMedAscii(r, path.join(dir, version));
  await importRelease(db, path.join(dir, version));
  prev = r;
}

const store = (): SnapshotDb => ({ db: db.prisma, blobs: db.blobs });
const idOf = async (version: string) => (await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release WHERE version = $1', version))[0]!.id;

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated' });
  dir = mkdtempSync(path.join(tmpdir(), 'snapshot-space-'));
}, 60_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Space {
  /** The snapshot table's TOAST relation, all its pages. */
  toast: number;
  /** What its live rows hold there (as stored). */
  live: number;
  /** The newest release's whole snapshot, as stored. */
  newest: number;
}

async function space(): Promise<Space> {
  const [s] = await db.prisma.$queryRawUnsafe<{ toast: bigint; live: bigint; newest: bigint }[]>(
    `SELECT pg_total_relation_size(c.reltoastrelid) AS toast,
       (SELECT coalesce(sum(pg_column_size(data)), 0)::bigint FROM release_index_snapshot) AS live,
       (SELECT pg_column_size(s.data)::bigint FROM release_index_snapshot s JOIN release r ON r.id = s.release_id ORDER BY r.ordinal DESC LIMIT 1) AS newest
     FROM pg_class c WHERE c.oid = 'release_index_snapshot'::regclass`,
  );
  return { toast: Number(s!.toast), live: Number(s!.live), newest: Number(s!.newest) };
}

describe('index snapshot space across imports', () => {
  it("a whole snapshot rewritten as a delta leaves space the next import's whole snapshot reuses: the table holds its live rows plus about one whole snapshot, however many imports", async () => {
    const seen: Space[] = [];
    // Seven releases: one group (KEYFRAME_EVERY = 8), so every import moves the previous newest.
    for (let i = 0; i < 7; i++) {
      await importNext(`97.${i}`);
      seen.push(await space());
    }
    const rows = await db.prisma.$queryRawUnsafe<{ whole: number }[]>('SELECT count(*)::int AS whole FROM release_index_snapshot WHERE base_release_id IS NULL');
    expect(rows[0]!.whole).toBe(1);
    const slack = seen.map((s) => s.toast - s.live);
    for (const [i, s] of seen.entries()) {
      // Free: the previous newest's whole snapshot and the group's deltas written before (each
      // at most that), plus partly filled pages. Without the VACUUM, one whole more per import.
      expect(s.toast - s.live, `import ${i + 1}: ${JSON.stringify(s)}`).toBeLessThanOrEqual(2 * s.newest + 64 * 1024);
    }
    // From the third import on, the freed whole snapshot takes most of the new one: the files grow
    // by far less than a whole snapshot per import.
    for (let i = 2; i < seen.length; i++) {
      expect(seen[i]!.toast - seen[i - 1]!.toast, `import ${i + 1}: ${JSON.stringify(slack)}`).toBeLessThan(0.5 * seen[i]!.newest);
    }
  }, 300_000);

  it('a keyframe whose group closed is stored deflated (its checksum unchanged, so its deltas still load), without a file copy; the newest stays as it is, and becomes so again when the newest is deleted', async () => {
    // 97.7 takes the whole group (7 deltas); 97.8 finds it full, so 97.7 stays a keyframe.
    await importNext('97.7');
    await importNext('97.8');
    const [k, top] = [await idOf('97.7'), await idOf('97.8')];
    const kept = (await readStoredBytes(store(), k))!;
    expect(isDeflated(kept)).toBe(true);
    const whole = serializeIndex(await ReleaseIndex.load(db.prisma, k)).byteLength;
    expect(kept.byteLength).toBeLessThan(0.8 * whole);
    expect(isDeflated((await readStoredBytes(store(), top))!)).toBe(false);
    const bases = await db.prisma.$queryRawUnsafe<{ version: string; base: string | null }[]>(
      'SELECT r.version, b.version AS base FROM release_index_snapshot s JOIN release r ON r.id = s.release_id LEFT JOIN release b ON b.id = s.base_release_id ORDER BY r.ordinal',
    );
    expect(bases.map((b) => b.base)).toEqual([...Array(7).fill('97.7'), null, null]);
    // Every release loads from its snapshot (the group's over the deflated keyframe) to the index its rows build.
    for (const { version } of bases) {
      const id = await idOf(version);
      const loaded = (await loadStoredIndex(store(), id))!;
      expect(partsDifference(canonicalParts(loaded.ix.parts()), canonicalParts((await ReleaseIndex.load(db.prisma, id)).parts())), version).toBe('');
    }
    // The rebase materialises a member without its search parts: the delta it then takes over the newest is byte for byte the full index's.
    const keyframe = (await loadStoredIndex(store(), k))!.ix;
    const newest = (await loadStoredIndex(store(), top))!.ix;
    const { overlay } = deserializeDelta((await readSnapshot(store(), await idOf('97.0')))!, await idOf('97.0'));
    const over = { releaseId: top, size: newest.size, checksum: checksumOf((await readSnapshot(store(), top))!) };
    const lean = serializeDelta(await overlayOf(newest, await materialise(keyframe, overlay, { search: false })), over);
    const full = serializeDelta(await overlayOf(newest, await materialise(keyframe, overlay)), over);
    expect(Buffer.from(lean).equals(Buffer.from(full))).toBe(true);
    if (db.blobs.cacheDir) {
      const { readdirSync } = await import('node:fs');
      expect(readdirSync(db.blobs.cacheDir).filter((f) => f.startsWith(`index-${k}-`))).toEqual([]);
    }
    // The newest deleted: the keyframe is the newest again, stored as it is.
    await deleteRelease(db, '97.8');
    expect(isDeflated((await readStoredBytes(store(), k))!)).toBe(false);
    expect((await loadStoredIndex(store(), await idOf('97.0')))!.baseReleaseId).toBe(k);
  }, 300_000);
});
