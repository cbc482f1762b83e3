// The OTLP exporter's thread (workerExporter.ts starts it): spans arrive as flat arrays
// (spanRecords.ts), HANDOFF_BATCH at a time, wait flat until EXPORT_BATCH of them, are rebuilt as ReadableSpans and sent by the OpenTelemetry OTLP/HTTP
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
import { EXPORT_BATCH, HANDOFF_BATCH, type ExportWorkerData, type ToWorker, type FromWorker } from './workerExporter.ts';
import { drawIds, NUMBERS, readSpans, type FlatBatch } from './spanRecords.ts';

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

/** The SDK's OTLP/HTTP exporter for the configured protocol, fed the batches' rebuilt spans. */
const sdk = data.protocol === 'http/json' ? new JsonExporter(config) : new ProtobufExporter(config);

const reply = (m: FromWorker) => port.postMessage(m);
const failure = (e: unknown) => ({ name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) });

// The serving thread hands spans over HANDOFF_BATCH at a time (workerExporter.ts says why); they wait here, flat,
// until EXPORT_BATCH of them make one OTLP request, as the batch processor would have sent them.
let held: FlatBatch[] = [];
let heldSpans = 0;
let timer: NodeJS.Timeout | undefined;

/** What is held, sent as one request; `done` gets its result. */
function send(done: (r: ExportResult) => void): void {
  clearTimeout(timer);
  timer = undefined;
  const batches = held;
  held = [];
  heldSpans = 0;
  try {
    sdk.export(
      batches.flatMap((b) => readSpans(b, resource, drawIds, scopeOf)),
      done,
    );
  } catch (e) {
    done({ code: 1, error: e instanceof Error ? e : new Error(String(e)) });
  }
}

// An export's failure is answered to the hand-off that completed its request; the ones before it were answered
// when they arrived (the batch processor sends the next only once the last is answered).
const answer = (id: number) => (r: ExportResult) => reply({ id, ok: r.code === 0, error: r.error && failure(r.error) });
const sendHeld = () => send((r) => r.code === 0 || answerLater(r));
// A failed send that no hand-off waits for (the batch delay's): reported with the next hand-off's answer.
let lateFailure: ExportResult | undefined;
const answerLater = (r: ExportResult) => void (lateFailure = r);

/** OTEL_BSP_MAX_EXPORT_BATCH_SIZE; the processor hands over at most this many at a time too. */
const exportBatch = data.exportBatch ?? EXPORT_BATCH;
const handOff = Math.min(HANDOFF_BATCH, exportBatch);

function take(id: number, batch: FlatBatch): void {
  const spans = batch.numbers.length / NUMBERS;
  // A request never holds more than the configured maximum: what waits goes first when this hand-off would overflow it.
  if (heldSpans > 0 && heldSpans + spans > exportBatch) sendHeld();
  held.push(batch);
  heldSpans += spans;
  // A hand-off short of a whole one: the processor emptied its queue (its batch delay, a flush): send now, as it would have.
  if (heldSpans >= exportBatch || spans < handOff) return send(answer(id));
  const failed = lateFailure;
  lateFailure = undefined;
  reply(failed ? { id, ok: false, error: failed.error && failure(failed.error) } : { id, ok: true });
  // Whole hand-offs that stop coming before a request is full: sent within the batch delay all the same.
  timer ??= setTimeout(sendHeld, data.batchDelayMillis ?? 5_000);
}

/** What is held, sent; then the SDK exporter's own flush (its requests in flight). */
const sendAll = () => (heldSpans > 0 ? new Promise<void>((resolve) => send(() => resolve())) : Promise.resolve());

port.on('message', (m: ToWorker) => {
  if (m.kind === 'export') {
    try {
      take(m.id, m.batch);
    } catch (e) {
      reply({ id: m.id, ok: false, error: failure(e) });
    }
    return;
  }
  const done = sendAll().then(() => (m.kind === 'flush' ? sdk.forceFlush() : sdk.shutdown()));
  Promise.resolve(done).then(
    () => reply({ id: m.id, ok: true }),
    (e: unknown) => reply({ id: m.id, ok: false, error: failure(e) }),
  ).finally(() => {
    if (m.kind === 'shutdown') port.close();
  });
});
