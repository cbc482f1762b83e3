// Search on a release through its overlay (issue 32): the newest release's whole index (the base)
// plus the release's delta — the entries it does not take from the base as they are (new names,
// renamed, moved, made non-current: the overlay's own entries) and the base entries it drops (the
// mask) — without materialising the release's index. Handles are the overlay view's: a taken base
// entry keeps its number j, own entry k is base.size + k. What this adds to the view, made once:
// the own names' trigram sequences (ids of the base's trigrams, and new ids above them for trigrams
// the base lacks) and their postings. A query's postings are the base's list in place (masked
// entries and all: search skips them where it consumes the list, nothing is copied per trigram), then
// the own entries'; ties are broken by (level, code) in search.ts, so answers equal
// the release's own index's (test/domain/index-overlay-search.test.ts). The listing order merges the
// base's (masked entries skipped) with the own entries sorted by (level, intl_order, name rank in
// the release), each own entry's place in the base's order found once.
import type { Concept } from '../concepts.ts';
import { LEVELS, type Level } from '../levels.ts';
import type { PtPathColumns } from './hierarchyIndex.ts';
import type { IndexOverlay } from './overlay.ts';
import type { ReleaseIndex } from './releaseIndex.ts';
import { intersectLists, NO_ENTRIES, scoreTrigrams, substringTest, sharedScratch, type Postings, type SearchableIndex, type Stamps, type TypoScratch } from './searchable.ts';
import { innerTrigramCodes, trigramCodes } from './trigram.ts';

const NONE = -2147483648;
const LAST = 2147483647;

/** What the overlay view (overlayView.ts) gives its search: the base, the overlay's own part, the view's lookups. */
export interface OverlaySearchSource {
  releaseId: number;
  base: ReleaseIndex;
  own: IndexOverlay['own'];
  masked: Uint8Array;
  /** Base entries masked (the release's entries are base.size − masked + own). */
  maskedCount: number;
  /** PTs whose path rows are the overlay's, and those rows. */
  replacedPaths: { has(pt: number): boolean };
  pathRows: PtPathColumns;
  find(level: Level, code: number): number;
  concept(h: number): Concept;
  /** The release's name rank of a handle. */
  rankOf(h: number): number;
}

/** Stamps for scoring own names, shared by every view (scoring is synchronous); grown to the largest id space asked. */
const stamps: Stamps = { stamp: new Int32Array(0), stampValue: 0 };

export class OverlaySearch implements SearchableIndex {
  readonly releaseId: number;
  readonly hasHierarchy = true;
  readonly language = undefined;
  readonly size: number;
  private readonly B: number;
  private readonly base: ReleaseIndex;
  private readonly cols: ReturnType<ReleaseIndex['codePageParts']>['columns'];
  private readonly own: IndexOverlay['own'];
  private readonly masked: Uint8Array;
  /** Ids of the base's trigram count and above: trigrams only own names hold. */
  private readonly baseIds: number;
  private readonly extraIds = new Map<number, number>();
  private readonly seqStart: Int32Array;
  private readonly seq: Uint16Array | Int32Array;
  private readonly ownCount: Uint16Array;
  /** Own postings by trigram id (CSR over every id): those of `id` are post[postStart[id] .. postStart[id + 1]). */
  private readonly postStart: Int32Array;
  private readonly post: Int32Array;
  /** Own entries in listing order, and each one's place in the base's listing order (made on the first listing). */
  private listingPlan: { order: Int32Array; at: Int32Array } | undefined;

