// What a sampled warm answer's span costs between the batch processor and the OTLP bytes, by part,
// for session 18's hand-off (each span copied as nested plain objects, rebuilt one by one in the
// export worker) against spanRecords.ts's (one flat array per batch): CPU time of this thread per
// span (process.cpuUsage; one thread, the two variants alternated, medians of the rounds, so
// that the host's load touches both alike), for batches of 512 answered spans as the server makes
// them (answeredSpan.ts, with a warm answer's seven attributes).
//
//   npx tsx bench/traceHandoff.ts [--rounds 7 --batches 40]
//
// Parts: "serving" = the spans as the message (flatten or the plain objects) and the structured
// clone's writing (v8.serialize, the serializer postMessage uses); "worker" = reading the clone
// (v8.deserialize), the ReadableSpans rebuilt, and the SDK's protobuf serializer.
import { serialize, deserialize } from 'node:v8';
import { parseArgs } from 'node:util';
import { SpanKind, type Attributes, type AttributeValue, type HrTime, type Link, type SpanContext, type SpanStatus, type TraceState } from '@opentelemetry/api';
import { hrTimeDuration, type InstrumentationScope } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { answeredSpans } from '../src/observability/answeredSpan.ts';
import { drawIds, flatten, NUMBERS, readSpans, type FlatBatch, type LazyIds } from '../src/observability/spanRecords.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, batches: { type: 'string', default: '40' } } });
const ROUNDS = Number(args.rounds);
const BATCHES = Number(args.batches);
const BATCH = 512;

const resource = resourceFromAttributes({ 'service.name': 'terminology-explorer', 'service.version': '0.1.0' });
const scope = { name: 'terminology-explorer', version: '0.1.0' };

