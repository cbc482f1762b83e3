// A group member's delta moved onto the new newest release by composing overlays
// (src/domain/releaseIndex/overlayCompose.ts, issue 32) instead of materialising the member: the
// composed overlay serialises byte for byte as the materialising path's (overlayOf over the member
// materialised over the previous newest), and loads to the member's index. Chains of the generator's
// realistic releases (codes added, made non-current and current again, renamed, moved, PTs demoted
// and LLTs promoted, primary SOCs moved, links added and removed); the imports themselves rebase by
// composing, and the stored snapshots are compared with those the materialising path writes.
// PGlite and PostgreSQL (the indexes are built from each database's rows, ranks in its collation).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { canonicalParts, partsDifference } from '../helpers/indexParts.ts';
import { materialise, overlayOf, type IndexOverlay } from '../../src/domain/releaseIndex/overlay.ts';
import { composeBase, composeOverlay } from '../../src/domain/releaseIndex/overlayCompose.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { deserializeDelta, serializeDelta } from '../../src/domain/releaseIndex/snapshotDelta.ts';
import { buildLanguageIndex } from '../../src/domain/releaseIndex/languageIndex.ts';
import { chainDefaults, loadStoredIndex, loadStoredLanguageIndex, storeIndex, storeLanguageIndex } from '../../src/domain/releaseIndex/snapshotChain.ts';
import { checksumOf, serializeIndex } from '../../src/domain/releaseIndex/snapshot.ts';
import { readLanguageSnapshot, readSnapshot, writeLanguageStored, writeStored, type SnapshotDb } from '../../src/domain/releaseIndex/snapshotStore.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii, type SyntheticRelease } from '../../tools/synthetic/generate.ts';
import { writeLanguageFolder } from '../../tools/synthetic/language.ts';

const VERSIONS = ['97.0', '97.1', '97.2', '97.3', '97.4', '97.5', '97.6', '97.7', '97.8'];
let db: TestDatabase;
let dir: string;
const releases: SyntheticRelease[] = [];
const ix: ReleaseIndex[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated' });
  dir = mkdtempSync(path.join(tmpdir(), 'overlay-compose-'));
  let prev: SyntheticRelease | undefined;
  for (const version of VERSIONS) {
    const r = generateRelease({ seed: 11, version, scale: 0.01, withSmq: false, changesFrom: prev });
    await writeMedAscii(r, path.join(dir, version));
    await importRelease(db, path.join(dir, version));
    // A second language on each (its names follow the renames): language snapshots move too.
    writeLanguageFolder(path.join(dir, version), path.join(dir, `${version}-de`), 'de');
    await importRelease(db, path.join(dir, `${version}-de`));
    releases.push((prev = r));
  }
  const ids = await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release ORDER BY ordinal');
  for (const { id } of ids) ix.push(await ReleaseIndex.load(db.prisma, id));
}, 600_000);

