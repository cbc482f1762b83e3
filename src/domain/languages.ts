// The languages a release hosts (release_language) and the choice of one per request:
// `?lang=` / a `language` argument > Accept-Language (q-values) > the release's primary.
// Tag mapping and negotiation live in languageTags.ts; this file applies them to releases.
import { DomainError } from './errors.ts';
import { clip } from './clientText.ts';
import { selectLanguage, tagForMssoLanguage } from './languageTags.ts';

/** The BCP 47 tag of a language named as meddra_release.asc names it ("und" when unknown). */
export const tagOfMssoName = (name: string): string => tagForMssoLanguage(name) ?? 'und';

/** `*`: every hosted language (search only). */
export const ALL_LANGUAGES = '*';

export const languageNotFound = (requested: string, version: string, hosted: readonly string[]) =>
  new DomainError(
    'LANGUAGE_NOT_FOUND',
    `Release ${clip(version)} is not hosted in language ${clip(requested)}; it is hosted in ${hosted.join(', ')}.`,
    undefined,
    { languages: [...hosted] },
  );

/**
 * The language of an answer about a release (languageTags.selectLanguage): an explicit
 * request (query / argument) must name a hosted language exactly (LANGUAGE_NOT_FOUND naming
 * the hosted ones; a malformed tag is a VALIDATION_ERROR on `field`; `*` only where
 * `allowAll`); else Accept-Language's best hosted match; else the primary language.
 */
export function chooseLanguage(
  explicit: string | null | undefined,
  acceptLanguage: string | null | undefined,
  hosted: readonly string[],
  version: string,
  allowAll = false,
  field = 'lang',
): string {
  const primary = hosted[0] ?? 'en';
  const sel = selectLanguage({ query: explicit ?? null, header: acceptLanguage ?? null }, hosted, primary);
  switch (sel.kind) {
    case 'one':
      return sel.language;
    case 'all':
      if (allowAll) return ALL_LANGUAGES;
      throw new DomainError('VALIDATION_ERROR', `${field}: * (every language) is accepted by search only; name one language such as ${primary}.`, {
        [field]: ['* (every language) is accepted by search only'],
      });
    case 'not-hosted':
      throw languageNotFound(sel.requested, version, sel.hosted);
    case 'invalid':
      throw new DomainError('VALIDATION_ERROR', `${field}: ${sel.message}`, { [field]: [sel.message] });
  }
}
