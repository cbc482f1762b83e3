// The OTLP exporter's thread (workerExporter.ts starts it): spans arrive as plain data, are
// rebuilt as the SDK's ReadableSpans and sent by the OpenTelemetry OTLP/HTTP exporter. Here, not
// on the serving thread, so that its serialization and its HTTP client — Node's OutgoingMessage,
// parser and socket code, shared with the server's answers — run in an isolate of their own: on
// the serving thread the client's objects made that code's inline caches megamorphic for every
// request (bench/results.md › Cost of the metrics, session 15).
import { parentPort, workerData } from 'node:worker_threads';
import type { HrTime, Link, SpanContext, TraceState } from '@opentelemetry/api';
import { hrTimeDuration, type ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ExportWorkerData, PlainSpan, PlainSpanContext, ToWorker, FromWorker } from './workerExporter.ts';

const data = workerData as ExportWorkerData;
const port = parentPort!;
const config = { url: data.url, headers: data.headers, timeoutMillis: data.timeoutMillis };
const exporter: SpanExporter = data.protocol === 'http/json' ? new JsonExporter(config) : new ProtoExporter(config);
// One object: the OTLP transformer groups spans by their resource's identity.
const resource = resourceFromAttributes(data.resource);

const traceState = (s: string | undefined): TraceState | undefined => (s === undefined ? undefined : ({ serialize: () => s } as TraceState));
const spanContext = (c: PlainSpanContext): SpanContext => ({ traceId: c.traceId, spanId: c.spanId, traceFlags: c.traceFlags, isRemote: c.isRemote, traceState: traceState(c.traceState) });

function readable(p: PlainSpan): ReadableSpan {
  const context = spanContext(p.context);
  return {
    name: p.name,
    kind: p.kind,
    spanContext: () => context,
    parentSpanContext: p.parent && spanContext(p.parent),
    startTime: p.startTime,
    endTime: p.endTime,
    status: p.status,
    attributes: p.attributes,
    links: p.links.map((l): Link => ({ context: spanContext(l.context), attributes: l.attributes, droppedAttributesCount: l.droppedAttributesCount })),
    events: p.events,
    duration: hrTimeDuration(p.startTime as HrTime, p.endTime as HrTime),
    ended: true,
    resource,
    instrumentationScope: p.scope,
    droppedAttributesCount: p.droppedAttributesCount,
    droppedEventsCount: p.droppedEventsCount,
    droppedLinksCount: p.droppedLinksCount,
  };
}

const reply = (m: FromWorker) => port.postMessage(m);
const failure = (e: unknown) => ({ name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) });

port.on('message', (m: ToWorker) => {
  if (m.kind === 'export') {
    try {
      exporter.export(m.spans.map(readable), (r: ExportResult) => reply({ id: m.id, ok: r.code === 0, error: r.error && failure(r.error) }));
    } catch (e) {
      reply({ id: m.id, ok: false, error: failure(e) });
    }
    return;
  }
  const done = m.kind === 'flush' ? exporter.forceFlush?.() : exporter.shutdown();
  Promise.resolve(done).then(
    () => reply({ id: m.id, ok: true }),
    (e: unknown) => reply({ id: m.id, ok: false, error: failure(e) }),
  ).finally(() => {
    if (m.kind === 'shutdown') port.close();
  });
});
