// The flat batch the serving thread copies to the OTLP export worker (src/observability/spanRecords.ts):
// read back after a real structured clone (v8.serialize, what postMessage writes), the spans are the
// same — names, every kind of attribute value, events, links, status, ids — and each distinct name,
// attribute key and string value is in the copy once per batch, not once per span (session 24).
import { serialize, deserialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type HrTime } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { answeredSpans } from '../../src/observability/answeredSpan.ts';
import { drawIds, flatten, readSpans, type FlatBatch } from '../../src/observability/spanRecords.ts';

const resource = resourceFromAttributes({ 'service.name': 'span-records-test' });

/** SDK spans with every kind of attribute value, an event and a link, a remote parent and an error status. */
function sdkSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('records-test', '1.0.0');
  const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('v=1') });
  const server = tracer.startSpan('GET /codes/:code', { kind: SpanKind.SERVER, attributes: { 'http.route': '/codes/:code', 'http.response.status_code': 500, ok: false, ratio: 0.25, tags: ['a', 'b'], empty: '' } }, parent);
  server.addEvent('replayed', { bytes: 120, 'http.route': 'as a value too' });
  server.addLink({ context: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: TraceFlags.SAMPLED }, attributes: { why: 'batch' } });
  server.setStatus({ code: SpanStatusCode.ERROR, message: 'failed' });
  const child = tracer.startSpan('SELECT Concept', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'http.route': '/codes/:code' } }, trace.setSpan(parent, server));
  child.end();
  server.end();
  return memory.getFinishedSpans();
}

/** Warm answers' spans as the server records them (answeredSpan.ts): a route, a method, an address in each. */
function answered(n: number): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  const record = answeredSpans({ onEnd: (s: ReadableSpan) => spans.push(s) } as unknown as SpanProcessor, resource, { name: 'terminology-explorer', version: '0.1.0' });
  const t: HrTime = [1_764_000_000, 5];
  for (let i = 0; i < n; i++) {
    // Made per request, as the Host header's match is: equal strings, not one shared object.
    const address = /^([a-z0-9.]+)/.exec(`127.0.0.1:${4000 + (i % 3)}`)![1]!;
    record({ status: i % 2 ? 200 : 404, address }, (f) => ({ name: 'GET /codes/:code', attributes: { 'http.request.method': 'GET', 'http.route': '/codes/:code', 'server.address': f.address, 'http.response.status_code': f.status }, error: false }), t, [t[0], t[1] + i]);
  }
  return spans;
}

const viaClone = (spans: ReadableSpan[]): FlatBatch => deserialize(serialize(flatten(spans))) as FlatBatch;

const view = (s: ReadableSpan) => ({
  name: s.name,
  kind: s.kind,
  traceId: s.spanContext().traceId,
  spanId: s.spanContext().spanId,
  traceState: s.spanContext().traceState?.serialize(),
  parent: s.parentSpanContext && { spanId: s.parentSpanContext.spanId, isRemote: s.parentSpanContext.isRemote === true },
  startTime: s.startTime,
  endTime: s.endTime,
  status: s.status,
  attributes: s.attributes,
  events: s.events.map((e) => ({ name: e.name, time: e.time, attributes: e.attributes })),
  links: s.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId, attributes: l.attributes })),
  scope: s.instrumentationScope.name,
});

describe('the flat batch of spans copied to the export worker', () => {
  it('reads back, after a structured clone, as the same spans: attribute values of every type, events, links, status, parent', () => {
    const spans = sdkSpans();
    const back = readSpans(viaClone(spans), resource, drawIds);
    expect(back.map(view)).toEqual(spans.map(view));
    // Attribute order is kept (the exporters write them in this order).
    expect(Object.keys(back[1]!.attributes)).toEqual(Object.keys(spans[1]!.attributes));
  });

  it('answered warm spans read back with their attributes, statuses and drawn ids', () => {
    const spans = answered(6);
    const back = readSpans(viaClone(spans), resource, drawIds);
    expect(back.map((s) => [s.name, s.attributes, s.status.code])).toEqual(spans.map((s) => [s.name, s.attributes, s.status.code]));
    expect(new Set(back.map((s) => s.spanContext().traceId)).size).toBe(6);
    expect(back.every((s) => /^[0-9a-f]{32}$/.test(s.spanContext().traceId) && /^[0-9a-f]{16}$/.test(s.spanContext().spanId))).toBe(true);
  });

  it('a batch carries each distinct name, key and string value once, however many spans repeat it', () => {
    const wire = serialize(flatten(answered(512)));
    const count = (s: string) => wire.toString('latin1').split(s).length - 1;
    expect(count('http.request.method')).toBe(1);
    expect(count('GET /codes/:code')).toBe(1);
    expect(count('/codes/:code')).toBe(2); // the name's tail, and the route
    expect(count('127.0.0.1')).toBe(1);
    // Beside the numbers' block (twelve float64 a span), well under the ≈ 100 bytes a span its keys and values alone took.
    expect(wire.length - 512 * 12 * 8).toBeLessThan(512 * 50);
  });
});
