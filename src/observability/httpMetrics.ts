// HTTP metrics around the server's Node request listener, so warm answers (sent before the
// app runs) are measured like every other request; and /metrics itself, answered before
// anything else (no rate limit, no cache, not counted). Per request: two clock reads, one
// 'close' listener (a shared function, no closure) and a histogram child found by a string
// key; the route template of a path is remembered (routes.ts).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Histogram } from 'prom-client';
import type { Metrics } from './metrics.ts';
import type { RouteClassifier } from './routes.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT']);
const STATUS_CLASS = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

interface Timed {
  started: number;
  socket: Socket;
  written: number;
  metrics: HttpRecorder;
}
const TIMED = Symbol('timed');
type TimedResponse = ServerResponse & { [TIMED]?: Timed };

class HttpRecorder {
  private readonly children = new Map<string, Histogram.Internal<'method' | 'route' | 'status_class' | 'surface'>>();

  constructor(
    readonly metrics: Metrics,
    private readonly routes: RouteClassifier,
  ) {}

  done(req: IncomingMessage, res: ServerResponse, t: Timed): void {
    this.metrics.httpInFlight--;
    const seconds = (performance.now() - t.started) / 1000;
    const { route, surface } = this.routes.classify(req.url ?? '/');
    const method = METHODS.has(req.method ?? '') ? req.method! : '_OTHER';
    // A response cut before it finished (client gone, shutdown) has no status to speak of.
    const statusClass = res.writableFinished ? (STATUS_CLASS[Math.floor(res.statusCode / 100)] ?? '0xx') : 'aborted';
    const key = `${method} ${route} ${statusClass}`;
    let child = this.children.get(key);
    if (!child) this.children.set(key, (child = this.metrics.httpDuration.labels({ method, route, status_class: statusClass, surface })));
    child.observe(seconds);
    const length = req.headers['content-length'];
    this.metrics.httpRequestSize.observe({ surface }, length === undefined ? 0 : Number(length) || 0);
    this.metrics.httpResponseSize.observe({ surface }, t.socket.bytesWritten - t.written);
  }
}

function onClose(this: TimedResponse): void {
  const t = this[TIMED]!;
  t.metrics.done(this.req, this, t);
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
    (res as TimedResponse)[TIMED] = { started: performance.now(), socket, written: socket.bytesWritten, metrics: recorder };
    res.once('close', onClose);
    listener(req, res);
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
