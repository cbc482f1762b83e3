// A release's index kept compact as an overlay on another release's (the base: issue 32 step 3,
// docs/storage.md option (b)), and made whole again on demand. The overlay holds the release's
// entries that are not a base entry as it is (new, or a column changed), a mask of the base
// entries it does not take, the parent/child lists and PT paths that differ from the base's,
// nothing else: name ranks, trigram ids and postings, and LLTs per PT are derived again when it
// is materialised, so the result's parts() equal those of the index built from the release's rows
// and every consumer of ReleaseIndex stays as it is.
import { LEVELS } from '../levels.ts';
import type { Csr, PtPathColumns } from './hierarchyIndex.ts';
import { ReleaseIndex, type EntryColumns, type ReleaseIndexParts } from './releaseIndex.ts';
import { trigramCodes } from './trigram.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';

const NONE = -2147483648;

/** Lists of some entries (CSR over the listed entries, `entry` ascending), ends as release entry numbers. */
export interface ListPatch {
  entry: Int32Array;
  start: Int32Array;
  to: Int32Array;
  primary: Uint8Array;
}

/** The columns an overlay entry carries (name ranks: its rank in the release). */
export type OwnColumns = Omit<EntryColumns, 'seqStart'> & { socAbbrev: (string | null)[] };

export interface IndexOverlay {
  releaseId: number;
  baseReleaseId: number;
  /** Entries of the release. */
  size: number;
  /** Base entries the release does not take as they are (absent, or changed: then in `own`), one bit each. */
  masked: Uint8Array;
  /** Entry numbers (in the release) of the entries below, ascending. */
  at: Int32Array;
  own: OwnColumns;
  down: ListPatch;
  up: ListPatch;
  /** PTs whose paths differ from the base's (ascending), and their rows (none: the PT has none). */
  ptPaths: { replaced: Int32Array; rows: PtPathColumns };
  /** Entries taken from the base whose name rank is not the one filled in for them, and theirs. */
  ranks: { entry: Int32Array; rank: Int32Array };
}

export const bit = (m: Uint8Array, j: number) => (m[j >> 3]! >> (j & 7)) & 1;

export const ENTRY_INTS = ['level', 'code', 'ptCode', 'current', 'primarySoc', 'intlOrder', 'nameRank', 'trigramCount', 'pathHlt', 'pathHlgt', 'pathSoc'] as const;

/**
 * The overlay of `full` (a release's index with hierarchy) on `base`: what materialise() needs to
 * give back `full`'s parts from `base`'s. Linear in the entries, one pass; strings equal to the
 * base's are the base's objects.
 */
