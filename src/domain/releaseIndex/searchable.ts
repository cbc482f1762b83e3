// What search (search.ts, underNode.ts) reads of a release's names: a ReleaseIndex, or an overlay's
// search view (overlaySearch.ts: the newest release's index plus the release's delta, issue 32).
// Entries are named by handles below `size`; a view's handles are not in the release's (level, code)
// order, so search orders ties by (level, code), never by handle. Lists of handles it is given hold
// only the release's entries, but for posting runs: a view hands the base's lists as they are, masked
// entries in place (no copy per query trigram), and whoever consumes them skips those (`dropped`).
// Plus the trigram work both kinds share.
import type { Concept } from '../concepts.ts';
import type { Level } from '../levels.ts';
import type { PtPathColumns } from './hierarchyIndex.ts';

/**
 * A trigram's entries, ascending across both runs (every handle in `tail` is above every one in
 * `head`): a release index's list and nothing; a view's, the base's list in place and its own
 * entries'. `head` may hold handles that are not the release's (`dropped`).
 */
export interface Postings {
  head: Int32Array;
  tail: Int32Array;
}

/** An empty run. */
export const NO_ENTRIES = new Int32Array(0);

export interface SearchableIndex {
  readonly releaseId: number;
  readonly hasHierarchy: boolean;
  /** The language of the names when it is not the release's primary one. */
  readonly language: string | undefined;
  /** Handles are below it (a view's: base entries, then its own). */
  readonly size: number;
  /** Per-query scratch of the typo pass, `size` long at least (zero between uses). */
  readonly scratch: TypoScratch;
  levelAt(h: number): number;
  levelOf(h: number): Level;
  codeAt(h: number): number;
  ptCodeAt(h: number): number;
  currentAt(h: number): number;
  nameAt(h: number): string;
  normAt(h: number): string;
  trigramCountAt(h: number): number;
  find(level: Level, code: number): number;
  concept(h: number): Concept;
  queryTrigrams(text: string): { size: number; ids: number[] };
  mask(ids: Iterable<number>): Uint8Array;
  /** The entries holding trigram id, ascending; skip those `dropped` names. */
  postings(id: number): Postings;
  /** Whether a handle found in posting runs is not one of the release's entries (a view's masked base entry). */
  dropped(h: number): boolean;
  score(h: number, q: Uint8Array, qSize: number): { sim: number; full: number };
  /**
   * The release's entries whose normalised name contains `q`, ascending; `seen` is told each one's
   * name and the first position of `q` in it, in the same order (search ranks them on it without
   * reading each name again: thousands of names for a 5-letter prefix at full size).
   */
  containing(q: string, seen?: (name: string, at: number) => void): number[];
  /** The release's entries in listing order (level, intl_order NULLS LAST, name rank). */
  listingOrder(): Int32Array;
  /** The release's PT path rows: each segment's rows but those whose PT `skip` names. */
  pathSegments(): { rows: PtPathColumns; skip?: (pt: number) => boolean }[];
  /** CJK partial matches (ReleaseIndex only: a view is not asked for CJK names). */
  prepareBigrams(): Promise<void>;
  bigrams(): { entries(gram: string): Int32Array } | undefined;
}

/** A test of whether a name contains `q`, telling `seen` the name and where `q` first is in it (SearchableIndex.containing). */
export function substringTest(q: string, seen?: (name: string, at: number) => void): (name: string) => boolean {
  return (name) => {
    const at = name.indexOf(q);
    if (at < 0) return false;
    seen?.(name, at);
    return true;
  };
}

/** The typo pass's counts per entry (search.ts): in the query's rarest posting lists, and in the others. */
export interface TypoScratch {
  counts: Uint16Array;
  more: Uint16Array;
}

export const typoScratch = (size: number): TypoScratch => ({ counts: new Uint16Array(size), more: new Uint16Array(size) });

/** Scratch for matching, shared by views (matching is synchronous): grown, never shrunk. */
let shared = typoScratch(0);

export function sharedScratch(size: number): TypoScratch {
  if (shared.counts.length < size) shared = typoScratch(size);
  return shared;
}

/** search.ts's grouping of matches by target, shared like the typo scratch: zero between uses. */
let slots = new Int32Array(0);

export function targetSlots(size: number): Int32Array {
  if (slots.length < size) slots = new Int32Array(size);
  return slots;
}

/** A stamp per trigram id marks "seen in this pass" without clearing. */
export interface Stamps {
  stamp: Int32Array;
  stampValue: number;
}

/**
 * pg_trgm similarity and word_similarity of a query (trigram mask `q` of `qSize` distinct
 * trigrams, some possibly unknown to the index) against one name: its trigram ids seq[from .. to)
 * in order, `count` of them distinct.
 */
export function scoreTrigrams(seq: Uint16Array | Int32Array, from: number, to: number, count: number, q: Uint8Array, qSize: number, st: Stamps): { sim: number; full: number } {
  const stamp = st.stamp;
  let mark = ++st.stampValue;
  let shared = 0;
  for (let k = from; k < to; k++) {
    const id = seq[k]!;
    if (stamp[id] !== mark) {
      stamp[id] = mark;
      if (q[id]) shared++;
    }
  }
  if (qSize === 0 || shared === 0) return { sim: 0, full: 0 };
  const full = shared / (qSize + count - shared);
  // word_similarity ≤ shared / |q|: skip the extent search when it cannot win.
  if (shared / qSize <= full) return { sim: full, full };
  // Best contiguous extent: it starts and ends on a shared trigram; stop extending once
  // even every remaining shared trigram could not beat the best so far.
  let best = 0;
  for (let a = from; a < to; a++) {
    if (!q[seq[a]!]) continue;
    mark = ++st.stampValue;
    let got = 0;
    let other = 0;
    for (let b = a; b < to; b++) {
      const id = seq[b]!;
      if (stamp[id] === mark) continue;
      stamp[id] = mark;
      if (q[id]) {
        got++;
        const s = got / (qSize + other);
        if (s > best) best = s;
      } else {
        other++;
        if (shared / (qSize + other) <= best) break;
      }
    }
    if (best === 1 || shared / qSize <= best) break;
  }
  return { sim: Math.max(full, best), full };
}

