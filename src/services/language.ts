// Language selection for the use cases (issue 28): the explicit choice (`language` argument,
// REST `lang`) > Accept-Language > the release's primary, through the request scope; and what
// a search in a language needs.
import type { ReleaseInfo } from '../domain/releases.ts';
import type { SearchLanguage } from '../domain/releaseIndex/search.ts';
import { foldSearchText, hasAlternateKeys, isCjk, isLatinScript } from '../domain/languageNames.ts';
import { ALL_LANGUAGES } from '../domain/languages.ts';
import type { RequestScope } from './scope.ts';

export { ALL_LANGUAGES };

/** The language names of `release` are given in for this request (validated; `*` only where allowed). */
export const languageFor = (scope: RequestScope, release: ReleaseInfo, explicit?: string | null, allowAll = false): string =>
  scope.chooseLanguage(release, explicit, { allowAll });

export function searchLanguage(release: ReleaseInfo, tag: string): SearchLanguage {
  return {
    tag,
    primary: tag === release.languages[0],
    fold: (s) => foldSearchText(tag, s),
    fuzzy: isLatinScript(tag),
    cjk: isCjk(tag),
    alternates: hasAlternateKeys(tag),
  };
}
