// Which release index snapshots are stored whole and which as deltas (issue 32: a further
// release costs its differences, not a whole index). The newest release (by publication order:
// the one every start loads and most requests use) is stored whole, and when a newer one arrives
// the previous newest and the deltas over it are stored again as deltas over the new one
// (rebaseOnto), while it serves at most KEYFRAME_EVERY - 1 deltas and each is at most
// DELTA_MAX_SHARE of its whole; otherwise the previous newest stays whole, the keyframe of its
// group. Any other release's snapshot (an older one imported between hosted ones, one stored
// again) is a delta over the nearest keyframe with room, or whole. A delta's base is always a
// keyframe, so a load reads at most two rows (the delta, its base) and materialises once
// (overlay.ts); the newest loads as one whole snapshot. A store written when the oldest was the
// keyframe loads as it is, and its next newest release moves the group over itself. A delta is valid over its base's exact bytes (their checksum); anything else
// — base gone, rewritten or damaged — makes the delta unusable, and the cache builds the index
// from rows and stores it again (indexCache.ts): never a failed request.
// Before a release is deleted or replaced, detachDependants() stores the deltas over it again over
// another keyframe, or whole; the foreign key deletes any delta that a race still left over it.
// A whole snapshot that is not the newest (a keyframe whose group closed, or one stored whole for
// want of a base) is stored deflated (snapshotStore.ts inflates it on read): it is read only when
// a release of its group is loaded, and deflated it takes ~0.45 of the bytes (full size, level 1);
// the newest, read at every start, stays as it is.
import { promisify } from 'node:util';
import { constants, deflate } from 'node:zlib';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { buildLanguageIndex } from './languageIndex.ts';
import { materialise, overlayOf } from './overlay.ts';
import { composeBase, composeOverlay, type ComposeBase } from './overlayCompose.ts';
import { entriesInTop, languageDeltaOnto, namesOfDelta, type LanguageNames } from './languageCompose.ts';
import { ReleaseIndex } from './releaseIndex.ts';
import {
  CorruptSnapshotError, LANGUAGE_SNAPSHOT_FORMAT, SNAPSHOT_FORMAT, checksumOf, deserializeIndex, deserializeLanguageIndex, isWholeLanguageSnapshot, isWholeSnapshot, languageNamesOf, serializeIndex,
  serializeLanguageIndex, snapshotChecksum, unpackIndex,
} from './snapshot.ts';
import { deserializeDelta, deserializeLanguageDelta, isDeltaSnapshot, isLanguageDelta, serializeDelta, serializeLanguageDelta, type DeltaBase } from './snapshotDelta.ts';
import { isDeflated, plain, readLanguageSnapshot, readSnapshot, readStoredBytes, writeLanguageStored, writeStored, type LanguageKey, type SnapshotDb } from './snapshotStore.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Releases sharing one keyframe at most, itself included: a whole snapshot every this many releases at least. */
export const KEYFRAME_EVERY = 8;

/**
 * The process's default for storeIndex() (bench/snapshotDelta.ts sets 1, every snapshot whole, for its same-run baseline).
 * `composeRebase: false`: a rebase materialises each member as before overlayCompose.ts (tests compare the two).
 */
export const chainDefaults = { keyframeEvery: KEYFRAME_EVERY, newestWhole: true, composeRebase: true };

/** A delta larger than this share of its whole snapshot is stored whole instead (far from its base, a delta nears a whole index). */
export const DELTA_MAX_SHARE = 0.25;

export interface StoreOptions {
  /** A release whose snapshot must not be the base (being deleted or replaced). */
  exclude?: number;
  keyframeEvery?: number;
  /** The newest release whole, deltas pointing backwards (default chainDefaults.newestWhole; false: the round-5 policy, for the bench's baseline). */
  newestWhole?: boolean;
}

/** What storeIndex() wrote: its bytes, and the base when a delta. */
export interface Stored {
  bytes: number;
  baseReleaseId: number | null;
}

