// One error vocabulary for GraphQL and REST: every GraphQL error carries the
// documented `code` (and `status`, `errors` for validation) in its extensions;
// anything unexpected is masked as INTERNAL_ERROR without internals.
import { GraphQLError } from 'graphql';
import { codeForStatus, domainErrorOf, ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';
import { clipMessage } from '../domain/clientText.ts';
import { DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.ts';
import { traceIdField } from '../observability/traceHooks.ts';

const KNOWN = new Set<string>(Object.keys(ERROR_STATUS));

// graphql-js / Yoga codes for a malformed request.
const CLIENT_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'PERSISTED_QUERY_NOT_FOUND']);

export function toGraphQLError(error: unknown, requestId?: string): GraphQLError {
  const base = error instanceof GraphQLError ? error : undefined;
  const domain = domainErrorOf(error);
  if (domain) {
    return new GraphQLError(domain.message, {
      nodes: base?.nodes, source: base?.source, positions: base?.positions, path: base?.path,
      extensions: {
        code: domain.code,
        status: ERROR_STATUS[domain.code],
        ...(domain.errors ? { errors: domain.errors } : {}),
        ...(domain.extra ?? {}),
        ...(requestId ? { requestId, ...traceIdField() } : {}),
      },
    });
  }
  if (isDatabaseUnavailable(error)) {
    return new GraphQLError('The database is unavailable; retry shortly.', {
      nodes: base?.nodes, source: base?.source, positions: base?.positions, path: base?.path,
      extensions: { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: DB_RETRY_AFTER_SECONDS, ...(requestId ? { requestId, ...traceIdField() } : {}) },
    });
  }
  // Yoga's `originalError` extension repeats the parser's message, which quotes the request body.
  const { originalError: echoed, ...ext } = (base?.extensions ?? {}) as Record<string, unknown>;
  const http = ext.http as { status?: number; spec?: boolean } | undefined;
  // Yoga answers 400 to an unparsable body only while that extension is there; keep the status without it.
  if (echoed && http?.spec) ext.http = { ...http, spec: false };
  const raw = typeof ext.code === 'string' ? ext.code : undefined;
  // A GraphQLError that did not wrap a thrown exception is the client's mistake (syntax, unknown field, wrong type).
  const isClient = base !== undefined && (!base.originalError || base.originalError instanceof GraphQLError) && (raw === undefined || CLIENT_CODES.has(raw));
  // A transport refusal with its own status (405 for a mutation over GET) keeps that status's code.
  const byStatus = http?.status && http.status !== 400 ? codeForStatus(http.status) : undefined;
  const code: ErrorCode = raw && KNOWN.has(raw) ? (raw as ErrorCode) : isClient ? (byStatus ?? 'VALIDATION_ERROR') : 'INTERNAL_ERROR';
  // graphql-js and Yoga quote names, literals and variable values from the request.
  const message = code === 'INTERNAL_ERROR' ? 'Unexpected error.' : clipMessage(base?.message ?? 'Unexpected error.');
  return new GraphQLError(message, {
    nodes: base?.nodes, source: base?.source, positions: base?.positions, path: base?.path,
    extensions: {
      ...(code === 'INTERNAL_ERROR' ? {} : ext),
      code,
      status: ERROR_STATUS[code],
      ...(code === 'VALIDATION_ERROR' && !ext.errors ? { errors: { query: [message] } } : {}),
      ...(requestId ? { requestId, ...traceIdField() } : {}),
    },
  });
}