  constructor(private readonly src: OverlaySearchSource) {
    const { base, own } = src;
    this.releaseId = src.releaseId;
    this.base = base;
    this.B = base.size;
    this.cols = base.codePageParts().columns;
    this.own = own;
    this.masked = src.masked;
    const n = own.code.length;
    this.size = this.B + n;
    this.baseIds = base.trigramIdCount();
    // Each own name's trigram ids in order (as ReleaseIndex.indexTrigrams cuts them). About half the
    // own entries keep the name of the base entry of their (level, code) (moved, made non-current):
    // those take its sequence as it is; the others' names are cut here.
    this.seqStart = new Int32Array(n + 1);
    let seq = new Int32Array(32 * n + 64);
    let w = 0;
    for (let k = 0; k < n; k++) {
      const j = base.find(LEVELS[own.level[k]!]!, own.code[k]!);
      const same = j >= 0 ? base.trigramSeq(j) : undefined;
      const cut = same && this.cols.norm[j] === own.norm[k] ? undefined : trigramCodes(own.norm[k]!);
      const len = cut ? cut.length : same!.length;
      if (w + len > seq.length) {
        const grown = new Int32Array(2 * (w + len));
        grown.set(seq.subarray(0, w));
        seq = grown;
      }
      if (!cut) seq.set(same!, w);
      else {
        for (let p = 0; p < len; p++) {
          const t = cut[p]!;
          let id = base.trigramIdOf(t) ?? this.extraIds.get(t);
          if (id === undefined) this.extraIds.set(t, (id = this.baseIds + this.extraIds.size));
          seq[w + p] = id;
        }
      }
      w += len;
      this.seqStart[k + 1] = w;
    }
    const ids = this.baseIds + this.extraIds.size;
    this.seq = ids <= 65536 ? Uint16Array.from(seq.subarray(0, w)) : seq.slice(0, w);
    // Distinct ids per name, and the own entries holding each id (ascending handles: filled in k order).
    const last = new Int32Array(ids).fill(-1);
    this.ownCount = new Uint16Array(n);
    this.postStart = new Int32Array(ids + 1);
    for (let k = 0; k < n; k++) {
      let distinct = 0;
      for (let p = this.seqStart[k]!; p < this.seqStart[k + 1]!; p++) {
        const id = this.seq[p]!;
        if (last[id] === k) continue;
        last[id] = k;
        distinct++;
        this.postStart[id + 1]!++;
      }
      this.ownCount[k] = Math.min(distinct, 65535);
    }
    for (let id = 0; id < ids; id++) this.postStart[id + 1]! += this.postStart[id]!;
    this.post = new Int32Array(this.postStart[ids]!);
    const fill = this.postStart.slice(0, ids);
    last.fill(-1);
    for (let k = 0; k < n; k++) {
      for (let p = this.seqStart[k]!; p < this.seqStart[k + 1]!; p++) {
        const id = this.seq[p]!;
        if (last[id] === k) continue;
        last[id] = k;
        this.post[fill[id]!++] = this.B + k;
      }
    }
  }

  /** Bytes this adds to its view (typed arrays, ~40 bytes a map entry). */
  get bytes(): number {
    return (
      this.seq.byteLength + this.seqStart.byteLength + this.ownCount.byteLength + this.postStart.byteLength + this.post.byteLength +
      40 * this.extraIds.size + (this.listingPlan ? this.listingPlan.order.byteLength + this.listingPlan.at.byteLength : 0)
    );
  }

  get scratch(): TypoScratch {
    return sharedScratch(this.size);
  }

  private isMasked(j: number): boolean {
    return ((this.masked[j >> 3]! >> (j & 7)) & 1) === 1;
  }

  levelAt(h: number): number {
    return h < this.B ? this.cols.level[h]! : this.own.level[h - this.B]!;
  }
  levelOf(h: number): Level {
    return LEVELS[this.levelAt(h)]!;
  }
  codeAt(h: number): number {
    return h < this.B ? this.cols.code[h]! : this.own.code[h - this.B]!;
  }
  ptCodeAt(h: number): number {
    return h < this.B ? this.cols.ptCode[h]! : this.own.ptCode[h - this.B]!;
  }
  currentAt(h: number): number {
    return h < this.B ? this.cols.current[h]! : this.own.current[h - this.B]!;
  }
  nameAt(h: number): string {
    return h < this.B ? this.cols.name[h]! : this.own.name[h - this.B]!;
  }
  normAt(h: number): string {
    return h < this.B ? this.cols.norm[h]! : this.own.norm[h - this.B]!;
  }
  trigramCountAt(h: number): number {
    return h < this.B ? this.cols.trigramCount[h]! : this.ownCount[h - this.B]!;
  }
  private intlOrderAt(h: number): number {
    const v = h < this.B ? this.cols.intlOrder[h]! : this.own.intlOrder[h - this.B]!;
    return v === NONE ? LAST : v;
  }

  find(level: Level, code: number): number {
    return this.src.find(level, code);
  }

  concept(h: number): Concept {
    return this.src.concept(h);
  }

  private idOf(t: number): number | undefined {
    return this.base.trigramIdOf(t) ?? this.extraIds.get(t);
  }

  queryTrigrams(text: string): { size: number; ids: number[] } {
    const codes = new Set(trigramCodes(text));
    const ids: number[] = [];
    for (const c of codes) {
      const id = this.idOf(c);
      if (id !== undefined) ids.push(id);
    }
    return { size: codes.size, ids };
  }

  mask(ids: Iterable<number>): Uint8Array {
    const m = new Uint8Array(this.baseIds + this.extraIds.size);
    for (const id of ids) m[id] = 1;
    return m;
  }