/**
 * The keyframe a snapshot of `releaseId` goes over, if any: the nearest by ordinal (the earlier
 * on a tie) with room for another delta. None when `releaseId` is itself a base: it stays whole.
 */
async function chooseBase(db: Db, releaseId: number, exclude: number, every: number, newerOnTie: boolean): Promise<number | undefined> {
  const rows = await db.$queryRawUnsafe<{ id: number }[]>(
    `SELECT s.release_id AS id
     FROM release_index_snapshot s JOIN release r ON r.id = s.release_id JOIN release me ON me.id = $1
     WHERE s.base_release_id IS NULL AND s.format = $2 AND s.release_id <> $1 AND s.release_id <> $3
       AND NOT EXISTS (SELECT 1 FROM release_index_snapshot d WHERE d.base_release_id = $1)
       AND (SELECT count(*) FROM release_index_snapshot d WHERE d.base_release_id = s.release_id AND d.release_id <> $1) < $4
     ORDER BY abs(r.ordinal - me.ordinal), r.ordinal ${newerOnTie ? 'DESC' : ''}
     LIMIT 1`,
    releaseId,
    SNAPSHOT_FORMAT,
    exclude,
    every - 1,
  );
  return rows[0]?.id;
}

/** The index a keyframe holds, or undefined when it is damaged (no base then: the snapshot is stored whole). */
function wholeOrNone(data: Uint8Array, releaseId: number): ReleaseIndex | undefined {
  try {
    return deserializeIndex(data, releaseId);
  } catch (e) {
    if (e instanceof CorruptSnapshotError) return undefined;
    throw e;
  }
}

/** Whether `releaseId` is the newest hosted release by ordinal (`exclude` not counted: being deleted or replaced). */
async function isNewest(db: Db, releaseId: number, exclude: number): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ newer: number }[]>(
    `SELECT count(*)::int AS newer FROM release o JOIN release me ON me.id = $1 WHERE o.ordinal > me.ordinal AND o.id <> $2`,
    releaseId,
    exclude,
  );
  return rows[0]?.newer === 0;
}

/** The delta of `ix` over keyframe `base` (whose whole snapshot has checksum `checksum`), or undefined when over DELTA_MAX_SHARE of `wholeBytes` (ix's whole snapshot). */
async function deltaIfSmall(base: ReleaseIndex, checksum: number, ix: ReleaseIndex, wholeBytes: number): Promise<Uint8Array | undefined> {
  const delta = serializeDelta(await overlayOf(base, ix), { releaseId: base.releaseId, size: base.size, checksum });
  return delta.byteLength <= DELTA_MAX_SHARE * wholeBytes ? delta : undefined;
}

/**
 * A group member's delta over the new newest (rebaseOnto), undefined when over DELTA_MAX_SHARE of
 * its whole (estimated from the newest's, `topWhole`, by entries: serialising each member whole only
 * to measure it cost ~10 % of its rebase, session 24). A delta over `cb.prev` (the previous newest,
 * at hand) is composed (`cb`) with the previous newest's overlay over the new newest (overlayCompose.ts: no
 * index materialised, the same bytes); else the member's index as any load, or built from rows, and
 * its overlay taken.
 */
async function memberOverTop(sdb: SnapshotDb, id: number, top: ReleaseIndex, prev: ReleaseIndex, cb: ComposeBase | undefined, topBase: DeltaBase, topWhole: number): Promise<Uint8Array | undefined> {
  const fits = (delta: Uint8Array, size: number) => (delta.byteLength <= DELTA_MAX_SHARE * ((topWhole * size) / top.size) ? delta : undefined);
  const data = await readSnapshot(sdb, id).catch(() => null);
  if (data && isDeltaSnapshot(data)) {
    try {
      const { overlay, base } = deserializeDelta(data, id);
      if (base.releaseId === prev.releaseId && base.checksum === snapshotChecksum(prev) && base.size === prev.size) {
        const composed = cb && chainDefaults.composeRebase ? composeOverlay(cb, overlay) : undefined;
        if (composed) return fits(serializeDelta(composed, topBase), composed.size);
        const ix = await materialise(prev, overlay, { search: false });
        return fits(serializeDelta(await overlayOf(top, ix), topBase), ix.size);
      }
    } catch {
      // Damaged: as any load (below), which builds it from rows.
    }
  }
  const ix = (await loadStoredIndex(sdb, id, (b) => (b === prev.releaseId ? prev : undefined)).catch(() => null))?.ix ?? (await ReleaseIndex.load(sdb.db, id));
  return fits(serializeDelta(await overlayOf(top, ix), topBase), ix.size);
}

