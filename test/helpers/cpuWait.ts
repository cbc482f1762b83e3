// How long a thread of another process has run, and how long it was ready to run but had no CPU
// (Linux /proc/<pid>/task/<tid>/schedstat: nanoseconds on a CPU, nanoseconds on a run queue).
//
// Why: on a host with more runnable threads than cores, a long probe turn of the shipped server is
// mostly the kernel keeping its serving thread off a CPU, not the server's work: on the 2-core host
// at load average 20-28, the serving thread's turns over 150 ms during 20 concurrent uploads were
// ~90 % run-queue wait (18 ms on a CPU in a 551 ms turn; bench/results.md). A latency target for
// the server's own work subtracts that wait; the tests report both figures.
import { readFileSync } from 'node:fs';

export interface ThreadCpu {
  /** Milliseconds on a CPU since the thread started. */
  runMs: number;
  /** Milliseconds ready to run but waiting for a CPU since the thread started. */
  waitMs: number;
}

/** The thread `tid` of `pid` (default its main thread); undefined where the kernel does not say (not Linux, no schedstats). */
export function threadCpu(pid: number, tid = pid): ThreadCpu | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? { runMs: run! / 1e6, waitMs: wait! / 1e6 } : undefined;
  } catch {
    return undefined;
  }
}

/** One timed call: its time as the client saw it, and that less the longer of the CPU waits meanwhile. */
export interface Turn<T> {
  value: T;
  seenMs: number;
  /** seenMs less the longer of the two waits (server's serving thread, this process's main thread): they may overlap, so their sum could count one twice. */
  ownMs: number;
  /** Milliseconds each thread (server's serving thread, this process's main thread) waited for a CPU meanwhile (0 where the kernel does not say). */
  waitMs: [number, number];
  /** Milliseconds each ran on a CPU meanwhile (NaN where the kernel does not say). */
  runMs: [number, number];
}

/** `ms` less the longer of the two threads' waits (see Turn.ownMs). */
export const lessWait = (ms: number, waitMs: readonly number[]) => Math.max(0, ms - Math.max(...waitMs));

/**
 * Times `call` as a probe turn of the server whose serving thread is `serverPid`'s main thread,
 * and takes off what the kernel kept either thread waiting for a CPU meanwhile (the rule of
 * test/shipped/uploads-probe.test.ts): on a host shared with other work that wait, not the
 * server's, made the long turns. `vitest` runs each file in a forked process, whose main thread
 * runs the probe (process.pid).
 */
export async function timedTurn<T>(serverPid: number, call: () => Promise<T>): Promise<Turn<T>> {
  const before = [threadCpu(serverPid), threadCpu(process.pid)];
  const t0 = performance.now();
  const value = await call();
  const seenMs = performance.now() - t0;
  const after = [threadCpu(serverPid), threadCpu(process.pid)];
  const waitMs = [0, 1].map((k) => (before[k] && after[k] ? after[k].waitMs - before[k].waitMs : 0)) as [number, number];
  const runMs = [0, 1].map((k) => (before[k] && after[k] ? after[k].runMs - before[k].runMs : NaN)) as [number, number];
  return { value, seenMs, ownMs: lessWait(seenMs, waitMs), waitMs, runMs };
}