interface Facts {
  status: number;
}
// As a request gives them (tracingSdk.ts, requestFacts): the address matched out of the Host header and the
// HTTP version made by Node's parser are new strings for every request, not one shared constant.
const HOST = /^([A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?$/;
let hostHeader = '127.0.0.1:41234';
let minor = 1;
const describe = (f: Facts) => {
  const attributes: Attributes = {
    'http.request.method': 'GET',
    'url.scheme': 'http',
    'network.protocol.version': `1.${minor}`,
    'http.route': '/codes/{code}',
    'server.address': HOST.exec(hostHeader)![1]!,
    'server.port': 41234,
    'http.response.status_code': f.status,
  };
  return { name: 'GET /codes/{code}', attributes, error: false };
};

/** A batch of answered spans, fresh (ids undrawn, descriptions not made), as the processor holds them. */
function answeredBatch(): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  const processor = { onEnd: (s: ReadableSpan) => spans.push(s) } as unknown as SpanProcessor;
  const record = answeredSpans(processor, resource, scope);
  const t: HrTime = [1_764_000_000, 123_456_789];
  for (let i = 0; i < BATCH; i++) record({ status: 200 }, describe, t, [t[0], t[1] + 50_000]);
  return spans;
}

// Session 18's hand-off (src/observability/workerExporter.ts and exportWorker.ts at main cf41aa3), kept here as the baseline.
type PlainContext = { traceId: string; spanId: string; traceFlags: number; isRemote?: boolean; traceState?: string };
const plainContext = (c: SpanContext): PlainContext => ({ traceId: c.traceId, spanId: c.spanId, traceFlags: c.traceFlags, isRemote: c.isRemote, traceState: c.traceState?.serialize() });
const plainSpan = (s: ReadableSpan) => ({
  name: s.name,
  kind: s.kind,
  context: plainContext(s.spanContext()),
  parent: s.parentSpanContext && plainContext(s.parentSpanContext),
  startTime: s.startTime,
  endTime: s.endTime,
  status: s.status,
  attributes: s.attributes,
  links: s.links.map((l) => ({ context: plainContext(l.context), attributes: l.attributes, droppedAttributesCount: l.droppedAttributesCount })),
  events: s.events,
  scope: s.instrumentationScope,
  droppedAttributesCount: s.droppedAttributesCount,
  droppedEventsCount: s.droppedEventsCount,
  droppedLinksCount: s.droppedLinksCount,
});
type Plain = ReturnType<typeof plainSpan>;
const traceState = (s: string | undefined): TraceState | undefined => (s === undefined ? undefined : ({ serialize: () => s } as TraceState));
const ctxOf = (c: PlainContext): SpanContext => ({ traceId: c.traceId, spanId: c.spanId, traceFlags: c.traceFlags, isRemote: c.isRemote, traceState: traceState(c.traceState) });
const readable = (p: Plain, r: Resource): ReadableSpan => {
  const context = ctxOf(p.context);
  return {
    name: p.name,
    kind: p.kind as SpanKind,
    spanContext: () => context,
    parentSpanContext: p.parent && ctxOf(p.parent),
    startTime: p.startTime,
    endTime: p.endTime,
    status: p.status,
    attributes: p.attributes,
    links: p.links.map((l): Link => ({ context: ctxOf(l.context), attributes: l.attributes, droppedAttributesCount: l.droppedAttributesCount })),
    events: p.events,
    duration: hrTimeDuration(p.startTime, p.endTime),
    ended: true,
    resource: r,
    instrumentationScope: p.scope as InstrumentationScope,
    droppedAttributesCount: p.droppedAttributesCount,
    droppedEventsCount: p.droppedEventsCount,
    droppedLinksCount: p.droppedLinksCount,
  };
};


// Session 19's flat batch (each name, key and string value written wherever it occurs; spanRecords.ts at main cff03e3),
// kept here as the baseline of session 24's string table.
interface FlatBatch19 {
  scopes: InstrumentationScope[];
  numbers: Float64Array;
  values: unknown[];
}
const undrawn = (c: SpanContext): boolean => typeof (c as Partial<LazyIds>).idsUndrawn === 'function' && (c as unknown as LazyIds).idsUndrawn();
function pushAttributes19(out: unknown[], attributes: Attributes | undefined): void {
  const at = out.length;
  out[at] = 0;
  if (!attributes) return;
  let n = 0;
  for (const key in attributes) {
    // Both exporters write every key (an undefined value as an empty AnyValue).
    out[out.length] = key;
    out[out.length] = attributes[key];
    n++;
  }
  out[at] = n;
}

/**
 * The spans of one export as a FlatBatch (on the serving thread). Written element by element:
 * `push` with many arguments takes V8's generic path; times in a Float64Array, not boxed one by one.
 */
function flatten19(spans: readonly ReadableSpan[]): FlatBatch19 {
  const scopes: InstrumentationScope[] = [];
  const numbers = new Float64Array(spans.length * NUMBERS);
  const out: unknown[] = [];
  let n = 0;
  for (const s of spans) {
    const c = s.spanContext();
    let scope = scopes.indexOf(s.instrumentationScope);
    if (scope < 0) scope = scopes.push(s.instrumentationScope) - 1;
    const lazy = undrawn(c);
    const parent = s.parentSpanContext;
    const status = s.status;
    numbers[n++] = s.kind;
    numbers[n++] = c.traceFlags;
    numbers[n++] = parent === undefined ? 0 : parent.isRemote ? 2 : 1;
    numbers[n++] = s.startTime[0];
    numbers[n++] = s.startTime[1];
    numbers[n++] = s.endTime[0];
    numbers[n++] = s.endTime[1];
    numbers[n++] = status.code;
    numbers[n++] = s.droppedAttributesCount;
    numbers[n++] = s.droppedEventsCount;
    numbers[n++] = s.droppedLinksCount;
    numbers[n++] = scope;
    let i = out.length;
    out[i++] = s.name;
    out[i++] = lazy ? '' : c.traceId;
    out[i++] = lazy ? '' : c.spanId;
    out[i++] = c.traceState?.serialize();
    out[i++] = parent?.spanId;
    out[i++] = status.message;
    pushAttributes19(out, s.attributes);
    out[out.length] = s.events.length;
    for (const e of s.events) {
      i = out.length;
      out[i++] = e.name;
      out[i++] = e.time[0];
      out[i++] = e.time[1];
      out[i++] = e.droppedAttributesCount ?? 0;
      pushAttributes19(out, e.attributes);
    }
    out[out.length] = s.links.length;
    for (const l of s.links) {
      i = out.length;
      out[i++] = l.context.traceId;
      out[i++] = l.context.spanId;
      out[i++] = l.context.traceFlags;
      out[i++] = l.context.isRemote;
      out[i++] = l.context.traceState?.serialize();
      out[i++] = l.droppedAttributesCount ?? 0;
      pushAttributes19(out, l.attributes);
    }
  }
  return { scopes, numbers, values: out };
}

/** Reads a FlatBatch19 back as the SDK's ReadableSpans (in the worker), with `resource` and one object per scope. */
function readSpans19(batch: FlatBatch19, resource: Resource, drawIds: () => [string, string], scopeOf: (s: InstrumentationScope) => InstrumentationScope = (s) => s): ReadableSpan[] {
  const f = batch.values;
  const num = batch.numbers;
  const scopes = batch.scopes.map(scopeOf);
  const spans: ReadableSpan[] = [];
  let i = 0;
  const attributes = (): Attributes => {
    const n = f[i++] as number;
    const a: Attributes = {};
    for (let k = 0; k < n; k++, i += 2) a[f[i] as string] = f[i + 1] as AttributeValue;
    return a;
  };
  for (let n = 0; n < num.length; n += NUMBERS) {
    const kind = num[n] as SpanKind;
    const name = f[i] as string;
    let traceId = f[i + 1] as string;
    let spanId = f[i + 2] as string;
    if (traceId === '') [traceId, spanId] = drawIds();
    const context: SpanContext = { traceId, spanId, traceFlags: num[n + 1]!, traceState: traceState(f[i + 3] as string | undefined) };
    const parentId = f[i + 4] as string | undefined;
    const parentSpanContext: SpanContext | undefined = num[n + 2] === 0 ? undefined : { traceId, spanId: parentId ?? '', traceFlags: context.traceFlags, isRemote: num[n + 2] === 2 };
    const startTime: HrTime = [num[n + 3]!, num[n + 4]!];
    const endTime: HrTime = [num[n + 5]!, num[n + 6]!];
    const message = f[i + 5] as string | undefined;
    const status: SpanStatus = message === undefined ? { code: num[n + 7]! } : { code: num[n + 7]!, message };
    const droppedAttributesCount = num[n + 8]!;
    const droppedEventsCount = num[n + 9]!;
    const droppedLinksCount = num[n + 10]!;
    const scope = scopes[num[n + 11]!]!;
    i += 6;
    const attrs = attributes();
    const events: TimedEvent[] = [];
    for (let n = f[i++] as number; n > 0; n--) {
      const e = { name: f[i] as string, time: [f[i + 1], f[i + 2]] as HrTime, droppedAttributesCount: f[i + 3] as number };
      i += 4;
      events.push({ ...e, attributes: attributes() });
    }
    const links: Link[] = [];
    for (let n = f[i++] as number; n > 0; n--) {
      const lc: SpanContext = { traceId: f[i] as string, spanId: f[i + 1] as string, traceFlags: f[i + 2] as number, isRemote: f[i + 3] as boolean | undefined, traceState: traceState(f[i + 4] as string | undefined) };
      const dropped = f[i + 5] as number;
      i += 6;
      links.push({ context: lc, attributes: attributes(), droppedAttributesCount: dropped });
    }
    spans.push({
      name,
      kind,
      spanContext: () => context,
      parentSpanContext,
      startTime,
      endTime,
      status,
      attributes: attrs,
      links,
      events,
      duration: hrTimeDuration(startTime, endTime),
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount,
      droppedEventsCount,
      droppedLinksCount,
    });
  }
  return spans;
}

const scopes = new Map<string, InstrumentationScope>();
const scopeOf = (s: InstrumentationScope) => {
  const key = `${s.name}@${s.version ?? ''}:${s.schemaUrl ?? ''}`;
  let kept = scopes.get(key);
  if (!kept) scopes.set(key, (kept = s));
  return kept;
};

void ((hostHeader += ''), (minor += 0));

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1_000;
};