export async function overlayOf(base: ReleaseIndex, full: ReleaseIndex): Promise<IndexOverlay> {
  if (!base.hasHierarchy || !full.hasHierarchy) throw new Error('an index overlay needs both indexes with their hierarchy');
  const b = base.parts();
  const f = full.parts();
  const bc = b.columns;
  const fc = f.columns;
  const bAbbrev = new Map(b.socAbbrev);
  const fAbbrev = new Map(f.socAbbrev);
  const n = f.size;
  // The base entry of each release entry by (level, code), and back.
  const toBase = new Int32Array(n).fill(-1);
  const toRelease = new Int32Array(b.size).fill(-1);
  const taken = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 8192 === 0) await nextTurn();
    const j = base.find(full.levelOf(i), fc.code[i]!);
    if (j < 0) continue;
    toBase[i] = j;
    toRelease[j] = i;
    let same = fc.name[i] === bc.name[j] && fc.norm[i] === bc.norm[j] && (fAbbrev.get(i) ?? null) === (bAbbrev.get(j) ?? null);
    for (const k of ENTRY_INTS) if (k !== 'nameRank' && fc[k][i] !== bc[k][j]) same = false;
    if (same) taken[i] = 1;
  }
  // Name ranks: the release's own entries keep theirs, taken ones fill the others in base order
  // (materialise()); those filled otherwise are kept as exceptions: names equal at two levels
  // under one code (a PT and its own LLT) tie in the statement's order, which is not fixed.
  const filled = fillRanks(n, taken, fc.nameRank, entriesByRank(bc.nameRank, b.size), toRelease);
  const moved: number[] = [];
  for (let i = 0; i < n; i++) if (taken[i] && filled[i] !== fc.nameRank[i]) moved.push(i);
  await nextTurn();
  const masked = new Uint8Array((b.size + 7) >> 3);
  for (let j = 0; j < b.size; j++) if (toRelease[j]! < 0 || !taken[toRelease[j]!]) masked[j >> 3]! |= 1 << (j & 7);
  const at: number[] = [];
  for (let i = 0; i < n; i++) if (!taken[i]) at.push(i);
  const own = {} as OwnColumns;
  for (const k of ENTRY_INTS) {
    const src = fc[k];
    const out = new (src.constructor as Int32ArrayConstructor)(at.length);
    at.forEach((i, o) => (out[o] = src[i]!));
    (own as unknown as Record<string, unknown>)[k] = out;
  }
  // Strings equal to the base's counterpart's are that object: the overlay holds only new text.
  own.name = at.map((i) => (toBase[i]! >= 0 && bc.name[toBase[i]!] === fc.name[i] ? bc.name[toBase[i]!]! : fc.name[i]!));
  own.norm = at.map((i) => (toBase[i]! >= 0 && bc.norm[toBase[i]!] === fc.norm[i] ? bc.norm[toBase[i]!]! : fc.norm[i]!));
  own.socAbbrev = at.map((i) => fAbbrev.get(i) ?? null);
  await nextTurn();
  return {
    releaseId: full.releaseId,
    baseReleaseId: base.releaseId,
    size: n,
    masked,
    at: Int32Array.from(at),
    own,
    down: listPatch(f.down, b.down, toBase, toRelease),
    up: listPatch(f.up, b.up, toBase, toRelease),
    ptPaths: pathPatch(b.ptPaths, f.ptPaths),
    ranks: { entry: Int32Array.from(moved), rank: Int32Array.from(moved, (i) => fc.nameRank[i]!) },
  };
}

/** Base entries by name rank (ranks are 1..n, a row_number; any other numbering sorts). */
export function entriesByRank(rank: Int32Array, size: number): Int32Array {
  const out = new Int32Array(size).fill(-1);
  let dense = true;
  for (let j = 0; j < size && dense; j++) {
    const r = rank[j]! - 1;
    if (r < 0 || r >= size || out[r] !== -1) dense = false;
    else out[r] = j;
  }
  if (dense) return out;
  return Int32Array.from({ length: size }, (_, j) => j).sort((x, y) => rank[x]! - rank[y]! || x - y);
}

/** Ranks of the release's entries: own entries' given, taken ones the free ranks in base rank order. */
export function fillRanks(n: number, taken: Uint8Array, ownRank: Int32Array, byRank: Int32Array, toRelease: Int32Array): Int32Array {
  const out = new Int32Array(n);
  const used = new Uint8Array(n + 2);
  for (let i = 0; i < n; i++) {
    if (!taken[i]) {
      out[i] = ownRank[i]!;
      if (ownRank[i]! >= 0 && ownRank[i]! < used.length) used[ownRank[i]!] = 1;
    }
  }
  let next = 1;
  for (let r = 0; r < byRank.length; r++) {
    const i = toRelease[byRank[r]!]!;
    if (i < 0 || !taken[i]) continue;
    while (used[next]) next++;
    out[i] = next++;
  }
  return out;
}

