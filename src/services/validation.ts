// Is this a code of the release, and does the display a client sent name it? The answer
// is data (found, concept, whether the display matches); surfaces word the message.
import type { Concept } from '../domain/concepts.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNumber, CODE_SYNTAX } from '../domain/formats.ts';
import { normalizeName } from '../domain/text.ts';
import { conceptAt } from './codes.ts';
import type { RequestScope } from './scope.ts';

export interface CodeValidation {
  /** The concept (highest level of the code), or null when the release has no such code. */
  concept: Concept | null;
  /** True when no display was given, or it names the concept (case and accents aside). */
  displayMatches: boolean;
}

/** Malformed codes are simply not codes of the release (validation answers, it does not refuse). */
export async function validateCode(scope: RequestScope, release: ReleaseInfo, code: string, display?: string | null): Promise<CodeValidation> {
  const n = CODE_SYNTAX.test(code) ? codeNumber(code) : null;
  const concept = n === null ? null : await conceptAt(scope, release, n);
  const displayMatches = !concept || display === undefined || display === null || normalizeName(display) === normalizeName(concept.name);
  return { concept, displayMatches };
}
