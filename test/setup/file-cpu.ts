// Each test file's CPU time (user + system: its import, hooks and tests, and the processes it
// started), for test-results/file-cpu.json (file-times.ts). Wall time on a shared machine says
// little about the suite's budget; CPU seconds add up about the same on a busy machine as on a
// quiet one. A worker runs one file at a time (the forks pool), so the worker process's own CPU
// over the file is the file's, and its children's (cutime, cstime: CLI and server processes,
// Chromium, once they have exited and been reaped) are what the file started. Linux only (/proc).
import { readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/** This process's CPU and that of its reaped children, in milliseconds; undefined without /proc. */
function cpuMs(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces): utime is the 14th field, then stime, cutime, cstime.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

declare module 'vitest' {
  interface TaskMeta {
    /** CPU milliseconds of the file's worker and the processes it started (set on the file). */
    cpuMs?: number;
    /** Milliseconds the file waited for the store templates, the bundle or Chromium, before its own hooks and in them (wait-templates.ts). */
    setupWaitMs?: number;
  }
}

// A setup file runs anew before each test file is imported: the file's import counts too (on a
// worker's first file, loading the product's modules).
const startedAt = cpuMs();

// The second argument is the file's suite: its meta reaches the reporter with the file's result.
afterAll(({}, file) => {
  const now = cpuMs();
  if (startedAt !== undefined && now !== undefined) (file as { meta: { cpuMs?: number } }).meta.cpuMs = Math.round(now - startedAt);
});