interface Parts {
  serving: number;
  worker: number;
  bytes: number;
  /** The structured clone's bytes per span (what postMessage copies). */
  wire: number;
}

type Variant = 'plain' | 'flat19' | 'flat';

function measure(variant: Variant): Parts {
  const batches = Array.from({ length: BATCHES }, answeredBatch);
  let serving = 0;
  let worker = 0;
  let bytes = 0;
  let wireBytes = 0;
  for (const spans of batches) {
    let t = cpuNs();
    const wire = serialize(variant === 'plain' ? spans.map(plainSpan) : variant === 'flat19' ? flatten19(spans) : flatten(spans));
    serving += cpuNs() - t;
    wireBytes += wire.length;
    t = cpuNs();
    const got = deserialize(wire) as Plain[] | FlatBatch | FlatBatch19;
    const rebuilt =
      variant === 'plain'
        ? (got as Plain[]).map((p) => readable(p, resource))
        : variant === 'flat19'
          ? readSpans19(got as FlatBatch19, resource, drawIds, scopeOf)
          : readSpans(got as FlatBatch, resource, drawIds, scopeOf);
    bytes += ProtobufTraceSerializer.serializeRequest(rebuilt)!.length;
    worker += cpuNs() - t;
  }
  const n = BATCHES * BATCH;
  return { serving: serving / n, worker: worker / n, bytes: bytes / n, wire: wireBytes / n };
}

