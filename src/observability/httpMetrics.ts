// HTTP metrics around the server's Node request listener, so warm answers (sent before the
// app runs) are measured like every other request; and /metrics itself, answered before
// anything else (no rate limit, no cache, not counted). Per request: two clock reads, the
// series found by index (route label id × method × status class: no key built, no map), and,
// unless the listener answered synchronously (a warm answer), one 'close' listener (a shared
// function) and one small object; the route template of a path is remembered (routes.ts).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HistogramSeries } from './fastHistogram.ts';
import type { Metrics } from './metrics.ts';
import type { RouteClassifier, RouteLabel } from './routes.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT', '_OTHER'];
const METHOD_INDEX = new Map(METHODS.map((m, i) => [m, i]));
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx', 'aborted'];

interface Timed {
  started: number;
  socket: Socket;
  written: number;
  recorder: HttpRecorder;
}
const TIMED = Symbol('timed');
type TimedResponse = ServerResponse & { [TIMED]?: Timed };

/** The series one (method, route, status class) observes into, found without building a key. */
interface Slot {
  duration: HistogramSeries;
  requestSize: HistogramSeries;
  responseSize: HistogramSeries;
}

const PER_ROUTE = METHODS.length * STATUS_CLASSES.length;

/** A request method's index in METHODS: GET (nearly every request) without a map lookup. */
const methodIndex = (method: string | undefined) => (method === 'GET' ? 0 : (METHOD_INDEX.get(method ?? '') ?? METHODS.length - 1));

class HttpRecorder {
  /**
   * Every (route label, method, status class)'s series, at label.id × PER_ROUTE + method ×
   * STATUS_CLASSES.length + class: allocated whole up front, so its elements stay a fast array
   * (a far index written into an empty array would turn it into a dictionary).
   */
  private readonly slots: (Slot | undefined)[];

  constructor(
    readonly metrics: Metrics,
    private readonly routes: RouteClassifier,
  ) {
    this.slots = new Array<Slot | undefined>(routes.labelCount * PER_ROUTE).fill(undefined);
  }

  private slot(label: RouteLabel, m: number, c: number): Slot {
    const i = label.id * PER_ROUTE + m * STATUS_CLASSES.length + c;
    let slot = this.slots[i];
    if (!slot) {
      const { route, surface } = label;
      this.slots[i] = slot = {
        duration: this.metrics.httpDuration.series({ method: METHODS[m]!, route, status_class: STATUS_CLASSES[c]!, surface }),
        requestSize: this.metrics.httpRequestSize.series({ surface }),
        responseSize: this.metrics.httpResponseSize.series({ surface }),
      };
    }
    return slot;
  }

  done(req: IncomingMessage, res: ServerResponse, t: Timed): void {
    // A response cut before it finished (client gone, shutdown) has no status to speak of.
    const finished = res.writableFinished;
    this.record(req, res, t.started, (finished ? knownBytes(res) : undefined) ?? t.socket.bytesWritten - t.written, finished);
  }

  record(req: IncomingMessage, res: ServerResponse, started: number, responseBytes: number, finished: boolean): void {
    this.metrics.httpInFlight--;
    const seconds = (performance.now() - started) / 1000;
    const label = this.routes.classify(req.url ?? '/');
    const m = methodIndex(req.method);
    const c = finished ? Math.min(5, Math.max(0, Math.floor(res.statusCode / 100))) : 6;
    const slot = this.slot(label, m, c);
    slot.duration.observe(seconds);
    const length = req.headers['content-length'];
    slot.requestSize.observe(length === undefined ? 0 : Number(length) || 0);
    slot.responseSize.observe(responseBytes);
  }
}

/** What Node's ServerResponse keeps of a response it has sent (OutgoingMessage's own fields, present since Node 0.x). */
type SentResponse = ServerResponse & { _header?: string | null; _contentLength?: number | null; _hasBody?: boolean };