const deflated = promisify(deflate);

/**
 * Stores `whole` (serializeIndex() output) deflated as `releaseId`'s whole snapshot: a keyframe
 * that is not the newest. Its checksum (in the inflated header) is unchanged, so the deltas over it
 * stay valid. Level 1: at full size 0.45 of the bytes for ~0.4 s of CPU (level 6: 0.42 for 0.6 s),
 * inflated in ~0.13 s; in the thread pool both ways.
 */
async function writeDeflated(sdb: SnapshotDb, releaseId: number, whole: Uint8Array): Promise<number> {
  const z = await deflated(whole, { level: constants.Z_BEST_SPEED });
  await writeStored(sdb, releaseId, z, null);
  return z.byteLength;
}

/** A keyframe that is no longer the newest stored deflated, when it is whole and not yet deflated (its bytes read as stored). */
async function deflateKeyframe(sdb: SnapshotDb, releaseId: number): Promise<void> {
  const stored = await readStoredBytes(sdb, releaseId);
  if (stored && !isDeflated(stored) && isWholeSnapshot(stored)) await writeDeflated(sdb, releaseId, stored);
}

/** Stores a built index's snapshot: whole when the newest (then rebaseOnto), else a delta over a keyframe when one serves (see above), else whole (deflated under the newest-whole policy). */
export async function storeIndex(sdb: SnapshotDb, ix: ReleaseIndex, opts: StoreOptions = {}): Promise<Stored> {
  const whole = serializeIndex(ix);
  const every = opts.keyframeEvery ?? chainDefaults.keyframeEvery;
  const newestWhole = (opts.newestWhole ?? chainDefaults.newestWhole) && every > 1;
  const exclude = opts.exclude ?? 0;
  const newest = newestWhole && (await isNewest(sdb.db, ix.releaseId, exclude));
  if (newest && ix.hasHierarchy) {
    await writeStored(sdb, ix.releaseId, whole, null);
    await rebaseOnto(sdb, ix, checksumOf(whole), whole.byteLength, every, exclude);
    return { bytes: whole.byteLength, baseReleaseId: null };
  }
  const baseId = ix.hasHierarchy ? await chooseBase(sdb.db, ix.releaseId, exclude, every, newestWhole) : undefined;
  if (baseId !== undefined) {
    const baseData = await readSnapshot(sdb, baseId);
    // An earlier version's deflated row is no base: whole instead (its next write makes it one).
    const base = baseData && isWholeSnapshot(baseData) ? wholeOrNone(baseData, baseId) : undefined;
    const delta = base && (await deltaIfSmall(base, checksumOf(baseData!), ix, whole.byteLength));
    if (delta) {
      await writeStored(sdb, ix.releaseId, delta, baseId);
      return { bytes: delta.byteLength, baseReleaseId: baseId };
    }
  }
  if (newestWhole && !newest) return { bytes: await writeDeflated(sdb, ix.releaseId, whole), baseReleaseId: null };
  await writeStored(sdb, ix.releaseId, whole, null);
  return { bytes: whole.byteLength, baseReleaseId: null };
}

/**
 * After `top` (the newest release) was stored whole: the keyframe just before it (the previous
 * newest, as a rule) and every delta over that keyframe stored again as deltas over `top`, when
 * `top` has room for them all and each stays within DELTA_MAX_SHARE; else nothing moves (that
 * keyframe closes its group). The dependants first, the keyframe last, each write on its own: at
 * every point each snapshot still loads (a delta over the old keyframe while it is whole, or over
 * `top`). Then the language snapshots over `top`'s (rebaseLanguages). Returns how many moved.
 */
