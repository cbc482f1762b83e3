// Trigrams with pg_trgm's definitions, so the in-memory search index scores names the
// way `similarity()` / `word_similarity()` would: each word (a run of letters or digits)
// is padded with two spaces in front and one behind, and its 3-character windows are the
// trigrams. Input is already normalised (lower case, no accents). Trigrams are packed
// into numbers: both the index and the query side use these functions, so they agree
// by construction.

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE = 32;

export const isWordChar = (ch: string | undefined): boolean => ch !== undefined && WORD_CHAR.test(ch);

const isWordCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c > 127 && WORD_CHAR.test(String.fromCharCode(c)));

// ASCII trigrams pack into a small integer (fast Map keys); others above that range.
const pack = (a: number, b: number, c: number): number =>
  (a | b | c) < 128 ? (a << 14) | (b << 7) | c : 2_097_152 + (a * 65536 + b) * 65536 + c;

/** Calls `each(start, end)` for every word (maximal run of word characters) of `s`. */
function words(s: string, each: (start: number, end: number) => void): void {
  let i = 0;
  while (i < s.length) {
    while (i < s.length && !isWordCode(s.charCodeAt(i))) i++;
    const start = i;
    while (i < s.length && isWordCode(s.charCodeAt(i))) i++;
    if (i > start) each(start, i);
  }
}

/** The string's padded trigrams in order of appearance, duplicates kept (word similarity needs extents). */
export function trigramCodes(s: string): number[] {
  const out: number[] = [];
  words(s, (start, end) => {
    let a = SPACE;
    let b = SPACE;
    for (let i = start; i < end; i++) {
      const c = s.charCodeAt(i);
      out.push(pack(a, b, c));
      a = b;
      b = c;
    }
    out.push(pack(a, b, SPACE));
  });
  return out;
}

/** Distinct trigrams of 3 consecutive word characters of `s`: any name containing `s` has them all. */
export function innerTrigramCodes(s: string): number[] {
  const out = new Set<number>();
  words(s, (start, end) => {
    for (let i = start; i + 3 <= end; i++) out.add(pack(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2)));
  });
  return [...out];
}
