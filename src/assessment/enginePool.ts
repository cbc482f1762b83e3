// The coding engine on a pool of worker threads (Piscina), so one long narrative never
// blocks the event loop: liveness, catalog reads and other clients are served meanwhile.
// Each task has a time budget (NLP_TIMEOUT_MS) once a worker runs it; past it the task is
// aborted, which terminates the worker (Piscina starts another). Waiting is bounded by the
// queue: when every worker is busy and NLP_MAX_QUEUE tasks wait, a request is refused at
// once, so a queued task waits at most (its place / workers) budgets.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { DomainError } from '../domain/errors.ts';
import { loadVocabularySource, vocabularySourceFromIndex } from './loadVocabulary.ts';
import type { ReleaseIndex } from '../domain/releaseIndex/releaseIndex.ts';
import type { CodingEngine } from './engine.ts';
import type { EngineResult, EngineTask } from './engineTasks.ts';
import { encodeSourceInSlices } from './vocabularySource.ts';
import { distDir } from '../paths.ts';
import type { WorkerReady, WorkerRequest } from './nlpWorker.ts';
import { counts, memoryGauges, timings } from '../observability/signals.ts';
import { traceHooks } from '../observability/traceHooks.ts';

export interface EnginePoolOptions {
  workers: number;
  timeoutMs: number;
  maxQueue: number;
  /** Bytes (estimated) of built vocabularies all workers together keep; each gets its part (MEMORY_BUDGET_MB's share). */
  vocabularyBytes?: number;
  /** Bytes of encoded vocabulary sources kept on the serving thread (MEMORY_BUDGET_MB's share). */
  sourceBytes?: number;
}

/** Where a release's names come from without a 100k-row statement: its built index (indexCache.ts). */
export interface IndexSource {
  index(releaseId: number): Promise<Pick<ReleaseIndex, 'releaseId' | 'size' | 'level' | 'code' | 'ptCode' | 'current' | 'name'>>;
}

/** Defaults of the byte bounds: MEMORY_BUDGET_MB's default shares (src/config.ts memoryShares). */
const MB = 1024 * 1024;
/** Encoded sources (a full-size release's is ~4 MB: names and three columns). */
const SOURCE_CACHE_BYTES = 32 * MB;
/** Built vocabularies of all workers (~45 MB each at full size). */
const VOCABULARY_BYTES = 128 * MB;

/** Seconds a refused client is asked to wait (Retry-After). */
export const ENGINE_RETRY_AFTER_SECONDS = 1;

/**
 * The worker script: the bundle's entry (dist/nlp-worker.mjs, built by scripts/build.mjs)
 * when this module is bundled, else the sources through a tsx bootstrap beside this file.
 */
export function workerFilename(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fromSources ? new URL('./nlpWorkerTsx.mjs', import.meta.url).href : pathToFileURL(path.join(distDir, 'nlp-worker.mjs')).href;
}

export class EnginePool implements CodingEngine {
  private readonly pool: Piscina;
  private readonly sources: LRUCache<number, Promise<SharedArrayBuffer>>;
  private inFlight = 0;
  /** Each worker's vocabulary bytes as it last said (its `ready` message), by thread id. */
  private readonly workerBytes = new Map<number, number>();
  /** What each worker may keep: its part of the vocabularies' share. */
  private readonly perWorkerBytes: number;

  constructor(
    private readonly prisma: Pick<PrismaClient, '$queryRawUnsafe'>,
    private readonly opts: EnginePoolOptions,
    /** Without it, sources come from the store (one statement of every PT and LLT). */
    private readonly indexes?: IndexSource,
  ) {
    this.pool = new Piscina({
      filename: workerFilename(),
      minThreads: opts.workers,
      maxThreads: opts.workers,
      // Workers keep their built vocabularies: never retire an idle one.
      idleTimeout: Infinity,
    });
    // Encoded sources are a few MB each (a release's names), bounded in bytes: the serving
    // thread encodes a release once, however many releases clients alternate between.
    this.sources = new LRUCache({ maxSize: opts.sourceBytes ?? SOURCE_CACHE_BYTES });
    const vocabularyBytes = opts.vocabularyBytes ?? VOCABULARY_BYTES;
    this.perWorkerBytes = Math.floor(vocabularyBytes / Math.max(1, opts.workers));
    const gauges = memoryGauges;
    gauges.engineVocabularies = { bytes: () => this.vocabularyBytesHeld(), budget: vocabularyBytes };
    gauges.engineSources = { bytes: () => this.sources.calculatedSize, budget: opts.sourceBytes ?? SOURCE_CACHE_BYTES };
  }