/**
 * Entries of every list (the query's inner trigrams) that pass `test`, ascending: the rarest list
 * narrowed by the next rarest ones (at most three; the test, a substring test, stands for the
 * rest), then tested. Entries `dropped` in the rarest list are the test's to refuse (the others'
 * are never returned). Lists of like sizes (a 5-letter prefix's inner trigrams, "lat", "ate",
 * "ter": each in a tenth of a full-size release's names) are merged through bit sets: one
 * sequential pass over each list. A rare list against common ones seeks its entries in them
 * instead (galloping), never reading most of them.
 */
export function intersectLists(lists: Postings[], test: (i: number) => boolean): number[] {
  const sorted = [...lists].sort((a, b) => runsLength(a) - runsLength(b));
  const [first, ...rest] = sorted;
  const others = rest.slice(0, 3);
  const spread = others.reduce((n, l) => n + runsLength(l), 0);
  return spread > SEEK_BELOW * runsLength(first!) ? intersectBySeeking(first!, others, test) : intersectByBits(first!, others, test);
}

/** Seeking wins when the other lists are this many times the rarest one's length, together. */
const SEEK_BELOW = 24;

const runsLength = (l: Postings) => l.head.length + l.tail.length;

function intersectByBits(first: Postings, others: Postings[], test: (i: number) => boolean): number[] {
  // One bit per entry (a full-size release: 36 KB, in the core's cache, where a count per entry
  // was not): the entries held so far, then those of them the next list holds too.
  const words = (Math.max(lastOf(first), 0) >>> 5) + 1;
  let [held, next] = bitSetPair(words);
  for (const run of [first.head, first.tail]) for (let r = 0; r < run.length; r++) held[run[r]! >>> 5]! |= 1 << (run[r]! & 31);
  for (let k = 0; k < others.length; k++) {
    next.fill(0, 0, words);
    for (const run of [others[k]!.head, others[k]!.tail]) {
      for (let r = 0; r < run.length; r++) {
        const i = run[r]!;
        const w = i >>> 5;
        if (w < words && held[w]! & (1 << (i & 31))) next[w]! |= 1 << (i & 31);
      }
    }
    [held, next] = [next, held];
  }
  const inEvery: number[] = [];
  for (const run of [first.head, first.tail]) {
    for (let r = 0; r < run.length; r++) {
      const i = run[r]!;
      if (held[i >>> 5]! & (1 << (i & 31))) inEvery.push(i);
    }
  }
  held.fill(0, 0, words);
  next.fill(0, 0, words);
  // Tested after the bits are cleared: a test that throws leaves them zero.
  const out: number[] = [];
  for (const i of inEvery) if (test(i)) out.push(i);
  return out;
}

const lastOf = (l: Postings) => (l.tail.length ? l.tail[l.tail.length - 1]! : l.head.length ? l.head[l.head.length - 1]! : -1);

/** intersectByBits' two bit sets, shared (intersecting is synchronous), zero between uses: grown, never shrunk. */
let bitSets: [Int32Array, Int32Array] = [new Int32Array(0), new Int32Array(0)];
function bitSetPair(words: number): [Int32Array, Int32Array] {
  if (bitSets[0].length < words) bitSets = [new Int32Array(words), new Int32Array(words)];
  return bitSets;
}

function intersectBySeeking(first: Postings, others: Postings[], test: (i: number) => boolean): number[] {
  const out: number[] = [];
  // Each other list's cursor: in its head until that ends, then in its tail (every tail entry is above every head one).
  const inTail = others.map(() => false);
  const pos = others.map(() => 0);
  const walk = (run: Int32Array) => {
    outer: for (let r = 0; r < run.length; r++) {
      const i = run[r]!;
      for (let k = 0; k < others.length; k++) {
        const { head, tail } = others[k]!;
        let p = pos[k]!;
        if (!inTail[k]) {
          p = seek(head, p, i);
          if (p < head.length) {
            pos[k] = p;
            if (head[p] !== i) continue outer;
            continue;
          }
          inTail[k] = true;
          p = 0;
        }
        p = seek(tail, p, i);
        pos[k] = p;
        if (p === tail.length) return; // nothing further in this list: no later entry can be in every one
        if (tail[p] !== i) continue outer;
      }
      if (test(i)) out.push(i);
    }
  };
  walk(first.head);
  walk(first.tail);
  return out;
}

/** The first position at or after `from` whose entry is ≥ x (run.length if none): galloping, then halving. */
export function seek(run: Int32Array, from: number, x: number): number {
  const n = run.length;
  if (from >= n || run[from]! >= x) return from;
  // run[lo] < x throughout; grow the step until run[hi] ≥ x or the end.
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < n && run[hi]! < x) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  // run[lo] < x, and run[hi] ≥ x or hi = n.
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (run[mid]! < x) lo = mid;
    else hi = mid;
  }
  return hi;
}
