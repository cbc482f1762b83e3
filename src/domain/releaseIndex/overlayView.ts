// A release's code pages answered through its overlay (overlay.ts, from its delta snapshot) over
// the base's whole index, without materialising the release's index (issue 32 step 2, option (a)
// of docs/storage.md). The view has its own entry numbers ("handles"): a base entry the release
// takes as it is keeps its base number j, the overlay's own entry k is base.size + k. The
// overlay's list patches name release entry numbers; they are rewritten to handles once, when
// the view is made, by a select over the mask walked with the patches (O(overlay), not
// O(release)). Name ranks of taken entries (synonym order) are derived on demand from the base's
// rank, the masked entries' base ranks and the own entries' ranks (binary searches). Memory:
// the overlay's own columns, those rewritten lists, a map per level of own codes.
import { retainedBytes } from './retainedBytes.ts';
import type { Concept } from '../concepts.ts';
import type { HierarchyItem, RelationshipType } from '../hierarchy.ts';
import { LEVELS, type Level } from '../levels.ts';
import type { Csr, PtPaths } from './hierarchyIndex.ts';
import type { IndexOverlay } from './overlay.ts';
import type { ReleaseIndex } from './releaseIndex.ts';
import { allPathsOf, type PathNodes } from './allPaths.ts';
import { OverlaySearch } from './overlaySearch.ts';

const NONE = -2147483648;
const LLT = LEVELS.indexOf('LLT');
const EDGE_NAMES = LEVELS.map((p) => LEVELS.map((c) => `${p}_TO_${c}` as RelationshipType));

/** What a code page asks of a release's index (src/services/loaders.ts): a ReleaseIndex, or a view over one. */
export interface CodePageIndex {
  readonly releaseId: number;
  readonly hasHierarchy: boolean;
  find(level: Level, code: number): number;
  concept(i: number): Concept;
  byCodeAll(code: number): number[];
  primaryPath(level: Level, code: number): { level: Level; code: number }[] | null;
  children(level: Level, code: number): HierarchyItem[];
  parents(level: Level, code: number): HierarchyItem[];
  allPaths(level: Level, code: number): PathNodes[];
  synonyms(ptCode: number): number[];
}

/** Lists rewritten to handles: those of handle `entry[p]` are to[start[p] .. start[p + 1]). */
interface HandleLists {
  at: Map<number, number>;
  start: Int32Array;
  to: Int32Array;
  primary: Uint8Array;
}

/** Masked base entries, ascending, from the bitset (zero bytes skipped). */
function maskedEntries(masked: Uint8Array, baseSize: number): number[] {
  const out: number[] = [];
  for (let byte = 0; byte < masked.length; byte++) {
    const v = masked[byte]!;
    if (v === 0) continue;
    for (let bit = 0; bit < 8; bit++) if ((v >> bit) & 1 && (byte << 3) + bit < baseSize) out.push((byte << 3) + bit);
  }
  return out;
}

/** Base indexes whose name ranks are a row_number (1..size, each once): the rank derivation below needs it. Checked once per base. */
const denseRanks = new WeakMap<ReleaseIndex, boolean>();

function ranksDense(base: ReleaseIndex): boolean {
  let dense = denseRanks.get(base);
  if (dense === undefined) {
    const r = base.codePageParts().columns.nameRank;
    const seen = new Uint8Array(base.size + 1);
    dense = true;
    for (let j = 0; j < base.size && dense; j++) {
      const x = r[j]!;
      if (x < 1 || x > base.size || seen[x]) dense = false;
      else seen[x] = 1;
    }
    denseRanks.set(base, dense);
  }
  return dense;
}