  /** Estimated bytes of the vocabularies the live workers keep (a worker ended at a timeout took its own along). */
  vocabularyBytesHeld(): number {
    let n = 0;
    for (const w of this.pool.threads) n += this.workerBytes.get(w.threadId) ?? 0;
    return n;
  }

  /** A worker's `ready` message: the bytes it keeps now. */
  private noteReady(m: unknown): void {
    const r = m as Partial<WorkerReady> | undefined;
    if (typeof r?.threadId === 'number' && typeof r.bytes === 'number') this.workerBytes.set(r.threadId, r.bytes);
  }

  private source(releaseId: number): Promise<SharedArrayBuffer> {
    let p = this.sources.get(releaseId);
    if (!p) {
      // From the release's index (read in slices) when there is one; never a statement of every name on the serving thread.
      const loading = this.indexes ? this.indexes.index(releaseId).then((ix) => vocabularySourceFromIndex(this.prisma, ix)) : loadVocabularySource(this.prisma, releaseId);
      const encoding = loading.then(encodeSourceInSlices);
      p = encoding;
      this.sources.set(releaseId, encoding, { size: 1 });
      encoding.then(
        (source) => {
          // Counted at its real size once known. lru-cache keeps an entry's size when set() is
          // given the same value again (every source was counted at 1 byte): delete, then set.
          if (this.sources.peek(releaseId) === encoding) {
            this.sources.delete(releaseId);
            this.sources.set(releaseId, encoding, { size: Math.max(1, source.byteLength) });
          }
          this.warm(releaseId, source);
        },
        () => this.sources.delete(releaseId),
      );
    }
    return p;
  }

  /**
   * Every worker but one builds the release's vocabulary now, in parallel, while the first
   * request's own task builds it on the last: later requests find it built on any worker.
   */
  private warm(releaseId: number, source: SharedArrayBuffer): void {
    for (let i = 1; i < this.opts.workers; i++) {
      const { port1, port2 } = new MessageChannel();
      port1.once('message', (m) => {
        this.noteReady(m);
        port1.close();
      });
      const req: WorkerRequest = { releaseId, source, task: { op: 'warm' }, ready: port2, vocabularyBytes: this.perWorkerBytes };
      this.pool.run(req, { transferList: [port2] }).catch(() => port1.close());
    }
  }

  async run<T extends EngineTask>(releaseId: number, task: T): Promise<EngineResult<T>> {
    if (this.inFlight >= this.opts.workers + this.opts.maxQueue) {
      counts.engineRefusals++;
      throw new DomainError('SERVICE_UNAVAILABLE', 'Every narrative coding worker is busy; retry shortly.', undefined, { retryAfter: ENGINE_RETRY_AFTER_SECONDS });
    }
    this.inFlight++;
    counts.engineQueued++;
    const queued = performance.now();
    // Traces on: the task's span under the request's, and the worker's run (from its ready message) under it.
    const span = traceHooks.engineTask?.(task.op);
    let started = 0;
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    // The budget starts when the worker starts the task with its vocabulary ready: loading
    // the release, starting a worker and its one-time vocabulary build are not the request's cost.
    const onReady = (m: unknown) => {
      this.noteReady(m);
      counts.engineQueued--;
      counts.engineRunning++;
      started = performance.now();
      span?.started();
      timer = setTimeout(() => abort.abort(), this.opts.timeoutMs);
    };
    port1.once('message', onReady);
    let outcome: 'ok' | 'timeout' | 'error' = 'error';
    try {
      const source = await this.source(releaseId);
      const req: WorkerRequest = { releaseId, source, task, ready: port2, vocabularyBytes: this.perWorkerBytes };
      const result = (await this.pool.run(req, { signal: abort.signal, transferList: [port2] })) as EngineResult<T>;
      outcome = 'ok';
      return result;
    } catch (e) {
      if (abort.signal.aborted) {
        outcome = 'timeout';
        counts.engineTimeouts++;
        throw new DomainError('TIMEOUT', `The narrative could not be coded within the time budget (${this.opts.timeoutMs} ms); retry later or send a shorter text.`, undefined, {
          retryAfter: ENGINE_RETRY_AFTER_SECONDS,
        });
      }
      throw e;
    } finally {
      // Two ports, no order between them: the result can be handled before the worker's ready
      // message, which is then still queued on port1. Taken now, so the task is counted as
      // started and its worker span exists, before the port closes.
      if (!started) {
        const pending = receiveMessageOnPort(port1);
        if (pending) onReady(pending.message);
      }
      clearTimeout(timer);
      port1.close();
      port2.close();
      this.inFlight--;
      if (started) counts.engineRunning--;
      else counts.engineQueued--;
      // From the request's point of view: queueing and the worker's own time.
      timings.engineTask?.(task.op, (performance.now() - queued) / 1000, outcome);
      span?.end(outcome);
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