async function rebaseOnto(sdb: SnapshotDb, top: ReleaseIndex, topChecksum: number, topWhole: number, every: number, exclude: number): Promise<number> {
  const moved = await moveGroup(sdb, top, topChecksum, topWhole, every, exclude);
  if (moved.prev === undefined) return 0;
  // Not moved: the previous newest stays a keyframe, no longer the newest, so deflated.
  if (!moved.n) await deflateKeyframe(sdb, moved.prev);
  await reclaim(sdb.db, 'release_index_snapshot');
  return moved.n;
}

/** rebaseOnto's move: how many snapshots moved over `top`, and the keyframe before it (undefined: none). */
async function moveGroup(sdb: SnapshotDb, top: ReleaseIndex, topChecksum: number, topWhole: number, every: number, exclude: number): Promise<{ n: number; prev?: number }> {
  const [prev] = await sdb.db.$queryRawUnsafe<{ id: number }[]>(
    `SELECT s.release_id AS id FROM release_index_snapshot s JOIN release r ON r.id = s.release_id JOIN release me ON me.id = $1
     WHERE s.base_release_id IS NULL AND s.format = $2 AND r.ordinal < me.ordinal AND s.release_id <> $3
     ORDER BY r.ordinal DESC LIMIT 1`,
    top.releaseId,
    SNAPSHOT_FORMAT,
    exclude,
  );
  if (!prev) return { n: 0 };
  const group = await sdb.db.$queryRawUnsafe<{ id: number }[]>(
    `SELECT s.release_id AS id FROM release_index_snapshot s JOIN release r ON r.id = s.release_id WHERE s.base_release_id = $1 AND s.release_id <> $2 ORDER BY r.ordinal DESC`,
    prev.id,
    exclude,
  );
  const [{ n: serving } = { n: 0 }] = await sdb.db.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM release_index_snapshot WHERE base_release_id = $1', top.releaseId);
  const kept = { n: 0, prev: prev.id };
  if (serving + group.length + 1 > every - 1) return kept;
  const prevLoaded = await loadStoredIndex(sdb, prev.id).catch(() => null);
  if (!prevLoaded || prevLoaded.baseReleaseId !== null) return kept;
  const prevIx = prevLoaded.ix;
  const topBase: DeltaBase = { releaseId: top.releaseId, size: top.size, checksum: topChecksum };
  // The previous newest's delta first (its whole: the snapshot just read, inflated when it was
  // deflated): its overlay is what each member's is composed with.
  const prevOverlay = await overlayOf(top, prevIx);
  const prevDelta = serializeDelta(prevOverlay, topBase);
  if (prevDelta.byteLength > DELTA_MAX_SHARE * prevLoaded.bytes) return kept;
  const cb = composeBase(top, prevIx, prevOverlay);
  // Every delta computed before any is written: all move, or none.
  const deltas: [number, Uint8Array][] = [];
  for (const { id } of group) {
    const delta = await memberOverTop(sdb, id, top, prevIx, cb, topBase, topWhole);
    if (!delta) return kept;
    deltas.push([id, delta]);
  }
  for (const [id, delta] of deltas) await writeStored(sdb, id, delta, top.releaseId);
  await writeStored(sdb, prev.id, prevDelta, top.releaseId);
  // Their languages: over top's whole snapshot of each language top has one of (else as they are, still loading over their old base).
  const langs = await sdb.db.$queryRawUnsafe<{ language: string; variant: number }[]>(
    'SELECT language, variant FROM release_language_index_snapshot WHERE release_id = $1 AND base_release_id IS NULL AND format = $2',
    top.releaseId,
    LANGUAGE_SNAPSHOT_FORMAT,
  );
  for (const l of langs) await rebaseLanguages(sdb, top, l.language, l.variant);
  return { n: deltas.length + 1, prev: prev.id };
}

/**
 * After the newest release went (deleted): the release now newest stored as it is again when its
 * snapshot is a deflated keyframe (it is read at every start). Whether it was.
 */
