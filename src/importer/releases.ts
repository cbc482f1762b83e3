// Where a release's rows go in the ranged store (docs/storage.md): the seq of a new release
// between its hosted neighbours, and the removal of a release (for --replace and deletion).
import type { Prisma } from '../generated/prisma/client.ts';
import type { Database } from '../db/client.ts';
import { compareVersions } from '../domain/versions.ts';
import { IMPORT_LOCK } from '../db/advisoryLocks.ts';
import { ALL_RANGED, hostedReleases, positionOf, removeAt, renumber, seqBetween, OPEN, type Position } from './ranges.ts';
import { ImportRefusedError } from './errors.ts';

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
 * then its release row (term history, languages, change sets and snapshots cascade).
 */
export async function removeRelease(tx: Tx, releaseId: number): Promise<Position> {
  const at = positionOf(await hostedReleases(tx), releaseId);
  for (const t of ALL_RANGED) await removeAt(tx, t, at);
  await tx.$executeRawUnsafe('DELETE FROM "release" WHERE id = $1', releaseId);
  return at;
}

/** Deletes a hosted release and its content in one transaction. */
export async function deleteRelease(db: Database, version: string): Promise<void> {
  await db.prisma.$transaction(
    async (tx) => {
      if (db.mode === 'server') await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${IMPORT_LOCK})`);
      const [r] = await tx.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM "release" WHERE version = $1', version);
      if (!r) throw new ImportRefusedError(`Release ${version} is not hosted.`);
      await removeRelease(tx, r.id);
    },
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
}
