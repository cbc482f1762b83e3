// Trigram similarity with pg_trgm's definitions, so the in-memory search index scores
// names the way `similarity()` / `word_similarity()` would: each word (a run of letters
// or digits) is padded with two spaces in front and one behind, and its 3-character
// windows are the trigrams. Input is already normalised (lower case, no accents).

const WORD = /[\p{L}\p{N}]+/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;

export const isWordChar = (ch: string | undefined): boolean => ch !== undefined && WORD_CHAR.test(ch);

/** The name's trigrams in order of appearance, duplicates kept (word similarity needs extents). */
export function trigramSequence(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(WORD)) {
    const w = `  ${m[0]} `;
    for (let i = 0; i + 3 <= w.length; i++) out.push(w.slice(i, i + 3));
  }
  return out;
}

export const trigramSet = (s: string): Set<string> => new Set(trigramSequence(s));

/** Trigrams of 3 consecutive word characters of `s`: any name containing `s` has them all. */
export function innerTrigrams(s: string): string[] {
  const out = new Set<string>();
  for (const m of s.matchAll(WORD)) for (let i = 0; i + 3 <= m[0].length; i++) out.add(m[0].slice(i, i + 3));
  return [...out];
}

/** pg_trgm `similarity`: shared trigrams over all distinct trigrams of both. */
export function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * pg_trgm `word_similarity(q, name)`: the best similarity between the query's trigrams and
 * any contiguous extent of the name's trigram sequence. An optimal extent starts and ends
 * on a shared trigram, so only those starts are tried.
 */
export function wordSimilarity(q: ReadonlySet<string>, seq: readonly string[]): number {
  if (q.size === 0 || seq.length === 0) return 0;
  let best = 0;
  const seen = new Set<string>();
  for (let i = 0; i < seq.length; i++) {
    if (!q.has(seq[i]!)) continue;
    seen.clear();
    let shared = 0;
    let other = 0;
    for (let j = i; j < seq.length; j++) {
      const t = seq[j]!;
      if (seen.has(t)) continue;
      seen.add(t);
      if (q.has(t)) {
        shared++;
        const s = shared / (q.size + other);
        if (s > best) best = s;
      } else other++;
    }
    if (best === 1) break;
  }
  return best;
}

const SPACE = 32;
const isWordCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c > 127 && WORD_CHAR.test(String.fromCharCode(c)));

// ASCII trigrams pack into a small integer (fast Map keys); others above that range.
const pack = (a: number, b: number, c: number): number =>
  (a | b | c) < 128 ? (a << 14) | (b << 7) | c : 2_097_152 + (a * 65536 + b) * 65536 + c;

/** trigramSequence() as numbers (three UTF-16 units packed), for building indexes fast. */
export function trigramCodeSequence(s: string): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && !isWordCode(s.charCodeAt(i))) i++;
    if (i >= s.length) break;
    // Padded word "  w… ": a sliding window of three codes.
    let a = SPACE;
    let b = SPACE;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (!isWordCode(c)) break;
      out.push(pack(a, b, c));
      a = b;
      b = c;
    }
    out.push(pack(a, b, SPACE));
  }
  return out;
}

/** The packed code of a 3-character trigram string. */
export const trigramCode = (t: string): number => pack(t.charCodeAt(0), t.charCodeAt(1), t.charCodeAt(2));
