// The OTLP exporter's thread (workerExporter.ts starts it): spans arrive as a flat array
// (spanRecords.ts) and are sent by the OpenTelemetry OTLP/HTTP exporter's transport (retries,
// timeout, headers, compression as configured): protobuf written straight from the batch
// (otlpProtobuf.ts; the SDK's serializer for what that does not cover), JSON by the SDK's
// exporter from ReadableSpans rebuilt from it. Here, not
// on the serving thread, so that its serialization and its HTTP client — Node's OutgoingMessage,
// parser and socket code, shared with the server's answers — run in an isolate of their own: on
// the serving thread the client's objects made that code's inline caches megamorphic for every
// request (bench/results.md › Cost of the metrics, session 15).
import { parentPort, workerData } from 'node:worker_threads';
import type { ExportResult, InstrumentationScope } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, type IExportTraceServiceResponse, type ISerializer } from '@opentelemetry/otlp-transformer';
import type { ExportWorkerData, ToWorker, FromWorker } from './workerExporter.ts';
import { drawIds, NUMBERS, readSpans, type FlatBatch } from './spanRecords.ts';
import { encodeResource, encodeTraceRequest } from './otlpProtobuf.ts';

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

/** Sends a batch: the SDK's OTLP/HTTP transport, with its serializer or ours. */
interface Sender {
  export(batch: FlatBatch, done: (r: ExportResult) => void): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

function jsonSender(): Sender {
  const json = new JsonExporter(config);
  return { export: (batch, done) => json.export(rebuilt(batch), done), forceFlush: () => json.forceFlush(), shutdown: () => json.shutdown() };
}

function protobufSender(): Sender {
  // The resource's Resource field, written once (undefined: not all primitive, so every batch takes the SDK's serializer).
  const resourceField = resource.schemaUrl ? undefined : encodeResource(resource.attributes);
  const serializer: ISerializer<FlatBatch, IExportTraceServiceResponse> = {
    serializeRequest: (batch) => (resourceField && encodeTraceRequest(batch, resourceField)) || ProtobufTraceSerializer.serializeRequest(rebuilt(batch)),
    deserializeResponse: (bytes) => ProtobufTraceSerializer.deserializeResponse(bytes),
  };
  // What the SDK's OTLPTraceExporter (exporter-trace-otlp-proto) builds, with this serializer in place of its own.
  const options = convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' });
  return new OTLPExporterBase(createOtlpHttpExportDelegate(options, serializer, 'otlp_http_span_exporter', { name: 'span', countItems: (b) => b.numbers.length / NUMBERS }, undefined));
}

const exporter: Sender = data.protocol === 'http/json' ? jsonSender() : protobufSender();

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
