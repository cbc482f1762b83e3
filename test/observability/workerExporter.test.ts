// The OTLP exporter on a worker thread (src/observability/workerExporter.ts): spans made by the
// SDK reach a real OTLP/HTTP receiver whole (ids, parent, trace state, attributes, status,
// events, links, resource), in both protocols; a collector that is down fails the batch with its
// error; shutdown sends what is queued. And the point of it: the serving thread makes no HTTP
// request of its own for an export (its HTTP code stays the server's alone), which the SDK's
// exporter, run in the thread, does — the control below shows the probe sees such a request.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { ExportResultCode, TraceState, type ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter as InThreadJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { EXPORT_BATCH, HANDOFF_BATCH, WorkerSpanExporter } from '../../src/observability/workerExporter.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp.ts';

const resource = resourceFromAttributes({ 'service.name': 'worker-export-test', 'service.version': '9.9.9' });

/** Two real spans of the SDK: a server span (trace state, event, link, error status) and its child. */
function madeSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('worker-test', '1.2.3');
  // A caller's context (remote parent, trace state) as an incoming traceparent gives it.
  const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('vendor=abc') });
  const server = tracer.startSpan('GET /codes/:code', { kind: SpanKind.SERVER, attributes: { 'http.route': '/codes/:code', 'http.response.status_code': 500 } }, parent);
  server.addEvent('replayed', { bytes: 120 });
  server.addLink({ context: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: TraceFlags.SAMPLED }, attributes: { why: 'batch' } });
  server.setStatus({ code: SpanStatusCode.ERROR });
  const child = tracer.startSpan('SELECT Concept', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql' } }, trace.setSpan(parent, server));
  child.end();
  server.end();
  return memory.getFinishedSpans();
}

const exportWith = (exporter: SpanExporter, spans: ReadableSpan[]) => new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));

/** HTTP client requests this thread starts while `run` runs (Node's diagnostics channel, fired by every ClientRequest). */
async function clientRequestsDuring(run: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const seen = () => n++;
  subscribe('http.client.request.start', seen);
  try {
    await run();
  } finally {
    unsubscribe('http.client.request.start', seen);
  }
  return n;
}