/** The lists of `full` that are not the base counterpart's list (ends mapped to release entries; none: empty). */
function listPatch(full: Csr, base: Csr, toBase: Int32Array, toRelease: Int32Array): ListPatch {
  const entry: number[] = [];
  const start = [0];
  const to: number[] = [];
  const primary: number[] = [];
  const n = toBase.length;
  for (let i = 0; i < n; i++) {
    const from = full.start[i]!;
    const len = full.start[i + 1]! - from;
    const j = toBase[i]!;
    let same: boolean;
    if (j < 0) same = len === 0;
    else {
      const bf = base.start[j]!;
      same = base.start[j + 1]! - bf === len;
      for (let k = 0; same && k < len; k++) same = toRelease[base.to[bf + k]!] === full.to[from + k] && base.primary[bf + k] === full.primary[from + k];
    }
    if (same) continue;
    entry.push(i);
    for (let k = 0; k < len; k++) {
      to.push(full.to[from + k]!);
      primary.push(full.primary[from + k]!);
    }
    start.push(to.length);
  }
  return { entry: Int32Array.from(entry), start: Int32Array.from(start), to: Int32Array.from(to), primary: Uint8Array.from(primary) };
}

/** Row ranges of each PT in path columns (grouped by PT, ascending). */
function groups(c: PtPathColumns): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  for (let k = 0; k < c.pt.length; k++) {
    const g = out.get(c.pt[k]!);
    if (g) g[1] = k + 1;
    else out.set(c.pt[k]!, [k, k + 1]);
  }
  return out;
}

const PATH_COLUMNS = ['pt', 'hlt', 'hlgt', 'soc', 'primary'] as const;

function pathPatch(base: PtPathColumns, full: PtPathColumns): IndexOverlay['ptPaths'] {
  const bg = groups(base);
  const fg = groups(full);
  const replaced: number[] = [];
  const rows: number[] = [];
  for (const pt of new Set([...bg.keys(), ...fg.keys()])) {
    const x = bg.get(pt);
    const y = fg.get(pt);
    let same = !!x && !!y && x[1] - x[0] === y[1] - y[0];
    for (let k = 0; same && k < y![1] - y![0]; k++) for (const c of PATH_COLUMNS) if (base[c][x![0] + k] !== full[c][y![0] + k]) same = false;
    if (same) continue;
    replaced.push(pt);
    if (y) for (let k = y[0]; k < y[1]; k++) rows.push(k);
  }
  replaced.sort((a, b) => a - b);
  rows.sort((a, b) => full.pt[a]! - full.pt[b]! || a - b);
  const pick = <T extends Int32Array | Uint8Array>(src: T): T => {
    const out = new (src.constructor as new (n: number) => T)(rows.length);
    rows.forEach((k, o) => (out[o] = src[k]!));
    return out;
  };
  return { replaced: Int32Array.from(replaced), rows: { pt: pick(full.pt), hlt: pick(full.hlt), hlgt: pick(full.hlgt), soc: pick(full.soc), primary: pick(full.primary) } };
}

/**
 * Bytes the overlay holds of its own: typed arrays, list slots, and its strings — with `base`,
 * those that are not the base's; without, every one (an overestimate, cheap: the cache's count).
 */
export function overlayBytes(o: IndexOverlay, base?: ReleaseIndex): number {
  let bytes = o.masked.byteLength + o.at.byteLength;
  for (const k of ENTRY_INTS) bytes += o.own[k].byteLength;
  for (const p of [o.down, o.up]) bytes += p.entry.byteLength + p.start.byteLength + p.to.byteLength + p.primary.byteLength;
  for (const c of PATH_COLUMNS) bytes += o.ptPaths.rows[c].byteLength;
  bytes += o.ptPaths.replaced.byteLength + o.ranks.entry.byteLength + o.ranks.rank.byteLength;
  // Per entry: its two string slots and its abbreviation's; the strings themselves when they are
  // not the base's (overlayOf reuses the base's objects; by value is what JavaScript can tell).
  bytes += 24 * o.at.length;
  const shared = new Set<string>();
  for (let j = 0; base && j < base.size; j++) {
    shared.add(base.name[j]!);
    shared.add(base.norm[j]!);
  }
  for (let k = 0; k < o.at.length; k++) {
    for (const s of [o.own.name[k]!, o.own.norm[k]!, o.own.socAbbrev[k]]) if (s && !shared.has(s)) bytes += 24 + 2 * s.length;
  }
  return bytes;
}

