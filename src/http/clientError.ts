// Requests refused before the app sees them: by Node's HTTP parser (a malformed request line or
// header, headers over the limit, a request that never finished arriving) or by the Fetch
// adapter (a request target no URL can be made of). Their default answers have no body; these
// are the documented problem JSON.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { RequestError } from '@hono/node-server';
import type { Logger } from '../logger.ts';
import type { ErrorCode } from '../domain/errors.ts';
import { problem } from '../rest/problem.ts';
import { requestIdFrom } from './requestId.ts';

const DETAIL: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'Malformed HTTP request: the request line or a header could not be parsed.',
  HEADERS_TOO_LARGE: 'Request headers exceed the size the server accepts.',
  REQUEST_TIMEOUT: 'The request did not arrive completely in time.',
  PAYLOAD_TOO_LARGE: 'Chunk extensions of the request body are too large.',
};

/** How long a refused connection may stay half-open after the answer. */
const CLOSE_GRACE_MS = 2_000;

/** The same choice as Node's own answer (lib/_http_server.js), with a body. */
function codeOf(err: NodeJS.ErrnoException): ErrorCode {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'HEADERS_TOO_LARGE';
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 'PAYLOAD_TOO_LARGE';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'REQUEST_TIMEOUT';
    default:
      return 'VALIDATION_ERROR';
  }
}

export function clientErrorResponse(code: ErrorCode, requestId: string, head = false): string {
  const p = problem(code, DETAIL[code]!, requestId, code === 'VALIDATION_ERROR' ? { request: [DETAIL[code]!] } : undefined);
  const body = JSON.stringify(p);
  return [
    `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    // An answer to HEAD has no body: the client would read it as the next response.
    head ? '' : body,
  ].join('\r\n');
}

/**
 * The Fetch adapter's error handler: a request it cannot turn into a Request (malformed target)
 * is the client's mistake; anything else escaped the app, which answers its own errors.
 */
export function onAdapterError(log: Logger) {
  return (err: unknown): Response => {
    const requestId = requestIdFrom(undefined);
    const p =
      err instanceof RequestError
        ? problem('VALIDATION_ERROR', 'Malformed request target: no URL can be made of it.', requestId, { request: ['malformed request target'] })
        : problem('INTERNAL_ERROR', 'An unexpected error occurred. Quote the requestId when contacting support.', requestId);
    if (p.code === 'INTERNAL_ERROR') log.error({ requestId, err: { message: (err as Error)?.message } }, 'request failed outside the app');
    else if (log.isLevelEnabled('debug')) log.debug({ requestId }, 'malformed request target refused');
    return new Response(JSON.stringify(p), { status: p.status, headers: { 'content-type': 'application/problem+json; charset=utf-8', 'x-request-id': requestId } });
  };
}

/** Listener for the node:http server's 'clientError' event: the answer is written straight to the socket (there is no response object), then it is closed. */
export function onClientError(log: Logger) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    // A peer that reset or already closed cannot be answered. Nor can one with a response in
    // flight on this socket (keep-alive): bytes written now would corrupt that response.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const code = codeOf(err);
    const requestId = requestIdFrom(undefined);
    // Only the parser's error code: err.rawPacket holds the client's bytes and is never logged.
    if (log.isLevelEnabled('debug')) log.debug({ requestId, code, reason: err.code }, 'malformed request refused by the HTTP parser');
    // The request's first bytes, when the parser still has them, say whether it was a HEAD.
    const head = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(clientErrorResponse(code, requestId, head));
    // A peer that keeps its side open is not waited for long (the parser already gave up on it).
    const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
