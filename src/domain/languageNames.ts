// Folding of names per language for lookups (concept_name.name_norm, the search index of a
// language) and which search behaviour a language gets. The folds are languageText.ts's.
import { foldName as foldKeys, foldQuery, isCjkLanguage, scriptOf } from './languageText.ts';
import { tryCanonicalLanguageTag } from './languageTags.ts';

/** A name's main lookup key in its language. */
export function foldName(tag: string, name: string): string {
  return foldKeys(name, tag)[0]!;
}

/** Every lookup key of a name (a German name with an umlaut has two: Übelkeit → ubelkeit, uebelkeit). */
export const nameKeys = (tag: string, name: string): string[] => foldKeys(name, tag);

/** A query folded as names of the language are. */
export const foldSearchText = (tag: string, text: string): string => foldQuery(text, tag);

/** Whether the language's names can have a second key (German: the transliterated umlaut). */
export const hasAlternateKeys = (tag: string): boolean => (tryCanonicalLanguageTag(tag) ?? tag).toLowerCase().split('-')[0] === 'de';

export const isCjk = (tag: string): boolean => isCjkLanguage(tag);

/** Languages written in the Latin script (typo tolerance applies): judged by a sample of their names. */
export const isLatinScript = (tag: string, sample?: string): boolean => !isCjkLanguage(tag) && (sample === undefined || scriptOf(sample) === 'latin');
