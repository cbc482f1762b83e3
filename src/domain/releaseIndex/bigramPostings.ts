// Character-bigram posting lists of a release index's folded names (issue 28): for each pair
// of consecutive code points, the entries whose name holds it, ascending. CJK search's partial
// tier (search.ts, cjkPartial) looks up the query's bigrams here instead of testing every name
// with `includes` for each of them: the scan was most of why a Japanese search took 2.35× an
// English one. A name holds a bigram as a substring exactly when the pair is among its
// consecutive code points (UTF-16 cannot match across a surrogate pair), so the lists give
// the same entries as the scan did.
//
// Built on the first query that needs them (most releases never get a CJK query), in slices
// with a yield between them like the trigram pass, and only within a byte bound: a name set
// that would need more keeps scanning. Full-size synthetic Japanese release: 3.6 MB, built in
// ≈ 0.35 s (a loaded machine) by the first Japanese search that reaches the partial tier.
import { nextTurn } from '../../runtime/nextTurn.ts';

/** Bytes the lists of one index may take; past it the index keeps scanning. */
export const MAX_BIGRAM_POSTING_BYTES = 64 * 1024 * 1024;
/** Estimated heap of one map entry (key, value, hash slot). */
const MAP_ENTRY_BYTES = 40;
const SLICE = 4096;

/** One number per ordered pair of code points (below 2^53: 0x110000² ≈ 1.2·10^12). */
const pairKey = (a: number, b: number): number => a * 0x110000 + b;

export class BigramPostings {
  private constructor(
    private readonly ids: Map<number, number>,
    /** Entries holding bigram id: post[start[id] .. start[id + 1]), ascending. */
    private readonly start: Int32Array,
    private readonly post: Int32Array,
  ) {}

  /** The lists of `norms`, or null when they would exceed `maxBytes` (the caller keeps scanning). */
  static async build(norms: readonly string[], maxBytes = MAX_BIGRAM_POSTING_BYTES): Promise<BigramPostings | null> {
    const n = norms.length;
    let bound = 0;
    for (let i = 0; i < n; i++) bound += norms[i]!.length;
    // The pass's scratch holds every pair (4 bytes each): past the bound already, refuse before allocating it.
    if (bound * 4 > maxBytes) return null;
    const seq = new Int32Array(bound);
    const seqStart = new Int32Array(n + 1);
    const ids = new Map<number, number>();
    let holders = new Int32Array(1024);
    let lastHolder = new Int32Array(1024).fill(-1);
    let used = 0;
    let entries = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % SLICE === 0) {
        await nextTurn();
        if (entries * 4 + ids.size * (MAP_ENTRY_BYTES + 4) > maxBytes) return null;
      }
      const s = norms[i]!;
      let prev = -1;
      for (let k = 0; k < s.length; ) {
        const cp = s.codePointAt(k)!;
        k += cp > 0xffff ? 2 : 1;
        if (prev >= 0) {
          const key = pairKey(prev, cp);
          let id = ids.get(key);
          if (id === undefined) {
            id = ids.size;
            ids.set(key, id);
            if (id >= holders.length) {
              holders = grow(holders, 0);
              lastHolder = grow(lastHolder, -1);
            }
          }
          seq[used++] = id;
          if (lastHolder[id] !== i) {
            lastHolder[id] = i;
            holders[id]!++;
            entries++;
          }
        }
        prev = cp;
      }
      seqStart[i + 1] = used;
    }
    const count = ids.size;
    if (entries * 4 + (count + 1) * 4 + count * MAP_ENTRY_BYTES > maxBytes) return null;
    // Pass 2: compressed rows by id, filled in entry order, so each list is ascending.
    const start = new Int32Array(count + 1);
    for (let id = 0; id < count; id++) start[id + 1] = start[id]! + holders[id]!;
    const post = new Int32Array(entries);
    const fill = start.slice(0, count);
    lastHolder.fill(-1);
    for (let i = 0; i < n; i++) {
      for (let k = seqStart[i]!; k < seqStart[i + 1]!; k++) {
        const id = seq[k]!;
        if (lastHolder[id] === i) continue;
        lastHolder[id] = i;
        post[fill[id]!++] = i;
      }
    }
    return new BigramPostings(ids, start, post);
  }

  /** Entries whose folded name contains `gram` (exactly two code points), ascending; empty for any other length. */
  entries(gram: string): Int32Array {
    const a = gram.codePointAt(0);
    if (a === undefined) return EMPTY;
    const at = a > 0xffff ? 2 : 1;
    const b = gram.codePointAt(at);
    if (b === undefined || at + (b > 0xffff ? 2 : 1) !== gram.length) return EMPTY;
    const id = this.ids.get(pairKey(a, b));
    return id === undefined ? EMPTY : this.post.subarray(this.start[id]!, this.start[id + 1]!);
  }

  /** Heap the lists hold (the index adds it to its own estimate). */
  bytes(): number {
    return this.post.byteLength + this.start.byteLength + this.ids.size * MAP_ENTRY_BYTES;
  }
}

const EMPTY = new Int32Array(0);

function grow(a: Int32Array, fill: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2).fill(fill);
  b.set(a);
  return b;
}
