// `terminology serve` runs with V8's old space bounded by MEMORY_BUDGET_MB (issue 27 defect 6).
//
// Why: V8 sizes its heap at process start (about 4 GB on a 16 GB host) and lets garbage pile up
// until the heap nears that limit, so a server whose caches kept within their shares still peaked
// at 1.3 GB RSS under 50,000 distinct searches against a 1 GB budget. V8 reads
// --max-old-space-size only when the process starts (v8.setFlagsFromString no longer moves the
// limit then), so `serve` starts Node again with it:
// - Node ≥ 22.15 / 23.11 (process.execve): the process image is replaced, the pid stays;
// - older Node (20): a child process runs the server; this one forwards SIGTERM / SIGINT / SIGHUP
//   to it, exits with its status, and the child ends itself (SIGTERM: a drain) when this one
//   dies without asking (an IPC channel's disconnect), so a kill -9 of the wrapper leaves no server.
// An operator's own --max-old-space-size (node's arguments or NODE_OPTIONS) wins: nothing is set.
import { spawn } from 'node:child_process';

/** The share of MEMORY_BUDGET_MB given to V8's old space: the rest is the embedded database's
 *  WebAssembly memory, typed arrays of release indexes, code and buffers (README › Memory). */
export const HEAP_SHARE = 0.5;
/** Set in the restarted process (the child, or the same pid after execve): do not restart again. */
const MARK = 'TERMINOLOGY_HEAP_WRAPPED';

/** The old-space limit in MB for this budget, or undefined when MEMORY_BUDGET_MB is not a valid
 *  budget (the server's configuration check then refuses it with its own message). */
export function heapLimitMb(env = process.env) {
  const raw = env.MEMORY_BUDGET_MB ?? '1024';
  if (!/^\s*\d+\s*$/.test(raw)) return undefined;
  const budget = Number(raw);
  if (budget < 256 || budget > 1_048_576) return undefined;
  return Math.floor(budget * HEAP_SHARE);
}

const operatorSet = (args) => args.some((a) => /^--max[-_]old[-_]space[-_]size(=|$)/.test(a));

/**
 * For `serve`: restarts Node with the heap limit, unless already done or set by the operator.
 * Returns true when this process has handed over (the caller then runs nothing); false to go on.
 */
export function restartWithHeapLimit(argv = process.argv) {
  if (argv[2] !== 'serve') return false;
  if (process.env[MARK] === '1') {
    adoptedByWrapper();
    return false;
  }
  const limit = heapLimitMb();
  if (limit === undefined || operatorSet(process.execArgv) || operatorSet((process.env.NODE_OPTIONS ?? '').split(/\s+/))) return false;
  const args = [...process.execArgv, `--max-old-space-size=${limit}`, ...argv.slice(1)];
  const env = { ...process.env, [MARK]: '1' };
  if (typeof process.execve === 'function') {
    process.execve(process.execPath, [process.execPath, ...args], env);
    return true; // not reached: execve replaces the process
  }
  // Its own process group, so a terminal's Ctrl-C reaches the server once (forwarded from here),
  // not twice (a second SIGINT ends the server without its drain).
  const child = spawn(process.execPath, args, { env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'], detached: true });
  const forward = (signal, as = signal) => process.on(signal, () => child.exitCode === null && child.signalCode === null && child.kill(as));
  forward('SIGTERM');
  forward('SIGINT');
  forward('SIGHUP', 'SIGTERM');
  child.on('error', (e) => {
    process.stderr.write(`terminology: could not start the server: ${e.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
  return true;
}

/** In the child of a wrapper: the IPC channel must not keep the server alive, and its loss means
 *  the wrapper died (kill -9, say): the server drains and stops as on SIGTERM. */
function adoptedByWrapper() {
  delete process.env[MARK];
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
