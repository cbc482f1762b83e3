// Reading and writing a release's index snapshot (snapshot.ts) in release_index_snapshot.
// A snapshot of another format is not transferred at all.
// Both databases move the value through their binary COPY channel (src/db/blobs.ts) with no
// text step, and it is stored as it is, not deflated: at full size a raw read is ~50 ms on
// PostgreSQL, where base64 text plus inflating took ~180 ms (the column is STORAGE EXTERNAL:
// TOAST's compression only slowed both ways). Rows written deflated by earlier versions are
// still read (unpackIndex inflates them) until the next write replaces them. Since session 24 a
// keyframe that is not the newest (snapshotChain.ts: read only when a release of its group is
// loaded) is stored deflated on purpose: readSnapshot() inflates any deflated row (off the event
// loop), so every reader sees serializeIndex() output, and such a row gets no file copy.
// Embedded, PGlite still reads those 32 MB as ~16k TOAST chunks through its WebAssembly file
// layer, ~400 ms with the event loop held; so an on-disk store also keeps a copy as a file
// (BlobChannel.cacheDir), named after the row's release, creation time and size: a start reads
// the row's metadata (one statement) and then the file, off the event loop. The row stays the
// source: a copy that is missing, of another row, or damaged is never used (the name must
// match, the size too, and the snapshot's own checksum is verified on load). Only whole
// snapshots get a copy: a delta over one (snapshotChain.ts) is a few per cent of it, read from its row.
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import type { BlobChannel } from '../../db/blobs.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { ReleaseIndex } from './releaseIndex.ts';
import { LANGUAGE_SNAPSHOT_FORMAT, SNAPSHOT_FORMAT, serializeIndex } from './snapshot.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Where snapshots are read and written: the database (metadata of the embedded file copy) and its binary channel. */
export interface SnapshotDb {
  db: Db;
  blobs: BlobChannel;
}

/** COPY takes no parameters: the values written into these statements are integers of ours. */
function int(n: number): number {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
  return n;
}

/** Whether stored bytes are deflated (a zlib stream begins 0x78; a serialisation with its magic number, 0x52). */
export const isDeflated = (data: Uint8Array): boolean => data.byteLength > 2 && data[0] === 0x78;

const inflated = promisify(inflate);

/** Deflated bytes inflated (in the thread pool); bytes that do not inflate as they are (the reader then finds them damaged). */
export const plain = async (data: Uint8Array | null): Promise<Uint8Array | null> => (data && isDeflated(data) ? inflated(data).catch(() => data) : data);

/** The release's stored snapshot in the current format as serializeIndex() or serializeDelta() wrote it (a deflated row inflated), or null when there is none of it. */
export async function readSnapshot({ db, blobs }: SnapshotDb, releaseId: number): Promise<Uint8Array | null> {
  return plain(blobs.cacheDir ? await readThroughFile(db, blobs, blobs.cacheDir, releaseId) : await readStoredBytes({ db, blobs }, releaseId));
}

/** The release's snapshot row's bytes as stored (deflated or not; not the file copy), or null. */
export async function readStoredBytes({ blobs }: SnapshotDb, releaseId: number): Promise<Uint8Array | null> {
  return firstField(
    await blobs.copyOut(`SELECT CASE WHEN format = ${int(SNAPSHOT_FORMAT)} THEN data END FROM release_index_snapshot WHERE release_id = ${int(releaseId)}`),
  );
}

/**
 * The release's snapshot when it is a delta (snapshotDelta.ts) of the current format; null when it
 * is whole, of another format, or absent. One statement, and a whole snapshot's bytes are not read:
 * the cache's overlay views (overlayView.ts) read deltas only.
 */
export async function readDeltaSnapshot({ blobs }: SnapshotDb, releaseId: number): Promise<Uint8Array | null> {
  return firstField(
    await blobs.copyOut(
      `SELECT data FROM release_index_snapshot WHERE release_id = ${int(releaseId)} AND base_release_id IS NOT NULL AND format = ${int(SNAPSHOT_FORMAT)}`,
    ),
  );
}

/**
 * Which of a release's snapshots of the current format are stored, without reading them: its own
 * (`base`: undefined when none, null when whole, else the release it is a delta over) and, by
 * language, the variants stored. The start's warm-up of an
 * older release (src/services/olderReleaseWarming.ts) loads only what a snapshot gives.
 */
