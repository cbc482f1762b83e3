// Reading and writing a release's index snapshot (snapshot.ts) in release_index_snapshot.
// One statement each way; a snapshot of another format is not transferred at all.
// Server mode: the bytes travel as base64 text, decoded by the database and by Buffer (the
// driver's own bytea conversion was slower), and are stored deflated: less to send.
// Embedded: PGlite's binary COPY channel (BlobChannel) moves the value with no text step, and
// it is stored as it is, not deflated: at full size (32 MB) the read takes ~120 ms where
// base64 and inflating the deflated 14 MB took ~450 ms, most of it inflating. The column is
// stored uncompressed (STORAGE EXTERNAL): TOAST's own compression only slowed both ways.
import type { BlobChannel } from '../../db/client.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { ReleaseIndex } from './releaseIndex.ts';
import { SNAPSHOT_FORMAT, packIndex } from './snapshot.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Where snapshots are read and written: the database, and on PGlite its binary channel. */
export interface SnapshotDb {
  db: Db;
  blobs?: BlobChannel | undefined;
}

/** COPY takes no parameters: the values written into these statements are integers of ours. */
function int(n: number): number {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
  return n;
}

/** The release's stored snapshot (packIndex() output) in the current format, or null when there is none of it. */
export async function readSnapshot({ db, blobs }: SnapshotDb, releaseId: number): Promise<Uint8Array | null> {
  if (blobs) {
    const out = await blobs.copyOut(
      `COPY (SELECT CASE WHEN format = ${int(SNAPSHOT_FORMAT)} THEN data END FROM release_index_snapshot WHERE release_id = ${int(releaseId)}) TO '/dev/blob' WITH (FORMAT binary)`,
    );
    return firstField(out);
  }
  const rows = await db.$queryRawUnsafe<{ data: string | null }[]>(
    `SELECT CASE WHEN format = $2 THEN encode(data, 'base64') END AS data FROM release_index_snapshot WHERE release_id = $1`,
    releaseId,
    SNAPSHOT_FORMAT,
  );
  const text = rows[0]?.data;
  return text ? Buffer.from(text, 'base64') : null;
}

/** Writes (or replaces) the snapshot of a built index; returns its stored size in bytes. */
export async function writeSnapshot({ db, blobs }: SnapshotDb, ix: ReleaseIndex): Promise<number> {
  const data = await packIndex(ix, { compress: !blobs });
  if (blobs) {
    const row = copyRow([int(ix.releaseId), int(SNAPSHOT_FORMAT), int(data.byteLength)], data);
    await blobs.copyIn(
      `DELETE FROM release_index_snapshot WHERE release_id = ${int(ix.releaseId)}`,
      `COPY release_index_snapshot (release_id, format, bytes, data) FROM '/dev/blob' WITH (FORMAT binary)`,
      row,
    );
    return data.byteLength;
  }
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

// ---- PostgreSQL's binary COPY format (one row) ------------------------------------------

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** One row of int4 columns then a bytea, as binary COPY input: header, the row, the trailer. */
export function copyRow(ints: number[], bytes: Uint8Array): Uint8Array {
  const out = Buffer.alloc(SIGNATURE.length + 8 + 2 + ints.length * 8 + 4 + bytes.byteLength + 2);
  let at = SIGNATURE.copy(out, 0);
  at = out.writeUInt32BE(0, at); // flags
  at = out.writeUInt32BE(0, at); // header extension length
  at = out.writeInt16BE(ints.length + 1, at);
  for (const n of ints) at = out.writeInt32BE(n, out.writeInt32BE(4, at));
  at = out.writeInt32BE(bytes.byteLength, at);
  out.set(bytes, at);
  out.writeInt16BE(-1, at + bytes.byteLength);
  return out;
}

/** The first field of the first row of binary COPY output, or null (no row, or NULL). */
export function firstField(copy: Uint8Array): Uint8Array | null {
  const b = Buffer.from(copy.buffer, copy.byteOffset, copy.byteLength);
  if (b.length < 21 || !b.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not binary COPY output');
  let at = 19 + b.readUInt32BE(15); // after the flags and the header extension
  if (b.readInt16BE(at) < 1) return null; // the trailer (-1): no row
  const len = b.readInt32BE(at + 2);
  at += 6;
  if (len < 0) return null;
  if (at + len > b.length) throw new Error('binary COPY output is truncated');
  return copy.subarray(at, at + len);
}
