// Answers Yoga gives before any GraphQL runs (415 unsupported media type, 406 not acceptable)
// have no body; they get the GraphQL error shape with the documented code, as every other
// /graphql error does.
import type { Plugin } from 'graphql-yoga';
import { codeForStatus, ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported Content-Type: send application/json (or application/graphql, a form, or a GET with ?query=).',
  NOT_ACCEPTABLE: 'The Accept header admits no response type this endpoint produces (application/json, application/graphql-response+json, text/event-stream, multipart/mixed).',
  METHOD_NOT_ALLOWED: 'GraphQL only supports GET and POST requests.',
};

/** `{errors: [{message, extensions: {code, status, requestId, errors?}}]}` as a Response. */
export function graphqlErrorResponse(code: ErrorCode, message: string, requestId: string, opts: { errors?: Record<string, string[]>; headers?: HeadersInit } = {}): Response {
  const errors = opts.errors ?? (code === 'VALIDATION_ERROR' ? { query: [message] } : undefined);
  const body = { errors: [{ message, extensions: { code, status: ERROR_STATUS[code], ...(errors ? { errors } : {}), requestId } }] };
  const headers = new Headers(opts.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status: ERROR_STATUS[code], headers });
}

export function transportErrorsPlugin(): Plugin {
  return {
    onResponse({ response, setResponse, serverContext }) {
      if (response.status < 400 || response.headers.has('content-type')) return;
      const code = codeForStatus(response.status);
      const message = MESSAGES[code] ?? response.statusText ?? 'Request refused.';
      const requestId = (serverContext as { requestId?: string }).requestId ?? '';
      // Keep Yoga's headers: Accept lists what it can produce, Allow the methods.
      setResponse(graphqlErrorResponse(code, message, requestId, { headers: response.headers }));
    },
  };
}
