// A SpanExporter that hands each batch, as one flat array (spanRecords.ts), to a worker thread running the OTLP/HTTP
// exporter (exportWorker.ts). The serving thread keeps only the copy: no protobuf or JSON
// serialization and no HTTP client of its own, whose objects went through Node's HTTP and stream
// code beside the server's own and left its inline caches megamorphic for every request — sampled
// or not (bench/results.md › Cost of the metrics, session 15: ≈ 4 k instructions of megamorphic
// loads per warm answer, and ≈ 4.6 k per request of serialization at a 10 % ratio).
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Attributes } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { distDir } from '../paths.ts';
import { flatten, type FlatBatch } from './spanRecords.ts';

export interface ExportWorkerData {
  protocol: 'http/protobuf' | 'http/json';
  url: string;
  headers: Record<string, string>;
  timeoutMillis: number;
  /** OTEL_BSP_SCHEDULE_DELAY: the longest the worker holds spans it has before sending them. */
  batchDelayMillis?: number;
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans in one request to the collector at most (default EXPORT_BATCH). */
  exportBatch?: number;
  resource: Attributes;
}

/**
 * Spans handed to the worker at a time (the batch processor's export batch), while the worker sends them to the
 * collector EXPORT_BATCH at a time. Why apart: a span waiting on the serving thread outlives two scavenges and is
 * promoted, and the old space it fills is marked again by each major GC of the serving isolate's whole heap
 * (the release index: tens of MB), on V8's helper threads — at 512, ≈ 9 µs of CPU a sampled span, more than the
 * export itself (bench/results.md, session 24, the export worker). 64 leave within about one scavenge.
 */
export const HANDOFF_BATCH = 64;
/** Spans in one OTLP request by default: the batch processor's usual maximum (OTEL_BSP_MAX_EXPORT_BATCH_SIZE's default). */
export const EXPORT_BATCH = 512;

export type ToWorker = { kind: 'export'; id: number; batch: FlatBatch } | { kind: 'flush' | 'shutdown'; id: number };
export interface FromWorker {
  id: number;
  ok: boolean;
  error?: { name: string; message: string };
}

/** The worker script: dist/otlp-export-worker.mjs beside the bundle, or the sources through a tsx bootstrap. */
function workerUrl(): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./exportWorkerTsx.mjs', import.meta.url) : pathToFileURL(path.join(distDir, 'otlp-export-worker.mjs'));
}

const failed = (error: Error): ExportResult => ({ code: ExportResultCode.FAILED, error });

export class WorkerSpanExporter implements SpanExporter {
  private worker?: Worker;
  private next = 0;
  private readonly pending = new Map<number, (r: FromWorker) => void>();
  private stopped = false;
  private readonly data: ExportWorkerData;

  constructor(options: Omit<ExportWorkerData, 'resource'>, resource: Resource) {
    this.data = { ...options, resource: resource.attributes };
    // Started now, so that it has loaded the exporter by the first batch.
    this.start();
  }

  private start(): Worker {
    // A small heap: a batch is at most 512 spans, and at most a few wait (the processor's queue is bounded).
    const w = new Worker(workerUrl(), { workerData: this.data, resourceLimits: { maxOldGenerationSizeMb: 64 } });
    // Never what keeps the process alive: shutdown() flushes before it ends.
    w.unref();
    w.on('message', (r: FromWorker) => {
      const done = this.pending.get(r.id);
      this.pending.delete(r.id);
      done?.(r);
    });
    // A worker that failed or stopped: what it had is lost (failed), and the next batch starts another.
    const lost = (e: Error) => {
      if (this.worker === w) this.worker = undefined;
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const done of waiting) done({ id: 0, ok: false, error: { name: e.name, message: e.message } });
    };
    w.on('error', lost);
    w.on('exit', () => lost(new Error('the OTLP export worker stopped')));
    this.worker = w;
    return w;
  }

  private ask(message: ToWorker): Promise<FromWorker> {
    const w = this.worker ?? this.start();
    return new Promise((resolve) => {
      this.pending.set(message.id, resolve);
      try {
        w.postMessage(message);
      } catch (e) {
        // A span's attribute that cannot be copied (never one of ours): this batch fails, not the next.
        this.pending.delete(message.id);
        resolve({ id: message.id, ok: false, error: { name: 'Error', message: e instanceof Error ? e.message : String(e) } });
      }
    });
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.stopped) return done(failed(new Error('the OTLP exporter was shut down')));
    let message: ToWorker;
    try {
      message = { kind: 'export', id: ++this.next, batch: flatten(spans) };
    } catch (e) {
      return done(failed(e instanceof Error ? e : new Error(String(e))));
    }
    void this.ask(message).then((r) => done(r.ok ? { code: ExportResultCode.SUCCESS } : failed(Object.assign(new Error(r.error?.message ?? 'export failed'), { name: r.error?.name ?? 'Error' }))));
  }

  /** A flush or shutdown, answered by the worker within its exporter's timeout (and a second), or given up on. */
  private async settle(kind: 'flush' | 'shutdown'): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.data.timeoutMillis + 1_000)));
    await Promise.race([this.ask({ kind, id: ++this.next }), late]);
    clearTimeout(timer);
  }

  async forceFlush(): Promise<void> {
    if (this.stopped || !this.worker) return;
    await this.settle('flush');
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const w = this.worker;
    if (!w) return;
    // The worker's own exporter sends what it still holds (bounded by its timeout), then the thread
    // ends; one that does not answer by then is stopped.
    await this.settle('shutdown');
    await w.terminate();
  }
}
