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
