// Text clean-up for MedAscii output: single-line, trimmed, and representable in
// Latin-1 without the C1 range (0x80-0x9F), which readers decode as Windows-1252.

const TRANSLITERATIONS: Record<string, string> = {
  '\u2265': '>=', // ≥
  '\u2264': '<=', // ≤
  '\u2260': '!=', // ≠
  '\u2248': '~', // ≈
  '\u2212': '-', // minus sign
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'", // prime
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"', // double prime
  '\u2026': '...',
  '\u2022': '*',
  '\u2192': '->',
  '\u2190': '<-',
  '\u2191': 'increased',
  '\u2193': 'decreased',
  '\u2122': '(TM)',
  '\u20ac': 'EUR',
  '\u2030': ' per mille',
  '\u00a0': ' ', // no-break space: collapse like any space
  '\u200b': '', // zero-width space
  '\u200c': '',
  '\u200d': '',
  '\ufeff': '',
};

/** True when every character is printable Latin-1 (no C0/C1 controls). */
export function isLatin1Printable(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c > 0xff) return false;
  }
  return true;
}

function transliterateChar(ch: string): string {
  const mapped = TRANSLITERATIONS[ch];
  if (mapped !== undefined) return mapped;
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return ' ';
  if (code <= 0xff) return ch;
  // Try a compatibility decomposition without combining marks (e.g. "ǅ" -> "Dž" -> "Dz").
  const decomposed = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  if (decomposed !== ch && [...decomposed].every((d) => d.codePointAt(0)! <= 0xff)) return decomposed;
  return '?';
}

/**
 * Trims, collapses internal whitespace and newlines to single spaces, and
 * transliterates anything Latin-1 cannot hold. Throws on '$' (the field separator).
 */
export function cleanText(raw: string): string {
  let out = '';
  for (const ch of raw.normalize('NFC')) out += transliterateChar(ch);
  out = out.replace(/\s+/g, ' ').trim();
  if (out.includes('$')) throw new Error(`Text contains the MedAscii separator '$': ${JSON.stringify(out)}`);
  return out;
}

/** Case- and accent-insensitive key for uniqueness checks. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Locale-independent string order (for deterministic output). */
export function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
