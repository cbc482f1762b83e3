// A group member's overlay moved from the previous newest release's index onto the new newest's
// without materialising the member (issue 32: the import's index phase independent of the number of
// releases; snapshotChain.ts's rebase). With T the new newest, P the previous one and M the member:
// overlayOf(T, M) is composed from M's overlay over P (stored) and P's over T (the rebase computes it
// anyway), reading P's and T's whole indexes only where the two overlays say something differs. The
// result is overlayOf(T, materialise(P, M-over-P))'s exactly (serialised byte for byte alike: tested),
// so a delta written either way is the same. What it costs: a few passes of integer maps over the
// entries (entry numbers of one release in another, name ranks filled), no string, hash or list work
// but for the overlays' own entries, patched lists and PTs.
import { LEVELS } from '../levels.ts';
import type { Csr, PtPathColumns } from './hierarchyIndex.ts';
import { bit, entriesByRank, fillRanks, type IndexOverlay, type ListPatch, type OwnColumns } from './overlay.ts';
import type { ReleaseIndex } from './releaseIndex.ts';

type Columns = ReturnType<ReleaseIndex['codePageParts']>['columns'];

/** What composing any member over `prev` onto `top` shares: computed once per rebase. */
export interface ComposeBase {
  top: ReleaseIndex;
  prev: ReleaseIndex;
  /** P's overlay over T. */
  prevOverTop: IndexOverlay;
  tc: Columns;
  pc: Columns;
  tAbbrev: ReadonlyMap<number, string>;
  pAbbrev: ReadonlyMap<number, string>;
  tLists: { down: Csr; up: Csr };
  pLists: { down: Csr; up: Csr };
  tPaths: PtPathColumns;
  pPaths: PtPathColumns;
  /** Per P entry: T's entry of its (level, code), or -1. */
  pToT: Int32Array;
  /** Per P entry: 1 when it is T's entry as it is (not one of the overlay's own). */
  pTaken: Uint8Array;
  /** Per P entry: 1 when P's overlay over T patches its child (down) / parent (up) list. */
  pPatched: { down: Uint8Array; up: Uint8Array };
  tByRank: Int32Array;
  pByRank: Int32Array;
}

/** Path rows grouped by ascending PT (what the statement and materialise() give): binary search then works. */
const sortedByPt = (c: PtPathColumns) => c.pt.every((pt, k) => k === 0 || c.pt[k - 1]! <= pt);

/**
 * The shared part, or undefined when `prevOverTop` is not over `top` or does not fit `prev`, or a
 * path table is not grouped by ascending PT: then the rebase materialises as before.
 */
export function composeBase(top: ReleaseIndex, prev: ReleaseIndex, prevOverTop: IndexOverlay): ComposeBase | undefined {
  if (prevOverTop.baseReleaseId !== top.releaseId || prevOverTop.releaseId !== prev.releaseId || prevOverTop.size !== prev.size) return undefined;
  const t = top.codePageParts();
  const p = prev.codePageParts();
  const tPaths = t.ptPaths.columns();
  const pPaths = p.ptPaths.columns();
  if (!sortedByPt(tPaths) || !sortedByPt(pPaths)) return undefined;
  const walked = walk(prevOverTop, top.size, (i) => top.find(prev.levelOf(i), p.columns.code[i]!));
  if (!walked) return undefined;
  const flags = (l: ListPatch) => {
    const out = new Uint8Array(prev.size);
    for (const j of l.entry) out[j] = 1;
    return out;
  };
  return {
    top, prev, prevOverTop, tc: t.columns, pc: p.columns, tAbbrev: t.socAbbrev, pAbbrev: p.socAbbrev,
    tLists: { down: t.down, up: t.up }, pLists: { down: p.down, up: p.up }, tPaths, pPaths,
    pToT: walked.toBase, pTaken: walked.taken,
    pPatched: { down: flags(prevOverTop.down), up: flags(prevOverTop.up) },
    tByRank: entriesByRank(t.columns.nameRank, top.size),
    pByRank: entriesByRank(p.columns.nameRank, prev.size),
  };
}