export async function inflateNewest(sdb: SnapshotDb): Promise<boolean> {
  const [top] = await sdb.db.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release ORDER BY ordinal DESC LIMIT 1');
  const stored = top && (await readStoredBytes(sdb, top.id));
  if (!stored || !isDeflated(stored)) return false;
  const whole = await plain(stored);
  if (!whole || !isWholeSnapshot(whole)) return false;
  await writeStored(sdb, top.id, whole, null);
  await reclaim(sdb.db, 'release_index_snapshot');
  return true;
}

/** A stored index as loaded: where from, and the bytes read (a delta's base included). */
export interface Loaded {
  ix: ReleaseIndex;
  bytes: number;
  baseReleaseId: number | null;
}

/**
 * The release's index from its stored snapshot, whole or a delta over its base; null when it has
 * none of the current format. `known`: indexes at hand (the cache's), used as the base when they
 * are that base's exact snapshot. Throws CorruptSnapshotError when what is stored cannot give the
 * index (damaged, or a delta whose base is gone or another); other errors are failed reads.
 */
export async function loadStoredIndex(sdb: SnapshotDb, releaseId: number, known?: (releaseId: number) => ReleaseIndex | undefined): Promise<Loaded | null> {
  const data = await readSnapshot(sdb, releaseId);
  if (!data) return null;
  if (!isDeltaSnapshot(data)) return { ix: await unpackIndex(data, releaseId), bytes: data.byteLength, baseReleaseId: null };
  const { overlay, base } = deserializeDelta(data, releaseId);
  let bytes = data.byteLength;
  let b = known?.(base.releaseId);
  if (!b || snapshotChecksum(b) !== base.checksum) {
    const baseData = await readSnapshot(sdb, base.releaseId);
    if (!baseData || !isWholeSnapshot(baseData) || checksumOf(baseData) !== base.checksum) {
      throw new CorruptSnapshotError(`a delta over release ${base.releaseId}'s snapshot, which is ${baseData ? 'another' : 'gone'}`);
    }
    b = deserializeIndex(baseData, base.releaseId);
    bytes += baseData.byteLength;
  }
  if (b.size !== base.size) throw new CorruptSnapshotError(`a delta over ${base.size} entries, its base has ${b.size}`);
  try {
    return { ix: await materialise(b, overlay), bytes, baseReleaseId: base.releaseId };
  } catch (e) {
    throw new CorruptSnapshotError(`delta does not apply: ${(e as Error).message}`);
  }
}

/**
 * Before `releaseId`'s snapshot goes (its release deleted or replaced): every delta over it
 * stored again over another keyframe, or whole, in publication order (the first may become the
 * keyframe of the next), then the language snapshots that are deltas over its languages'. A
 * dependant that cannot be loaded from its snapshot is built from rows. Returns how many were
 * stored again.
 */
export async function detachDependants(sdb: SnapshotDb, releaseId: number): Promise<number> {
  const deps = await sdb.db.$queryRawUnsafe<{ id: number }[]>(
    `SELECT s.release_id AS id FROM release_index_snapshot s JOIN release r ON r.id = s.release_id WHERE s.base_release_id = $1 ORDER BY r.ordinal ${chainDefaults.newestWhole ? 'DESC' : ''}`,
    releaseId,
  );
  // A dependant's index from its snapshot, or from rows when that cannot give it.
  const indexOf = async (id: number) => (await loadStoredIndex(sdb, id).catch(() => null))?.ix ?? (await ReleaseIndex.load(sdb.db, id));
  for (const { id } of deps) await storeIndex(sdb, await indexOf(id), { exclude: releaseId });
  // Then the language snapshots over its languages' (their primaries no longer over it: above).
  const langDeps = await sdb.db.$queryRawUnsafe<{ id: number; language: string; variant: number; at: Date }[]>(
    `SELECT l.release_id AS id, l.language, l.variant, rl.imported_at AS at
     FROM release_language_index_snapshot l JOIN release_language rl ON rl.release_id = l.release_id AND rl.language = l.language
     JOIN release r ON r.id = l.release_id WHERE l.base_release_id = $1 ORDER BY r.ordinal, l.language, l.variant`,
    releaseId,
  );
  for (const d of langDeps) {
    const primary = await indexOf(d.id);
    const ix = (await loadStoredLanguageIndex(sdb, primary, d.language, d.variant).catch(() => null))?.ix ?? (await buildLanguageIndex(sdb.db, primary, d.language, d.variant));
    await storeLanguageIndex(sdb, ix, d.variant, new Date(d.at));
  }
  return deps.length + langDeps.length;
}

