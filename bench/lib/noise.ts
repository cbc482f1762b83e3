// Other processes on this (2-core) machine skew every figure. This sampler reads /proc
// every `intervalMs` and adds up the CPU time of processes that are not the benchmark's
// own (this process, its ancestors and descendants); PostgreSQL server processes are
// counted apart, since in PostgreSQL mode they serve the service under test. Linux only;
// elsewhere it reports nothing.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ on Linux

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  ticks: number;
}

function readProcs(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      out.set(Number(name), { pid: Number(name), ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function label(pid: number, comm: string): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return (cmd || comm).replace(/\/work\/main\//g, '').slice(0, 80);
  } catch {
    return comm;
  }
}

export interface NoiseReport {
  seconds: number;
  /** CPU seconds used by other processes (not ours, not postgres). */
  othersCpuS: number;
  /** CPU seconds used by postgres server processes. */
  postgresCpuS: number;
  top: { what: string; cpuS: number }[];
}

export class NoiseSampler {
  private timer: NodeJS.Timeout | undefined;
  private last = new Map<number, Proc>();
  private others = new Map<string, number>();
  private postgres = 0;
  private started = 0;
  private readonly enabled: boolean;

  constructor(private readonly intervalMs = 2_000) {
    let ok = false;
    try {
      readFileSync(`/proc/${process.pid}/stat`);
      ok = true;
    } catch {
      ok = false;
    }
    this.enabled = ok;
  }

  start(): void {
    if (!this.enabled) return;
    this.others.clear();
    this.postgres = 0;
    this.started = performance.now();
    this.last = readProcs();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  private sample(): void {
    const now = readProcs();
    // Ours: this process, its ancestors and every descendant.
    const ours = new Set<number>();
    for (let p: number | undefined = process.pid; p && !ours.has(p); p = now.get(p)?.ppid) ours.add(p);
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of now.values()) {
        if (!ours.has(p.pid) && ours.has(p.ppid) && p.ppid !== 1 && p.ppid !== 0) {
          ours.add(p.pid);
          grew = true;
        }
      }
    }
    for (const p of now.values()) {
      const before = this.last.get(p.pid);
      const delta = before && before.comm === p.comm ? p.ticks - before.ticks : 0;
      if (delta <= 0 || ours.has(p.pid)) continue;
      if (p.comm === 'postgres') this.postgres += delta;
      else {
        const what = label(p.pid, p.comm);
        this.others.set(what, (this.others.get(what) ?? 0) + delta);
      }
    }
    this.last = now;
  }

  stop(): NoiseReport | undefined {
    if (!this.enabled || !this.timer) return undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    const total = [...this.others.values()].reduce((a, b) => a + b, 0);
    return {
      seconds: Math.round((performance.now() - this.started) / 1000),
      othersCpuS: Math.round(total / TICKS_PER_S),
      postgresCpuS: Math.round(this.postgres / TICKS_PER_S),
      top: [...this.others.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([what, t]) => ({ what, cpuS: Math.round((t / TICKS_PER_S) * 10) / 10 })),
    };
  }
}