describe('the OTLP exporter on a worker thread', () => {
  let receiver: OtlpReceiver;
  // Made at once, so that their threads start (and load the exporter) side by side.
  let json: WorkerSpanExporter;
  let protobuf: WorkerSpanExporter;
  let refused: WorkerSpanExporter;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // A port that was free a moment ago and is closed now: connections are refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    json = new WorkerSpanExporter({ protocol: 'http/json', url: `${receiver.url}/v1/traces`, headers: { 'x-test': '1' }, timeoutMillis: 10_000 }, resource);
    protobuf = new WorkerSpanExporter({ protocol: 'http/protobuf', url: `${receiver.url}/v1/traces`, headers: {}, timeoutMillis: 10_000 }, resource);
    refused = new WorkerSpanExporter({ protocol: 'http/json', url: `http://127.0.0.1:${port}/v1/traces`, headers: {}, timeoutMillis: 1_000 }, resource);
  });
  afterAll(async () => {
    await Promise.all([json, protobuf, refused].map((e) => e?.shutdown()));
    await receiver?.close();
  });

  it('http/json: the spans arrive whole, and this thread sends no HTTP request for them (the SDK exporter in the thread does)', async () => {
    const spans = madeSpans();
    const exporter = json;
    let result: ExportResult | undefined;
    const fromWorker = await clientRequestsDuring(async () => {
      result = await exportWith(exporter, spans);
    });
    expect(result?.code).toBe(ExportResultCode.SUCCESS);
    expect(fromWorker).toBe(0);

    const server = await receiver.waitFor((all) => all.find((s) => s.name === 'GET /codes/:code'));
    const child = receiver.spans().find((s) => s.name === 'SELECT Concept')!;
    expect(server).toMatchObject({ traceId: 'a'.repeat(32), parentSpanId: 'b'.repeat(16), traceState: 'vendor=abc', kind: 2, status: { code: 2 } });
    expect(server.attributes).toEqual({ 'http.route': '/codes/:code', 'http.response.status_code': 500 });
    expect(server.resource).toMatchObject({ 'service.name': 'worker-export-test', 'service.version': '9.9.9' });
    expect(child).toMatchObject({ traceId: server.traceId, parentSpanId: server.spanId, kind: 3 });
    const body = JSON.parse(receiver.exports.at(-1)!.body.toString('utf8')) as {
      resourceSpans: { scopeSpans: { scope: { name: string; version: string }; spans: { name: string; events?: { name: string }[]; links?: { traceId: string; spanId: string }[] }[] }[] }[];
    };
    const scope = body.resourceSpans[0]!.scopeSpans[0]!;
    expect(scope.scope).toMatchObject({ name: 'worker-test', version: '1.2.3' });
    const sent = scope.spans.find((s) => s.name === 'GET /codes/:code')!;
    expect(sent.events?.map((e) => e.name)).toEqual(['replayed']);
    expect(sent.links?.[0]).toMatchObject({ traceId: 'c'.repeat(32), spanId: 'd'.repeat(16) });
    await exporter.shutdown();

    // The control: the SDK's exporter run in this thread sends its export from here.
    const inThread = new InThreadJsonExporter({ url: `${receiver.url}/v1/traces`, timeoutMillis: 10_000 });
    const fromThread = await clientRequestsDuring(() => exportWith(inThread, spans));
    await inThread.shutdown();
    expect(fromThread).toBeGreaterThan(0);
  }, 60_000);

  it('http/protobuf: the export goes to /v1/traces as protobuf; export after shutdown fails', async () => {
    const before = receiver.exports.length;
    const exporter = protobuf;
    expect((await exportWith(exporter, madeSpans())).code).toBe(ExportResultCode.SUCCESS);
    const sent = receiver.exports.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
    // The trace id's bytes are in the message as they are (protobuf `bytes`).
    expect(sent[0]!.body.includes(Buffer.from('a'.repeat(32), 'hex'))).toBe(true);
    await exporter.shutdown();
    const late = await exportWith(exporter, madeSpans());
    expect(late.code).toBe(ExportResultCode.FAILED);
  }, 60_000);

  it('a collector that refuses connections: the batch fails with its error, and the next batch is tried again', async () => {
    const exporter = refused;
    const first = await exportWith(exporter, madeSpans());
    expect(first.code).toBe(ExportResultCode.FAILED);
    expect(first.error?.message).toMatch(/ECONNREFUSED|connect|export/i);
    const second = await exportWith(exporter, madeSpans());
    expect(second.code).toBe(ExportResultCode.FAILED);
  }, 60_000);
  it('whole hand-offs wait in the worker: EXPORT_BATCH spans go in one request; a short hand-off, the batch delay or a flush send what waits', async () => {
    const exporter = new WorkerSpanExporter({ protocol: 'http/json', url: `${receiver.url}/v1/traces`, headers: {}, timeoutMillis: 10_000, batchDelayMillis: 1_500 }, resource);
    const spansOf = (i: number) => (JSON.parse(receiver.exports[i]!.body.toString()) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] }).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length;
    // HANDOFF_BATCH spans at a time, as the batch processor hands them over.
    const handOff = () => Array.from({ length: HANDOFF_BATCH / 2 }, madeSpans).flat();
    try {
      let before = receiver.exports.length;
      for (let i = 0; i < EXPORT_BATCH / HANDOFF_BATCH; i++) expect((await exportWith(exporter, handOff())).code).toBe(ExportResultCode.SUCCESS);
      expect(receiver.exports.length - before).toBe(1);
      expect(spansOf(before)).toBe(EXPORT_BATCH);
      // Two whole hand-offs, then a short one (the processor's queue emptied): sent at once, together.
      before = receiver.exports.length;
      await exportWith(exporter, handOff());
      await exportWith(exporter, handOff());
      expect(receiver.exports.length).toBe(before);
      await exportWith(exporter, madeSpans());
      expect(receiver.exports.length - before).toBe(1);
      expect(spansOf(before)).toBe(2 * HANDOFF_BATCH + 2);
      // A whole hand-off and nothing after it: sent within the batch delay.
      before = receiver.exports.length;
      await exportWith(exporter, handOff());
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.exports.length).toBe(before);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(receiver.exports.length - before).toBe(1);
      expect(spansOf(before)).toBe(HANDOFF_BATCH);
      // A flush sends what waits.
      before = receiver.exports.length;
      await exportWith(exporter, handOff());
      await exporter.forceFlush();
      expect(receiver.exports.length - before).toBe(1);
      expect(spansOf(before)).toBe(HANDOFF_BATCH);
    } finally {
      await exporter.shutdown();
    }
  }, 60_000);
  it('OTEL_BSP_MAX_EXPORT_BATCH_SIZE below what hand-offs add up to: no request holds more than it, and no span is lost', async () => {
    const exporter = new WorkerSpanExporter({ protocol: 'http/json', url: `${receiver.url}/v1/traces`, headers: {}, timeoutMillis: 10_000, exportBatch: 100 }, resource);
    const spansOf = (i: number) => (JSON.parse(receiver.exports[i]!.body.toString()) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] }).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length;
    try {
      const before = receiver.exports.length;
      // Eight whole hand-offs of 64 (512 spans), then a flush.
      for (let i = 0; i < 8; i++) expect((await exportWith(exporter, Array.from({ length: HANDOFF_BATCH / 2 }, madeSpans).flat())).code).toBe(ExportResultCode.SUCCESS);
      await exporter.forceFlush();
      const sizes = receiver.exports.slice(before).map((_, i) => spansOf(before + i));
      expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(8 * HANDOFF_BATCH);
    } finally {
      await exporter.shutdown();
    }
  }, 60_000);
});
