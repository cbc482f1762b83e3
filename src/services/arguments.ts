// Argument parsing shared by every surface: codes are digits, page sizes bounded.
import { DomainError, validationError } from '../domain/errors.ts';
import { MAX_PAGE } from './limits.ts';
import { CODE_SYNTAX, CODE_SYNTAX_MESSAGE, codeNumber } from '../domain/formats.ts';

/** A code argument as the number to look up: malformed is a VALIDATION_ERROR; digits no release can hold are CODE_NOT_FOUND. */
export function parseCode(value: string, field = 'code'): number {
  if (!CODE_SYNTAX.test(value)) throw validationError({ [field]: [CODE_SYNTAX_MESSAGE] });
  const n = codeNumber(value);
  if (n === null) throw new DomainError('CODE_NOT_FOUND', `Code ${value}${field === 'code' ? '' : ` (${field} filter)`} does not exist in any release: codes have 1 to 9 digits and no leading zero.`);
  return n;
}

export function optionalCode(value: string | null | undefined, field: string): number | undefined {
  return value === null || value === undefined ? undefined : parseCode(value, field);
}


export function checkFirst(first: number | null | undefined, field = 'first'): void {
  if (first !== null && first !== undefined && (first < 0 || first > MAX_PAGE)) {
    throw validationError({ [field]: [`must be between 0 and ${MAX_PAGE}`] });
  }
}

/** A field of a client row sent as plain JSON: text as it is, a finite number written out, absent = null, anything else undefined (a bad row). */
export const rowText = (v: unknown): string | null | undefined =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