export async function storedSnapshots(db: Db, releaseId: number): Promise<{ base: number | null | undefined; languages: Map<string, number[]> }> {
  const [row] = await db.$queryRawUnsafe<{ base: number | null }[]>('SELECT base_release_id AS base FROM release_index_snapshot WHERE release_id = $1 AND format = $2', releaseId, SNAPSHOT_FORMAT);
  const rows = await db.$queryRawUnsafe<{ language: string; variant: number }[]>(
    'SELECT language, variant FROM release_language_index_snapshot WHERE release_id = $1 AND format = $2 ORDER BY language, variant',
    releaseId,
    LANGUAGE_SNAPSHOT_FORMAT,
  );
  const languages = new Map<string, number[]>();
  for (const r of rows) {
    const variants = languages.get(r.language) ?? [];
    variants.push(Number(r.variant));
    languages.set(r.language, variants);
  }
  return { base: row ? row.base : undefined, languages };
}

/**
 * The latest release's id (highest ordinal, as listReleases() orders them), or undefined with
 * none. Through the binary channel, not Prisma: at start Prisma's first query also instantiates
 * its query compiler (~0.15 s of this thread), and the snapshot read can start meanwhile.
 */
export async function latestReleaseId(blobs: BlobChannel): Promise<number | undefined> {
  const id = firstField(await blobs.copyOut('SELECT id FROM release ORDER BY ordinal DESC LIMIT 1'));
  return id?.byteLength === 4 ? Buffer.from(id.buffer, id.byteOffset, 4).readInt32BE(0) : undefined;
}

/**
 * Writes (or replaces) the snapshot of a built index, whole (a keyframe); returns its stored size
 * in bytes. Where a delta may serve instead: snapshotChain.ts's storeIndex().
 */
export async function writeSnapshot(sdb: SnapshotDb, ix: ReleaseIndex): Promise<number> {
  const data = serializeIndex(ix);
  await writeStored(sdb, ix.releaseId, data, null);
  return data.byteLength;
}

/**
 * Writes (or replaces) a release's stored snapshot: `data` whole (serializeIndex(), `baseReleaseId`
 * null) or a delta over that release's whole snapshot (snapshotDelta.ts). Through a temporary
 * table and an upsert: two processes writing the same release's snapshot at once (replicas
 * warming up together) both succeed, the later one's row stays.
 */
export async function writeStored({ db, blobs }: SnapshotDb, releaseId: number, data: Uint8Array, baseReleaseId: number | null): Promise<void> {
  await blobs.copyIn(
    {
      // base 0: none (release ids start at 1; COPY's binary row here carries integers only).
      before: [`CREATE TEMPORARY TABLE snapshot_in (release_id integer, format integer, bytes integer, base integer, data bytea) ON COMMIT DROP`],
      into: 'snapshot_in (release_id, format, bytes, base, data)',
      after: [
        `INSERT INTO release_index_snapshot (release_id, format, bytes, base_release_id, data) SELECT release_id, format, bytes, NULLIF(base, 0), data FROM snapshot_in
         ON CONFLICT (release_id) DO UPDATE SET format = EXCLUDED.format, bytes = EXCLUDED.bytes, base_release_id = EXCLUDED.base_release_id, data = EXCLUDED.data, created_at = now()`,
      ],
    },
    copyRow([int(releaseId), int(SNAPSHOT_FORMAT), int(data.byteLength), int(baseReleaseId ?? 0)], data),
  );
  if (blobs.cacheDir && baseReleaseId === null && !isDeflated(data)) {
    // The copy is a convenience: without it (a full disk, say) the next load reads the row.
    const meta = await rowMeta(db, releaseId);
    if (meta) await keepFile(db, blobs.cacheDir, releaseId, meta, data).catch(() => {});
  } else if (blobs.cacheDir) {
    // A whole snapshot stored again as a delta (snapshotChain.ts's rebaseOnto) or deflated (an older keyframe): its copy goes now, not at the next whole write.
    await prune(db, blobs.cacheDir).catch(() => {});
  }
}

// ---- A non-primary language's index (release_language_index_snapshot) -----------------------
// Read straight from the row, no file copy: a language part is about half a release snapshot,
// and a language is loaded on its first request, not on the start's critical path.

