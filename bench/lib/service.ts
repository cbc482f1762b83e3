// `terminology serve` (the built bundle, bin/terminology.mjs) started for a benchmark on a port
// chosen here, and polled on GET /versions until its first 200: that is its cold start.
// LOG_LEVEL=warn in `env` keeps per-request log lines out of the measurement.
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { request } from './http.ts';
import { pinned, type Cpu } from './pinning.ts';
import { freePort, spawnTracked, stopChild, type Tracked } from './procs.ts';

const cliPath = path.join(projectRoot, 'bin/terminology.mjs');

export interface Server {
  base: string;
  proc: Tracked;
  coldStartMs: number;
}

export interface ServeOptions {
  /** How long to wait for the first 200. */
  timeoutMs: number;
  /** Write a V8 CPU profile of the server here. */
  cpuProfDir?: string;
  /** Pin the server on this CPU (taskset). */
  cpu?: Cpu;
}

export async function startServe(env: NodeJS.ProcessEnv, opts: ServeOptions, attempt = 1): Promise<Server> {
  const port = await freePort();
  const nodeArgs = opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`] : [];
  const t0 = performance.now();
  const [cmd, argv] = pinned(process.execPath, [...nodeArgs, cliPath, 'serve'], opts.cpu);
  const proc = spawnTracked(cmd, argv, { env: { ...env, PORT: String(port) }, cwd: projectRoot });
  const base = `http://127.0.0.1:${port}`;
  let exited: number | undefined;
  void proc.exited.then((c) => (exited = c));
  const deadline = t0 + opts.timeoutMs;
  while (performance.now() < deadline) {
    if (exited !== undefined) {
      const err = proc.stderr.toString();
      // The free port was taken meanwhile by another process: another one.
      if (attempt < 3 && /EADDRINUSE/.test(err)) return startServe(env, opts, attempt + 1);
      throw new Error(`the server exited with code ${exited} before it was ready:\n${err.slice(-3000)}`);
    }
    try {
      const res = await request(base, { path: '/versions' }, { timeoutMs: 2_000 });
      if (res.status === 200) return { base, proc, coldStartMs: performance.now() - t0 };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await stopChild(proc.child, 2_000);
  throw new Error(`the server was not ready within ${opts.timeoutMs / 1000} s:\n${proc.stderr.toString().slice(-3000)}`);
}