  /** The base's entries holding the trigram in place (masked ones too: `dropped`), then the own entries holding it. */
  postings(id: number): Postings {
    const head = id < this.baseIds ? this.base.postingList(id) : NO_ENTRIES;
    const from = this.postStart[id]!;
    const to = this.postStart[id + 1]!;
    return { head, tail: from === to ? NO_ENTRIES : this.post.subarray(from, to) };
  }

  dropped(h: number): boolean {
    return h < this.B && this.isMasked(h);
  }

  score(h: number, q: Uint8Array, qSize: number): { sim: number; full: number } {
    if (h < this.B) return this.base.score(h, q, qSize);
    const k = h - this.B;
    if (stamps.stamp.length < q.length) stamps.stamp = new Int32Array(q.length);
    return scoreTrigrams(this.seq, this.seqStart[k]!, this.seqStart[k + 1]!, this.ownCount[k]!, q, qSize, stamps);
  }

  containing(q: string, seen?: (name: string, at: number) => void): number[] {
    const inner = innerTrigramCodes(q);
    const holds = substringTest(q, seen);
    if (inner.length === 0) {
      // Under three consecutive letters: scan the release's names (the base's not masked, then the own).
      const out: number[] = [];
      for (let j = 0; j < this.B; j++) if (!this.isMasked(j) && holds(this.cols.norm[j]!)) out.push(j);
      for (let k = 0; k < this.own.norm.length; k++) if (holds(this.own.norm[k]!)) out.push(this.B + k);
      return out;
    }
    const ids = inner.map((t) => this.idOf(t));
    if (ids.some((id) => id === undefined)) return [];
    return intersectLists((ids as number[]).map((id) => this.postings(id)), (h) => !this.dropped(h) && holds(this.normAt(h)));
  }

  /** The release's listing order: the base's without masked entries, own entries merged in at their places. */
  listingOrder(): Int32Array {
    const plan = (this.listingPlan ??= this.planListing());
    const baseOrder = this.base.listingOrder();
    const out = new Int32Array(this.B - this.src.maskedCount + plan.order.length);
    let w = 0;
    let q = 0;
    for (let p = 0; p < baseOrder.length; p++) {
      while (q < plan.order.length && plan.at[q] === p) out[w++] = this.B + plan.order[q++]!;
      const j = baseOrder[p]!;
      if (!this.isMasked(j)) out[w++] = j;
    }
    while (q < plan.order.length) out[w++] = this.B + plan.order[q++]!;
    return out;
  }

  /**
   * Own entries by (level, intl_order, rank in the release), and for each the first place in the
   * base's listing order whose (taken) entry comes after it. Taken entries keep their base order
   * within a level (their ranks in the release are filled in base rank order), so one merge pass.
   */
  private planListing(): { order: Int32Array; at: Int32Array } {
    const n = this.own.code.length;
    const own = this.own;
    const io = (k: number) => (own.intlOrder[k] === NONE ? LAST : own.intlOrder[k]!);
    const order = Int32Array.from({ length: n }, (_, k) => k).sort((a, b) => own.level[a]! - own.level[b]! || io(a) - io(b) || own.nameRank[a]! - own.nameRank[b]!);
    const at = new Int32Array(n).fill(-1);
    const baseOrder = this.base.listingOrder();
    let q = 0;
    for (let p = 0; p < baseOrder.length && q < n; p++) {
      const j = baseOrder[p]!;
      if (this.isMasked(j)) continue;
      // Own entries before j: lower level, or the same level and lower intl_order, or both equal and a lower rank.
      while (q < n) {
        const k = order[q]!;
        const dl = own.level[k]! - this.cols.level[j]!;
        const di = dl !== 0 ? 0 : io(k) - this.intlOrderAt(j);
        const before = dl < 0 || (dl === 0 && (di < 0 || (di === 0 && own.nameRank[k]! < this.src.rankOf(j))));
        if (!before) break;
        at[q++] = p;
      }
    }
    for (; q < n; q++) at[q] = baseOrder.length;
    return { order, at };
  }

  pathSegments(): { rows: PtPathColumns; skip?: (pt: number) => boolean }[] {
    const replaced = this.src.replacedPaths;
    return [{ rows: this.base.pathRows(), skip: (pt) => replaced.has(pt) }, { rows: this.src.pathRows }];
  }

  prepareBigrams(): Promise<void> {
    return Promise.reject(new Error('CJK names are searched on a release index, not through an overlay'));
  }

  bigrams(): undefined {
    return undefined;
  }
}
