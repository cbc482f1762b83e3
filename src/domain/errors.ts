// Protocol-agnostic failures. The GraphQL layer puts `code` in error extensions;
// the REST layer turns them into the documented problem JSON.
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'CODE_NOT_FOUND'
  | 'VERSION_NOT_FOUND'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
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
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
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
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
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

export const validationError = (errors: Record<string, string[]>, message?: string) =>
  new DomainError(
    'VALIDATION_ERROR',
    message ?? Object.entries(errors).map(([k, v]) => `${k}: ${v.join('; ')}`).join(' | '),
    errors,
  );

export const codeNotFound = (code: string, version: string) =>
  new DomainError('CODE_NOT_FOUND', `Code ${code} does not exist in release ${version}.`);

export const versionNotFound = (version: string) =>
  new DomainError('VERSION_NOT_FOUND', `Release ${version} is not hosted here. GET /versions lists the hosted releases.`);

/** The DomainError behind an error, through the wrappers GraphQL puts around it (`originalError`). */
export function domainErrorOf(error: unknown): DomainError | undefined {
  let e: unknown = error;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof DomainError) return e;
    e = (e as { originalError?: unknown }).originalError;
  }
  return undefined;
}
