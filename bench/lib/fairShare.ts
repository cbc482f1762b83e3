// Fair shares of one core for servers measured at the same time (bench/metricsFair.ts): each server
// process (all its threads: V8's helpers, a worker) in a cgroup of its own with equal `cpu.shares`,
// so the kernel splits the core between processes, not threads; and the CPU each group and each
// thread used, in nanoseconds (cpuacct.usage, /proc/PID/task/TID/schedstat), so that requests per
// CPU-second can be compared where throughput would also carry whatever unfairness is left.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../../tools/random.ts';

const CPU = '/sys/fs/cgroup/cpu';
const CPUACCT = '/sys/fs/cgroup/cpuacct';

export interface FairGroup {
  name: string;
  /** Moves a process, every thread of it, into this group (cgroup v1 `cgroup.procs`). */
  add(pid: number): void;
  /** CPU time used by the group's processes so far, ns (cpuacct.usage). */
  usageNs(): number;
  remove(): void;
}

/** `count` sibling groups with `shares` each, or the reason none can be made (needs root and cgroup v1's cpu and cpuacct). */
export function fairGroups(prefix: string, count: number, shares = 1024): FairGroup[] | string {
  if (!existsSync(path.join(CPU, 'cpu.shares'))) return `no cgroup v1 cpu controller at ${CPU}`;
  // cpuacct is its own hierarchy on some hosts (this one), co-mounted with cpu ("cpu,cpuacct") on others.
  const acct = existsSync(path.join(CPUACCT, 'cpuacct.usage')) ? CPUACCT : existsSync(path.join(CPU, 'cpuacct.usage')) ? CPU : undefined;
  if (!acct) return `no cgroup v1 cpuacct controller at ${CPUACCT}`;
  const made: FairGroup[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = `${prefix}-${process.pid}-${i}`;
      const cpuDir = path.join(CPU, name);
      const acctDir = path.join(acct, name);
      mkdirSync(cpuDir);
      if (acctDir !== cpuDir) mkdirSync(acctDir);
      writeFileSync(path.join(cpuDir, 'cpu.shares'), String(shares));
      made.push({
        name,
        add: (pid) => {
          writeFileSync(path.join(cpuDir, 'cgroup.procs'), String(pid));
          if (acctDir !== cpuDir) writeFileSync(path.join(acctDir, 'cgroup.procs'), String(pid));
        },
        usageNs: () => Number(readFileSync(path.join(acctDir, 'cpuacct.usage'), 'utf8')),
        remove: () => {
          // Whatever is still in the group (this process, when it was the load's group) goes back to the root first.
          for (const [dir, root] of [[cpuDir, CPU], [acctDir, acct]] as const) {
            if (!existsSync(dir)) continue;
            for (const pid of readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
              try {
                writeFileSync(path.join(root, 'cgroup.procs'), pid);
              } catch {
                // exited meanwhile
              }
            }
          }
          for (const d of new Set([cpuDir, acctDir])) if (existsSync(d)) rmdirSync(d);
        },
      });
    }
    return made;
  } catch (e) {
    for (const g of made) g.remove();
    return `cannot make cgroups here (${(e as Error).message}; it needs root)`;
  }
}

/** CPU time of each thread of a process so far, ns (the first field of schedstat: time run on a CPU). */
export function threadCpuNs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      out.set(Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Jiffies of one core: busy (user, nice, system, irq, softirq), steal (taken by the hypervisor), total. */
export function coreJiffies(core: number): { busy: number; steal: number; total: number } | undefined {
  const line = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`cpu${core} `));
  if (!line) return undefined;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f as [number, number, number, number, number, number, number, number];
  return { busy: user + nice + system + irq + softirq, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** The 1-minute load average. */
export function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}


/** The median of `xs` and a percentile-bootstrap 95 % interval of it (`reps` resamples, seeded). */
export function medianWithInterval(xs: readonly number[], median: (v: readonly number[]) => number, reps = 4000, seed = 30): { median: number; low: number; high: number } {
  const next = mulberry32(seed);
  const meds: number[] = [];
  for (let r = 0; r < reps; r++) {
    const sample = Array.from({ length: xs.length }, () => xs[Math.floor(next() * xs.length)]!);
    meds.push(median(sample));
  }
  meds.sort((a, b) => a - b);
  return { median: median(xs), low: meds[Math.floor(reps * 0.025)]!, high: meds[Math.ceil(reps * 0.975) - 1]! };
}

/**
 * A two-level (hierarchical) percentile-bootstrap 95 % interval of the median of values grouped by run: runs
 * resampled with replacement, then each chosen run's values. Where runs differ more than their values do
 * (each run has its own processes, and a process's own luck lasts the run), the runs, not the values, set the width.
 */
export function pooledMedianWithInterval(runs: readonly (readonly number[])[], median: (v: readonly number[]) => number, reps = 4000, seed = 30): { median: number; low: number; high: number } {
  const next = mulberry32(seed);
  const meds: number[] = [];
  for (let r = 0; r < reps; r++) {
    const sample: number[] = [];
    for (let i = 0; i < runs.length; i++) {
      const run = runs[Math.floor(next() * runs.length)]!;
      for (let j = 0; j < run.length; j++) sample.push(run[Math.floor(next() * run.length)]!);
    }
    meds.push(median(sample));
  }
  meds.sort((a, b) => a - b);
  return { median: median(runs.flat()), low: meds[Math.floor(reps * 0.025)]!, high: meds[Math.ceil(reps * 0.975) - 1]! };
}
