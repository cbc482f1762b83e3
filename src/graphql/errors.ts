// One error vocabulary for GraphQL and REST: every GraphQL error carries the
// documented `code` (and `status`, `errors` for validation) in its extensions;
// anything unexpected is masked as INTERNAL_ERROR without internals.
import { GraphQLError } from 'graphql';
import { domainErrorOf, ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';
import { DB_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.ts';

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
        ...(requestId ? { requestId } : {}),
      },
    });
  }
  if (isDatabaseUnavailable(error)) {
    return new GraphQLError('The database is unavailable; retry shortly.', {
      nodes: base?.nodes, source: base?.source, positions: base?.positions, path: base?.path,
      extensions: { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: DB_RETRY_AFTER_SECONDS, ...(requestId ? { requestId } : {}) },
    });
  }
  const ext = (base?.extensions ?? {}) as Record<string, unknown>;
  const raw = typeof ext.code === 'string' ? ext.code : undefined;
  // A GraphQLError that did not wrap a thrown exception is the client's mistake (syntax, unknown field, wrong type).
  const isClient = base !== undefined && (!base.originalError || base.originalError instanceof GraphQLError) && (raw === undefined || CLIENT_CODES.has(raw));
  const code: ErrorCode = raw && KNOWN.has(raw) ? (raw as ErrorCode) : isClient ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR';
  const message = code === 'INTERNAL_ERROR' ? 'Unexpected error.' : (base?.message ?? 'Unexpected error.');
  return new GraphQLError(message, {
    nodes: base?.nodes, source: base?.source, positions: base?.positions, path: base?.path,
    extensions: {
      ...(code === 'INTERNAL_ERROR' ? {} : ext),
      code,
      status: ERROR_STATUS[code],
      ...(code === 'VALIDATION_ERROR' && !ext.errors ? { errors: { query: [message] } } : {}),
      ...(requestId ? { requestId } : {}),
    },
  });
}
