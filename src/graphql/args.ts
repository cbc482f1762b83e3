// Argument parsing shared by the types: codes are digits, page sizes bounded.
import { validationError } from '../domain/errors.ts';

const CODE_RE = /^[1-9][0-9]{0,8}$/;

export function parseCode(value: string, field = 'code'): number {
  if (!CODE_RE.test(value)) throw validationError({ [field]: ['must be a numeric terminology code of 1 to 9 digits'] });
  return Number(value);
}

export function optionalCode(value: string | null | undefined, field: string): number | undefined {
  return value === null || value === undefined ? undefined : parseCode(value, field);
}

/** Maximum `first` on every connection; REST `limit` maxima are documented alongside. */
export const MAX_PAGE = 200;

export function checkFirst(first: number | null | undefined, field = 'first'): void {
  if (first !== null && first !== undefined && (first < 0 || first > MAX_PAGE)) {
    throw validationError({ [field]: [`must be between 0 and ${MAX_PAGE}`] });
  }
}
