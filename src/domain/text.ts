// Text normalisation shared by import (stored name_norm) and search (query side):
// both sides must agree, so it lives in one place.

/** Lower-case, accents stripped, whitespace collapsed: "  Ménière's  Disease" → "meniere's disease". */
export function normalizeName(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
