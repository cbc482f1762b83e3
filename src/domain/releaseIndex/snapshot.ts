// A built release index as one binary value, so a start (or another replica) loads it with
// one read instead of rebuilding it from concept, link and path rows (seconds on PGlite).
// Layout: a 32-byte header (magic, FORMAT, release id, entries, flags, CRC-32 of the body),
// then sections in a fixed order, each an 8-byte (element size, byte length) prefix and the
// data padded to 8 bytes, so typed arrays are views on the value as read: no per-element
// decoding except the maps (code → entry, trigram → id) and the string arrays, which
// JavaScript needs as such. Strings are one UTF-8 buffer plus UTF-16 offsets of each.
// Stored as it is (snapshotStore.ts); earlier versions stored it deflated, which is still read.
import { promisify } from 'node:util';
import { crc32, inflate } from 'node:zlib';
import type { ReleaseIndexParts } from './releaseIndex.ts';
import { ReleaseIndex } from './releaseIndex.ts';

/** Bump on any change to the layout or to what the index holds: older snapshots are then ignored and rewritten. */
export const SNAPSHOT_FORMAT = 2;

const MAGIC = 0x58495852; // "RXIX" little-endian
const HEADER = 32;
const HAS_HIERARCHY = 1;
const SEQ_16 = 2;

type Typed = Uint8Array | Uint16Array | Int32Array | Float64Array;
type Ctor = { new (b: ArrayBuffer, off: number, len: number): Typed; BYTES_PER_ELEMENT: number };

const pad8 = (n: number) => (n + 7) & ~7;

/** A snapshot that cannot be read: bad magic, length, checksum or structure. */
export class CorruptSnapshotError extends Error {}

function stringsOf(list: readonly string[]): [Uint8Array, Int32Array] {
  const offsets = new Int32Array(list.length + 1);
  for (let i = 0; i < list.length; i++) offsets[i + 1] = offsets[i]! + list[i]!.length;
  return [new TextEncoder().encode(list.join('')), offsets];
}

export function serializeIndex(ix: ReleaseIndex): Uint8Array {
  const p = ix.parts();
  const c = p.columns;
  const [names, nameAt] = stringsOf(c.name);
  const [norms, normAt] = stringsOf(c.norm);
  const [abbrevs, abbrevAt] = stringsOf(p.socAbbrev.map(([, a]) => a));
  const sections: Typed[] = [
    c.level, c.code, c.ptCode, c.current, c.primarySoc, c.intlOrder, c.nameRank, c.trigramCount, c.seqStart, c.pathHlt, c.pathHlgt, c.pathSoc,
    names, nameAt, norms, normAt,
    Int32Array.from(p.socAbbrev, ([i]) => i), abbrevs, abbrevAt,
    p.trigrams, p.postStart, p.post, p.seq,
    p.down.start, p.down.to, p.down.primary, p.up.start, p.up.to, p.up.primary,
    p.ptPaths.pt, p.ptPaths.hlt, p.ptPaths.hlgt, p.ptPaths.soc, p.ptPaths.primary,
    p.llts.pt, p.llts.start, p.llts.entries,
  ];
  let total = HEADER;
  for (const s of sections) total += 8 + pad8(s.byteLength);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  let at = HEADER;
  for (const s of sections) {
    dv.setUint32(at, s.BYTES_PER_ELEMENT, true);
    dv.setUint32(at + 4, s.byteLength, true);
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at + 8);
    at += 8 + pad8(s.byteLength);
  }
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, SNAPSHOT_FORMAT, true);
  dv.setInt32(8, p.releaseId, true);
  dv.setUint32(12, p.size, true);
  dv.setUint32(16, sections.length, true);
  dv.setUint32(20, (p.hasHierarchy ? HAS_HIERARCHY : 0) | (p.seq instanceof Uint16Array ? SEQ_16 : 0), true);
  dv.setUint32(24, crc32(out.subarray(HEADER)), true);
  return out;
}

/**
 * The index a snapshot holds. Throws CorruptSnapshotError when the bytes are not a
 * whole, intact snapshot of this format and release.
 */
