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

export type Typed = Uint8Array | Uint16Array | Int32Array | Float64Array;
type Ctor = { new (b: ArrayBuffer, off: number, len: number): Typed; BYTES_PER_ELEMENT: number };

const pad8 = (n: number) => (n + 7) & ~7;

/** A snapshot that cannot be read: bad magic, length, checksum or structure. */
export class CorruptSnapshotError extends Error {}

export function stringsOf(list: readonly string[]): [Uint8Array, Int32Array] {
  const offsets = new Int32Array(list.length + 1);
  for (let i = 0; i < list.length; i++) offsets[i + 1] = offsets[i]! + list[i]!.length;
  return [new TextEncoder().encode(list.join('')), offsets];
}

/** Header fields besides the magic, format and checksum. */
export interface Header {
  releaseId: number;
  size: number;
  flags: number;
}

/** The header, then each section as (element size, byte length) and its data padded to 8 bytes. */
export function writeSections(magic: number, format: number, h: Header, sections: readonly Typed[]): Uint8Array {
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
  dv.setUint32(0, magic, true);
  dv.setUint32(4, format, true);
  dv.setInt32(8, h.releaseId, true);
  dv.setUint32(12, h.size, true);
  dv.setUint32(16, sections.length, true);
  dv.setUint32(20, h.flags, true);
  dv.setUint32(24, crc32(out.subarray(HEADER)), true);
  return out;
}

/** Reads sections back in order as views on the value; throws CorruptSnapshotError on any mismatch. */
export class SectionReader {
  readonly size: number;
  readonly flags: number;
  private readonly bytes: Uint8Array;
  private readonly dv: DataView;
  private at = HEADER;
  private readonly decoder = new TextDecoder();

  constructor(data: Uint8Array, magic: number, format: number, releaseId: number, what: string) {
    if (data.byteLength < HEADER) throw new CorruptSnapshotError('shorter than its header');
    // Views need 8-byte alignment: one copy of the whole value when the driver's buffer is not.
    this.bytes = data.byteOffset % 8 === 0 ? data : new Uint8Array(data); // a copy (a Buffer's slice() is a view)
    const dv = (this.dv = new DataView(this.bytes.buffer as ArrayBuffer, this.bytes.byteOffset, this.bytes.byteLength));
    if (dv.getUint32(0, true) !== magic) throw new CorruptSnapshotError(`not a ${what}`);
    if (dv.getUint32(4, true) !== format) throw new CorruptSnapshotError(`format ${dv.getUint32(4, true)}, expected ${format}`);
    if (dv.getInt32(8, true) !== releaseId) throw new CorruptSnapshotError(`holds release ${dv.getInt32(8, true)}, not ${releaseId}`);
    if (crc32(this.bytes.subarray(HEADER)) !== dv.getUint32(24, true)) throw new CorruptSnapshotError('checksum mismatch');
    this.size = dv.getUint32(12, true);
    this.flags = dv.getUint32(20, true);
  }

  next<T extends Typed>(type: Ctor): T {
    const { at, dv, bytes } = this;
    if (at + 8 > bytes.byteLength) throw new CorruptSnapshotError('truncated');
    const width = dv.getUint32(at, true);
    const len = dv.getUint32(at + 4, true);
    if (width !== type.BYTES_PER_ELEMENT || len % width !== 0 || at + 8 + len > bytes.byteLength) throw new CorruptSnapshotError(`bad section at byte ${at}`);
    const view = new type(bytes.buffer as ArrayBuffer, bytes.byteOffset + at + 8, len / width) as T;
    this.at = at + 8 + pad8(len);
    return view;
  }

  u8 = () => this.next<Uint8Array>(Uint8Array);
  u16 = () => this.next<Uint16Array>(Uint16Array);
  i32 = () => this.next<Int32Array>(Int32Array);
  f64 = () => this.next<Float64Array>(Float64Array);

  strings(): string[] {
    const all = this.decoder.decode(this.u8());
    const offsets = this.i32();
    if (offsets[offsets.length - 1] !== all.length) throw new CorruptSnapshotError('string offsets do not match');
    const out = new Array<string>(offsets.length - 1);
    for (let i = 0; i < out.length; i++) out[i] = all.slice(offsets[i], offsets[i + 1]);
    return out;
  }

  /** Every byte read: anything after the last section is damage. */
  end(): void {
    if (this.at !== this.bytes.byteLength) throw new CorruptSnapshotError('trailing bytes');
  }
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
  const flags = (p.hasHierarchy ? HAS_HIERARCHY : 0) | (p.seq instanceof Uint16Array ? SEQ_16 : 0);
  const out = writeSections(MAGIC, SNAPSHOT_FORMAT, { releaseId: p.releaseId, size: p.size, flags }, sections);
  checksums.set(ix, checksumOf(out));
  return out;
}

/** The checksum in a serialisation's header (that of its body): what a delta names its base by. */
export const checksumOf = (data: Uint8Array): number => new DataView(data.buffer, data.byteOffset, HEADER).getUint32(24, true);

/** Whether the bytes begin as a whole index snapshot does (its magic number). */
export const isWholeSnapshot = (data: Uint8Array): boolean => data.byteLength >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === MAGIC;

/**
 * The checksum of the snapshot an index was read from or serialised to (none: built and never
 * serialised). A delta over a keyframe (snapshotDelta.ts) is valid over exactly that content:
 * an index rebuilt from rows may order name ties otherwise.
 */
const checksums = new WeakMap<ReleaseIndex, number>();
export const snapshotChecksum = (ix: ReleaseIndex): number | undefined => checksums.get(ix);

