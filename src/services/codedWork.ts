// How much coded-data work (a client's list or upload: validation, roll-up analysis, impact,
// SMQ application) runs at once. Each job is CPU work on the serving thread in slices that
// yield (see sliced below), so other requests interleave; what bounds the delay they see is
// how many jobs interleave, and what bounds memory is how many are held at once. Beyond the
// running jobs a few wait; beyond those a request is refused at once with 503
// SERVICE_UNAVAILABLE and Retry-After (20 concurrent 100k-row uploads otherwise held every
// other client for two minutes, issue 27). Public lists (no key) get the smaller budget.
import { DomainError } from '../domain/errors.ts';
import { memoryGauges } from '../observability/signals.ts';
import { ScopedStorage } from '../runtime/scopedStorage.ts';
import { nextTurn } from '../runtime/nextTurn.ts';

/**
 * The gates a job already holds: a REST route takes its place before reading the upload, and
 * the service it calls runs in that place. Scoped: on only while a job runs (async hooks
 * would otherwise cost every request after the first job; src/runtime/scopedStorage.ts).
 */
const held = new ScopedStorage<ReadonlySet<WorkGate>>();

export interface GateLimits {
  /** Jobs running at once. */
  running: number;
  /** Jobs waiting for a running one to end; beyond, refused. */
  queued: number;
  /**
   * Memory of the jobs held at once (running and waiting), in bytes, each counted as
   * JOB_MEMORY_FACTOR times its input; a job alone beyond it is refused with 413, one that
   * would take the class beyond it with 503. Unset: no byte bound (tests of other things).
   */
  bytes?: number;
}

/**
 * Memory of a coded-data job per byte of its input: the parsed rows, their results and the
 * answer (an estimate, not a measurement; the answer is written in slices, so not all of it
 * is held at once). A 32 MB upload counts 128 MB: at the default budget, one at a time.
 */
export const JOB_MEMORY_FACTOR = 4;

/**
 * Input bytes counted for the rows or items a GraphQL field was sent (their string and number
 * values and JSON punctuation): what a REST route counts from its Content-Length.
 */
export function listInputBytes(items: unknown): number {
  if (!Array.isArray(items)) return 0;
  let bytes = 2;
  for (const item of items) {
    bytes += 8;
    if (item && typeof item === 'object') {
      // for…in, not Object.values: no array per item (100,000 rows).
      for (const k in item) {
        const v = (item as Record<string, unknown>)[k];
        bytes += 8 + (typeof v === 'string' ? v.length : typeof v === 'number' ? 8 : 0);
      }
    } else if (typeof item === 'string') bytes += item.length;
  }
  return bytes;
}

/** Seconds a refused client is told to wait. */
export const CODED_WORK_RETRY_AFTER_SECONDS = 2;