// ---- A non-primary language's index ---------------------------------------------------------
// A delta over the same language's whole snapshot of the release the primary snapshot is a delta
// over (so its chain is the primary's: bounded alike), when that one is stored; else whole. No
// foreign key holds it to its base: detachDependants() stores it again before its base's release
// goes; a base gone or rewritten otherwise fails the checksum, and the language is built from
// rows and stored again (indexCache.ts), as with a damaged snapshot.

/** The delta of language index `ix` over release `baseId`'s whole snapshot of it, or undefined when that is not stored or not usable. */
async function languageDeltaOf(sdb: SnapshotDb, ix: ReleaseIndex, baseId: number, variant: number, known?: (releaseId: number) => ReleaseIndex | undefined): Promise<Uint8Array | undefined> {
  const baseData = await readLanguageSnapshot(sdb, baseId, ix.language!, variant);
  if (!baseData || !isWholeLanguageSnapshot(baseData)) return undefined;
  const names = languageNamesOf(baseData, baseId);
  const basePrimary = known?.(baseId) ?? (await loadStoredIndex(sdb, baseId))?.ix;
  if (!basePrimary || basePrimary.size !== names.size) return undefined;
  const own = ix.languageParts();
  const fromBase = new Int32Array(ix.size);
  const at: number[] = [];
  for (let i = 0; i < ix.size; i++) {
    const j = (fromBase[i] = basePrimary.find(ix.levelOf(i), ix.code[i]!));
    if (j < 0 || names.name[j] !== own.name[i] || names.norm[j] !== own.norm[i]) at.push(i);
  }
  return serializeLanguageDelta(ix.releaseId, {
    base: { releaseId: baseId, size: names.size, checksum: checksumOf(baseData) },
    fromBase,
    at: Int32Array.from(at),
    name: at.map((i) => own.name[i]!),
    norm: at.map((i) => own.norm[i]!),
    nameRank: own.nameRank,
  });
}

/** Stores a language index's snapshot (see above); `known`: primary indexes at hand (the cache's). */
export async function storeLanguageIndex(
  sdb: SnapshotDb,
  ix: ReleaseIndex,
  variant: number,
  importedAt: Date,
  known?: (releaseId: number) => ReleaseIndex | undefined,
): Promise<Stored> {
  if (ix.language === undefined) throw new TypeError('not a language index');
  const key = { releaseId: ix.releaseId, language: ix.language, variant, importedAt };
  const stored = await storeLanguageOnce(sdb, ix, variant, key, known);
  // Stored whole over a primary that is a keyframe: the releases over it move their snapshots of this language over this one.
  if (stored.baseReleaseId === null) await rebaseLanguages(sdb, ix, ix.language, variant, known);
  return stored;
}

async function storeLanguageOnce(sdb: SnapshotDb, ix: ReleaseIndex, variant: number, key: LanguageKey, known?: (releaseId: number) => ReleaseIndex | undefined): Promise<Stored> {
  const whole = serializeLanguageIndex(ix);
  const [row] = await sdb.db.$queryRawUnsafe<{ base: number | null }[]>('SELECT base_release_id AS base FROM release_index_snapshot WHERE release_id = $1', ix.releaseId);
  const baseId = row?.base ?? null;
  if (baseId !== null) {
    const delta = await languageDeltaOf(sdb, ix, baseId, variant, known).catch((e: unknown) => {
      if (e instanceof CorruptSnapshotError) return undefined;
      throw e;
    });
    if (delta && delta.byteLength <= DELTA_MAX_SHARE * whole.byteLength) {
      await writeLanguageStored(sdb, key, delta, baseId);
      return { bytes: delta.byteLength, baseReleaseId: baseId };
    }
  }
  await writeLanguageStored(sdb, key, whole, null);
  return { bytes: whole.byteLength, baseReleaseId: null };
}