/**
 * The index a snapshot holds. Throws CorruptSnapshotError when the bytes are not a
 * whole, intact snapshot of this format and release.
 */
export function deserializeIndex(data: Uint8Array, releaseId: number): ReleaseIndex {
  const r = new SectionReader(data, MAGIC, SNAPSHOT_FORMAT, releaseId, 'release index snapshot');
  const { size, flags } = r;
  const columns = {
    level: r.u8(), code: r.i32(), ptCode: r.i32(), current: r.u8(), primarySoc: r.i32(), intlOrder: r.i32(), nameRank: r.i32(),
    trigramCount: r.u16(), seqStart: r.i32(), pathHlt: r.i32(), pathHlgt: r.i32(), pathSoc: r.i32(),
    name: r.strings(), norm: r.strings(),
  };
  const abbrevAt = r.i32();
  const abbrevs = r.strings();
  const parts: ReleaseIndexParts = {
    releaseId,
    size,
    hasHierarchy: (flags & HAS_HIERARCHY) !== 0,
    columns,
    socAbbrev: Array.from(abbrevAt, (i, k) => [i, abbrevs[k]!]),
    trigrams: r.f64(),
    postStart: r.i32(),
    post: r.i32(),
    seq: flags & SEQ_16 ? r.u16() : r.i32(),
    down: { start: r.i32(), to: r.i32(), primary: r.u8() },
    up: { start: r.i32(), to: r.i32(), primary: r.u8() },
    ptPaths: { pt: r.i32(), hlt: r.i32(), hlgt: r.i32(), soc: r.i32(), primary: r.u8() },
    llts: { pt: r.i32(), start: r.i32(), entries: r.i32() },
  };
  r.end();
  for (const a of [columns.level, columns.code, columns.nameRank, columns.name, columns.norm]) if (a.length !== size) throw new CorruptSnapshotError('column lengths differ');
  if (columns.seqStart.length !== size + 1 || parts.postStart.length !== parts.trigrams.length + 1) throw new CorruptSnapshotError('offset lengths differ');
  const ix = ReleaseIndex.fromParts(parts);
  checksums.set(ix, checksumOf(data));
  return ix;
}

// ---- A non-primary language's index (issue 28) ----------------------------------------------
// Only what the language has of its own (languageIndex.ts): names, folded names, name ranks and
// trigram postings. The hierarchy and codes are the primary index's, which the load is given.

/** Bump on any change to the language layout: older language snapshots are then ignored and rewritten. */
export const LANGUAGE_SNAPSHOT_FORMAT = 1;
const LANGUAGE_MAGIC = 0x584c5852; // "RXLX" little-endian

export function serializeLanguageIndex(ix: ReleaseIndex): Uint8Array {
  const p = ix.languageParts();
  const [names, nameAt] = stringsOf(p.name);
  const [norms, normAt] = stringsOf(p.norm);
  const sections: Typed[] = [names, nameAt, norms, normAt, p.nameRank, p.trigramCount, p.seqStart, p.trigrams, p.postStart, p.post, p.seq];
  return writeSections(LANGUAGE_MAGIC, LANGUAGE_SNAPSHOT_FORMAT, { releaseId: ix.releaseId, size: ix.size, flags: p.seq instanceof Uint16Array ? SEQ_16 : 0 }, sections);
}

/** The language index a language snapshot holds, over `base` (its release's primary index); CorruptSnapshotError when it is not one of it. */
export function deserializeLanguageIndex(data: Uint8Array, base: ReleaseIndex, language: string): ReleaseIndex {
  const r = new SectionReader(data, LANGUAGE_MAGIC, LANGUAGE_SNAPSHOT_FORMAT, base.releaseId, 'language index snapshot');
  if (r.size !== base.size) throw new CorruptSnapshotError(`holds ${r.size} entries, the release ${base.size}`);
  const parts = {
    name: r.strings(), norm: r.strings(), nameRank: r.i32(), trigramCount: r.u16(), seqStart: r.i32(),
    trigrams: r.f64(), postStart: r.i32(), post: r.i32(), seq: r.flags & SEQ_16 ? r.u16() : r.i32(),
  };
  r.end();
  for (const a of [parts.name, parts.norm, parts.nameRank, parts.trigramCount]) if (a.length !== r.size) throw new CorruptSnapshotError('column lengths differ');
  if (parts.seqStart.length !== r.size + 1 || parts.postStart.length !== parts.trigrams.length + 1) throw new CorruptSnapshotError('offset lengths differ');
  return ReleaseIndex.languageFromParts(base, language, parts);
}

/** Whether the bytes begin as a whole language snapshot does. */
export const isWholeLanguageSnapshot = (data: Uint8Array): boolean => data.byteLength >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === LANGUAGE_MAGIC;

/** The names and folded names a whole language snapshot holds, without its release's primary index (a language delta's base: snapshotDelta.ts). */
export function languageNamesOf(data: Uint8Array, releaseId: number): { size: number; name: string[]; norm: string[]; nameRank: Int32Array } {
  const r = new SectionReader(data, LANGUAGE_MAGIC, LANGUAGE_SNAPSHOT_FORMAT, releaseId, 'language index snapshot');
  const name = r.strings();
  const norm = r.strings();
  const nameRank = r.i32();
  if (name.length !== r.size || norm.length !== r.size || nameRank.length !== r.size) throw new CorruptSnapshotError('column lengths differ');
  return { size: r.size, name, norm, nameRank };
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
