// What codes and release identifiers look like: one definition for the REST parameters,
// the GraphQL arguments and the importer.

/** Codes as releases store them: integers, 1 to 9 digits, no leading zero. */
export const STORED_CODE = /^[1-9][0-9]{0,8}$/;

/**
 * What a request may send as a code: any digits up to a sane length. A well-formed code that
 * no release can hold (00000001, ten digits) is simply not found; only non-digits and absurd
 * lengths are malformed.
 */
export const CODE_SYNTAX = /^[0-9]{1,12}$/;
export const CODE_SYNTAX_MESSAGE = 'must be a terminology code: 1 to 12 digits';

/** The stored number for a well-formed code (see CODE_SYNTAX), or null when no release can hold it. */
export function codeNumber(value: string): number | null {
  return STORED_CODE.test(value) ? Number(value) : null;
}

/** Release identifiers (27.1, 5.0.1, 4.03): what `version` parameters and the header accept. */
export const VERSION_SYNTAX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;
export const VERSION_SYNTAX_MESSAGE = 'must be a release identifier such as 27.1';
