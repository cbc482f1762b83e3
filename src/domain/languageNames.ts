// Folding of names per language for lookups (concept_name.name_norm, the search index of a
// language): languageText.ts's per-script rules, with the primary (English) folding as the base.
import { normalizeName } from './text.ts';

/** A name folded for exact and prefix lookups in its language. */
export function foldName(tag: string, name: string): string {
  void tag;
  return normalizeName(name.normalize('NFKC'));
}

/** Primary subtags of languages not written in the Latin script. */
const NON_LATIN = new Set(['ja', 'zh', 'ko', 'ru', 'el', 'bg', 'uk', 'sr', 'mk', 'ar', 'fa', 'he', 'th', 'hi']);
/** Scripts without spaces between words: indexed by character runs, no typo tolerance. */
const CJK = new Set(['ja', 'zh', 'ko']);

const base = (tag: string) => tag.toLowerCase().split('-')[0]!;

/** Whether names of the language are written in the Latin script (typo tolerance applies). */
export const isLatinScript = (tag: string): boolean => !NON_LATIN.has(base(tag));
export const isCjk = (tag: string): boolean => CJK.has(base(tag));
