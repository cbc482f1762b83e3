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
import { SpanKind, type Attributes, type HrTime, type Link, type SpanContext, type TraceState } from '@opentelemetry/api';
import { hrTimeDuration, type InstrumentationScope } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { answeredSpans } from '../src/observability/answeredSpan.ts';
import { drawIds, flatten, readSpans, type FlatBatch } from '../src/observability/spanRecords.ts';
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
const describe = (f: Facts) => {
  const attributes: Attributes = {
    'http.request.method': 'GET',
    'url.scheme': 'http',
    'network.protocol.version': '1.1',
    'http.route': '/codes/{code}',
    'server.address': '127.0.0.1',
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

const scopes = new Map<string, InstrumentationScope>();
const scopeOf = (s: InstrumentationScope) => {
  const key = `${s.name}@${s.version ?? ''}:${s.schemaUrl ?? ''}`;
  let kept = scopes.get(key);
  if (!kept) scopes.set(key, (kept = s));
  return kept;
};

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1_000;
};

interface Parts {
  serving: number;
  worker: number;
  bytes: number;
}

type Variant = 'plain' | 'flat';

function measure(variant: Variant): Parts {
  const batches = Array.from({ length: BATCHES }, answeredBatch);
  let serving = 0;
  let worker = 0;
  let bytes = 0;
  for (const spans of batches) {
    let t = cpuNs();
    const wire = serialize(variant === 'plain' ? spans.map(plainSpan) : flatten(spans));
    serving += cpuNs() - t;
    t = cpuNs();
    const got = deserialize(wire) as Plain[] | FlatBatch;
    const rebuilt = variant === 'plain' ? (got as Plain[]).map((p) => readable(p, resource)) : readSpans(got as FlatBatch, resource, drawIds, scopeOf);
    bytes += ProtobufTraceSerializer.serializeRequest(rebuilt)!.length;
    worker += cpuNs() - t;
  }
  const n = BATCHES * BATCH;
  return { serving: serving / n, worker: worker / n, bytes: bytes / n };
}

const results: Record<Variant, Parts[]> = { plain: [], flat: [] };
const order: Variant[] = ['plain', 'flat'];
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
  return { s, w, b: median(results[v].map((p) => p.bytes)), sMin: Math.min(...results[v].map((p) => p.serving)), wMin: Math.min(...results[v].map((p) => p.worker)) };
};
const p = row('plain');
const f = row('flat');
console.log(`ns of CPU per span (medians of ${ROUNDS} rounds × ${BATCHES} batches of ${BATCH} answered spans):`);
console.log(`session 18 (plain objects):  serving ${p.s.toFixed(0)} (least ${p.sMin.toFixed(0)})  worker ${p.w.toFixed(0)} (least ${p.wMin.toFixed(0)})  protobuf bytes per span ${p.b.toFixed(0)}`);
console.log(`flat batch (spanRecords.ts): serving ${f.s.toFixed(0)} (least ${f.sMin.toFixed(0)})  worker ${f.w.toFixed(0)} (least ${f.wMin.toFixed(0)})  protobuf bytes per span ${f.b.toFixed(0)}`);
console.log(`flat / plain: serving ${((100 * f.s) / p.s).toFixed(1)} %, worker ${((100 * f.w) / p.w).toFixed(1)} %`);
