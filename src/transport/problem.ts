// The documented error object (RFC 9457 problem details plus code, requestId, errors; traceId
// beside the requestId while traces are on).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { GraphQLError } from 'graphql';
import { domainErrorOf, ERROR_STATUS, ERROR_TITLE, type ErrorCode } from '../domain/errors.ts';
import { DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.ts';
import { traceIdField } from '../observability/traceHooks.ts';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  /** The request's trace (W3C trace id), while traces are on. */
  traceId?: string;
  errors?: Record<string, string[]>;
  [extra: string]: unknown;
}

const SLUG: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'validation',
  CODE_NOT_FOUND: 'code-not-found',
  VERSION_NOT_FOUND: 'version-not-found',
  LANGUAGE_NOT_FOUND: 'language-not-found',
  LANGUAGE_NOT_SUPPORTED: 'language-not-supported',
  NOT_FOUND: 'not-found',
  METHOD_NOT_ALLOWED: 'method-not-allowed',
  NOT_ACCEPTABLE: 'not-acceptable',
  REQUEST_TIMEOUT: 'request-timeout',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
  HEADERS_TOO_LARGE: 'headers-too-large',
  UNAUTHORIZED: 'unauthorized',
  RATE_LIMITED: 'rate-limited',
  PAYLOAD_TOO_LARGE: 'payload-too-large',
  SERVICE_UNAVAILABLE: 'service-unavailable',
  TIMEOUT: 'timeout',
  INTERNAL_ERROR: 'internal',
};

/** Problem type URIs resolve against the service itself: GET /problems/{slug} describes each. */
export const PROBLEM_BASE = '/problems';

export const problemTypes = Object.entries(SLUG).map(([code, slug]) => ({
  code: code as ErrorCode,
  slug,
  type: `${PROBLEM_BASE}/${slug}`,
  title: ERROR_TITLE[code as ErrorCode],
  status: ERROR_STATUS[code as ErrorCode],
}));

export function problem(code: ErrorCode, detail: string, requestId: string, errors?: Record<string, string[]>, extra?: Record<string, unknown>): Problem {
  return {
    type: `${PROBLEM_BASE}/${SLUG[code]}`,
    title: ERROR_TITLE[code],
    status: ERROR_STATUS[code],
    detail,
    code,
    requestId,
    ...traceIdField(),
    ...(errors ? { errors } : code === 'VALIDATION_ERROR' ? { errors: {} } : {}),
    ...(extra ?? {}),
  };
}

export function problemFromError(err: unknown, requestId: string): Problem {
  const domain = domainErrorOf(err);
  if (domain) return problem(domain.code, domain.message, requestId, domain.errors, domain.extra);
  if (isDatabaseUnavailable(err)) {
    return problem('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly.', requestId, undefined, { retryAfter: DB_RETRY_AFTER_SECONDS });
  }
  return problem('INTERNAL_ERROR', 'An unexpected error occurred. Quote the requestId when contacting support.', requestId);
}

/** The first error of a GraphQL result, which already carries code/status/errors in its extensions. */
export function problemFromGraphQL(error: GraphQLError, requestId: string): Problem {
  const ext = error.extensions as { code?: ErrorCode; errors?: Record<string, string[]>; status?: number; requestId?: string; traceId?: string } & Record<string, unknown>;
  const code = ext.code && ext.code in ERROR_STATUS ? ext.code : 'INTERNAL_ERROR';
  // `http` is Yoga's transport hint, not part of the documented body.
  const { code: _c, status: _s, errors, requestId: _r, traceId: _t, http: _h, ...extra } = ext;
  return problem(code, error.message, requestId, errors, extra);
}

/**
 * How a surface writes the refusals made for it by the shared middleware, the key guard and the
 * app's error and no-route answers: problem JSON, unless the surface set its own renderer on the
 * request (FHIR: an OperationOutcome, src/fhir/refusals.ts).
 */
export type RefusalRenderer = (c: Context, p: Problem, headers: Record<string, string>) => Response;

/** The headers of every refusal: never kept by a cache, Retry-After when the problem has one, then the caller's. */
export function refusalHeaders(p: Problem, headers: Record<string, string>): Record<string, string> {
  const retry: Record<string, string> = typeof p.retryAfter === 'number' ? { 'Retry-After': String(p.retryAfter) } : {};
  // Errors are never kept by a cache (they describe one moment: a limit, an outage, a typo).
  return { 'cache-control': 'no-store', ...retry, ...headers };
}

export function sendProblem(c: Context, p: Problem, headers: Record<string, string> = {}): Response {
  const render = (c as Context<{ Variables: { renderRefusal?: RefusalRenderer } }>).get('renderRefusal');
  if (render) return render(c, p, headers);
  // c.body(): headers a route set before failing (X-Terminology-Version naming the release a
  // code is missing from) stay on the problem.
  return c.body(JSON.stringify(p), p.status as ContentfulStatusCode, { 'content-type': 'application/problem+json; charset=utf-8', ...refusalHeaders(p, headers) });
}
