// The OpenTelemetry SDK of a server process with traces on (README › Operations › Traces).
// Imported only then (src/observability/tracing.ts loads it lazily): with traces off no
// OpenTelemetry module is loaded and no hook is set.
//
// What is recorded: a server span per request (HTTP semantic conventions; the route template,
// never the path), GraphQL operation spans (src/graphql/tracingPlugin.ts, made by the server from
// this tracer), database and Redis
// client spans, LLM-provider client spans (the trace context sent with the call) and
// coding-engine task spans (through the hooks of traceHooks.ts). Client spans
// are made only under a recording span: statements and commands outside a sampled request
// (warm-up, background writes, probes) make no traces of their own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  context,
  diag,
  DiagLogLevel,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import { hrTime, W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { Config } from '../config.ts';
import { logContext, type Logger } from '../logger.ts';
import { projectRoot } from '../paths.ts';
import { RouteClassifier } from './routes.ts';
import { ScopedContextManager } from './scopedContextManager.ts';
import { handedOver } from './httpMetrics.ts';
import { traceHooks, type TaskSpan } from './traceHooks.ts';
import { answeredSpans, type RecordAnswered } from './answeredSpan.ts';
import { HANDOFF_BATCH, WorkerSpanExporter } from './workerExporter.ts';

export type TracingConfig = NonNullable<Config['tracing']>;

/** Answers a request at once if it can (a warm answer from memory, nothing asked of another process): true when answered. */
export type AnswerNow = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface Tracing {
  /**
   * The server's listener inside a server span per request (W3C trace context continued);
   * `answerNow` serves what needs no context (its span has no children) before one is entered.
   */
  wrap(listener: RequestListener, routes: readonly { path: string }[], answerNow?: AnswerNow): RequestListener;
  /** The tracer, for the GraphQL operation spans (src/graphql/tracingPlugin.ts). */
  tracer: Tracer;
  /** Sends the spans still queued, then stops. */
  close(): Promise<void>;
}

/** `db.system`: the older attribute name, which many backends still key database spans on (incubating in the conventions). */
const ATTR_DB_SYSTEM = 'db.system';
const TRACER_NAME = 'terminology-explorer';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT']);
/** A plain Host header (name or IPv4, optional port); anything else is not recorded. */
const HOST = /^([A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?$/;
/** SQL statements are recorded by their first keyword only: never their text or values. */
const SQL_OPERATION = /^\s*([A-Za-z]{2,12})\b/;
const SQL_OPERATIONS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'WITH', 'BEGIN', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'SET', 'COPY', 'CREATE', 'ALTER', 'DROP', 'LOCK', 'TRUNCATE', 'SHOW', 'VALUES', 'DO', 'CALL', 'ANALYZE', 'VACUUM', 'REFRESH', 'DEALLOCATE']);
/**
 * The first table named after FROM, INTO or UPDATE (`"public"."Concept"`, `smq s`): an identifier
 * of ours, not a value; not read in WITH statements (their FROM names the statement's own parts).
 */
const SQL_TABLE = /\b(?:FROM|INTO|UPDATE)\s+(?:"?[A-Za-z_][A-Za-z0-9_]{0,62}"?\.)?(?:"([A-Za-z_][A-Za-z0-9_]{0,62})"|([A-Za-z_][A-Za-z0-9_]{0,62})\b(?!\s*\())/i;
/** Redis command names are letters (EVALSHA, GET); anything else is not recorded. */
const REDIS_COMMAND = /^[A-Za-z]{1,20}$/;
/** Export failures are logged at most this often (a collector that is down fails every batch). */
const EXPORT_WARN_INTERVAL_MS = 60_000;

const headerGetter: TextMapGetter<IncomingHttpHeaders> = {
  keys: (h) => Object.keys(h),
  get: (h, key) => h[key],
};

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * How often a request that arrives without a trace context starts a sampled trace. The listener
 * decides that first, with one random draw (tracedListener): a root left out costs no span, no
 * ids and no context. The roots it keeps are then always sampled by the SDK's sampler (`samplerOf`),
 * so the ratio is applied once; requests with a caller's context go to the configured sampler as is.
 */
export function rootSampleRate(c: Pick<TracingConfig, 'sampler' | 'samplerRatio'>): number {
  switch (c.sampler) {
    case 'always_off':
    case 'parentbased_always_off':
      return 0;
    case 'traceidratio':
    case 'parentbased_traceidratio':
      return Math.min(1, Math.max(0, c.samplerRatio));
    default:
      return 1;
  }
}

/** Samples every root (the listener chose them already) and delegates spans with a parent. */
class RootsKept implements Sampler {
  constructor(private readonly withParent: Sampler) {}
  shouldSample(...args: Parameters<Sampler['shouldSample']>): ReturnType<Sampler['shouldSample']> {
    const parent = trace.getSpanContext(args[0]);
    return parent && trace.isSpanContextValid(parent) ? this.withParent.shouldSample(...args) : { decision: SamplingDecision.RECORD_AND_SAMPLED };
  }
  toString(): string {
    return `RootsKept{${this.withParent.toString()}}`;
  }
}

/** The SDK's sampler: the configured one for spans with a parent; roots were decided by rootSampleRate. */
export function samplerOf(c: Pick<TracingConfig, 'sampler' | 'samplerRatio'>): Sampler {
  switch (c.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      // A caller's trace is sampled by its id (the same decision in every service), whatever its flag.
      return new RootsKept(new TraceIdRatioBasedSampler(c.samplerRatio));
    case 'parentbased_always_off':
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The span under which a client span is made now, or undefined (none, or not recorded). */
function recordingParent(): Context | undefined {
  const ctx = context.active();
  return trace.getSpan(ctx)?.isRecording() ? ctx : undefined;
}

function failed(span: Span, e: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute(ATTR_ERROR_TYPE, e instanceof Error && /^[A-Za-z]{1,60}$/.test(e.name) ? e.name : 'Error');
}

/** Ends the span when `run` settles; its result or error passes through. */
function around<T>(span: Span, ctx: Context, run: () => Promise<T>): Promise<T> {
  let p: Promise<T>;
  try {
    p = context.with(trace.setSpan(ctx, span), run);
  } catch (e) {
    failed(span, e);
    span.end();
    throw e;
  }
  return p.then(
    (r) => {
      span.end();
      return r;
    },
    (e: unknown) => {
      failed(span, e);
      span.end();
      throw e;
    },
  );
}

function setHooks(tracer: Tracer): void {
  traceHooks.db = (sql, run) => {
    const parent = recordingParent();
    if (!parent) return run();
    const keyword = SQL_OPERATION.exec(sql)?.[1]?.toUpperCase();
    const operation = keyword && SQL_OPERATIONS.has(keyword) ? keyword : undefined;
    const found = operation && operation !== 'WITH' ? SQL_TABLE.exec(sql.length > 4_000 ? sql.slice(0, 4_000) : sql) : undefined;
    const table = found ? (found[1] ?? found[2]) : undefined;
    const attributes: Attributes = { [ATTR_DB_SYSTEM_NAME]: 'postgresql', [ATTR_DB_SYSTEM]: 'postgresql' };
    if (operation) attributes[ATTR_DB_OPERATION_NAME] = operation;
    if (table) attributes[ATTR_DB_COLLECTION_NAME] = table;
    const name = operation ? (table ? `${operation} ${table}` : operation) : 'postgresql';
    return around(tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent), parent, run);
  };
  traceHooks.redis = (command, run) => {
    const parent = recordingParent();
    if (!parent) return run();
    const operation = REDIS_COMMAND.test(command) ? command.toUpperCase() : 'COMMAND';
    const attributes: Attributes = { [ATTR_DB_SYSTEM_NAME]: 'redis', [ATTR_DB_SYSTEM]: 'redis', [ATTR_DB_OPERATION_NAME]: operation };
    return around(tracer.startSpan(operation, { kind: SpanKind.CLIENT, attributes }, parent), parent, run);
  };
  traceHooks.engineTask = (op): TaskSpan | undefined => {
    const parent = recordingParent();
    if (!parent) return undefined;
    const name = /^[a-z]{1,20}$/i.test(op) ? op : 'task';
    // The task from the request's side (queue wait and run), and the worker thread's run as its child.
    const task = tracer.startSpan(`engine ${name}`, { kind: SpanKind.INTERNAL, attributes: { 'engine.task': name } }, parent);
    let run: Span | undefined;
    return {
      started() {
        run ??= tracer.startSpan(`engine ${name} worker`, { kind: SpanKind.INTERNAL, attributes: { 'engine.task': name } }, trace.setSpan(parent, task));
      },
      end(outcome) {
        for (const s of [run, task]) {
          if (!s) continue;
          s.setAttribute('engine.outcome', outcome);
          if (outcome !== 'ok') {
            s.setStatus({ code: SpanStatusCode.ERROR });
            s.setAttribute(ATTR_ERROR_TYPE, outcome);
          }
          s.end();
        }
      },
    };
  };
  traceHooks.outgoing = (name, attributes, run) => {
    const parent = recordingParent();
    // Unsampled: the caller's context still goes with the call (its sampled flag off).
    if (!parent) {
      const headers: Record<string, string> = {};
      propagation.inject(context.active(), headers);
      return run(headers);
    }
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
    const headers: Record<string, string> = {};
    propagation.inject(trace.setSpan(parent, span), headers);
    return around(span, parent, () => run(headers));
  };
  traceHooks.traceId = () => {
    const sc = trace.getSpan(context.active())?.spanContext();
    return sc && trace.isSpanContextValid(sc) ? sc.traceId : undefined;
  };
  logContext.fields = () => {
    const sc = trace.getSpan(context.active())?.spanContext();
    return sc && trace.isSpanContextValid(sc) ? { traceId: sc.traceId, spanId: sc.spanId } : undefined;
  };
}

function clearHooks(): void {
  delete traceHooks.db;
  delete traceHooks.redis;
  delete traceHooks.engineTask;
  delete traceHooks.outgoing;
  delete traceHooks.traceId;
  delete logContext.fields;
}

/** The server span's name and attributes (HTTP conventions). */
function describeRequest(span: Span, req: IncomingMessage, routes: RouteClassifier, method: string, original: string): void {
  const { name, attributes } = requestAttributes(requestFacts(req, method, original, 0), routes);
  span.setAttributes(attributes);
  if (name !== method) span.updateName(name);
}

/** What a server span's request attributes are made of, read from the request while it is current. */
interface RequestFacts {
  method: string;
  original: string;
  url: string;
  httpVersion: string;
  address: string;
  port: number;
  /** The response's status, for a span made after the answer (0 before). */
  status: number;
}

function requestFacts(req: IncomingMessage, method: string, original: string, status: number): RequestFacts {
  const host = HOST.exec(req.headers.host ?? '');
  return {
    method,
    original,
    url: req.url ?? '/',
    httpVersion: req.httpVersion,
    address: host?.[1] ?? req.socket.localAddress ?? 'localhost',
    port: Number(host?.[2] ?? req.socket.localPort),
    status,
  };
}

/** A server span's name ("METHOD /route/template", or the method alone when no route matches) and its request attributes. */
function requestAttributes(f: RequestFacts, routes: RouteClassifier): { name: string; attributes: Attributes } {
  const label = routes.classify(f.url);
  const route = label.route === 'unmatched' ? undefined : label.route;
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: f.method,
    [ATTR_URL_SCHEME]: 'http',
    [ATTR_NETWORK_PROTOCOL_VERSION]: f.httpVersion,
  };
  if (f.method === '_OTHER' && /^[A-Za-z]{1,20}$/.test(f.original)) attributes[ATTR_HTTP_REQUEST_METHOD_ORIGINAL] = f.original;
  if (route) attributes[ATTR_HTTP_ROUTE] = route;
  attributes[ATTR_SERVER_ADDRESS] = f.address;
  if (f.port > 0 && f.port < 65_536) attributes[ATTR_SERVER_PORT] = f.port;
  return { name: route ? `${f.method} ${route}` : f.method, attributes };
}

/** The response's attributes on a server span's attributes; true when it is an error (5xx) of the server's. */
function responseAttributes(attributes: Attributes, res: ServerResponse): boolean {
  return statusAttributes(attributes, res.statusCode);
}

function statusAttributes(attributes: Attributes, status: number): boolean {
  attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] = status;
  // Server spans: 5xx are the server's errors; 4xx are the client's.
  if (status < 500) return false;
  attributes[ATTR_ERROR_TYPE] = String(status);
  return true;
}

/** The server span's end: its status when the response was sent, `aborted` when it was cut. */
function endServerSpan(span: Span, res: ServerResponse, finished: boolean): void {
  if (finished) {
    const attributes: Attributes = {};
    if (responseAttributes(attributes, res)) span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttributes(attributes);
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
  }
  span.end();
}

function endWhenClosed(span: Span, res: ServerResponse): void {
  res.once('close', () => endServerSpan(span, res, res.writableFinished));
}

/**
 * The server's listener inside a server span: the incoming W3C trace context (traceparent,
 * tracestate) is its parent, and everything the request does runs with it active until the
 * response closes. A request that arrives without a trace context and that the sampler does not
 * sample runs with no context at all: nothing would ever be recorded or exported under its
 * trace id. Its log lines and error answers carry the request id alone; calls it makes to other
 * services start their own traces. A request `answerNow` answers (a warm answer replayed from
 * memory, synchronously) gets its span but enters no context either: nothing runs under it.
 * Entering a context is what costs (AsyncLocalStorage, async hooks on Node 20 and 22), so only
 * sampled requests that do real work pay it, and only while they run (ScopedContextManager).
 * With `answered`, such a warm answer of a sampled root (no caller's context) has its span built
 * whole after it was sent (answeredSpan.ts), not through the SDK's tracer.
 */
export function tracedListener(
  listener: RequestListener,
  tracer: Tracer,
  routes: RouteClassifier,
  rootRate = 1,
  answerNow?: AnswerNow,
  manager?: ScopedContextManager,
  answered?: RecordAnswered,
): RequestListener {
  const enter = manager
    ? (ctx: Context, req: IncomingMessage, res: ServerResponse) => manager.withUntilClosed(ctx, res, listener, req, res)
    : (ctx: Context, req: IncomingMessage, res: ServerResponse) => context.with(ctx, listener, undefined, req, res);
  // Made when the exporter reads the span (answeredSpan.ts), for a batch at a time.
  const describeAnswered = (a: RequestFacts) => {
    const { name, attributes } = requestAttributes(a, routes);
    return { name, attributes, error: statusAttributes(attributes, a.status) };
  };
  return (req, res) => {
    // Scrapes of /metrics on the main port (METRICS_TOKEN) are not requests of the service.
    if (req.url === '/metrics' || req.url?.startsWith('/metrics?')) return listener(req, res);
    // No traceparent (nearly every request): no caller, and the context lookups are skipped.
    const withCaller = req.headers.traceparent !== undefined;
    const parent = withCaller ? propagation.extract(ROOT_CONTEXT, req.headers, headerGetter) : ROOT_CONTEXT;
    const caller = withCaller ? trace.getSpanContext(parent) : undefined;
    // A malformed traceparent is no context: it cannot make a request skip the root ratio.
    const incoming = caller !== undefined && trace.isSpanContextValid(caller);
    // A root left out by the sampler: decided before any span, id or context is made.
    if (!incoming && rootRate < 1 && (rootRate === 0 || Math.random() >= rootRate)) return listener(req, res);
    const original = req.method ?? '';
    const method = METHODS.has(original) ? original : '_OTHER';
    // A sampled root answered at once and handed to the socket (the usual warm answer): its span is
    // built whole afterwards (answeredSpan.ts), without the SDK's span machinery.
    let startTime: [number, number] | undefined;
    if (!incoming && answered && answerNow) {
      startTime = hrTime();
      if (answerNow(req, res)) {
        if (handedOver(res)) {
          answered(requestFacts(req, method, original, res.statusCode), describeAnswered, startTime, hrTime());
        } else {
          const span = tracer.startSpan(method, { kind: SpanKind.SERVER, startTime }, parent);
          describeRequest(span, req, routes, method, original);
          endWhenClosed(span, res);
        }
        return;
      }
    }
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, startTime }, parent);
    const recording = span.isRecording();
    if (recording) describeRequest(span, req, routes, method, original);
    else if (!incoming) return listener(req, res);
    if (startTime === undefined && answerNow?.(req, res)) {
      // Handed to the socket already (the usual case): the span ends now, without a listener.
      if (recording) {
        if (handedOver(res)) endServerSpan(span, res, true);
        else endWhenClosed(span, res);
      }
      return;
    }
    if (recording) endWhenClosed(span, res);
    enter(trace.setSpan(parent, span), req, res);
  };
}

