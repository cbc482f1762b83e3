// A change set computed on demand off the serving thread (issue 32: first → last of 24 full-size
// releases held the event loop for up to 0.25–0.87 s at a time while it was computed, ~1 s of its
// ~3 s of CPU being the serving heap's GC). One worker thread (offThreadWorker.ts) parses the
// boundary rows, diffs, describes and orders the records and answers them encoded (encoded.ts):
// the serving thread only runs its statements (with its own client: the worker has none) and keeps
// one buffer. Started on first use, ended after IDLE_MS without work (its heap returned); when no
// worker can be run, the same computation runs in the thread (encodeRanged.ts), as before.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { distDir } from '../../paths.ts';
import type { EncodedChanges } from './encoded.ts';
import { encodeChangesFromRanges, type EncodeOptions } from './encodeRanged.ts';
import type { FromWorker, ToWorker, WorkerError } from './offThreadWorker.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;
type Ref = { id: number; version: string };

/** How long an idle worker is kept: a few pairs asked in a row share its start, and its heap goes after. */
const IDLE_MS = 30_000;

/** The worker script: dist/changes-worker.mjs beside the bundle, or the sources through a tsx bootstrap. */
function workerUrl(): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./offThreadWorkerTsx.mjs', import.meta.url) : pathToFileURL(path.join(distDir, 'changes-worker.mjs'));
}

/** The worker stopped (or could not start): its jobs are run in the thread instead. */
class WorkerGone extends Error {}

interface Job {
  db: Db;
  resolve: (e: EncodedChanges) => void;
  reject: (e: Error) => void;
}

/** What the thread has done (tests, bench): jobs answered by the worker, run in the thread instead, workers started. */
export const offThreadStats = { worker: 0, inThread: 0, started: 0 };

/** Tests: called before a worker's statement is run here (to hold a computation at one). */
export const offThreadHooks: { statement?: (sql: string) => Promise<void> | void } = {};

class ChangesWorker {
  private worker: Worker | undefined;
  private readonly jobs = new Map<number, Job>();
  private nextJob = 0;
  private idle: ReturnType<typeof setTimeout> | undefined;

  run(db: Db, from: Ref, to: Ref, opts: EncodeOptions): Promise<EncodedChanges> {
    let w: Worker;
    try {
      w = this.started();
    } catch (e) {
      return Promise.reject(new WorkerGone(`changes worker not started: ${(e as Error).message}`));
    }
    clearTimeout(this.idle);
    // Held while it has work (a CLI waiting for a change set), not after.
    w.ref();
    const job = this.nextJob++;
    return new Promise<EncodedChanges>((resolve, reject) => {
      this.jobs.set(job, { db, resolve, reject });
      w.postMessage({ kind: 'compute', job, from, to, opts } satisfies ToWorker);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(workerUrl());
    offThreadStats.started++;
    this.worker = w;
    w.on('message', (m: FromWorker) => (m.kind === 'query' ? this.query(w, m) : this.done(w, m)));
    const gone = (why: string) => {
      if (this.worker === w) this.worker = undefined;
      const jobs = [...this.jobs.values()];
      this.jobs.clear();
      for (const j of jobs) j.reject(new WorkerGone(why));
    };
    w.on('error', (e) => gone(`changes worker failed: ${e.message}`));
    w.on('exit', (code) => gone(`changes worker exited (${code})`));
    return w;
  }

  /** A worker's statement, run with its job's client; the rows (or the error) sent back. */
  private query(w: Worker, m: Extract<FromWorker, { kind: 'query' }>): void {
    const job = this.jobs.get(m.job);
    const reply = (r: { rows?: unknown; error?: WorkerError }) => {
      try {
        w.postMessage({ kind: 'rows', query: m.query, ...r } satisfies ToWorker);
      } catch (e) {
        // Rows that cannot be cloned: the statement fails there.
        w.postMessage({ kind: 'rows', query: m.query, error: { name: 'DataCloneError', message: (e as Error).message } } satisfies ToWorker);
      }
    };
    if (!job) return reply({ error: { name: 'Error', message: 'no such job' } });
    Promise.resolve(offThreadHooks.statement?.(m.sql))
      .then(() => job.db.$queryRawUnsafe(m.sql, ...m.params))
      .then(
      (rows) => reply({ rows }),
      (e: unknown) => reply({ error: e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) } }),
    );
  }

  private done(w: Worker, m: Extract<FromWorker, { kind: 'done' }>): void {
    const job = this.jobs.get(m.job);
    this.jobs.delete(m.job);
    if (m.encoded) job?.resolve(m.encoded);
    else job?.reject(Object.assign(new Error(m.error?.message ?? 'changes worker: no answer'), { name: m.error?.name ?? 'Error' }));
    if (this.jobs.size === 0 && this.worker === w) {
      w.unref();
      this.idle = setTimeout(() => {
        if (this.jobs.size === 0 && this.worker === w) {
          this.worker = undefined;
          void w.terminate();
        }
      }, IDLE_MS);
      this.idle.unref();
    }
  }
}

const shared = new ChangesWorker();

/**
 * The change set from → to from the boundary rows (encodeRanged.ts), computed on the changes
 * worker with `db`'s statements run here; in the thread when the worker cannot run it.
 */
export async function encodeOffThread(db: Db, from: Ref, to: Ref, opts: EncodeOptions): Promise<EncodedChanges> {
  try {
    const e = await shared.run(db, from, to, opts);
    offThreadStats.worker++;
    return e;
  } catch (e) {
    if (!(e instanceof WorkerGone)) throw e;
  }
  offThreadStats.inThread++;
  return encodeChangesFromRanges(db, from, to, opts);
}
