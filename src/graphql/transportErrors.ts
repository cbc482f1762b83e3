// Answers Yoga gives before any GraphQL runs (415 unsupported media type, 406 not acceptable)
// have no body; they get the GraphQL error shape with the documented code, as every other
// /graphql error does. Forms and multipart bodies are refused before Yoga reads them: a page on
// any site can make a browser POST one without a CORS preflight (issue 27), and no client of
// this API needs them.
import type { Plugin } from 'graphql-yoga';
import { codeForStatus, ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';
import { traceIdField } from '../observability/traceHooks.ts';

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported Content-Type: send application/json (or application/graphql, or a GET with ?query= for catalog reads).',
  NOT_ACCEPTABLE: 'The Accept header admits no response type this endpoint produces (application/json, application/graphql-response+json, text/event-stream, multipart/mixed).',
  METHOD_NOT_ALLOWED: 'GraphQL only supports GET and POST requests.',
};

/** `{errors: [{message, extensions: {code, status, requestId, traceId?, errors?}}]}` as a Response. */
export function graphqlErrorResponse(code: ErrorCode, message: string, requestId: string, opts: { errors?: Record<string, string[]>; headers?: HeadersInit } = {}): Response {
  const errors = opts.errors ?? (code === 'VALIDATION_ERROR' ? { query: [message] } : undefined);
  const body = { errors: [{ message, extensions: { code, status: ERROR_STATUS[code], ...(errors ? { errors } : {}), requestId, ...traceIdField() } }] };
  const headers = new Headers(opts.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status: ERROR_STATUS[code], headers });
}

/** Content types a browser sends cross-site without a preflight (besides text/plain, which Yoga refuses). */
const FORM = /^\s*(?:application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

export function transportErrorsPlugin(): Plugin {
  return {
    onRequest({ request, endResponse, serverContext }) {
      if (request.method !== 'POST' || !FORM.test(request.headers.get('content-type') ?? '')) return;
      const requestId = (serverContext as { requestId?: string } | undefined)?.requestId ?? '';
      endResponse(graphqlErrorResponse('UNSUPPORTED_MEDIA_TYPE', MESSAGES.UNSUPPORTED_MEDIA_TYPE!, requestId));
    },
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
