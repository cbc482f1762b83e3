// The substring search's intersection of posting lists (searchable.ts intersectLists, seek): the
// lists of a release index (one run) and of an overlay view (the base's run with masked entries,
// then the view's own), against the plain intersection of the same sets.
import { describe, expect, it } from 'vitest';
import { intersectLists, seek, type Postings } from '../../src/domain/releaseIndex/searchable.ts';
import { lcg } from '../../tools/random.ts';

const ascending = (xs: Iterable<number>) => Int32Array.from([...new Set(xs)].sort((a, b) => a - b));

/** A random subset of [0, n) of about `share` of it, as one run or split at `split` into head and tail. */
function list(rand: () => number, n: number, share: number, split?: number): Postings {
  const all = ascending(Array.from({ length: n }, (_, i) => i).filter(() => rand() < share));
  if (split === undefined) return { head: all, tail: new Int32Array(0) };
  return { head: all.filter((x) => x < split), tail: all.filter((x) => x >= split) };
}

const members = (p: Postings) => new Set([...p.head, ...p.tail]);

describe('seek', () => {
  it('finds the first position at or after `from` whose entry is at least x', () => {
    const rand = lcg(7);
    for (let round = 0; round < 300; round++) {
      const run = ascending(Array.from({ length: Math.floor(rand() * 200) }, () => Math.floor(rand() * 1000)));
      const from = Math.floor(rand() * (run.length + 2));
      const x = Math.floor(rand() * 1100) - 50;
      // At or past the end: `from` itself.
      let want = from;
      while (want < run.length && run[want]! < x) want++;
      expect(seek(run, from, x)).toBe(want);
    }
  });
});

describe('intersectLists', () => {
  it('gives the entries in every list that pass the test, ascending, whatever the lists’ sizes and runs', () => {
    const rand = lcg(11);
    for (let round = 0; round < 200; round++) {
      const n = 50 + Math.floor(rand() * 5000);
      const split = rand() < 0.5 ? Math.floor(rand() * n) : undefined;
      // One rare list and up to four common ones (a 5-letter prefix's inner trigrams), sizes far apart.
      // Sizes far apart (seeking) or alike (bit sets), both ways of intersecting.
      const rare = rand() < 0.5 ? 0.002 + rand() * 0.01 : 0.1 + rand() * 0.2;
      const lists = Array.from({ length: 1 + Math.floor(rand() * 5) }, (_, k) => list(rand, n, k === 0 ? rare : 0.2 + rand() * 0.7, split));
      const dropped = new Set(Array.from({ length: Math.floor(n / 20) }, () => Math.floor(rand() * n)));
      const test = (i: number) => !dropped.has(i);
      // intersectLists narrows by the rarest list and at most three others; the test stands for the rest (the substring test).
      const bySize = [...lists].sort((a, b) => a.head.length + a.tail.length - (b.head.length + b.tail.length));
      const narrowing = bySize.slice(0, 4).map(members);
      const want = [...narrowing[0]!].filter((i) => narrowing.every((s) => s.has(i)) && test(i)).sort((a, b) => a - b);
      expect(intersectLists(lists, test)).toEqual(want);
    }
  });

  it('finds the entries of small cases, by bit sets and by seeking, each call from a clean start', () => {
    const a: Postings = { head: Int32Array.from([1, 5, 9, 200, 300]), tail: Int32Array.from([400, 500]) };
    const b: Postings = { head: Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), tail: new Int32Array(0) };
    const c: Postings = { head: Int32Array.from([1, 2, 5, 7, 9, 11, 13]), tail: Int32Array.from([15, 17]) };
    expect(intersectLists([a, b, c], () => true)).toEqual([1, 5, 9]);
    expect(intersectLists([b, c, a], (i) => i !== 5)).toEqual([1, 9]);
    // Far apart: the rare list's entries are sought in the others.
    const wide: Postings = { head: Int32Array.from({ length: 500 }, (_, i) => i), tail: new Int32Array(0) };
    const one: Postings = { head: Int32Array.from([3]), tail: Int32Array.from([499]) };
    expect(intersectLists([wide, one, wide], () => true)).toEqual([3, 499]);
  });
});