/**
 * An overlay's release entries against its base's, as materialise() lays them out: own entries at
 * `at`, the others the base's unmasked entries in order. `toBase`: the base entry of each entry's
 * (level, code) (own ones through `findOwn`), `taken`: 1 for the base's as they are; `toRelease`:
 * the inverse by (level, code). Undefined when the overlay does not fit (entries run out).
 */
function walk(o: IndexOverlay, baseSize: number, findOwn: (i: number, k: number) => number) {
  const n = o.size;
  const toBase = new Int32Array(n);
  const taken = new Uint8Array(n);
  const toRelease = new Int32Array(baseSize).fill(-1);
  let j = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (k < o.at.length && o.at[k] === i) {
      const b = findOwn(i, k++);
      toBase[i] = b;
      if (b >= 0) toRelease[b] = i;
      continue;
    }
    while (j < baseSize && bit(o.masked, j)) j++;
    if (j >= baseSize) return undefined;
    toBase[i] = j;
    taken[i] = 1;
    toRelease[j++] = i;
  }
  return k === o.at.length ? { toBase, taken, toRelease } : undefined;
}

/**
 * M's overlay over T from M's over P (`member`); undefined when `member` is not over P or does not
 * fit it (the caller then materialises, as any damaged delta is handled).
 */
export function composeOverlay(cb: ComposeBase, member: IndexOverlay): IndexOverlay | undefined {
  const { top, prev, tc, pc } = cb;
  if (member.baseReleaseId !== prev.releaseId) return undefined;
  const n = member.size;
  const mo = member.own;
  const level = (k: number) => LEVELS[mo.level[k]!]!;
  // M's entries against P's (by position, own ones by code), then against T's by code.
  const m = walk(member, prev.size, (_i, k) => prev.find(level(k), mo.code[k]!));
  if (!m) return undefined;
  const mToP = m.toBase;
  const pToM = m.toRelease;
  const ownK = new Int32Array(n).fill(-1);
  member.at.forEach((i, k) => (ownK[i] = k));
  const mToT = new Int32Array(n);
  const tToM = new Int32Array(top.size).fill(-1);
  const taken = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const k = ownK[i]!;
    const j = mToP[i]!;
    let t: number;
    if (k < 0) {
      // P's entry as it is: T's as it is exactly when P's is.
      t = cb.pToT[j]!;
      taken[i] = cb.pTaken[j]!;
    } else {
      t = j >= 0 ? cb.pToT[j]! : top.find(level(k), mo.code[k]!);
      taken[i] = t >= 0 && sameAsTop(cb, mo, k, t) ? 1 : 0;
    }
    mToT[i] = t;
    if (t >= 0) tToM[t] = i;
  }
  // M's name ranks as materialise() fills them: own entries', the rest free ranks in P's order, then the exceptions.
  const mRank = new Int32Array(n);
  member.at.forEach((i, k) => (mRank[i] = mo.nameRank[k]!));
  mRank.set(fillRanks(n, m.taken, mRank, cb.pByRank, pToM));
  member.ranks.entry.forEach((i, k) => (mRank[i] = member.ranks.rank[k]!));

  const masked = new Uint8Array((top.size + 7) >> 3);
  masked.fill(0xff);
  if (top.size & 7) masked[masked.length - 1] = (1 << (top.size & 7)) - 1;
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    if (taken[i]) masked[mToT[i]! >> 3]! &= ~(1 << (mToT[i]! & 7));
    else at.push(i);
  }
  const own = ownColumns(cb, member, at, ownK, mToP, mRank);
  const filled = fillRanks(n, taken, mRank, cb.tByRank, tToM);
  const moved: number[] = [];
  for (let i = 0; i < n; i++) if (taken[i] && filled[i] !== mRank[i]) moved.push(i);

  // Lists: M's differs from T's counterpart's only where one of the two overlays patches it, or M's entry is its own.
  const lists = (dir: 'down' | 'up'): ListPatch => {
    const cand: number[] = [...member.at, ...member[dir].entry];
    const pPatch = cb.prevOverTop[dir].entry;
    for (let q = 0; q < pPatch.length; q++) if (pToM[pPatch[q]!]! >= 0) cand.push(pToM[pPatch[q]!]!);
    return listPatchOf(uniqueSorted(cand), member[dir], cb.pLists[dir], cb.tLists[dir], mToP, pToM, mToT, tToM);
  };
  return {
    releaseId: member.releaseId,
    baseReleaseId: top.releaseId,
    size: n,
    masked,
    at: Int32Array.from(at),
    own,
    down: lists('down'),
    up: lists('up'),
    ptPaths: pathsOf(cb, member),
    ranks: { entry: Int32Array.from(moved), rank: Int32Array.from(moved, (i) => mRank[i]!) },
  };
}

