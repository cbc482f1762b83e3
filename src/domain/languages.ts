// The languages a release hosts (release_language) and the choice of one per request:
// `?lang=` / a `language` argument > Accept-Language (q-values) > the release's primary.
// Tag mapping and negotiation live in languageTags.ts; this file applies them to releases.
import { DomainError } from './errors.ts';
import { clip } from './clientText.ts';
import { languageTagOf, negotiateLanguage } from './languageTags.ts';

/** The BCP 47 tag of a language named as meddra_release.asc names it ("und" when unknown). */
export const tagOfMssoName = (name: string): string => languageTagOf(name) ?? 'und';

/** `*`: every hosted language (search only). */
export const ALL_LANGUAGES = '*';

/** BCP 47 as clients write it: letters, digits and hyphens, at most 35 characters (RFC 5646's longest useful tag). */
const TAG_SYNTAX = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

export const languageNotFound = (requested: string, version: string, hosted: readonly string[]) =>
  new DomainError(
    'LANGUAGE_NOT_FOUND',
    `Release ${clip(version)} is not hosted in language ${clip(requested)}; it is hosted in ${hosted.join(', ')}.`,
    undefined,
    { languages: [...hosted] },
  );

/** The hosted tag a client's tag names: exact (case-insensitive), else its primary subtag's ("de-CH" → "de"), else none. */
export function hostedMatch(requested: string, hosted: readonly string[]): string | undefined {
  const want = requested.toLowerCase();
  const exact = hosted.find((t) => t.toLowerCase() === want);
  if (exact) return exact;
  const base = want.split('-')[0];
  return hosted.find((t) => t.toLowerCase() === base) ?? hosted.find((t) => t.toLowerCase().split('-')[0] === base);
}

/**
 * The language of an answer about a release: an explicit request (query / argument) must be
 * hosted (LANGUAGE_NOT_FOUND naming the hosted ones otherwise; `*` only where `allowAll`);
 * else Accept-Language's best hosted match; else the primary language.
 */
export function chooseLanguage(
  explicit: string | null | undefined,
  acceptLanguage: string | null | undefined,
  hosted: readonly string[],
  version: string,
  allowAll = false,
): string {
  if (explicit) {
    if (explicit === ALL_LANGUAGES && allowAll) return ALL_LANGUAGES;
    if (!TAG_SYNTAX.test(explicit) || explicit.length > 35) {
      throw new DomainError('VALIDATION_ERROR', `lang must be a BCP 47 language tag such as en, de or ja${allowAll ? ', or * for every hosted language' : ''}.`, {
        lang: [`lang must be a BCP 47 language tag such as en, de or ja${allowAll ? ', or *' : ''}`],
      });
    }
    const hit = hostedMatch(explicit, hosted);
    if (!hit) throw languageNotFound(explicit, version, hosted);
    return hit;
  }
  if (acceptLanguage) {
    const hit = negotiateLanguage(acceptLanguage, hosted);
    if (hit) return hit;
  }
  return hosted[0] ?? 'en';
}