/**
 * The release's whole index from its overlay and its base (the index overlayOf() was given):
 * entry columns merged by (level, code), name ranks filled, trigram ids and postings derived in
 * the release's entry order (base names' trigram ids translated, not recomputed), parent/child
 * lists and PT paths patched, LLTs per PT derived. Sliced with yields like a build.
 * `search: false`: no trigram ids or postings (about half the CPU): an index only to take
 * overlayOf() of (snapshotChain.ts's rebase), never searched nor serialised whole.
 */
export async function materialise(base: ReleaseIndex, o: IndexOverlay, opts: { search?: boolean } = {}): Promise<ReleaseIndex> {
  if (base.releaseId !== o.baseReleaseId) throw new Error(`overlay of release ${o.releaseId} is over release ${o.baseReleaseId}, not ${base.releaseId}`);
  const b = base.parts();
  const bc = b.columns;
  const n = o.size;
  const cols = {
    level: new Uint8Array(n), code: new Int32Array(n), ptCode: new Int32Array(n), current: new Uint8Array(n), primarySoc: new Int32Array(n),
    intlOrder: new Int32Array(n), nameRank: new Int32Array(n), trigramCount: new Uint16Array(n), name: new Array<string>(n), norm: new Array<string>(n),
    seqStart: new Int32Array(n + 1), pathHlt: new Int32Array(n), pathHlgt: new Int32Array(n), pathSoc: new Int32Array(n),
  } satisfies EntryColumns;
  // Which base entry (or -1: the overlay's next) each release entry is, and back.
  const fromBase = new Int32Array(n).fill(-1);
  const toRelease = new Int32Array(b.size).fill(-1);
  const bAbbrev = new Map(b.socAbbrev);
  const socAbbrev: [number, string][] = [];
  let j = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (k < o.at.length && o.at[k] === i) {
      copyEntry(cols, i, o.own, k);
      cols.nameRank[i] = o.own.nameRank[k]!;
      cols.name[i] = o.own.name[k]!;
      cols.norm[i] = o.own.norm[k]!;
      const a = o.own.socAbbrev[k];
      if (a !== null && a !== undefined) socAbbrev.push([i, a]);
      k++;
      continue;
    }
    while (j < b.size && bit(o.masked, j)) j++;
    if (j >= b.size) throw new Error(`overlay of release ${o.releaseId} does not fit its base: entries run out at ${i}`);
    fromBase[i] = j;
    toRelease[j] = i;
    copyEntry(cols, i, bc, j);
    cols.name[i] = bc.name[j]!;
    cols.norm[i] = bc.norm[j]!;
    const a = bAbbrev.get(j);
    if (a !== undefined) socAbbrev.push([i, a]);
    j++;
  }
  // Base entries changed in the release are masked, but their lists' ends still name them.
  for (let i = 0; i < n; i++) {
    if (fromBase[i]! >= 0) continue;
    const bj = base.find(LEVELS[cols.level[i]!]!, cols.code[i]!);
    if (bj >= 0) toRelease[bj] = i;
  }
  const ranks = fillRanks(n, Uint8Array.from(fromBase, (x) => (x >= 0 ? 1 : 0)), cols.nameRank, entriesByRank(bc.nameRank, b.size), toReleaseTaken(toRelease, fromBase));
  cols.nameRank.set(ranks);
  o.ranks.entry.forEach((i, k) => (cols.nameRank[i] = o.ranks.rank[k]!));
  await nextTurn();
  const trig = opts.search === false ? { trigrams: new Float64Array(0), postStart: Int32Array.of(0), post: new Int32Array(0), seq: new Int32Array(0) } : await trigrams(b, cols, fromBase);
  await nextTurn();
  const toBase = new Int32Array(n).fill(-1);
  for (let jj = 0; jj < b.size; jj++) if (toRelease[jj]! >= 0) toBase[toRelease[jj]!] = jj;
  const parts: ReleaseIndexParts = {
    releaseId: o.releaseId,
    size: n,
    hasHierarchy: true,
    columns: cols,
    socAbbrev,
    ...trig,
    down: patchedCsr(b.down, o.down, toBase, toRelease),
    up: patchedCsr(b.up, o.up, toBase, toRelease),
    ptPaths: patchedPaths(b.ptPaths, o.ptPaths),
    llts: lltsOf(cols),
  };
  return ReleaseIndex.fromParts(parts);
}

