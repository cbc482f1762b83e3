// Starts `terminology serve` as a real child process and waits until it listens.
import type { ChildProcess } from 'node:child_process';
import { start } from './cli.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** The serving process's pid (its "is listening" line): `child` itself, or on Node < 22.15 the
   *  child that `terminology serve` starts with the heap limit (bin/heap-limit.mjs). */
  serverPid: number;
  /** V8's heap limit of the serving process, in MB (its "is listening" line). */
  heapLimitMb: number;
  /** Everything the process logged so far (JSON lines on stderr). */
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `baseEnv: false` starts it with `env` alone (the shipped-product tests: defaults for
 * everything but PORT); otherwise loopback, info logs and any free port come first. `shipped`: with
 * Node's own V8 settings, as users run it, not the suite's flags (test/setup/node-flags.ts).
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000, opts: { cwd?: string; baseEnv?: boolean; bin?: string; shipped?: boolean } = {}): Promise<ServerProcess> {
  const child = start(['serve'], { ...(opts.baseEnv === false ? {} : { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }), ...env }, { cwd: opts.cwd, bin: opts.bin, shipped: opts.shipped });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const listening = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stderr!.on('data', (d) => {
      out += d;
      // The whole line (it ends in a newline): a chunk may end inside it.
      const m = /^\{[^\n]*"url":"http:\/\/[^\n]*is listening[^\n]*\n/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
  const line = JSON.parse(listening) as { url: string; pid: number; heapLimitMb: number };
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    url: line.url,
    child,
    serverPid: line.pid,
    heapLimitMb: line.heapLimitMb,
    logs: () => out,
    async stop(signal = 'SIGTERM') {
      if (!child.killed && child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
