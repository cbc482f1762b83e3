// Child processes and temporary directories of the benchmark, tracked so that every
// exit path (normal end, thrown error, SIGINT/SIGTERM, watchdog) leaves nothing behind.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const asyncCleanups: (() => Promise<void>)[] = [];

/** A child that is still running (no exit code and no signal yet). */
export function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Synchronous last resort: SIGKILL every child still running, remove temp dirs. */
export function killAllSync(): void {
  for (const c of children) {
    if (alive(c) && c.pid !== undefined) {
      try {
        process.kill(c.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  children.clear();
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  tempDirs.clear();
}

/** Registered once by run.ts: async cleanups (dropping a database) then the sync ones. */
export async function cleanupAll(): Promise<void> {
  for (const c of [...children]) await stopChild(c, 5_000);
  while (asyncCleanups.length) {
    const fn = asyncCleanups.pop()!;
    try {
      await fn();
    } catch (e) {
      process.stderr.write(`cleanup failed: ${(e as Error).message}\n`);
    }
  }
  killAllSync();
}

export function onCleanup(fn: () => Promise<void>): () => void {
  asyncCleanups.push(fn);
  return () => {
    const i = asyncCleanups.indexOf(fn);
    if (i >= 0) asyncCleanups.splice(i, 1);
  };
}

export function makeTempDir(prefix: string): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.add(d);
  return d;
}

export function removeTempDir(d: string): void {
  rmSync(d, { recursive: true, force: true });
  tempDirs.delete(d);
}

/** Keeps the last `max` characters of a stream (diagnostics without unbounded memory). */
export class Tail {
  private text = '';
  constructor(private readonly max = 64 * 1024) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.max * 2) this.text = this.text.slice(-this.max);
  }
  toString(): string {
    return this.text.slice(-this.max);
  }
}

export interface Tracked {
  child: ChildProcess;
  stdout: Tail;
  stderr: Tail;
  /** Resolves with the exit code (or 128+signal) once the process has exited. */
  exited: Promise<number>;
}

/** Spawns a tracked child whose output is always drained (a full pipe would block it). */
export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions & { onStdoutLine?: (line: string) => void; onStderrLine?: (line: string) => void } = {}): Tracked {
  const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const stdout = new Tail();
  const stderr = new Tail();
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    stdout.push(s);
    if (opts.onStdoutLine) {
      partial += s;
      let i: number;
      while ((i = partial.indexOf('\n')) >= 0) {
        opts.onStdoutLine(partial.slice(0, i));
        partial = partial.slice(i + 1);
      }
    }
  });
  let partialErr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    stderr.push(s);
    if (opts.onStderrLine) {
      partialErr += s;
      let i: number;
      while ((i = partialErr.indexOf('\n')) >= 0) {
        opts.onStderrLine(partialErr.slice(0, i));
        partialErr = partialErr.slice(i + 1);
      }
    }
  });
  const exited = new Promise<number>((resolve) => {
    child.once('error', (e) => {
      stderr.push(`spawn error: ${e.message}\n`);
      children.delete(child);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 1));
    });
  });
  return { child, stdout, stderr, exited };
}

/** SIGTERM, then SIGKILL after `graceMs`. Resolves once the child is gone. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (!alive(child)) {
    children.delete(child);
    return;
  }
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (alive(child)) child.kill('SIGKILL');
  }, graceMs);
  await gone;
  clearTimeout(timer);
  children.delete(child);
}

/** Runs a command to completion within `timeoutMs` (then kills it); never throws. */
export async function runToEnd(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number; onStderrLine?: (line: string) => void },
): Promise<{ code: number; stdout: string; stderr: string; wallMs: number; timedOut: boolean }> {
  const t0 = performance.now();
  const t = spawnTracked(cmd, args, { env: opts.env, cwd: opts.cwd, onStderrLine: opts.onStderrLine });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopChild(t.child, 2_000);
  }, opts.timeoutMs);
  const code = await t.exited;
  clearTimeout(timer);
  return { code, stdout: t.stdout.toString(), stderr: t.stderr.toString(), wallMs: performance.now() - t0, timedOut };
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** VmRSS / VmHWM of a process in MB (Linux), undefined elsewhere or when it is gone. */
export function processMemoryMb(pid: number | undefined): { rssMb: number; hwmMb: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(text)?.[1];
    const hwm = /VmHWM:\s+(\d+) kB/.exec(text)?.[1];
    if (!rss || !hwm) return undefined;
    return { rssMb: Math.round(Number(rss) / 1024), hwmMb: Math.round(Number(hwm) / 1024) };
  } catch {
    return undefined;
  }
}
