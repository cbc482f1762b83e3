// Is this a code of the release, and does the display a client sent name it? The answer
// is data (found, concept, whether the display matches); surfaces word the message.
import type { Concept } from '../domain/concepts.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNumber, CODE_SYNTAX } from '../domain/formats.ts';
import { normalizeName } from '../domain/text.ts';
import { conceptAt, nameIn, namesOf, withVersion } from './codes.ts';
import type { RequestScope } from './scope.ts';

export interface CodeValidation {
  /** The concept (highest level of the code), or null when the release has no such code. */
  concept: Concept | null;
  /** True when no display was given, or it names the concept (case and accents aside). */
  displayMatches: boolean;
  /** The concept's name in the language asked for (`language`), else in the request's language. */
  display: string | null;
}

/** Malformed codes are simply not codes of the release (validation answers, it does not refuse). */
/**
 * `language` (issue 28): the display must be the name in that hosted language; without it, the
 * name in any hosted language is accepted.
 */
export async function validateCode(scope: RequestScope, release: ReleaseInfo, code: string, display?: string | null, language?: string | null): Promise<CodeValidation> {
  const n = CODE_SYNTAX.test(code) ? codeNumber(code) : null;
  const found = n === null ? null : await conceptAt(scope, release, n);
  if (!found) return { concept: null, displayMatches: true, display: null };
  const c = withVersion(found, release.version);
  const lang = scope.chooseLanguage(release, language);
  const name = await nameIn(scope, c, lang, release);
  if (display === undefined || display === null) return { concept: found, displayMatches: true, display: name };
  const same = (a: string, b: string) => normalizeName(a) === normalizeName(b);
  const candidates = language || release.languages.length === 1 ? [name] : (await namesOf(scope, c, release)).map((x) => x.name);
  return { concept: found, displayMatches: candidates.some((x) => same(display, x)), display: name };
}