const results: Record<Variant, Parts[]> = { plain: [], flat19: [], flat: [] };
const order: Variant[] = ['plain', 'flat19', 'flat'];
// A first round of each to warm the code up, not counted.
for (const v of order) measure(v);
for (let r = 0; r < ROUNDS; r++) {
  // Rotated each round, so that no variant always follows the same one.
  for (let k = 0; k < order.length; k++) {
    const v = order[(k + r) % order.length]!;
    results[v].push(measure(v));
  }
}
// The least of the rounds as well as the median: on a shared host a round's CPU time grows with others' cache use, never shrinks.
const row = (v: Variant) => {
  const s = median(results[v].map((p) => p.serving));
  const w = median(results[v].map((p) => p.worker));
  return { s, w, b: median(results[v].map((p) => p.bytes)), wire: median(results[v].map((p) => p.wire)), sMin: Math.min(...results[v].map((p) => p.serving)), wMin: Math.min(...results[v].map((p) => p.worker)) };
};
const p = row('plain');
const f19 = row('flat19');
const f = row('flat');
const line = (name: string, x: ReturnType<typeof row>) =>
  `${name} serving ${x.s.toFixed(0)} (least ${x.sMin.toFixed(0)})  worker ${x.w.toFixed(0)} (least ${x.wMin.toFixed(0)})  clone bytes per span ${x.wire.toFixed(0)}  protobuf bytes per span ${x.b.toFixed(0)}`;
console.log(`ns of CPU per span (medians of ${ROUNDS} rounds × ${BATCHES} batches of ${BATCH} answered spans):`);
console.log(line('session 18 (plain objects):       ', p));
console.log(line('session 19 (flat, strings inline):', f19));
console.log(line('flat batch, string table:         ', f));
console.log(`string table / session 19: serving ${((100 * f.s) / f19.s).toFixed(1)} %, worker ${((100 * f.w) / f19.w).toFixed(1)} %; least: serving ${((100 * f.sMin) / f19.sMin).toFixed(1)} %, worker ${((100 * f.wMin) / f19.wMin).toFixed(1)} %`);