/** A BCP 47 tag as a literal for COPY (which takes no parameters): letters, digits and hyphens only. */
function tag(language: string): string {
  if (!/^[A-Za-z0-9-]{1,35}$/.test(language)) throw new TypeError(`not a language tag: ${language}`);
  return `'${language}'`;
}

/** The stored language snapshot (serializeLanguageIndex() output) in the current format, or null. */
export async function readLanguageSnapshot({ blobs }: SnapshotDb, releaseId: number, language: string, variant: number): Promise<Uint8Array | null> {
  return firstField(
    await blobs.copyOut(
      `SELECT CASE WHEN format = ${int(LANGUAGE_SNAPSHOT_FORMAT)} THEN data END FROM release_language_index_snapshot
       WHERE release_id = ${int(releaseId)} AND language = ${tag(language)} AND variant = ${int(variant)}`,
    ),
  );
}

/** Which language snapshot: release, language, variant, and when the names it was built from were imported. */
export interface LanguageKey {
  releaseId: number;
  language: string;
  variant: number;
  importedAt: Date;
}

/**
 * Writes (or replaces) a language index's snapshot: `data` whole (`baseReleaseId` null) or a delta
 * over that release's whole snapshot of the language (snapshotDelta.ts). Only while the
 * language's names are those the index was built from (`importedAt`, release_language's, read
 * before the build): a write racing an import that replaced them writes nothing.
 */
export async function writeLanguageStored({ blobs }: SnapshotDb, k: LanguageKey, data: Uint8Array, baseReleaseId: number | null): Promise<void> {
  await blobs.copyIn(
    {
      before: [`CREATE TEMPORARY TABLE language_snapshot_in (release_id integer, variant integer, format integer, bytes integer, base integer, data bytea) ON COMMIT DROP`],
      into: 'language_snapshot_in (release_id, variant, format, bytes, base, data)',
      after: [
        `INSERT INTO release_language_index_snapshot (release_id, language, variant, format, bytes, base_release_id, data)
         SELECT s.release_id, ${tag(k.language)}, s.variant, s.format, s.bytes, NULLIF(s.base, 0), s.data FROM language_snapshot_in s
         JOIN release_language rl ON rl.release_id = s.release_id AND rl.language = ${tag(k.language)}
           AND rl.imported_at = '${k.importedAt.toISOString()}'::timestamptz
         ON CONFLICT (release_id, language, variant) DO UPDATE SET format = EXCLUDED.format, bytes = EXCLUDED.bytes, base_release_id = EXCLUDED.base_release_id, data = EXCLUDED.data, created_at = now()`,
      ],
    },
    copyRow([int(k.releaseId), int(k.variant), int(LANGUAGE_SNAPSHOT_FORMAT), int(data.byteLength), int(baseReleaseId ?? 0)], data),
  );
}

// ---- Embedded: the file copy --------------------------------------------------------------

interface RowMeta {
  format: number;
  /** A delta's base (snapshotDelta.ts): deltas are small and get no file copy. */
  base: number | null;
  bytes: number;
  /** created_at in epoch milliseconds, as text. */
  at: string;
}

/** What names a row's file copy, per row (all rows, or the one of `releaseId`). */
const rowMetas = (db: Db, releaseId?: number): Promise<(RowMeta & { id: number })[]> =>
  db.$queryRawUnsafe(
    `SELECT format, bytes, base_release_id AS base, (extract(epoch FROM created_at) * 1000)::bigint::text AS at, release_id AS id
     FROM release_index_snapshot ${releaseId === undefined ? '' : 'WHERE release_id = $1'}`,
    ...(releaseId === undefined ? [] : [releaseId]),
  );

const rowMeta = async (db: Db, releaseId: number): Promise<RowMeta | undefined> => (await rowMetas(db, releaseId))[0];

const fileName = (releaseId: number, m: RowMeta) => `index-${releaseId}-${m.at}-${m.bytes}.snapshot`;

async function readThroughFile(db: Db, blobs: BlobChannel, dir: string, releaseId: number): Promise<Uint8Array | null> {
  const meta = await rowMeta(db, releaseId);
  if (!meta || meta.format !== SNAPSHOT_FORMAT) return null;
  if (meta.base !== null) return firstField(await blobs.copyOut(`SELECT data FROM release_index_snapshot WHERE release_id = ${int(releaseId)}`));
  try {
    const file = await readFile(path.join(dir, fileName(releaseId, meta)));
    if (file.byteLength === meta.bytes) return file;
  } catch {
    // No copy yet (or unreadable): read the row, and keep a copy for the next start.
  }
  const data = firstField(await blobs.copyOut(`SELECT data FROM release_index_snapshot WHERE release_id = ${int(releaseId)}`));
  // A deflated row (an older keyframe) is read seldom and gets no copy: the copy is for the start's read.
  if (data && data.byteLength === meta.bytes && !isDeflated(data)) await keepFile(db, dir, releaseId, meta, data).catch(() => {});
  return data;
}