/**
 * After `top`'s snapshot of `language` was stored whole: the releases whose primary snapshot is a
 * delta over `top`'s store theirs of that language again (a delta over this one, or whole when it
 * would be too large), those that are deltas over another base first, the whole ones last (they
 * may be that other base). `top`: that language's index of the keyframe, or the keyframe's
 * primary (its language snapshot then read). Not built from rows: a snapshot that cannot be
 * loaded stays as it is (its load rebuilds it).
 */
async function rebaseLanguages(sdb: SnapshotDb, top: ReleaseIndex, language: string, variant: number, known?: (releaseId: number) => ReleaseIndex | undefined): Promise<void> {
  const deps = await sdb.db.$queryRawUnsafe<{ id: number; at: Date }[]>(
    `SELECT l.release_id AS id, rl.imported_at AS at FROM release_language_index_snapshot l
     JOIN release_index_snapshot s ON s.release_id = l.release_id
     JOIN release_language rl ON rl.release_id = l.release_id AND rl.language = l.language
     WHERE s.base_release_id = $1 AND l.language = $2 AND l.variant = $3 AND l.base_release_id IS DISTINCT FROM $1
     ORDER BY l.base_release_id IS NULL, l.release_id`,
    top.releaseId,
    language,
    variant,
  );
  if (!deps.length) return;
  const topPrimary = top.language === undefined ? top : undefined;
  const knownHere = (id: number) => (id === top.releaseId && topPrimary ? topPrimary : known?.(id));
  // A damaged snapshot is no way to compose: the way below then (it stores that one again).
  const damaged = (e: unknown) => {
    if (e instanceof CorruptSnapshotError) return undefined;
    throw e;
  };
  const compose = chainDefaults.composeRebase ? await languageComposer(sdb, top, language, variant).catch(damaged) : undefined;
  for (const d of deps) {
    const composed = await compose?.(d.id).catch(damaged);
    if (composed) {
      await writeLanguageStored(sdb, { releaseId: d.id, language, variant, importedAt: new Date(d.at) }, composed, top.releaseId);
      continue;
    }
    const primary = (await loadStoredIndex(sdb, d.id, knownHere).catch(() => null))?.ix;
    if (!primary) continue;
    const lang = (await loadStoredLanguageIndex(sdb, primary, language, variant).catch(() => null))?.ix;
    if (!lang) continue;
    await storeLanguageOnce(sdb, lang, variant, { releaseId: d.id, language, variant, importedAt: new Date(d.at) }, knownHere);
  }
  await reclaim(sdb.db, 'release_language_index_snapshot');
}

/**
 * rebaseLanguages' way without loading indexes (languageCompose.ts): a release's delta of `language`
 * over `top`'s whole snapshot of it, from its primary delta over `top` and its stored snapshot of the
 * language; undefined when these are not so (then its indexes are loaded, as before), or when the delta
 * would be over DELTA_MAX_SHARE of its whole (estimated from top's by entries, as a primary member's).
 * The names of the whole snapshots the stored ones are over are read once for all.
 */