/** Entry `from` of `src` into entry `to` of `out`, but its name rank (written out: one shape per column keeps this fast). */
function copyEntry(out: EntryColumns, to: number, src: Omit<EntryColumns, 'seqStart'>, from: number): void {
  out.level[to] = src.level[from]!;
  out.code[to] = src.code[from]!;
  out.ptCode[to] = src.ptCode[from]!;
  out.current[to] = src.current[from]!;
  out.primarySoc[to] = src.primarySoc[from]!;
  out.intlOrder[to] = src.intlOrder[from]!;
  out.trigramCount[to] = src.trigramCount[from]!;
  out.pathHlt[to] = src.pathHlt[from]!;
  out.pathHlgt[to] = src.pathHlgt[from]!;
  out.pathSoc[to] = src.pathSoc[from]!;
}

/** toRelease restricted to the base entries taken as they are (rank filling walks those only). */
function toReleaseTaken(toRelease: Int32Array, fromBase: Int32Array): Int32Array {
  const out = new Int32Array(toRelease.length).fill(-1);
  for (let i = 0; i < fromBase.length; i++) if (fromBase[i]! >= 0) out[fromBase[i]!] = i;
  return out;
}

/** Trigram ids in first-seen order over the release's entries, each name's sequence, postings (as ReleaseIndex.indexTrigrams). */
async function trigrams(b: ReleaseIndexParts, c: EntryColumns, fromBase: Int32Array): Promise<Pick<ReleaseIndexParts, 'trigrams' | 'postStart' | 'post' | 'seq'>> {
  const n = fromBase.length;
  const bSeq = b.seq;
  const bStart = b.columns.seqStart;
  const remap = new Int32Array(b.trigrams.length).fill(-1);
  const idOf = new Map<number, number>();
  const codes: number[] = [];
  let bound = 0;
  for (let i = 0; i < n; i++) bound += fromBase[i]! >= 0 ? bStart[fromBase[i]! + 1]! - bStart[fromBase[i]!]! : c.norm[i]!.length + 2;
  const seq = new Int32Array(bound);
  const holders: number[] = [];
  const lastHolder: number[] = [];
  let used = 0;
  const add = (id: number, i: number) => {
    seq[used++] = id;
    if (lastHolder[id] !== i) {
      lastHolder[id] = i;
      holders[id]!++;
    }
  };
  const fresh = (code: number) => {
    let id = idOf.get(code);
    if (id === undefined) {
      id = codes.length;
      idOf.set(code, id);
      codes.push(code);
      holders.push(0);
      lastHolder.push(-1);
    }
    return id;
  };
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 8192 === 0) await nextTurn();
    const j = fromBase[i]!;
    if (j >= 0) {
      for (let p = bStart[j]!; p < bStart[j + 1]!; p++) {
        const bid = bSeq[p]!;
        let id = remap[bid]!;
        if (id < 0) id = remap[bid] = fresh(b.trigrams[bid]!);
        add(id, i);
      }
    } else for (const t of trigramCodes(c.norm[i]!)) add(fresh(t), i);
    c.seqStart[i + 1] = used;
  }
  const ids = codes.length;
  const postStart = new Int32Array(ids + 1);
  for (let id = 0; id < ids; id++) postStart[id + 1] = postStart[id]! + holders[id]!;
  const post = new Int32Array(postStart[ids]!);
  const fill = postStart.slice(0, ids);
  const last = new Int32Array(ids).fill(-1);
  for (let i = 0; i < n; i++) {
    for (let p = c.seqStart[i]!; p < c.seqStart[i + 1]!; p++) {
      const id = seq[p]!;
      if (last[id] === i) continue;
      last[id] = i;
      post[fill[id]!++] = i;
    }
  }
  return { trigrams: Float64Array.from(codes), postStart, post, seq: ids <= 65536 ? Uint16Array.from(seq.subarray(0, used)) : seq.slice(0, used) };
}

