// How much coded-data work (a client's list or upload: validation, roll-up analysis, impact,
// SMQ application) runs at once. Each job is CPU work on the serving thread in slices that
// yield (see sliced below), so other requests interleave; what bounds the delay they see is
// how many jobs interleave, and what bounds memory is how many are held at once. Beyond the
// running jobs a few wait; beyond those a request is refused at once with 503
// SERVICE_UNAVAILABLE and Retry-After (20 concurrent 100k-row uploads otherwise held every
// other client for two minutes, issue 27). Public lists (no key) get the smaller budget.
import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '../domain/errors.ts';

/** The gates a job already holds: a REST route takes its place before reading the upload, and the service it calls runs in that place. */
const held = new AsyncLocalStorage<ReadonlySet<WorkGate>>();

export interface GateLimits {
  /** Jobs running at once. */
  running: number;
  /** Jobs waiting for a running one to end; beyond, refused. */
  queued: number;
}

/** Seconds a refused client is told to wait. */
export const CODED_WORK_RETRY_AFTER_SECONDS = 2;

export class WorkGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly name: string,
    readonly limits: GateLimits,
  ) {}

  get load(): { running: number; queued: number } {
    return { running: this.active, queued: this.waiting.length };
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

  async run<T>(job: () => Promise<T>): Promise<T> {
    const holding = held.getStore();
    if (holding?.has(this)) return job();
    if (this.active >= this.limits.running) {
      this.refuseIfFull();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await held.run(new Set([...(holding ?? []), this]), job);
    } finally {
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
  return { lists: new WorkGate('coded-list checks', lists), uploads: new WorkGate('coded-data uploads', uploads) };
}

/** Items handled between two yields to the event loop. */
export const SLICE_ITEMS = 500;

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items.map(fn)` in slices with a macrotask between them: other requests run in the gaps. */
export async function sliced<T, R>(items: readonly T[], fn: (item: T, index: number) => R, slice = SLICE_ITEMS): Promise<R[]> {
  const out: R[] = new Array(items.length);
  for (let k = 0; k < items.length; k++) {
    if (k > 0 && k % slice === 0) await macrotask();
    out[k] = fn(items[k]!, k);
  }
  return out;
}

/**
 * A long list answer for GraphQL to complete a slice per macrotask: the first slice as values,
 * each later slice as promises that settle one macrotask after the previous. GraphQL (graphql-js
 * and graphql-jit alike) completes a list's plain values in one synchronous pass — 10,000
 * validated codes with their paths held the serving thread ~0.5 s — and a promised item when it
 * settles, so the fields of each slice are built in a turn of their own and other requests run
 * between them. Short lists come back as they are.
 */
export function settleInSlices<T>(items: readonly T[], slice = SLICE_ITEMS): readonly (T | Promise<T>)[] {
  if (items.length <= slice) return items;
  const out: (T | Promise<T>)[] = new Array(items.length);
  let turn: Promise<void> = Promise.resolve();
  for (let k = 0; k < items.length; k++) {
    if (k > 0 && k % slice === 0) turn = turn.then(macrotask);
    const item = items[k]!;
    out[k] = k < slice ? item : turn.then(() => item);
  }
  return out;
}
