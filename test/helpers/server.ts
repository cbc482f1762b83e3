// Starts `terminology serve` as a real child process and waits until it listens.
import type { ChildProcess } from 'node:child_process';
import { start } from './cli.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process logged so far (JSON lines on stderr). */
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `baseEnv: false` starts it with `env` alone (the shipped-product tests: defaults for
 * everything but PORT); otherwise loopback, info logs and any free port come first.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000, opts: { cwd?: string; baseEnv?: boolean } = {}): Promise<ServerProcess> {
  const child = start(['serve'], { ...(opts.baseEnv === false ? {} : { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }), ...env }, { cwd: opts.cwd });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stderr!.on('data', (d) => {
      out += d;
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*is listening/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    url,
    child,
    logs: () => out,
    async stop(signal = 'SIGTERM') {
      if (!child.killed && child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
