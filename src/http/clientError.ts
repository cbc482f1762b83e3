// Requests refused before the app sees them: by Node's HTTP parser (a malformed request line or
// header, headers over the limit, a request that never finished arriving) or by the Fetch
// adapter (a request target no URL can be made of). Their default answers have no body; these
// are the documented problem JSON.
import type { Socket } from 'node:net';
import { STATUS_CODES, type IncomingMessage, type RequestListener } from 'node:http';
import { RequestError } from '@hono/node-server';
import type { Logger } from '../logger.ts';
import type { ErrorCode } from '../domain/errors.ts';
import { problem } from '../transport/problem.ts';
import { requestIdFrom } from './requestId.ts';

const DETAIL: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'Malformed HTTP request: the request line or a header could not be parsed.',
  HEADERS_TOO_LARGE: 'Request headers exceed the size the server accepts.',
  REQUEST_TIMEOUT: 'The request did not arrive completely in time.',
  PAYLOAD_TOO_LARGE: 'Chunk extensions of the request body are too large.',
  METHOD_NOT_ALLOWED: 'CONNECT is not served: this is not a proxy.',
};
const NO_HOST = 'An HTTP/1.1 request must carry a Host header.';

/**
 * Request line and headers are refused over HEADER_LIMIT bytes (the documented 16 KB) by
 * limitHeaderSize, where the method is known, so a HEAD gets its answer without a body. Node's
 * parser only refuses beyond PARSER_HEADER_LIMIT: there the refusal is written from the parser's
 * current chunk, which for a request that arrived in several chunks no longer starts with the
 * method — a body sent to a HEAD would then be read as the next response ("Data after
 * Connection: close"); 64 KB keeps that to requests no client sends.
 */
export const HEADER_LIMIT = 16 * 1024;
export const PARSER_HEADER_LIMIT = 64 * 1024;

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

export function clientErrorResponse(code: ErrorCode, requestId: string, head = false, extraHeaders: string[] = []): string {
  const p = problem(code, DETAIL[code]!, requestId, code === 'VALIDATION_ERROR' ? { request: [DETAIL[code]!] } : undefined);
  const body = JSON.stringify(p);
  return [
    `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'X-Content-Type-Options: nosniff',
    ...extraHeaders,
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
    // A peer that reset or already closed cannot be answered.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const code = codeOf(err);
    const requestId = requestIdFrom(undefined);
    // Only the parser's error code: err.rawPacket holds the client's bytes and is never logged.
    if (log.isLevelEnabled('debug')) log.debug({ requestId, code, reason: err.code }, 'malformed request refused by the HTTP parser');
    // The request's first bytes, when the parser still has them, say whether it was a HEAD. Past
    // PARSER_HEADER_LIMIT they may be gone (a request read in several chunks): such a HEAD gets the
    // body too, on a connection closed right after it; under the limit, limitHeaderSize answers.
    const head = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    const answer = () => {
      if (!socket.writable) return void socket.destroy();
      socket.end(clientErrorResponse(code, requestId, head));
      closeSoon(socket);
    };
    // A complete request before the bad bytes on this keep-alive socket is answered first, then
    // the refusal: bytes written while its response is under way would corrupt it. A request
    // whose own body is what failed to parse cannot complete: it is refused now (its handler's
    // body read fails when the socket closes, and it logs the refusal's status: errors.ts).
    const inFlight = (socket as Socket & { _httpMessage?: NodeJS.EventEmitter & { writableFinished?: boolean; headersSent?: boolean; shouldKeepAlive?: boolean; _last?: boolean; req?: { complete?: boolean } } })._httpMessage;
    if (inFlight && !inFlight.writableFinished && (inFlight.req?.complete !== false || inFlight.headersSent)) {
      // The answer in progress must not promise another on this connection: a keep-alive client
      // (Node's agent) would send its next request and read the refusal below as that request's
      // answer — for a HEAD, a body after `Connection: close` (issue 27: a DELETE whose body had
      // no Content-Length, so the body was parsed as the next request). Not yet written: it says
      // `Connection: close`, and the refusal follows it for a client that pipelined.
      const closedHere = !inFlight.headersSent;
      if (closedHere) inFlight.shouldKeepAlive = false;
      // An answer that said `Connection: close` by itself (e.g. a 405 to a request with a body) is the
      // last one on this connection (Node marks it `_last`; `shouldKeepAlive` stays true): nothing may follow it.
      inFlight.once('finish', () => (inFlight._last && !closedHere ? socket.destroySoon() : answer()));
      inFlight.once('close', () => {
        if (!inFlight.writableFinished) socket.destroy();
      });
    } else answer();
  };
}

/** A peer that keeps its side open is not waited for long (the parser already gave up on it). */
function closeSoon(socket: Socket): void {
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Listener for 'connect': CONNECT (a proxy tunnel) is not served; Node would close silently. */
export function onConnect(log: Logger) {
  return (_req: IncomingMessage, socket: Socket): void => {
    const requestId = requestIdFrom(undefined);
    if (log.isLevelEnabled('debug')) log.debug({ requestId }, 'CONNECT refused');
    socket.end(clientErrorResponse('METHOD_NOT_ALLOWED', requestId, false, [`Allow: ${CONNECT_ALLOW}`]));
    closeSoon(socket);
  };
}
const CONNECT_ALLOW = 'GET, HEAD, POST';

/** Bytes of a request's line and headers as they came (Node keeps them as latin1 strings: one character a byte). */
function headBytes(req: IncomingMessage): number {
  let n = (req.method?.length ?? 0) + (req.url?.length ?? 0) + 12; // "M U HTTP/1.1\r\n"
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) n += raw[i]!.length + raw[i + 1]!.length + 4; // "k: v\r\n"
  return n + 2;
}

/** Request line and headers over HEADER_LIMIT: 431 with the problem JSON (none for HEAD), connection closed. */
export function limitHeaderSize(listener: RequestListener): RequestListener {
  return (req, res) => {
    if (headBytes(req) <= HEADER_LIMIT) return listener(req, res);
    const requestId = requestIdFrom(undefined);
    const body = JSON.stringify(problem('HEADERS_TOO_LARGE', DETAIL.HEADERS_TOO_LARGE!, requestId));
    res.shouldKeepAlive = false;
    res.writeHead(431, { 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, 'x-content-type-options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * Node's own refusal of an HTTP/1.1 request without Host is an empty 400; the server turns it
 * off (`requireHostHeader: false`) and this wrapper gives the documented problem JSON instead.
 */
export function requireHost(listener: RequestListener): RequestListener {
  return (req, res) => {
    if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor < 1) return listener(req, res);
    const requestId = requestIdFrom(undefined);
    const p = problem('VALIDATION_ERROR', NO_HOST, requestId, { headers: [NO_HOST] });
    const body = JSON.stringify(p);
    res.shouldKeepAlive = false;
    res.writeHead(400, { 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, 'x-content-type-options': 'nosniff' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
