// The OTLP exporter's thread (workerExporter.ts starts it): spans arrive as a flat array
// (spanRecords.ts), are rebuilt as ReadableSpans and sent by the OpenTelemetry OTLP/HTTP
// exporter (protobuf or JSON; retries, timeout, headers, compression as configured). A
// protobuf encoder written straight from the flat batch was measured and not kept: a third of
// the SDK serializer's CPU per span, no difference end to end (bench/results.md, session 19). Here, not
// on the serving thread, so that its serialization and its HTTP client — Node's OutgoingMessage,
// parser and socket code, shared with the server's answers — run in an isolate of their own: on
// the serving thread the client's objects made that code's inline caches megamorphic for every
// request (bench/results.md › Cost of the metrics, session 15).
import { parentPort, workerData } from 'node:worker_threads';
import type { ExportResult, InstrumentationScope } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ExportWorkerData, ToWorker, FromWorker } from './workerExporter.ts';
import { drawIds, readSpans, type FlatBatch } from './spanRecords.ts';

const data = workerData as ExportWorkerData;
const port = parentPort!;
const config = { url: data.url, headers: data.headers, timeoutMillis: data.timeoutMillis };
// One object: the OTLP transformer groups spans by their resource's identity.
const resource = resourceFromAttributes(data.resource);

// One object per scope for every batch: the protobuf serializer groups a batch's spans by their scope's identity.
const scopes = new Map<string, InstrumentationScope>();
const scopeOf = (s: InstrumentationScope): InstrumentationScope => {
  const key = `${s.name}@${s.version ?? ''}:${s.schemaUrl ?? ''}`;
  let kept = scopes.get(key);
  if (!kept) scopes.set(key, (kept = s));
  return kept;
};

const rebuilt = (batch: FlatBatch) => readSpans(batch, resource, drawIds, scopeOf);

/** The SDK's OTLP/HTTP exporter for the configured protocol, fed the batch's rebuilt spans. */
const sdk = data.protocol === 'http/json' ? new JsonExporter(config) : new ProtobufExporter(config);
const exporter = {
  export: (batch: FlatBatch, done: (r: ExportResult) => void) => sdk.export(rebuilt(batch), done),
  forceFlush: () => sdk.forceFlush(),
  shutdown: () => sdk.shutdown(),
};

const reply = (m: FromWorker) => port.postMessage(m);
const failure = (e: unknown) => ({ name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) });

port.on('message', (m: ToWorker) => {
  if (m.kind === 'export') {
    try {
      exporter.export(m.batch, (r: ExportResult) => reply({ id: m.id, ok: r.code === 0, error: r.error && failure(r.error) }));
    } catch (e) {
      reply({ id: m.id, ok: false, error: failure(e) });
    }
    return;
  }
  const done = m.kind === 'flush' ? exporter.forceFlush() : exporter.shutdown();
  Promise.resolve(done).then(
    () => reply({ id: m.id, ok: true }),
    (e: unknown) => reply({ id: m.id, ok: false, error: failure(e) }),
  ).finally(() => {
    if (m.kind === 'shutdown') port.close();
  });
});