/** Whether M's own entry k is T's entry t as it is (overlayOf's test: every column but the name rank). */
function sameAsTop(cb: ComposeBase, o: OwnColumns, k: number, t: number): boolean {
  const c = cb.tc;
  return (
    o.name[k] === c.name[t] && o.norm[k] === c.norm[t] && (o.socAbbrev[k] ?? null) === (cb.tAbbrev.get(t) ?? null) &&
    o.level[k] === c.level[t] && o.code[k] === c.code[t] && o.ptCode[k] === c.ptCode[t] && o.current[k] === c.current[t] &&
    o.primarySoc[k] === c.primarySoc[t] && o.intlOrder[k] === c.intlOrder[t] && o.trigramCount[k] === c.trigramCount[t] &&
    o.pathHlt[k] === c.pathHlt[t] && o.pathHlgt[k] === c.pathHlgt[t] && o.pathSoc[k] === c.pathSoc[t]
  );
}

/** The columns of M's entries at `at`: its own entries' from its overlay, P's as they are from P; name ranks M's. */
function ownColumns(cb: ComposeBase, member: IndexOverlay, at: number[], ownK: Int32Array, mToP: Int32Array, mRank: Int32Array): OwnColumns {
  const a = at.length;
  const out: OwnColumns = {
    level: new Uint8Array(a), code: new Int32Array(a), ptCode: new Int32Array(a), current: new Uint8Array(a), primarySoc: new Int32Array(a),
    intlOrder: new Int32Array(a), nameRank: new Int32Array(a), trigramCount: new Uint16Array(a), pathHlt: new Int32Array(a), pathHlgt: new Int32Array(a),
    pathSoc: new Int32Array(a), name: new Array<string>(a), norm: new Array<string>(a), socAbbrev: new Array<string | null>(a),
  };
  const mo = member.own;
  const pc = cb.pc;
  for (let o = 0; o < a; o++) {
    const i = at[o]!;
    const k = ownK[i]!;
    const src: Omit<Columns, 'seqStart'> = k >= 0 ? mo : pc;
    const x = k >= 0 ? k : mToP[i]!;
    out.level[o] = src.level[x]!;
    out.code[o] = src.code[x]!;
    out.ptCode[o] = src.ptCode[x]!;
    out.current[o] = src.current[x]!;
    out.primarySoc[o] = src.primarySoc[x]!;
    out.intlOrder[o] = src.intlOrder[x]!;
    out.trigramCount[o] = src.trigramCount[x]!;
    out.pathHlt[o] = src.pathHlt[x]!;
    out.pathHlgt[o] = src.pathHlgt[x]!;
    out.pathSoc[o] = src.pathSoc[x]!;
    out.name[o] = src.name[x]!;
    out.norm[o] = src.norm[x]!;
    out.nameRank[o] = mRank[i]!;
    out.socAbbrev[o] = k >= 0 ? (mo.socAbbrev[k] ?? null) : (cb.pAbbrev.get(x) ?? null);
  }
  return out;
}

function uniqueSorted(xs: number[]): number[] {
  xs.sort((a, b) => a - b);
  return xs.filter((x, q) => q === 0 || xs[q - 1] !== x);
}