/** Export failures as warnings, at most one a minute; the SDK's other diagnostics are dropped. */
function diagnostics(log: Logger): void {
  let last = 0;
  const warn = (message: string) => {
    const now = Date.now();
    if (now - last < EXPORT_WARN_INTERVAL_MS) return;
    last = now;
    // The SDK reports an exception as its JSON (stack included): its message is enough.
    let text = message;
    try {
      const parsed = JSON.parse(message) as { message?: unknown };
      if (typeof parsed.message === 'string') text = parsed.message;
    } catch {
      // Plain text already.
    }
    // Outside any request's context: a batch is sent from a timer that a request happened to start.
    context.with(ROOT_CONTEXT, () =>
      log.warn({ err: { message: text.slice(0, 300) } }, 'traces: the OTLP export failed (spans of this batch are dropped); further failures are logged once a minute'),
    );
  };
  const drop = () => undefined;
  diag.setLogger({ error: warn, warn, info: drop, debug: drop, verbose: drop }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
}

/** The collector's URL as logged: no user or password in it. */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return '(unparsable URL)';
  }
}

export function createTracing(config: TracingConfig, log: Logger): Tracing {
  diagnostics(log);
  const version = packageVersion();
  const resource = resourceFromAttributes({ ...config.resourceAttributes, [ATTR_SERVICE_NAME]: config.serviceName, [ATTR_SERVICE_VERSION]: version });
  // The OTLP exporter (serialization and HTTP) runs on a worker thread of its own (workerExporter.ts).
  const exporter = new WorkerSpanExporter(
    { protocol: config.protocol, url: config.url, headers: config.headers, timeoutMillis: config.timeoutMs, batchDelayMillis: config.batchDelayMs, exportBatch: config.exportBatchSize },
    resource,
  );
  // Bounded: past OTEL_BSP_MAX_QUEUE_SIZE spans (2,048) waiting for export, new ones are dropped (a collector that is down
  // costs no memory). Handed over HANDOFF_BATCH at a time, sent OTEL_BSP_MAX_EXPORT_BATCH_SIZE (512) at a time by the
  // worker (workerExporter.ts says why).
  const processor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: config.batchDelayMs, maxQueueSize: config.maxQueueSize, maxExportBatchSize: Math.min(HANDOFF_BATCH, config.exportBatchSize), exportTimeoutMillis: config.timeoutMs });
  const provider = new BasicTracerProvider({ resource, sampler: samplerOf(config), spanProcessors: [processor] });
  const contextManager = new ScopedContextManager();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(TRACER_NAME, version);
  // Roots that pass the listener's draw are always recorded (samplerOf), so their warm answers' spans can be built whole.
  const answered = answeredSpans(processor, resource, { name: TRACER_NAME, version });
  setHooks(tracer);
  log.info({ traces: withoutCredentials(config.url), protocol: config.protocol, sampler: config.sampler, ratio: config.samplerRatio }, 'traces on');
  return {
    wrap: (listener, routes, answerNow) => tracedListener(listener, tracer, new RouteClassifier(routes), rootSampleRate(config), answerNow, contextManager, answered),
    tracer,
    async close() {
      // Spans still queued are sent (bounded by the export timeout), then the globals are let go.
      await provider.shutdown().catch(() => undefined);
      clearHooks();
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}