/** The release's lists: the patch's where it has one, else the base counterpart's with ends mapped. */
function patchedCsr(base: Csr, patch: ListPatch, toBase: Int32Array, toRelease: Int32Array): Csr {
  const n = toBase.length;
  const start = new Int32Array(n + 1);
  let p = 0;
  for (let i = 0; i < n; i++) {
    let len = 0;
    if (p < patch.entry.length && patch.entry[p] === i) len = patch.start[p + 1]! - patch.start[p++]!;
    else if (toBase[i]! >= 0) len = base.start[toBase[i]! + 1]! - base.start[toBase[i]!]!;
    start[i + 1] = start[i]! + len;
  }
  const to = new Int32Array(start[n]!);
  const primary = new Uint8Array(start[n]!);
  p = 0;
  for (let i = 0; i < n; i++) {
    let at = start[i]!;
    if (p < patch.entry.length && patch.entry[p] === i) {
      to.set(patch.to.subarray(patch.start[p]!, patch.start[p + 1]!), at);
      primary.set(patch.primary.subarray(patch.start[p]!, patch.start[p + 1]!), at);
      p++;
    } else if (toBase[i]! >= 0) {
      const j = toBase[i]!;
      for (let q = base.start[j]!; q < base.start[j + 1]!; q++) {
        to[at] = toRelease[base.to[q]!]!;
        primary[at++] = base.primary[q]!;
      }
    }
  }
  return { start, to, primary };
}

/** The base's PT path rows with the replaced PTs' rows in their place, by PT. */
function patchedPaths(base: PtPathColumns, patch: IndexOverlay['ptPaths']): PtPathColumns {
  const replaced = new Set(patch.replaced);
  const keep: number[] = [];
  for (let k = 0; k < base.pt.length; k++) if (!replaced.has(base.pt[k]!)) keep.push(k);
  const total = keep.length + patch.rows.pt.length;
  const out: PtPathColumns = { pt: new Int32Array(total), hlt: new Int32Array(total), hlgt: new Int32Array(total), soc: new Int32Array(total), primary: new Uint8Array(total) };
  let a = 0;
  let r = 0;
  for (let o = 0; o < total; o++) {
    // Both runs are grouped by ascending PT and share none.
    const fromBase = r >= patch.rows.pt.length || (a < keep.length && base.pt[keep[a]!]! < patch.rows.pt[r]!);
    const src = fromBase ? base : patch.rows;
    const at = fromBase ? keep[a++]! : r++;
    for (const c of PATH_COLUMNS) out[c][o] = src[c][at]!;
  }
  return out;
}

/** LLT entries per PT as ReleaseIndex's addHierarchy derives them: current first, then by name rank. */
function lltsOf(c: EntryColumns): ReleaseIndexParts['llts'] {
  const llt = LEVELS.indexOf('LLT');
  const list: number[] = [];
  for (let i = 0; i < c.level.length; i++) if (c.level[i] === llt && c.ptCode[i] !== NONE) list.push(i);
  list.sort((x, y) => c.current[y]! - c.current[x]! || c.nameRank[x]! - c.nameRank[y]!);
  const byPt = new Map<number, number[]>();
  for (const i of list) {
    const l = byPt.get(c.ptCode[i]!);
    if (l) l.push(i);
    else byPt.set(c.ptCode[i]!, [i]);
  }
  const pt = new Int32Array(byPt.size);
  const start = new Int32Array(byPt.size + 1);
  const entries = new Int32Array(list.length);
  let k = 0;
  for (const [code, l] of byPt) {
    pt[k] = code;
    entries.set(l, start[k]!);
    start[k + 1] = start[k]! + l.length;
    k++;
  }
  return { pt, start, entries };
}
