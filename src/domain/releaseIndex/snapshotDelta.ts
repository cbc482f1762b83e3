// A release's index snapshot stored as a delta: its overlay (overlay.ts) over another release's
// whole snapshot (the keyframe), serialised like a whole snapshot (snapshot.ts: header, checksum,
// 8-byte aligned sections) under its own magic number. It names its base by release id, entry
// count and the base snapshot's checksum: an overlay is exact over that very content only (a
// base rebuilt from rows may order name ties otherwise), so any other base is refused.
import type { IndexOverlay } from './overlay.ts';
import { CorruptSnapshotError, LANGUAGE_SNAPSHOT_FORMAT, SNAPSHOT_FORMAT, SectionReader, stringsOf, writeSections, type Typed } from './snapshot.ts';

const DELTA_MAGIC = 0x58445852; // "RXDX" little-endian

/** What a delta names as its base. */
export interface DeltaBase {
  releaseId: number;
  size: number;
  /** checksumOf() of the base's whole snapshot. */
  checksum: number;
}

export const isDeltaSnapshot = (data: Uint8Array): boolean => data.byteLength >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === DELTA_MAGIC;

const ptColumns = (c: IndexOverlay['ptPaths']['rows']): Typed[] => [c.pt, c.hlt, c.hlgt, c.soc, c.primary];

export function serializeDelta(o: IndexOverlay, base: DeltaBase): Uint8Array {
  if (base.releaseId !== o.baseReleaseId) throw new TypeError(`overlay is over release ${o.baseReleaseId}, not ${base.releaseId}`);
  const w = o.own;
  const [names, nameAt] = stringsOf(w.name);
  const [norms, normAt] = stringsOf(w.norm);
  const abbrevAt: number[] = [];
  const abbrevList: string[] = [];
  w.socAbbrev.forEach((a, k) => {
    if (a === null || a === undefined) return;
    abbrevAt.push(k);
    abbrevList.push(a);
  });
  const [abbrevs, abbrevOffsets] = stringsOf(abbrevList);
  const sections: Typed[] = [
    Int32Array.of(base.releaseId, base.size, base.checksum | 0),
    o.masked, o.at,
    w.level, w.code, w.ptCode, w.current, w.primarySoc, w.intlOrder, w.nameRank, w.trigramCount, w.pathHlt, w.pathHlgt, w.pathSoc,
    names, nameAt, norms, normAt, Int32Array.from(abbrevAt), abbrevs, abbrevOffsets,
    o.down.entry, o.down.start, o.down.to, o.down.primary,
    o.up.entry, o.up.start, o.up.to, o.up.primary,
    o.ptPaths.replaced, ...ptColumns(o.ptPaths.rows),
    o.ranks.entry, o.ranks.rank,
  ];
  return writeSections(DELTA_MAGIC, SNAPSHOT_FORMAT, { releaseId: o.releaseId, size: o.size, flags: 0 }, sections);
}

