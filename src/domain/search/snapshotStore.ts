// Reading and writing a release's index snapshot (snapshot.ts) in release_index_snapshot.
// One statement each way; a snapshot of another format is not transferred at all. The
// bytes travel as base64 text, decoded by the database and by Buffer: the drivers' own
// bytea conversion took ~8x longer on PGlite at full size (32 MB: 1.9 s read, 9.5 s write,
// against 0.23 s and 0.9 s; PostgreSQL ~0.5 s either way).
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { ReleaseIndex } from './releaseIndex.ts';
import { SNAPSHOT_FORMAT, packIndex } from './snapshot.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** The release's stored snapshot (packIndex() output) in the current format, or null when there is none of it. */
export async function readSnapshot(db: Db, releaseId: number): Promise<Uint8Array | null> {
  const rows = await db.$queryRawUnsafe<{ data: string | null }[]>(
    `SELECT CASE WHEN format = $2 THEN encode(data, 'base64') END AS data FROM release_index_snapshot WHERE release_id = $1`,
    releaseId,
    SNAPSHOT_FORMAT,
  );
  const text = rows[0]?.data;
  return text ? Buffer.from(text, 'base64') : null;
}

/** Writes (or replaces) the snapshot of a built index; returns its stored size in bytes. */
export async function writeSnapshot(db: Db, ix: ReleaseIndex): Promise<number> {
  const data = await packIndex(ix);
  await db.$queryRawUnsafe(
    `INSERT INTO release_index_snapshot (release_id, format, bytes, data) VALUES ($1, $2, $3, decode($4, 'base64'))
     ON CONFLICT (release_id) DO UPDATE SET format = EXCLUDED.format, bytes = EXCLUDED.bytes, data = EXCLUDED.data, created_at = now()
     RETURNING release_id`,
    ix.releaseId,
    SNAPSHOT_FORMAT,
    data.byteLength,
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'),
  );
  return data.byteLength;
}