afterAll(async () => {
  await db?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const store = (): SnapshotDb => ({ db: db.prisma, blobs: db.blobs });

/** An overlay as a stored delta gives it back (what a rebase reads). */
const stored = (o: IndexOverlay, base: ReleaseIndex) => deserializeDelta(serializeDelta(o, { releaseId: base.releaseId, size: base.size, checksum: 7 }), o.releaseId).overlay;
const bytesOver = (o: IndexOverlay, base: ReleaseIndex) => serializeDelta(o, { releaseId: base.releaseId, size: base.size, checksum: 7 });

/** Member m over p, moved onto t both ways: the composed and the materialised path's bytes, and the composed overlay. */
async function bothWays(m: ReleaseIndex, p: ReleaseIndex, t: ReleaseIndex) {
  const member = stored(await overlayOf(p, m), p);
  const cb = composeBase(t, p, await overlayOf(t, p));
  expect(cb).toBeDefined();
  const composed = composeOverlay(cb!, member);
  expect(composed).toBeDefined();
  const materialised = await overlayOf(t, await materialise(p, member, { search: false }));
  return { composed: composed!, bytes: bytesOver(composed!, t), expected: bytesOver(materialised, t) };
}

describe('a member moved onto the new newest by composing overlays', () => {
  it("the chain holds every kind of change the generator makes", () => {
    const kinds = ['newPts', 'newLlts', 'renamedPts', 'renamedLlts', 'lltsMadeNonCurrent', 'lltsMadeCurrent', 'primarySocMoves', 'linksAdded', 'linksRemoved', 'lltsMoved', 'demotedPts', 'promotedLlts'] as const;
    for (const k of kinds) expect(releases.slice(1).reduce((s, r) => s + r.changes![k].length, 0), k).toBeGreaterThan(0);
  });

  it('every member of a group of 7 (over the previous newest) moved onto the newest: byte-equal to the materialised path, loading to the index built from rows', async () => {
    const [p, t] = [ix[7]!, ix[8]!];
    for (let k = 0; k < 7; k++) {
      const { composed, bytes, expected } = await bothWays(ix[k]!, p, t);
      expect(Buffer.from(bytes).equals(Buffer.from(expected)), VERSIONS[k]).toBe(true);
      expect(composed.at.length, VERSIONS[k]).toBeGreaterThan(0);
      const loaded = await materialise(t, composed);
      expect(partsDifference(canonicalParts(loaded.parts()), canonicalParts(ix[k]!.parts())), VERSIONS[k]).toBe('');
    }
  }, 120_000);

  it('any three releases in any order (a member newer than its base, changes undone, entries back as they were): byte-equal', async () => {
    const pick = [0, 2, 3, 5, 8];
    let n = 0;
    for (const a of pick) {
      for (const b of pick) {
        for (const c of pick) {
          if (a === b || b === c || a === c) continue;
          const { bytes, expected } = await bothWays(ix[a]!, ix[b]!, ix[c]!);
          expect(Buffer.from(bytes).equals(Buffer.from(expected)), `${VERSIONS[a]} over ${VERSIONS[b]} onto ${VERSIONS[c]}`).toBe(true);
          n++;
        }
      }
    }
    expect(n).toBe(60);
    // A member equal to the newest: nothing of its own.
    const same = await bothWays(ix[8]!, ix[5]!, ix[8]!);
    expect(Buffer.from(same.bytes).equals(Buffer.from(same.expected))).toBe(true);
    expect([same.composed.at.length, same.composed.down.entry.length, same.composed.ptPaths.replaced.length, same.composed.ranks.entry.length]).toEqual([0, 0, 0, 0]);
  }, 300_000);

  it("the imports' rebase writes the snapshots the materialising path writes, byte for byte", async () => {
    // After the last import: 97.8 whole, 97.7 a closed keyframe with 97.0–97.6 over it (composed at each import).
    const snaps = async () =>
      new Map(
        (await db.prisma.$queryRawUnsafe<{ id: number; base: number | null }[]>('SELECT release_id AS id, base_release_id AS base FROM release_index_snapshot ORDER BY release_id')).map((r) => [r.id, r.base]),
      );
    const before = await snaps();
    const [p, t] = [ix[7]!, ix[8]!];
    expect(before.get(p.releaseId)).toBeNull();
    for (let k = 0; k < 7; k++) expect(before.get(ix[k]!.releaseId)).toBe(p.releaseId);
    // The state before 97.7's group moves: 97.8's whole snapshot stored again with room for 7 deltas (no other over it).
    const saved = new Map<number, Uint8Array>();
    for (let k = 0; k < 8; k++) saved.set(ix[k]!.releaseId, (await readSnapshot(store(), ix[k]!.releaseId))!);
    const restore = async () => {
      for (let k = 0; k < 8; k++) await writeStored(store(), ix[k]!.releaseId, saved.get(ix[k]!.releaseId)!, k === 7 ? null : p.releaseId);
    };
    const top = (await loadStoredIndex(store(), t.releaseId))!.ix;
    const written = async (compose: boolean) => {
      await restore();
      chainDefaults.composeRebase = compose;
      try {
        await storeIndex(store(), top, { keyframeEvery: 9 });
      } finally {
        chainDefaults.composeRebase = true;
      }
      const out: Uint8Array[] = [];
      for (let k = 0; k < 8; k++) out.push((await readSnapshot(store(), ix[k]!.releaseId))!);
      return out;
    };
    const materialised = await written(false);
    const composed = await written(true);
    const after = await snaps();
    for (let k = 0; k < 8; k++) {
      expect(after.get(ix[k]!.releaseId), VERSIONS[k]).toBe(t.releaseId);
      expect(Buffer.from(composed[k]!).equals(Buffer.from(materialised[k]!)), VERSIONS[k]).toBe(true);
      const loaded = await loadStoredIndex(store(), ix[k]!.releaseId);
      expect(partsDifference(canonicalParts(loaded!.ix.parts()), canonicalParts(ix[k]!.parts())), VERSIONS[k]).toBe('');
    }
    expect(checksumOf(serializeIndex(top))).toBe(checksumOf((await readSnapshot(store(), t.releaseId))!));
  }, 300_000);

  it("a language's snapshots move onto the newest's without loading indexes: byte-equal to the loading path, loading to the index built from rows", async () => {
    // As after 97.8's import: every primary over 97.8; 97.0–97.6's German snapshots deltas over 97.7's, whole.
    const [p, t] = [ix[7]!, ix[8]!];
    const at = new Map(
      (await db.prisma.$queryRawUnsafe<{ id: number; at: Date }[]>(`SELECT release_id AS id, imported_at AS at FROM release_language WHERE language = 'de'`)).map((r) => [r.id, new Date(r.at)]),
    );
    const built = await Promise.all(ix.map((x) => buildLanguageIndex(db.prisma, x, 'de')));
    const over = async (base: ReleaseIndex, k: number) =>
      serializeDelta(await overlayOf(base, ix[k]!), { releaseId: base.releaseId, size: base.size, checksum: checksumOf((await readSnapshot(store(), base.releaseId))!) });
    await writeStored(store(), t.releaseId, serializeIndex(t), null);
    // Their German snapshots as they are while the primaries are over 97.7 (put back for the moment).
    const saved = new Map<number, Uint8Array>();
    await writeStored(store(), p.releaseId, serializeIndex(p), null);
    for (let k = 0; k < 7; k++) await writeStored(store(), ix[k]!.releaseId, await over(p, k), p.releaseId);
    await storeLanguageIndex(store(), built[7]!, 0, at.get(p.releaseId)!);
    for (let k = 0; k < 7; k++) expect(await storeLanguageIndex(store(), built[k]!, 0, at.get(ix[k]!.releaseId)!), VERSIONS[k]).toMatchObject({ baseReleaseId: p.releaseId });
    for (let k = 0; k < 8; k++) saved.set(ix[k]!.releaseId, (await readLanguageSnapshot(store(), ix[k]!.releaseId, 'de', 0))!);
    // Then every primary over 97.8 (what its import's rebase wrote).
    for (let k = 7; k >= 0; k--) await writeStored(store(), ix[k]!.releaseId, await over(t, k), t.releaseId);
    const moved = async (compose: boolean) => {
      for (let k = 0; k < 8; k++) await writeLanguageStored(store(), { releaseId: ix[k]!.releaseId, language: 'de', variant: 0, importedAt: at.get(ix[k]!.releaseId)! }, saved.get(ix[k]!.releaseId)!, k === 7 ? null : p.releaseId);
      chainDefaults.composeRebase = compose;
      try {
        expect(await storeLanguageIndex(store(), built[8]!, 0, at.get(t.releaseId)!)).toMatchObject({ baseReleaseId: null });
      } finally {
        chainDefaults.composeRebase = true;
      }
      const out: Uint8Array[] = [];
      for (let k = 0; k < 8; k++) out.push((await readLanguageSnapshot(store(), ix[k]!.releaseId, 'de', 0))!);
      return out;
    };
    const loading = await moved(false);
    const composed = await moved(true);
    const bases = await db.prisma.$queryRawUnsafe<{ id: number; base: number | null }[]>(`SELECT release_id AS id, base_release_id AS base FROM release_language_index_snapshot WHERE language = 'de'`);
    for (let k = 0; k < 8; k++) {
      expect(bases.find((b) => b.id === ix[k]!.releaseId)?.base, VERSIONS[k]).toBe(t.releaseId);
      expect(Buffer.from(composed[k]!).equals(Buffer.from(loading[k]!)), VERSIONS[k]).toBe(true);
      const primary = (await loadStoredIndex(store(), ix[k]!.releaseId))!.ix;
      const lang = (await loadStoredLanguageIndex(store(), primary, 'de', 0))!.ix;
      expect(partsDifference(lang.languageParts(), built[k]!.languageParts()), VERSIONS[k]).toBe('');
    }
  }, 300_000);
});
