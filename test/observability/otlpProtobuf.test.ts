// The export worker's OTLP/protobuf encoder (src/observability/otlpProtobuf.ts) against the SDK's:
// batches of real spans — the SDK's own (remote and local parents, trace state, error status with
// a message, integer, negative, large, fractional, boolean and non-ASCII attribute values, two
// scopes) and answered warm spans whose ids the worker draws — copied as the serving thread copies
// them (spanRecords.ts, through a structured clone) and encoded by both: the bytes must be equal,
// so whatever decodes the SDK's export decodes this one alike. What the encoder does not write
// (events, links, non-primitive values) it declines, and the worker uses the SDK's serializer.
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Attributes, type HrTime } from '@opentelemetry/api';
import { TraceState, type InstrumentationScope } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { answeredSpans } from '../../src/observability/answeredSpan.ts';
import { encodeResource, encodeTraceRequest, randomIdBytes } from '../../src/observability/otlpProtobuf.ts';
import { flatten, readSpans, type FlatBatch } from '../../src/observability/spanRecords.ts';

const resource = resourceFromAttributes({ 'service.name': 'terminology-explorer', 'service.version': '0.1.0', 'deployment.environment.name': 'tëst', 'host.cpus': 2 });

function sdkSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('terminology-explorer', '0.1.0');
  const other = provider.getTracer('graphql');
  const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('vendor=abc,x=1') });
  const server = tracer.startSpan('POST /graphql', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'POST', 'server.port': 8080, 'http.response.status_code': 503, big: 2 ** 60, negative: -42, ratio: 0.25, flag: true, 'ünïcode': 'wert ✓', empty: '' },
  }, parent);
  server.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream down' });
  const child = other.startSpan('query code', { kind: SpanKind.INTERNAL, attributes: { 'graphql.operation.type': 'query' } }, trace.setSpan(parent, server));
  const db = tracer.startSpan('SELECT Concept', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT' } }, trace.setSpan(parent, child));
  db.end();
  child.end();
  server.end();
  const root = tracer.startSpan('GET', { kind: SpanKind.SERVER });
  root.end();
  return memory.getFinishedSpans();
}

/** Answered warm spans as the server records them (answeredSpan.ts): ids left to the worker. */
function answered(n: number): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  const record = answeredSpans({ onEnd: (s: ReadableSpan) => spans.push(s) } as unknown as SpanProcessor, resource, { name: 'terminology-explorer', version: '0.1.0' });
  const describe = (status: number) => {
    const attributes: Attributes = { 'http.request.method': 'GET', 'url.scheme': 'http', 'network.protocol.version': '1.1', 'http.route': '/codes/{code}', 'server.address': '127.0.0.1', 'server.port': 41234, 'http.response.status_code': status };
    return { name: 'GET /codes/{code}', attributes, error: status >= 500 };
  };
  for (let i = 0; i < n; i++) {
    const start: HrTime = [1_764_000_000 + i, 999_999_000 + i];
    record(i % 7 === 0 ? 500 : 200, describe, start, [start[0] + 1, (i * 7919) % 1_000_000_000]);
  }
  return spans;
}

/** The same ids for both encoders: a fixed sequence, as bytes for ours and as hex for the SDK's path. */
function idSequence() {
  let a = 0;
  let b = 0;
  const idAt = (k: number) => Buffer.from(Array.from({ length: 24 }, (_, j) => (k * 31 + j * 7 + 1) & 0xff));
  return {
    bytes: (into: Uint8Array, at: number) => idAt(a++).copy(into, at),
    hex: (): [string, string] => {
      const id = idAt(b++);
      return [id.toString('hex', 0, 16), id.toString('hex', 16, 24)];
    },
  };
}

/** As the worker receives a batch: through the structured clone postMessage uses. */
const sent = (spans: ReadableSpan[]): FlatBatch => deserialize(serialize(flatten(spans))) as FlatBatch;

/** The worker's scope objects, one per name, version and schema URL (exportWorker.ts). */
function scopeInterning() {
  const kept = new Map<string, InstrumentationScope>();
  return (s: InstrumentationScope) => {
    const key = `${s.name}@${s.version ?? ''}:${s.schemaUrl ?? ''}`;
    if (!kept.has(key)) kept.set(key, s);
    return kept.get(key)!;
  };
}

function both(spans: ReadableSpan[]) {
  const batch = sent(spans);
  const ids = idSequence();
  const ours = encodeTraceRequest(batch, encodeResource(resource.attributes)!, ids.bytes);
  const sdk = ProtobufTraceSerializer.serializeRequest(readSpans(batch, resource, ids.hex, scopeInterning()));
  return { ours, sdk };
}

describe('the OTLP/protobuf encoder of the export worker', () => {
  it("writes the SDK's bytes for the SDK's spans (parents, trace state, status message, every primitive value, two scopes)", () => {
    const { ours, sdk } = both(sdkSpans());
    expect(ours).toBeDefined();
    expect(Buffer.from(ours!).equals(Buffer.from(sdk!))).toBe(true);
  });

  it("writes the SDK's bytes for a full batch of answered warm spans, their ids drawn in the worker, mixed with the SDK's", () => {
    const spans = [...answered(300), ...sdkSpans(), ...answered(208)];
    const { ours, sdk } = both(spans);
    expect(ours!.length).toBeGreaterThan(512 * 100);
    expect(Buffer.from(ours!).equals(Buffer.from(sdk!))).toBe(true);
    // The drawn ids are the sequence's, in order: the first span's trace id leads its message.
    const first = Buffer.from(ours!).indexOf(Buffer.from(idSequence().hex()[0], 'hex'));
    expect(first).toBeGreaterThan(0);
  });

  it('draws random ids, a fresh pair for each span, never all zero', () => {
    const batch = sent(answered(1_100));
    const bytes = Buffer.from(encodeTraceRequest(batch, encodeResource(resource.attributes)!, randomIdBytes)!);
    const traceIds = new Set<string>();
    for (let at = bytes.indexOf(Buffer.from([0x0a, 0x10])); at >= 0; at = bytes.indexOf(Buffer.from([0x0a, 0x10]), at + 1)) {
      if (bytes[at + 18] === 0x12 && bytes[at + 19] === 0x08) traceIds.add(bytes.toString('hex', at + 2, at + 18));
    }
    expect(traceIds.size).toBe(1_100);
    expect(traceIds.has('0'.repeat(32))).toBe(false);
  });

  it('declines what it does not write: events, links and array values go to the SDK serializer', () => {
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
    const memory = new InMemorySpanExporter();
    const p2 = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
    void provider;
    const tracer = p2.getTracer('t');
    const withEvent = tracer.startSpan('e');
    withEvent.addEvent('replayed');
    withEvent.end();
    const withLink = tracer.startSpan('l', { links: [{ context: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: 1 } }] });
    withLink.end();
    const withArray = tracer.startSpan('a', { attributes: { list: ['x', 'y'] } });
    withArray.end();
    const resourceBytes = encodeResource(resource.attributes)!;
    for (const s of memory.getFinishedSpans()) expect(encodeTraceRequest(sent([s]), resourceBytes, idSequence().bytes)).toBeUndefined();
  });
});