/**
 * The bytes of a sent response when the response itself tells them: its status line and headers
 * (written in latin1: a byte a character) and its body's Content-Length (none for a body-less
 * answer); undefined for a chunked body. Read from the response rather than the socket: Node's
 * `socket.bytesWritten` getter is shared code, called for every socket of the process (database,
 * Redis, clients), and its property loads are megamorphic — ≈ 1 k instructions per request for
 * the two reads a delta needs (bench/results.md › Cost of the metrics, session 15); and a delta of
 * the socket's count takes in the responses pipelined behind this one that were written before
 * it closed.
 */
function knownBytes(res: SentResponse): number | undefined {
  if (typeof res._header !== 'string') return undefined;
  const body = res._hasBody === false ? 0 : res._contentLength;
  return typeof body === 'number' ? res._header.length + body : undefined;
}

/**
 * The socket's count before a response that was not handed over at once, read after the listener
 * returned (`socket.bytesWritten` counts what is sent and what is buffered), for a response whose
 * size knownBytes cannot tell (a chunked body): none of it written yet, or waiting behind an
 * earlier response of the connection (not on the socket yet), or its head written already.
 */
function countBefore(res: SentResponse, socket: Socket): number {
  const written = socket.bytesWritten;
  return res.headersSent && res.socket === socket && typeof res._header === 'string' ? written - res._header.length : written;
}

/**
 * Whether the listener has already handed the whole response to the socket (a warm answer is
 * replayed synchronously): ended, and nothing left in the response's own buffer or the socket's.
 */
export function handedOver(res: ServerResponse): boolean {
  return res.writableEnded && res.writableLength === 0;
}

function onClose(this: TimedResponse): void {
  const t = this[TIMED]!;
  t.recorder.done(this.req, this, t);
}

/** Bearer token check in constant time (both sides hashed to the same length first). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const a = createHash('sha256').update(header.slice(7).trim(), 'utf8').digest();
  const b = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function unauthorized(res: ServerResponse): void {
  const body = JSON.stringify({
    type: '/problems/unauthorized',
    title: 'Unauthorized',
    status: 401,
    detail: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.',
    code: 'UNAUTHORIZED',
    requestId: randomUUID(),
  });
  res.writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** GET /metrics: the registry's text, or 401 without the token (when one is set). */
export function serveMetrics(metrics: Metrics, token: string | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) return unauthorized(res);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 });
    res.end();
    return;
  }
  metrics.text().then(
    (text) => {
      res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
      res.end(req.method === 'HEAD' ? undefined : text);
    },
    () => {
      res.writeHead(500, { 'content-length': 0 });
      res.end();
    },
  );
}

const isMetricsTarget = (url: string | undefined) => url === '/metrics' || url?.startsWith('/metrics?') === true;

/**
 * The listener with HTTP metrics; with `token`, GET /metrics on this port too (Bearer token),
 * otherwise /metrics is the app's (404).
 */
export function instrumentListener(listener: RequestListener, metrics: Metrics, routes: RouteClassifier, token: string | undefined): RequestListener {
  const recorder = new HttpRecorder(metrics, routes);
  return (req, res) => {
    if (token !== undefined && isMetricsTarget(req.url)) return serveMetrics(metrics, token, req, res);
    metrics.httpInFlight++;
    const socket = req.socket;
    const started = performance.now();
    listener(req, res);
    // Answered already (a warm answer from memory): recorded now, without a listener per request.
    if (handedOver(res)) return recorder.record(req, res, started, knownBytes(res) ?? (res as SentResponse)._header?.length ?? 0, true);
    (res as TimedResponse)[TIMED] = { started, socket, written: countBefore(res, socket), recorder };
    // 'close' is emitted once, after 'finish' or when the response is cut: on(), not once()'s wrapper.
    res.on('close', onClose);
  };
}

/** The separate metrics listener (METRICS_PORT): /metrics only. */
export function metricsServer(metrics: Metrics, token: string | undefined): Server {
  return createServer((req, res) => {
    if (isMetricsTarget(req.url)) return serveMetrics(metrics, token, req, res);
    res.writeHead(404, { 'content-type': 'text/plain', 'content-length': 10 });
    res.end('not found\n');
  });
}
