// Native tools of the full benchmark (wrk, haproxy, taskset) and CPU pinning: on a
// 2-core machine the load generator gets core 0 and the server under test (or the bare
// server it is compared with) core 1, so both sides of a ratio are loaded the same way.
// Also per-process CPU time (/proc/PID/stat), to say what bounded a run.
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runToEnd } from './procs.ts';

/** A CPU list for taskset -c ("0", "1", "0,1"). */
export type Cpu = string;

export function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/sbin', '/sbin'])) {
    const p = path.join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

export const INSTALL_HINT = 'install it with `apt-get install wrk haproxy` (Debian/Ubuntu), or run `npm run bench:quick` (autocannon, no native tools)';

/**
 * A native tool's path (wrk, haproxy, valgrind). When missing: as root with apt-get, `apt-get install -y NAME` is tried once;
 * otherwise an Error saying how to install it.
 */
export async function ensureTool(name: 'wrk' | 'haproxy' | 'valgrind', log: (s: string) => void): Promise<string> {
  const hint = name === 'valgrind' ? 'install it with `apt-get install valgrind` (Debian/Ubuntu)' : INSTALL_HINT;
  const found = which(name);
  if (found) return found;
  const apt = which('apt-get');
  if (process.getuid?.() === 0 && apt) {
    log(`${name} not found: trying apt-get install -y ${name}`);
    const r = await runToEnd(apt, ['install', '-y', '--no-install-recommends', name], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs: 300_000 });
    const again = which(name);
    if (again) return again;
    throw new Error(`${name} is not installed and apt-get install failed (exit ${r.code}): ${r.stderr.slice(-500)}; ${hint}`);
  }
  throw new Error(`${name} is not installed: ${hint}`);
}

export interface PinPlan {
  /** The load generator (wrk, or the round-robin proxy beside it). */
  load?: Cpu;
  /** The server under test and the bare server. */
  server?: Cpu;
  note: string;
}

export function pinPlan(): PinPlan {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const taskset = which('taskset');
  if (cores < 2) return { note: `no CPU pinning: ${cores} core` };
  if (!taskset) return { note: 'no CPU pinning: taskset not installed (util-linux)' };
  return { load: '0', server: '1', note: `wrk pinned on CPU 0, the server under test and the bare server on CPU 1 (taskset; ${cores} cores)` };
}

/** [cmd, args] running `cmd args` on `cpu` through taskset (which execs: the PID stays the command's). */
export function pinned(cmd: string, args: string[], cpu: Cpu | undefined): [string, string[]] {
  const taskset = cpu === undefined ? undefined : which('taskset');
  return taskset ? [taskset, ['-c', cpu!, cmd, ...args]] : [cmd, args];
}

const TICKS_PER_S = 100; // USER_HZ on Linux

/** utime+stime of a process (or the sum over several) in seconds (Linux), undefined when unreadable. */
export function cpuSeconds(pid: number | number[] | undefined): number | undefined {
  if (pid === undefined) return undefined;
  if (Array.isArray(pid)) return pid.length ? pid.reduce((n, p) => n + (cpuSeconds(p) ?? 0), 0) : undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** PIDs of the processes named `comm` (postgres, redis-server). */
export function pidsByComm(comm: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() === comm) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Busy and total jiffies of each core (/proc/stat cpuN lines), empty off Linux. */
function coreTimes(): { busy: number; total: number }[] {
  try {
    return readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .filter((l) => /^cpu\d+ /.test(l))
      .map((l) => {
        const f = l.trim().split(/\s+/).slice(1).map(Number);
        const total = f.reduce((a, b) => a + b, 0);
        return { busy: total - f[3]! - f[4]!, total };
      });
  } catch {
    return [];
  }
}

/**
 * CPU time of some processes over `fn`, as a share of one core; also how busy each core
 * was (`core0`, `core1`, …): a pinned server's core busier than the server itself means
 * other processes ran there (this machine is shared).
 */
export async function withCpu<T>(pids: Record<string, number | number[] | undefined>, fn: () => Promise<T>): Promise<{ result: T; cpu: Record<string, number> }> {
  // Per PID, so that a process that exits meanwhile (a PostgreSQL backend) drops out of both ends.
  const list = (p: number | number[] | undefined) => (p === undefined ? [] : Array.isArray(p) ? p : [p]);
  const before = new Map<number, number | undefined>();
  for (const p of Object.values(pids)) for (const pid of list(p)) before.set(pid, cpuSeconds(pid));
  const cores0 = coreTimes();
  const t0 = performance.now();
  const result = await fn();
  const wall = (performance.now() - t0) / 1000;
  const cores1 = coreTimes();
  const cpu: Record<string, number> = {};
  for (const [k, p] of Object.entries(pids)) {
    let used: number | undefined;
    for (const pid of list(p)) {
      const a = before.get(pid);
      const b = cpuSeconds(pid);
      if (a !== undefined && b !== undefined) used = (used ?? 0) + (b - a);
    }
    if (used !== undefined) cpu[k] = Math.round((used / wall) * 100) / 100;
  }
  cores1.forEach((c, i) => {
    const a = cores0[i];
    if (a && c.total > a.total) cpu[`core${i}`] = Math.round(((c.busy - a.busy) / (c.total - a.total)) * 100) / 100;
  });
  return { result, cpu };
}
