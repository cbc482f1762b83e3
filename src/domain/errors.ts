// Protocol-agnostic failures. The GraphQL layer puts `code` in error extensions;
// the REST layer turns them into the documented problem JSON.
import { clip } from './clientText.ts';
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'CODE_NOT_FOUND'
  | 'VERSION_NOT_FOUND'
  | 'LANGUAGE_NOT_FOUND'
  | 'LANGUAGE_NOT_SUPPORTED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'REQUEST_TIMEOUT'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'HEADERS_TOO_LARGE'
  | 'UNAUTHORIZED'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  | 'SERVICE_UNAVAILABLE'
  | 'TIMEOUT'
  | 'INTERNAL_ERROR';

export const ERROR_STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  CODE_NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  LANGUAGE_NOT_FOUND: 404,
  LANGUAGE_NOT_SUPPORTED: 422,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  // A narrative not coded within the time budget: the server's capacity, not a malformed request.
  TIMEOUT: 503,
};

export const ERROR_TITLE: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Validation error',
  UNAUTHORIZED: 'Unauthorized',
  CODE_NOT_FOUND: 'Code not found',
  VERSION_NOT_FOUND: 'Version not found',
  LANGUAGE_NOT_FOUND: 'Language not found',
  LANGUAGE_NOT_SUPPORTED: 'Language not supported',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  NOT_ACCEPTABLE: 'Not acceptable',
  REQUEST_TIMEOUT: 'Request timeout',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  HEADERS_TOO_LARGE: 'Request headers too large',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  RATE_LIMITED: 'Too many requests',
  INTERNAL_ERROR: 'Internal error',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  TIMEOUT: 'Time budget exceeded',
};

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Field name → messages (validation errors). */
    readonly errors?: Record<string, string[]>,
    /** Extra body members (e.g. retryAfter for RATE_LIMITED). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The one-line detail of a VALIDATION_ERROR: `field: message; message | field: message`. */
export const validationDetail = (errors: Record<string, string[]>): string =>
  Object.entries(errors).map(([k, v]) => `${k}: ${v.join('; ')}`).join(' | ');

export const validationError = (errors: Record<string, string[]>, message?: string) =>
  new DomainError('VALIDATION_ERROR', message ?? validationDetail(errors), errors);

export const codeNotFound = (code: string, version: string) =>
  new DomainError('CODE_NOT_FOUND', `Code ${clip(code)} does not exist in release ${clip(version)}.`);

export const versionNotFound = (version: string) =>
  new DomainError('VERSION_NOT_FOUND', `Release ${clip(version)} is not hosted here. GET /versions lists the hosted releases.`);

/** The code of an HTTP refusal that did not come from a DomainError (Yoga's transport checks, Node's parser). */
export function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return 'INTERNAL_ERROR';
  const exact = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === status);
  // 404 is ambiguous (CODE_NOT_FOUND, VERSION_NOT_FOUND, LANGUAGE_NOT_FOUND, NOT_FOUND): a transport 404 is no route.
  return exact.length === 1 ? exact[0]! : status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
}

/** The DomainError behind an error, through the wrappers GraphQL puts around it (`originalError`). */
export function domainErrorOf(error: unknown): DomainError | undefined {
  let e: unknown = error;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof DomainError) return e;
    e = (e as { originalError?: unknown }).originalError;
  }
  return undefined;
}
