// A shipped server (bin/terminology.mjs serve: the bundle, dist/cli.mjs, when it is fresh) started
// on a store with the turn monitor preloaded (bench/lib/turnMonitor.mjs), a probe client asking
// GET /versions?limit=100 back to back from the moment it listens, and the turns of its serving
// thread picked by window afterwards. What a benchmark of "the first request after a start"
// measures on the product as users run it, not on the sources through tsx.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTracked, stopChild, type Tracked } from './procs.ts';

const MONITOR = fileURLToPath(new URL('./turnMonitor.mjs', import.meta.url));

export interface MonitoredTurn {
  /** µs of the monotonic clock. */
  from: number;
  to: number;
  wallMs: number;
  /** The serving thread on a CPU across the turn (schedstat). */
  runMs: number;
  /** The serving thread ready but waiting for a CPU across it. */
  waitMs: number;
  /** The process's CPU across it (every thread). */
  cpuMs: number;
}

export interface ProbeTurn {
  from: number;
  to: number;
  wallMs: number;
  /** What the kernel kept the serving thread waiting for a CPU meanwhile. */
  waitMs: number;
}

/** µs of the monotonic clock (the one the monitor's times are of). */
export const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** The serving thread's schedstat (ms on a CPU, ms waiting for one); undefined where the kernel does not say. */
export function threadStat(pid: number): { run: number; wait: number } | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run: run! / 1e6, wait: wait! / 1e6 };
  } catch {
    return undefined;
  }
}

/** The process's CPU in ms (user + system, every thread: /proc/<pid>/stat, clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/** The process's resident set in MB (/proc/<pid>/status VmRSS). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One GET; resolves with the status once the body is read. */
export function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export interface Shipped {
  url: string;
  pid: number;
  proc: Tracked;
  /** When the "is listening" line was read (µs, monotonic). */
  listenedAt: number;
  /** Resolves with the first log line matching `re` (a JSON line's msg). */
  logged(re: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** The turns recorded so far (the monitor writes them when asked). */
  turns(): Promise<MonitoredTurn[]>;
  stop(): Promise<void>;
}

/**
 * Starts `bin` (a checkout's bin/terminology.mjs) `serve` on `env` with the monitor (and
 * `nodeArgs`: a CPU profile, say). The heap
 * limit the CLI would set (MEMORY_BUDGET_MB's half, 512 MB by default) is given on the command
 * line so Node 20 runs the server in this child, not in a second process (bin/heap-limit.mjs).
 */
export async function startShipped(bin: string, env: Record<string, string>, monitorOut: string, nodeArgs: string[] = [], timeoutMs = 120_000): Promise<Shipped> {
  const lines: Record<string, unknown>[] = [];
  const waiters: { re: RegExp; resolve: (l: Record<string, unknown>) => void }[] = [];
  const proc = spawnTracked(process.execPath, ['--max-old-space-size=512', ...nodeArgs, '--import', MONITOR, bin, 'serve'], {
    cwd: path.dirname(path.dirname(bin)),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env, TURN_MONITOR_OUT: monitorOut },
    onStderrLine: (line) => {
      let l: Record<string, unknown>;
      try {
        l = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      lines.push(l);
      for (const w of [...waiters]) {
        if (typeof l.msg === 'string' && w.re.test(l.msg)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(l);
        }
      }
    },
  });
  const logged = (re: RegExp, ms = timeoutMs) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = lines.find((l) => typeof l.msg === 'string' && re.test(l.msg));
      if (seen) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no log line ${re} in ${ms} ms:\n${proc.stderr.toString().slice(-4000)}`)), ms);
      waiters.push({ re, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      void proc.exited.then((code) => reject(new Error(`server exited (${code}):\n${proc.stderr.toString().slice(-4000)}`)));
    });
  const listening = await logged(/is listening/);
  const listenedAt = nowUs();
  const pid = Number(listening.pid);
  return {
    url: String(listening.url),
    pid,
    proc,
    listenedAt,
    logged,
    async turns() {
      proc.child.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 100));
      return (JSON.parse(readFileSync(monitorOut, 'utf8')) as { turns: MonitoredTurn[] }).turns;
    },
    stop: () => stopChild(proc.child, 15_000),
  };
}

/** A probe asking `path` back to back (1 ms apart) until stopped; each turn with the serving thread's wait. */
export function startProbe(s: Shipped, p = '/versions?limit=100'): { stop(): Promise<ProbeTurn[]> } {
  const turns: ProbeTurn[] = [];
  let done = false;
  const run = (async () => {
    while (!done) {
      const before = threadStat(s.pid);
      const from = nowUs();
      await get(`${s.url}${p}`);
      const to = nowUs();
      const after = threadStat(s.pid);
      turns.push({ from, to, wallMs: (to - from) / 1000, waitMs: before && after ? after.wait - before.wait : 0 });
      await new Promise((r) => setTimeout(r, 1));
    }
  })();
  return {
    async stop() {
      done = true;
      await run;
      return turns;
    },
  };
}

/** The longest of `turns` overlapping [from, to] by `key`, or undefined. */
export function longestIn<T extends { from: number; to: number }>(turns: readonly T[], from: number, to: number, key: (t: T) => number): T | undefined {
  let best: T | undefined;
  for (const t of turns) if (t.to > from && t.from < to && (!best || key(t) > key(best))) best = t;
  return best;
}