async function languageComposer(sdb: SnapshotDb, top: ReleaseIndex, language: string, variant: number): Promise<((id: number) => Promise<Uint8Array | undefined>) | undefined> {
  const topData = await readLanguageSnapshot(sdb, top.releaseId, language, variant);
  if (!topData || !isWholeLanguageSnapshot(topData)) return undefined;
  const topNames = languageNamesOf(topData, top.releaseId);
  if (topNames.size !== top.size) return undefined;
  const topBase: DeltaBase = { releaseId: top.releaseId, size: topNames.size, checksum: checksumOf(topData) };
  const bases = new Map<string, ReturnType<typeof languageNamesOf> | undefined>();
  const namesOver = async (base: DeltaBase) => {
    const key = `${base.releaseId}:${base.checksum}`;
    if (!bases.has(key)) {
      const data = await readLanguageSnapshot(sdb, base.releaseId, language, variant);
      bases.set(key, data && isWholeLanguageSnapshot(data) && checksumOf(data) === base.checksum ? languageNamesOf(data, base.releaseId) : undefined);
    }
    const names = bases.get(key);
    return names?.size === base.size ? names : undefined;
  };
  return async (id) => {
    const primary = await readSnapshot(sdb, id);
    if (!primary || !isDeltaSnapshot(primary)) return undefined;
    const { overlay, base } = deserializeDelta(primary, id);
    // Over top's entries: the same release and size is the same entries in (level, code) order.
    const fromTop = base.releaseId === top.releaseId && base.size === top.size ? entriesInTop(overlay, top) : undefined;
    const data = fromTop && (await readLanguageSnapshot(sdb, id, language, variant));
    if (!fromTop || !data) return undefined;
    let own: LanguageNames | undefined;
    if (isWholeLanguageSnapshot(data)) own = languageNamesOf(data, id);
    else if (isLanguageDelta(data)) {
      const d = deserializeLanguageDelta(data, id);
      const names = await namesOver(d.base);
      own = names && namesOfDelta(d, names);
    }
    if (!own || own.name.length !== overlay.size) return undefined;
    const delta = serializeLanguageDelta(id, languageDeltaOnto(fromTop, own, topNames, topBase));
    return delta.byteLength <= DELTA_MAX_SHARE * ((topData.byteLength * overlay.size) / top.size) ? delta : undefined;
  };
}

/**
 * The space of the whole snapshots just replaced by deltas made reusable at once: the next
 * newest's whole snapshot takes it instead of growing the files. PGlite has no autovacuum, so
 * without this the embedded store would keep a dead whole snapshot per import. Best effort
 * (not possible inside a transaction; the next one, or autovacuum, reclaims it then).
 */
async function reclaim(db: Db, table: 'release_index_snapshot' | 'release_language_index_snapshot'): Promise<void> {
  await db.$queryRawUnsafe(`VACUUM ${table}`).catch(() => undefined);
}

/**
 * A language index from its stored snapshot over `primary` (its release's index), whole or a delta
 * (its base's names read, postings derived again); null when none of the current format. Throws
 * CorruptSnapshotError when what is stored cannot give it.
 */
export async function loadStoredLanguageIndex(sdb: SnapshotDb, primary: ReleaseIndex, language: string, variant: number): Promise<Loaded | null> {
  const data = await readLanguageSnapshot(sdb, primary.releaseId, language, variant);
  if (!data) return null;
  if (!isLanguageDelta(data)) return { ix: deserializeLanguageIndex(data, primary, language), bytes: data.byteLength, baseReleaseId: null };
  const d = deserializeLanguageDelta(data, primary.releaseId);
  if (d.fromBase.length !== primary.size) throw new CorruptSnapshotError(`holds ${d.fromBase.length} entries, the release ${primary.size}`);
  const baseData = await readLanguageSnapshot(sdb, d.base.releaseId, language, variant);
  if (!baseData || !isWholeLanguageSnapshot(baseData) || checksumOf(baseData) !== d.base.checksum) {
    throw new CorruptSnapshotError(`a delta over release ${d.base.releaseId}'s ${language} snapshot, which is ${baseData ? 'another' : 'gone'}`);
  }
  const b = languageNamesOf(baseData, d.base.releaseId);
  if (b.size !== d.base.size) throw new CorruptSnapshotError('its base has another size');
  const names = namesOfDelta(d, b);
  if (!names) throw new CorruptSnapshotError('an entry without a name, or own names out of order');
  return { ix: await ReleaseIndex.forLanguage(primary, language, names.name, names.norm, d.nameRank), bytes: data.byteLength + baseData.byteLength, baseReleaseId: d.base.releaseId };
}