/** The overlay a delta holds and the base it names; CorruptSnapshotError when the bytes are not an intact delta of this release. */
export function deserializeDelta(data: Uint8Array, releaseId: number): { overlay: IndexOverlay; base: DeltaBase } {
  const r = new SectionReader(data, DELTA_MAGIC, SNAPSHOT_FORMAT, releaseId, 'release index delta');
  const meta = r.i32();
  if (meta.length !== 3) throw new CorruptSnapshotError('bad base section');
  const base: DeltaBase = { releaseId: meta[0]!, size: meta[1]!, checksum: meta[2]! >>> 0 };
  const masked = r.u8();
  const at = r.i32();
  const own = {
    level: r.u8(), code: r.i32(), ptCode: r.i32(), current: r.u8(), primarySoc: r.i32(), intlOrder: r.i32(), nameRank: r.i32(), trigramCount: r.u16(),
    pathHlt: r.i32(), pathHlgt: r.i32(), pathSoc: r.i32(), name: r.strings(), norm: r.strings(), socAbbrev: new Array<string | null>(at.length).fill(null),
  };
  const abbrevAt = r.i32();
  const abbrevs = r.strings();
  if (abbrevAt.length !== abbrevs.length) throw new CorruptSnapshotError('abbreviation lengths differ');
  abbrevAt.forEach((k, i) => {
    if (k < 0 || k >= at.length) throw new CorruptSnapshotError('abbreviation out of range');
    own.socAbbrev[k] = abbrevs[i]!;
  });
  const list = () => ({ entry: r.i32(), start: r.i32(), to: r.i32(), primary: r.u8() });
  const down = list();
  const up = list();
  const replaced = r.i32();
  const rows = { pt: r.i32(), hlt: r.i32(), hlgt: r.i32(), soc: r.i32(), primary: r.u8() };
  const ranks = { entry: r.i32(), rank: r.i32() };
  r.end();
  const n = at.length;
  for (const a of [own.level, own.code, own.ptCode, own.current, own.nameRank, own.trigramCount, own.pathSoc, own.name, own.norm]) if (a.length !== n) throw new CorruptSnapshotError('column lengths differ');
  if (masked.length !== (base.size + 7) >> 3 || n > r.size) throw new CorruptSnapshotError('does not fit its base');
  for (const l of [down, up]) if (l.start.length !== l.entry.length + 1 || l.to.length !== l.primary.length || l.start[l.entry.length] !== l.to.length) throw new CorruptSnapshotError('list lengths differ');
  if (ranks.entry.length !== ranks.rank.length || ptColumns(rows).some((c) => c.length !== rows.pt.length)) throw new CorruptSnapshotError('lengths differ');
  return { overlay: { releaseId, baseReleaseId: base.releaseId, size: r.size, masked, at, own, down, up, ptPaths: { replaced, rows }, ranks }, base };
}

// ---- A non-primary language's index (release_language_index_snapshot) ----------------------
// Its names over the same language's whole snapshot of another release: which base entry each
// entry is (by level and code, through both primary indexes), the names and folded names that
// are not that entry's, and every name rank (one integer an entry: ranks shift with every name
// added before them). Trigram postings are derived again on load (ReleaseIndex.forLanguage).

const LANGUAGE_DELTA_MAGIC = 0x444c5852; // "RXLD" little-endian

export const isLanguageDelta = (data: Uint8Array): boolean => data.byteLength >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === LANGUAGE_DELTA_MAGIC;

export interface LanguageDelta {
  base: DeltaBase;
  /** Per entry: its base entry, or -1. */
  fromBase: Int32Array;
  /** Entries whose name or folded name is not their base entry's (or that have none), ascending, and theirs. */
  at: Int32Array;
  name: string[];
  norm: string[];
  nameRank: Int32Array;
}

export function serializeLanguageDelta(releaseId: number, d: LanguageDelta): Uint8Array {
  const [names, nameAt] = stringsOf(d.name);
  const [norms, normAt] = stringsOf(d.norm);
  const sections: Typed[] = [Int32Array.of(d.base.releaseId, d.base.size, d.base.checksum | 0), d.fromBase, d.at, names, nameAt, norms, normAt, d.nameRank];
  return writeSections(LANGUAGE_DELTA_MAGIC, LANGUAGE_SNAPSHOT_FORMAT, { releaseId, size: d.fromBase.length, flags: 0 }, sections);
}

export function deserializeLanguageDelta(data: Uint8Array, releaseId: number): LanguageDelta {
  const r = new SectionReader(data, LANGUAGE_DELTA_MAGIC, LANGUAGE_SNAPSHOT_FORMAT, releaseId, 'language index delta');
  const meta = r.i32();
  if (meta.length !== 3) throw new CorruptSnapshotError('bad base section');
  const d: LanguageDelta = { base: { releaseId: meta[0]!, size: meta[1]!, checksum: meta[2]! >>> 0 }, fromBase: r.i32(), at: r.i32(), name: r.strings(), norm: r.strings(), nameRank: r.i32() };
  r.end();
  if (d.fromBase.length !== r.size || d.nameRank.length !== r.size || d.name.length !== d.at.length || d.norm.length !== d.at.length) throw new CorruptSnapshotError('lengths differ');
  return d;
}
