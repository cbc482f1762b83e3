// Where a release's rows go in the ranged store (docs/storage.md): the seq of a new release
// between its hosted neighbours, and the removal of a release (for --replace and deletion).
import type { Prisma } from '../generated/prisma/client.ts';
import type { Database } from '../db/client.ts';
import { compareVersions } from '../domain/versions.ts';
import { IMPORT_LOCK } from '../db/advisoryLocks.ts';
import { ALL_RANGED, hostedReleases, positionOf, removeAt, renumber, seqBetween, OPEN, type Position, type WriteCounts } from './ranges.ts';
import { ImportRefusedError } from './errors.ts';
import { detachDependants, inflateNewest } from '../domain/releaseIndex/snapshotChain.ts';

type Tx = Prisma.TransactionClient;

/**
 * The position of a new release of `version` among the hosted ones, in publication (version)
 * order: `keep` (the seq of the release it replaces) or a seq in the gap between its neighbours,
 * renumbering every seq first when that gap is exhausted.
 */
export async function placeRelease(tx: Tx, version: string, keep?: bigint): Promise<Position> {
  for (let attempt = 0; ; attempt++) {
    const hosted = await hostedReleases(tx);
    const after = hosted.find((r) => compareVersions(r.version, version) > 0);
    const before = hosted.filter((r) => compareVersions(r.version, version) < 0).at(-1);
    const seq = keep ?? seqBetween(before?.seq, after?.seq);
    if (seq !== null) return { seq, next: after?.seq ?? OPEN };
    if (attempt > 0) throw new Error(`no seq left between ${before?.version} and ${after?.version} after renumbering`);
    await renumber(tx);
  }
}

/**
 * Removes a release: its rows in every ranged table (rows it shares with a neighbour stay theirs),
 * then its release row (term history, languages, change sets and snapshots cascade; deltas over
 * its index snapshot too: detachDependants() stores them again first). `removed`, when given,
 * counts the content rows deleted and the rows cut or extended.
 */
export async function removeRelease(tx: Tx, releaseId: number, removed?: WriteCounts): Promise<Position> {
  const at = positionOf(await hostedReleases(tx), releaseId);
  for (const t of ALL_RANGED) {
    const n = await removeAt(tx, t, at);
    if (removed) {
      removed.deleted += n.deleted;
      removed.updated += n.updated;
    }
  }
  await tx.$executeRawUnsafe('DELETE FROM "release" WHERE id = $1', releaseId);
  return at;
}

/** What deleteRelease() removed. */
export interface DeletedRelease {
  releaseId: number;
  version: string;
  /** Its languages, the primary first. */
  languages: string[];
  /** Content rows deleted (the release's own) and cut or extended (shared with a neighbour). */
  rows: { deleted: number; updated: number };
  /** Other releases' index snapshots that were deltas over this one's, stored again first. */
  snapshotsRestored: number;
}

/**
 * Before the release of `version` is deleted or replaced: other releases' index snapshots that are
 * deltas over its snapshot are stored again (snapshotChain.ts), outside the transaction that
 * removes it, so every other release still loads from one (harmless if that transaction then
 * fails). How many were stored again; undefined when no release of that version is hosted.
 */
export async function detachSnapshotsOf(db: Database, version: string): Promise<number | undefined> {
  const [hosted] = await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM "release" WHERE version = $1', version);
  return hosted ? detachDependants({ db: db.prisma, blobs: db.blobs }, hosted.id) : undefined;
}

/**
 * Deletes a hosted release and its content in one transaction; ImportRefusedError when no
 * release of that version is hosted (detachSnapshotsOf() first).
 */
export async function deleteRelease(db: Database, version: string): Promise<DeletedRelease> {
  const snapshotsRestored = await detachSnapshotsOf(db, version);
  if (snapshotsRestored === undefined) throw new ImportRefusedError(`Release ${version} is not hosted.`);
  const deleted = await db.prisma.$transaction(
    async (tx) => {
      if (db.mode === 'server') await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${IMPORT_LOCK})`);
      // Again under the lock: another process may have deleted or replaced it meanwhile.
      const [r] = await tx.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM "release" WHERE version = $1', version);
      if (!r) throw new ImportRefusedError(`Release ${version} is not hosted.`);
      const languages = (await tx.$queryRawUnsafe<{ language: string }[]>('SELECT language FROM release_language WHERE release_id = $1 ORDER BY position', r.id)).map((l) => l.language);
      const rows = { deleted: 0, updated: 0, inserted: 0 };
      await removeRelease(tx, r.id, rows);
      return { releaseId: r.id, version, languages, rows: { deleted: rows.deleted, updated: rows.updated }, snapshotsRestored };
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
  // The newest deleted: the one now newest may be a keyframe stored deflated (snapshotChain.ts); every start reads it.
  await inflateNewest({ db: db.prisma, blobs: db.blobs }).catch(() => false);
  return deleted;
}