export class WorkGate {
  private active = 0;
  /** Memory counted for the jobs held now (running and waiting). */
  private heldBytes = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly name: string,
    readonly limits: GateLimits,
  ) {}

  get load(): { running: number; queued: number; bytes: number } {
    return { running: this.active, queued: this.waiting.length, bytes: this.heldBytes };
  }

  /** The memory a job with `inputBytes` of input is counted as. */
  static jobBytes(inputBytes: number): number {
    return Math.max(0, inputBytes) * JOB_MEMORY_FACTOR;
  }

  /** Refuses a job whose memory the class cannot hold: alone (413) or beside those held now (503). */
  private refuseIfTooLarge(bytes: number): void {
    const budget = this.limits.bytes;
    if (budget === undefined || bytes === 0) return;
    if (bytes > budget) {
      const most = Math.floor(budget / JOB_MEMORY_FACTOR);
      throw new DomainError('PAYLOAD_TOO_LARGE', `This request is larger than the ${this.name} budget allows (at most ${most} bytes of input); split it.`, {
        body: [`at most ${most} bytes for ${this.name} (MEMORY_BUDGET_MB)`],
      });
    }
    if (this.heldBytes + bytes > budget) {
      throw new DomainError('SERVICE_UNAVAILABLE', `The server is busy with other ${this.name}; retry in ${CODED_WORK_RETRY_AFTER_SECONDS} s.`, undefined, {
        retryAfter: CODED_WORK_RETRY_AFTER_SECONDS,
      });
    }
  }

  /**
   * Refuses now when a job would be refused: the HTTP layer calls it before reading an upload,
   * so a flood is turned away without parsing what it sends (run() checks again).
   */
  refuseIfFull(): void {
    if (this.active >= this.limits.running && this.waiting.length >= this.limits.queued) {
      throw new DomainError('SERVICE_UNAVAILABLE', `The server is busy with other ${this.name}; retry in ${CODED_WORK_RETRY_AFTER_SECONDS} s.`, undefined, {
        retryAfter: CODED_WORK_RETRY_AFTER_SECONDS,
      });
    }
  }

  /** Runs `job` in its turn; `bytesOf`: the memory it is counted as (WorkGate.jobBytes of its input), asked only when it takes a place. */
  async run<T>(job: () => Promise<T>, bytesOf: number | (() => number) = 0): Promise<T> {
    const holding = held.getStore();
    if (holding?.has(this)) return job();
    const bytes = typeof bytesOf === 'function' ? bytesOf() : bytesOf;
    this.refuseIfTooLarge(bytes);
    if (this.active >= this.limits.running) {
      this.refuseIfFull();
      this.heldBytes += bytes;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
      this.heldBytes += bytes;
    }
    try {
      return await held.run(new Set([...(holding ?? []), this]), job);
    } finally {
      this.heldBytes -= bytes;
      // The slot passes to the next waiter as it is (active unchanged), or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export interface CodedWorkGates {
  /** POST /codes/validate, /codes/analyse, GraphQL validateCodes and analyseCodes: no key needed. */
  lists: WorkGate;
  /** Impact analyses and SMQ applications: behind the API key. */
  uploads: WorkGate;
}

export function createCodedWorkGates(lists: GateLimits, uploads: GateLimits): CodedWorkGates {
  const gates = { lists: new WorkGate('coded-list checks', lists), uploads: new WorkGate('coded-data uploads', uploads) };
  if (lists.bytes !== undefined) memoryGauges.codedLists = { bytes: () => gates.lists.load.bytes, budget: lists.bytes };
  if (uploads.bytes !== undefined) memoryGauges.codedUploads = { bytes: () => gates.uploads.load.bytes, budget: uploads.bytes };
  return gates;
}

/** Items handled between two yields to the event loop (500 made 85–105 ms turns on the slow host class). */
export const SLICE_ITEMS = 250;


/** `items.map(fn)` in slices with a nextTurn between them: other requests run in the gaps. */
export async function sliced<T, R>(items: readonly T[], fn: (item: T, index: number) => R, slice = SLICE_ITEMS): Promise<R[]> {
  const out: R[] = new Array(items.length);
  for (let k = 0; k < items.length; k++) {
    if (k > 0 && k % slice === 0) await nextTurn();
    out[k] = fn(items[k]!, k);
  }
  return out;
}

/**
 * A long list answer for GraphQL to complete a slice per nextTurn: each slice as promises that
 * settle one nextTurn after the previous (the first one turn after the call). GraphQL (graphql-js
 * and graphql-jit alike) completes a list's plain values in one synchronous pass — 10,000
 * validated codes with their paths held the serving thread ~0.5 s — and a promised item when it
 * settles, so the fields of each slice are built in a turn of their own and other requests run
 * between them. Short lists come back as they are.
 */
export function settleInSlices<T>(items: readonly T[], slice = SLICE_ITEMS): readonly (T | Promise<T>)[] {
  if (items.length <= slice) return items;
  const out: (T | Promise<T>)[] = new Array(items.length);
  // Even the first slice waits a turn: completed as plain values it shared the turn that built the list's last slice.
  let turn: Promise<void> = nextTurn();
  for (let k = 0; k < items.length; k++) {
    if (k > 0 && k % slice === 0) turn = turn.then(nextTurn);
    const item = items[k]!;
    out[k] = turn.then(() => item);
  }
  return out;
}