export function deserializeIndex(data: Uint8Array, releaseId: number): ReleaseIndex {
  if (data.byteLength < HEADER) throw new CorruptSnapshotError('shorter than its header');
  // Views need 8-byte alignment: one copy of the whole value when the driver's buffer is not.
  const bytes = data.byteOffset % 8 === 0 ? data : new Uint8Array(data); // a copy (a Buffer's slice() is a view)
  const buf = bytes.buffer as ArrayBuffer;
  const dv = new DataView(buf, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== MAGIC) throw new CorruptSnapshotError('not a release index snapshot');
  if (dv.getUint32(4, true) !== SNAPSHOT_FORMAT) throw new CorruptSnapshotError(`format ${dv.getUint32(4, true)}, expected ${SNAPSHOT_FORMAT}`);
  if (dv.getInt32(8, true) !== releaseId) throw new CorruptSnapshotError(`holds release ${dv.getInt32(8, true)}, not ${releaseId}`);
  if (crc32(bytes.subarray(HEADER)) !== dv.getUint32(24, true)) throw new CorruptSnapshotError('checksum mismatch');
  const size = dv.getUint32(12, true);
  const flags = dv.getUint32(20, true);
  let at = HEADER;
  const next = <T extends Typed>(type: Ctor): T => {
    if (at + 8 > bytes.byteLength) throw new CorruptSnapshotError('truncated');
    const width = dv.getUint32(at, true);
    const len = dv.getUint32(at + 4, true);
    if (width !== type.BYTES_PER_ELEMENT || len % width !== 0 || at + 8 + len > bytes.byteLength) throw new CorruptSnapshotError(`bad section at byte ${at}`);
    const view = new type(buf, bytes.byteOffset + at + 8, len / width) as T;
    at += 8 + pad8(len);
    return view;
  };
  const decoder = new TextDecoder();
  const strings = (): string[] => {
    const all = decoder.decode(next<Uint8Array>(Uint8Array));
    const offsets = next<Int32Array>(Int32Array);
    if (offsets[offsets.length - 1] !== all.length) throw new CorruptSnapshotError('string offsets do not match');
    const out = new Array<string>(offsets.length - 1);
    for (let i = 0; i < out.length; i++) out[i] = all.slice(offsets[i], offsets[i + 1]);
    return out;
  };
  const u8 = () => next<Uint8Array>(Uint8Array);
  const i32 = () => next<Int32Array>(Int32Array);
  const columns = {
    level: u8(), code: i32(), ptCode: i32(), current: u8(), primarySoc: i32(), intlOrder: i32(), nameRank: i32(),
    trigramCount: next<Uint16Array>(Uint16Array), seqStart: i32(), pathHlt: i32(), pathHlgt: i32(), pathSoc: i32(),
    name: strings(), norm: strings(),
  };
  const abbrevAt = i32();
  const abbrevs = strings();
  const parts: ReleaseIndexParts = {
    releaseId,
    size,
    hasHierarchy: (flags & HAS_HIERARCHY) !== 0,
    columns,
    socAbbrev: Array.from(abbrevAt, (i, k) => [i, abbrevs[k]!]),
    trigrams: next<Float64Array>(Float64Array),
    postStart: i32(),
    post: i32(),
    seq: flags & SEQ_16 ? next<Uint16Array>(Uint16Array) : i32(),
    down: { start: i32(), to: i32(), primary: u8() },
    up: { start: i32(), to: i32(), primary: u8() },
    ptPaths: { pt: i32(), hlt: i32(), hlgt: i32(), soc: i32(), primary: u8() },
    llts: { pt: i32(), start: i32(), entries: i32() },
  };
  if (at !== bytes.byteLength) throw new CorruptSnapshotError('trailing bytes');
  for (const a of [columns.level, columns.code, columns.nameRank, columns.name, columns.norm]) if (a.length !== size) throw new CorruptSnapshotError('column lengths differ');
  if (columns.seqStart.length !== size + 1 || parts.postStart.length !== parts.trigrams.length + 1) throw new CorruptSnapshotError('offset lengths differ');
  return ReleaseIndex.fromParts(parts);
}

const inflated = promisify(inflate);

/** The index from its stored form (serializeIndex() output, or that deflated by an earlier version); CorruptSnapshotError when it is not one. */
export async function unpackIndex(stored: Uint8Array, releaseId: number): Promise<ReleaseIndex> {
  // A serialisation begins with its magic number; a deflate stream never does (0x78 first).
  if (stored.byteLength >= 4 && new DataView(stored.buffer, stored.byteOffset, 4).getUint32(0, true) === MAGIC) return deserializeIndex(stored, releaseId);
  let raw: Buffer;
  try {
    raw = await inflated(stored);
  } catch (e) {
    throw new CorruptSnapshotError(`not deflate data: ${(e as Error).message}`);
  }
  return deserializeIndex(raw, releaseId);
}