/** Smallest index of sorted `a` whose value is ≥ x. */
function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class OverlayView implements CodePageIndex {
  readonly releaseId: number;
  readonly hasHierarchy = true;
  /** The base entries; handles at and above are own entries. */
  private readonly baseSize: number;
  private readonly b: ReturnType<ReleaseIndex['codePageParts']>;
  private readonly own: IndexOverlay['own'];
  private readonly masked: Uint8Array;
  /** Own entry by code, per level. */
  private readonly ownByCode: Map<number, number>[] = LEVELS.map(() => new Map());
  private readonly down: HandleLists;
  private readonly up: HandleLists;
  private readonly replacedPaths: Map<number, [number, number]>;
  private readonly pathRows: IndexOverlay['ptPaths']['rows'];
  /** Own LLT handles per PT code. */
  private readonly ownLlts = new Map<number, number[]>();
  /** Base name ranks of the masked entries, and the own entries' ranks in the release, ascending. */
  private readonly maskedRanks: Int32Array;
  private readonly ownRanks: Int32Array;
  private readonly maskedCount: number;
  /** What code pages need of the view's own (estimated: typed arrays, ~40 bytes a map entry, own strings). */
  private readonly pageBytes: number;
  /** Search through the overlay (overlaySearch.ts), made on the first search. */
  private searching: OverlaySearch | undefined;

  private constructor(
    private readonly base: ReleaseIndex,
    o: IndexOverlay,
  ) {
    this.releaseId = o.releaseId;
    this.baseSize = base.size;
    this.b = base.codePageParts();
    this.own = o.own;
    this.masked = o.masked;
    const B = base.size;
    const n = o.at.length;
    for (let k = 0; k < n; k++) this.ownByCode[o.own.level[k]!]!.set(o.own.code[k]!, k);
    const maskedList = maskedEntries(o.masked, B);
    // Release entry numbers the patches name, to handles: own when in `at`, else the
    // (i − own before i)-th base entry not masked (a select walked once, refs ascending).
    const refs = Int32Array.from(new Set([...o.down.entry, ...o.down.to, ...o.up.entry, ...o.up.to])).sort();
    const handle = new Map<number, number>();
    let m = 0;
    for (const i of refs) {
      const k = lowerBound(o.at, i);
      if (k < n && o.at[k] === i) {
        handle.set(i, B + k);
        continue;
      }
      const taken = i - k;
      let j = taken + m;
      while (m < maskedList.length && maskedList[m]! <= j) j = taken + ++m;
      handle.set(i, j);
    }
    const lists = (p: IndexOverlay['down']): HandleLists => ({
      at: new Map(Array.from(p.entry, (i, q) => [handle.get(i)!, q])),
      start: p.start,
      to: Int32Array.from(p.to, (i) => handle.get(i)!),
      primary: p.primary,
    });
    this.down = lists(o.down);
    this.up = lists(o.up);
    this.replacedPaths = new Map(Array.from(o.ptPaths.replaced, (pt) => [pt, [0, 0] as [number, number]]));
    const rows = o.ptPaths.rows;
    for (let r = 0; r < rows.pt.length; r++) {
      const g = this.replacedPaths.get(rows.pt[r]!)!;
      if (g[1] === 0) g[0] = r;
      g[1] = r + 1;
    }
    this.pathRows = rows;
    for (let k = 0; k < n; k++) {
      if (o.own.level[k] !== LLT || o.own.ptCode[k] === NONE) continue;
      const l = this.ownLlts.get(o.own.ptCode[k]!);
      if (l) l.push(B + k);
      else this.ownLlts.set(o.own.ptCode[k]!, [B + k]);
    }
    const rank = this.b.columns.nameRank;
    this.maskedRanks = Int32Array.from(maskedList, (j) => rank[j]!).sort();
    this.ownRanks = Int32Array.from(o.own.nameRank).sort();
    this.maskedCount = maskedList.length;
    // Maps kept: own codes (n), the patches' entries, replaced PTs (each with its pair), own LLTs per PT (`handle` is not kept).
    let bytes = 40 * (n + this.down.at.size + this.up.at.size + this.ownLlts.size) + 88 * o.ptPaths.replaced.length;
    // The arrays by the buffers they keep: a delta read from the store is one buffer, kept whole (retainedBytes.ts).
    const own = o.own;
    bytes += retainedBytes([
      ...[o.masked, this.maskedRanks, this.ownRanks, own.level, own.code, own.ptCode, own.current, own.primarySoc, own.intlOrder, own.nameRank, own.pathHlt, own.pathHlgt, own.pathSoc],
      ...[this.down, this.up].flatMap((p) => [p.start, p.to, p.primary]),
      ...[rows.pt, rows.hlt, rows.hlgt, rows.soc, rows.primary],
    ]);
    for (let k = 0; k < n; k++) bytes += 48 + 2 * (o.own.name[k]!.length + o.own.norm[k]!.length);
    for (const l of this.ownLlts.values()) bytes += 8 * l.length;
    this.pageBytes = bytes;
  }

  /** Bytes the view holds of its own: code pages' part, and search's once made. */
  get bytes(): number {
    return this.pageBytes + (this.searching?.bytes ?? 0);
  }

  /** Search on the release through the overlay (overlaySearch.ts), made on first use. */
  search(): OverlaySearch {
    return (this.searching ??= new OverlaySearch({
      releaseId: this.releaseId,
      base: this.base,
      own: this.own,
      masked: this.masked,
      maskedCount: this.maskedCount,
      replacedPaths: this.replacedPaths,
      pathRows: this.pathRows,
      find: (l, c) => this.find(l, c),
      concept: (h) => this.concept(h),
      rankOf: (h) => this.rankOf(h),
    }));
  }

  /** The view of overlay `o` over `base` (the index the overlay was made over); undefined when the base's ranks are not a row_number. */
  static of(base: ReleaseIndex, o: IndexOverlay): OverlayView | undefined {
    if (base.releaseId !== o.baseReleaseId) throw new Error(`overlay of release ${o.releaseId} is over release ${o.baseReleaseId}, not ${base.releaseId}`);
    if (!base.hasHierarchy || !ranksDense(base)) return undefined;
    return new OverlayView(base, o);
  }

  /** The base index the view reads through. */
  get baseIndex(): ReleaseIndex {
    return this.base;
  }

  private isMasked(j: number): boolean {
    return ((this.masked[j >> 3]! >> (j & 7)) & 1) === 1;
  }

  find(level: Level, code: number): number {
    const lv = LEVELS.indexOf(level);
    const k = this.ownByCode[lv]!.get(code);
    if (k !== undefined) return this.baseSize + k;
    const j = this.base.find(level, code);
    return j >= 0 && !this.isMasked(j) ? j : -1;
  }

  /** The handle a base entry's list end stands for in the release: itself, or the own entry of its (level, code). */
  private endOf(j: number): number {
    if (!this.isMasked(j)) return j;
    const k = this.ownByCode[this.b.columns.level[j]!]!.get(this.b.columns.code[j]!);
    return k === undefined ? -1 : this.baseSize + k;
  }

  private int(col: 'level' | 'code' | 'ptCode' | 'current' | 'primarySoc' | 'intlOrder' | 'pathHlt' | 'pathHlgt' | 'pathSoc', h: number): number {
    return h < this.baseSize ? this.b.columns[col][h]! : this.own[col][h - this.baseSize]!;
  }

  concept(h: number): Concept {
    const opt = (v: number) => (v === NONE ? null : v);
    const B = this.baseSize;
    const isBase = h < B;
    return {
      releaseId: this.releaseId,
      level: LEVELS[this.int('level', h)]!,
      code: this.int('code', h),
      name: isBase ? this.b.columns.name[h]! : this.own.name[h - B]!,
      current: this.int('current', h) === 1,
      ptCode: opt(this.int('ptCode', h)),
      primarySocCode: opt(this.int('primarySoc', h)),
      socAbbrev: (isBase ? this.b.socAbbrev.get(h) : this.own.socAbbrev[h - B]) ?? null,
      intlOrder: opt(this.int('intlOrder', h)),
      version: undefined,
    } as Concept;
  }

  byCodeAll(code: number): number[] {
    const out: number[] = [];
    for (const level of LEVELS) {
      const h = this.find(level, code);
      if (h >= 0) out.push(h);
    }
    return out;
  }

  primaryPath(level: Level, code: number): { level: Level; code: number }[] | null {
    const self = this.find(level, code);
    if (self < 0) return null;
    if (level === 'SOC') return [{ level, code }];
    const at = level === 'LLT' ? this.find('PT', this.int('ptCode', self)) : self;
    if (at < 0 || this.int('pathSoc', at) === NONE) return null;
    const nodes: { level: Level; code: number }[] = [{ level: 'SOC', code: this.int('pathSoc', at) }, { level: 'HLGT', code: this.int('pathHlgt', at) }];
    if (level === 'HLGT') return nodes;
    nodes.push({ level: 'HLT', code: this.int('pathHlt', at) });
    if (level === 'HLT') return nodes;
    nodes.push({ level: 'PT', code: this.int('code', at) });
    if (level === 'LLT') nodes.push({ level: 'LLT', code });
    return nodes;
  }

  /** Handle h's list in the release: the patch's, else its base counterpart's with ends mapped, else none. */
  private list(h: number, patch: HandleLists, base: Csr): { to: number; primary: boolean }[] {
    const out: { to: number; primary: boolean }[] = [];
    const p = patch.at.get(h);
    if (p !== undefined) {
      for (let q = patch.start[p]!; q < patch.start[p + 1]!; q++) out.push({ to: patch.to[q]!, primary: patch.primary[q] === 1 });
      return out;
    }
    const j = h < this.baseSize ? h : this.base.find(LEVELS[this.int('level', h)]!, this.int('code', h));
    if (j < 0) return out;
    for (let q = base.start[j]!; q < base.start[j + 1]!; q++) {
      const to = this.endOf(base.to[q]!);
      if (to >= 0) out.push({ to, primary: base.primary[q] === 1 });
    }
    return out;
  }

  private items(h: number, patch: HandleLists, base: Csr, down: boolean): HierarchyItem[] {
    const lh = this.int('level', h);
    return this.list(h, patch, base).map(({ to, primary }) => {
      const lt = this.int('level', to);
      return { relationshipType: EDGE_NAMES[down ? lh : lt]![down ? lt : lh]!, isPrimary: primary, concept: this.concept(to) };
    });
  }

  children(level: Level, code: number): HierarchyItem[] {
    const h = this.find(level, code);
    return h < 0 ? [] : this.items(h, this.down, this.b.down, true);
  }

  parents(level: Level, code: number): HierarchyItem[] {
    const h = this.find(level, code);
    if (h < 0) return [];
    const out = this.items(h, this.up, this.b.up, false);
    if (level === 'PT' && this.int('primarySoc', h) !== NONE) {
      const s = this.find('SOC', this.int('primarySoc', h));
      if (s >= 0) out.unshift({ relationshipType: 'SOC_TO_PT', isPrimary: true, concept: this.concept(s) });
    }
    return out;
  }

  private ptPathsOf(pt: number): { soc: number; hlgt: number; hlt: number; isPrimary: boolean }[] {
    const g = this.replacedPaths.get(pt);
    if (!g) return (this.b.ptPaths as PtPaths).of(pt);
    const r = this.pathRows;
    const out = [];
    for (let k = g[0]; k < g[1]; k++) out.push({ soc: r.soc[k]!, hlgt: r.hlgt[k]!, hlt: r.hlt[k]!, isPrimary: r.primary[k] === 1 });
    return out;
  }

  /** As ReleaseIndex.allPaths (the same derivation over the view's lists and PT paths). */
  allPaths(level: Level, code: number): PathNodes[] {
    return allPathsOf(
      {
        find: (l, c) => this.find(l, c),
        ptCodeOf: (h) => this.int('ptCode', h),
        ptPaths: (pt) => this.ptPathsOf(pt),
        ups: (h) => this.list(h, this.up, this.b.up).map((e) => ({ i: e.to, p: e.primary })),
        codeAt: (h) => this.int('code', h),
      },
      level,
      code,
      NONE,
    );
  }

  /**
   * The release's name rank of handle h. Own entries carry theirs; a taken base entry's is the
   * t-th rank no own entry holds, t its place among the taken entries by base rank (overlay.ts's
   * fillRanks, for one entry). The overlay's rank exceptions (a PT and its own LLT tied on name
   * and code, ordered either way) only swap two adjacent ranks of one such pair, never an LLT's
   * place among other LLTs, so synonym order does not need them.
   */
  rankOf(h: number): number {
    if (h >= this.baseSize) return this.own.nameRank[h - this.baseSize]!;
    const r = this.b.columns.nameRank[h]!;
    const t = r - lowerBound(this.maskedRanks, r);
    // Smallest c with ownRanks[c] > t + c (ownRanks[c] − c never decreases): the answer is t + c.
    const o = this.ownRanks;
    let lo = 0;
    let hi = o.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (o[mid]! <= t + mid) lo = mid + 1;
      else hi = mid;
    }
    return t + lo;
  }

  // What the change engine's diff reads (domain/changes/indexDiff.ts): an entry the view does not
  // list here is its base's entry as it is (columns, name, parents), so a diff between releases
  // over one base only compares these.

  /** (level index, code) of every entry where the release may differ from its base: own entries, masked base entries, entries whose parents are patched. */
  differingEntries(): { level: number; code: number }[] {
    const out: { level: number; code: number }[] = [];
    const c = this.b.columns;
    for (let k = 0; k < this.own.code.length; k++) out.push({ level: this.own.level[k]!, code: this.own.code[k]! });
    for (const j of maskedEntries(this.masked, this.baseSize)) out.push({ level: c.level[j]!, code: c.code[j]! });
    for (const h of this.up.at.keys()) out.push({ level: this.int('level', h), code: this.int('code', h) });
    return out;
  }

  /** A column of handle h, as the index's typed arrays hold it (NONE for no value). */
  column(col: 'level' | 'code' | 'ptCode' | 'current' | 'primarySoc' | 'intlOrder', h: number): number {
    return this.int(col, h);
  }

  nameOf(h: number): string {
    return h < this.baseSize ? this.b.columns.name[h]! : this.own.name[h - this.baseSize]!;
  }

  abbrevOf(h: number): string | null {
    return (h < this.baseSize ? this.b.socAbbrev.get(h) : this.own.socAbbrev[h - this.baseSize]) ?? null;
  }

  /** The codes of handle h's parents in the release (the child → parent lists; a PT's primary SOC is a column). */
  parentCodes(h: number): number[] {
    return this.list(h, this.up, this.b.up).map((e) => this.int('code', e.to));
  }

  /** As ReleaseIndex.synonyms: the PT's LLTs, its own LLT first, then current before non-current, by name. */
  synonyms(ptCode: number): number[] {
    const l = this.b.llts;
    const k = l.at.get(ptCode);
    const list: number[] = [];
    if (k !== undefined) for (let q = l.start[k]!; q < l.start[k + 1]!; q++) if (!this.isMasked(l.entries[q]!)) list.push(l.entries[q]!);
    const own = this.ownLlts.get(ptCode);
    if (own) {
      // Taken entries keep their base order; with own entries among them, by (current, rank in the release).
      list.push(...own);
      const rank = new Map(list.map((h) => [h, this.rankOf(h)]));
      list.sort((x, y) => this.int('current', y) - this.int('current', x) || rank.get(x)! - rank.get(y)!);
    }
    const self = list.findIndex((h) => this.int('code', h) === ptCode);
    return self <= 0 ? list : [list[self]!, ...list.slice(0, self), ...list.slice(self + 1)];
  }
}