/** Writes the copy (atomically: a temporary name, then rename) and removes copies no row names any more. */
async function keepFile(db: Db, dir: string, releaseId: number, meta: RowMeta, data: Uint8Array): Promise<void> {
  await mkdir(dir, { recursive: true });
  const name = fileName(releaseId, meta);
  const temp = path.join(dir, `${name}.${process.pid}.tmp`);
  await writeFile(temp, data);
  await rename(temp, path.join(dir, name));
  await prune(db, dir);
}

/** Removes copies no whole row names any more. */
async function prune(db: Db, dir: string): Promise<void> {
  const live = new Set((await rowMetas(db)).filter((m) => m.base === null).map((m) => fileName(m.id, m)));
  for (const f of await readdir(dir)) {
    // Copies of rows gone or replaced, and temporaries a killed process left (one process owns the store).
    if (f.startsWith('index-') && !live.has(f)) await rm(path.join(dir, f), { force: true });
  }
}

// ---- PostgreSQL's binary COPY format (one row) ------------------------------------------

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * One row of int4 columns then a bytea, as binary COPY input: header and the row up to the
 * bytea's length, the bytes themselves, the trailer. Parts, not one buffer: the value (32 MB)
 * is copied once, into the Blob PGlite reads, not first into a buffer of its own.
 */
export function copyRow(ints: number[], bytes: Uint8Array): Uint8Array[] {
  const head = Buffer.alloc(SIGNATURE.length + 8 + 2 + ints.length * 8 + 4);
  let at = SIGNATURE.copy(head, 0);
  at = head.writeUInt32BE(0, at); // flags
  at = head.writeUInt32BE(0, at); // header extension length
  at = head.writeInt16BE(ints.length + 1, at);
  for (const n of ints) at = head.writeInt32BE(n, head.writeInt32BE(4, at));
  head.writeInt32BE(bytes.byteLength, at);
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  return [head, bytes, trailer];
}

/**
 * The first field of the first row of binary COPY output (its parts in order), or null (no row,
 * or NULL): copied once into a new buffer of its own, so typed arrays can view it at any
 * alignment (snapshot.ts) without another 32 MB copy.
 */
export function firstField(parts: Uint8Array[]): Uint8Array | null {
  const total = parts.reduce((n, p) => n + p.byteLength, 0);
  // The header and the row's first length word lie in the first few dozen bytes (more only with a header extension).
  const headOf = (n: number) => {
    const out = Buffer.alloc(Math.min(n, total));
    let at = 0;
    for (const p of parts) {
      if (at >= out.length) break;
      at += Buffer.from(p.buffer, p.byteOffset, Math.min(p.byteLength, out.length - at)).copy(out, at);
    }
    return out;
  };
  let b = headOf(64);
  if (b.length < 21 || !b.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not binary COPY output');
  let at = 19 + b.readUInt32BE(15); // after the flags and the header extension
  if (at + 6 > b.length) b = headOf(at + 6);
  if (at + 2 > b.length) throw new Error('binary COPY output is truncated');
  if (b.readInt16BE(at) < 1) return null; // the trailer (-1): no row
  if (at + 6 > b.length) throw new Error('binary COPY output is truncated');
  const len = b.readInt32BE(at + 2);
  at += 6;
  if (len < 0) return null;
  if (at + len > total) throw new Error('binary COPY output is truncated');
  // Not zero-filled (every byte is written below), and a buffer of its own at offset 0.
  const out = Buffer.allocUnsafeSlow(len);
  let filled = 0;
  let offset = 0; // of the current part in the whole output
  for (const p of parts) {
    const from = Math.max(at + filled - offset, 0);
    if (from < p.byteLength && filled < len) {
      const take = Math.min(p.byteLength - from, len - filled);
      out.set(p.subarray(from, from + take), filled);
      filled += take;
    }
    offset += p.byteLength;
    if (filled === len) break;
  }
  return out;
}