/**
 * overlayOf()'s list patch of M over T, over the candidate entries only: M's list is its overlay's
 * patch, else P's counterpart's list with ends mapped to M (materialise()); it is patched when it is
 * not T's counterpart's list with ends mapped to M (none: not empty).
 */
function listPatchOf(cand: number[], mPatch: ListPatch, pList: Csr, tList: Csr, mToP: Int32Array, pToM: Int32Array, mToT: Int32Array, tToM: Int32Array): ListPatch {
  const entry: number[] = [];
  const start = [0];
  const to: number[] = [];
  const primary: number[] = [];
  const mine: number[] = [];
  const mineP: number[] = [];
  let q = 0;
  for (const i of cand) {
    mine.length = 0;
    mineP.length = 0;
    while (q < mPatch.entry.length && mPatch.entry[q]! < i) q++;
    if (q < mPatch.entry.length && mPatch.entry[q] === i) {
      for (let r = mPatch.start[q]!; r < mPatch.start[q + 1]!; r++) {
        mine.push(mPatch.to[r]!);
        mineP.push(mPatch.primary[r]!);
      }
    } else if (mToP[i]! >= 0) {
      const j = mToP[i]!;
      for (let r = pList.start[j]!; r < pList.start[j + 1]!; r++) {
        mine.push(pToM[pList.to[r]!]!);
        mineP.push(pList.primary[r]!);
      }
    }
    const t = mToT[i]!;
    let same: boolean;
    if (t < 0) same = mine.length === 0;
    else {
      const tf = tList.start[t]!;
      same = tList.start[t + 1]! - tf === mine.length;
      for (let r = 0; same && r < mine.length; r++) same = tToM[tList.to[tf + r]!] === mine[r] && tList.primary[tf + r] === mineP[r];
    }
    if (same) continue;
    entry.push(i);
    to.push(...mine);
    primary.push(...mineP);
    start.push(to.length);
  }
  return { entry: Int32Array.from(entry), start: Int32Array.from(start), to: Int32Array.from(to), primary: Uint8Array.from(primary) };
}

/** Rows [from, to) of `pt` in path columns grouped by ascending PT. */
function rowsOf(c: PtPathColumns, pt: number): [number, number] {
  let lo = 0;
  let hi = c.pt.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.pt[mid]! < pt) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < c.pt.length && c.pt[end] === pt) end++;
  return [lo, end];
}

const PATH_COLUMNS = ['pt', 'hlt', 'hlgt', 'soc', 'primary'] as const;

/** overlayOf()'s PT path patch of M over T: only PTs one of the two overlays replaces can differ. */
function pathsOf(cb: ComposeBase, member: IndexOverlay): IndexOverlay['ptPaths'] {
  const mRows = member.ptPaths.rows;
  const mReplaced = new Set(member.ptPaths.replaced);
  const replaced: number[] = [];
  const src: [PtPathColumns, number, number][] = [];
  for (const pt of uniqueSorted([...member.ptPaths.replaced, ...cb.prevOverTop.ptPaths.replaced])) {
    const [mc, [mf, mt]] = mReplaced.has(pt) ? [mRows, rowsOf(mRows, pt)] : [cb.pPaths, rowsOf(cb.pPaths, pt)];
    const [tf, tt] = rowsOf(cb.tPaths, pt);
    let same = mt - mf === tt - tf;
    for (let r = 0; same && r < mt - mf; r++) for (const c of PATH_COLUMNS) if (mc[c][mf + r] !== cb.tPaths[c][tf + r]) same = false;
    if (same) continue;
    replaced.push(pt);
    src.push([mc, mf, mt]);
  }
  const total = src.reduce((s, [, f, t]) => s + t - f, 0);
  const rows: PtPathColumns = { pt: new Int32Array(total), hlt: new Int32Array(total), hlgt: new Int32Array(total), soc: new Int32Array(total), primary: new Uint8Array(total) };
  let o = 0;
  for (const [c, f, t] of src) for (let r = f; r < t; r++, o++) for (const k of PATH_COLUMNS) rows[k][o] = c[k][r]!;
  return { replaced: Int32Array.from(replaced), rows };
}
