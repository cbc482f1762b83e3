// The private channel between the CLI and a server that owns the embedded store. PGlite is
// single-process, so while `terminology serve` runs, `terminology keys …`, `impact` and
// `releases` cannot open the data directory; instead the CLI asks the server through a Unix
// socket in the data directory (run/control.sock, in a 0700 folder, the socket itself 0600:
// only the owner of the store can connect), and the server runs the command on its own
// database. Never an HTTP route: nothing on the network can reach it.
//
// Protocol: one JSON line each way. Request {argv, cwd, stdin?}; answer {stdout, stderr, code}.
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { addDataCommands, CliError, DATA_COMMANDS } from './commands.ts';

export const controlSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'run', 'control.sock');

/** Largest request (an impact CSV from stdin travels in it): the impact upload limit. */
const MAX_REQUEST_BYTES = 40 * 1024 * 1024;
/** How long the CLI waits for the server's answer (an impact of 100,000 rows takes seconds). */
const ANSWER_TIMEOUT_MS = 120_000;

interface ControlRequest {
  argv: string[];
  cwd: string;
  stdin?: string;
}
export interface ControlAnswer {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs one data command (src/cli/commands.ts) on the server's database, its output captured. */
async function runForClient(req: ControlRequest, config: Config, db: Database): Promise<ControlAnswer> {
  let stdout = '';
  let stderr = '';
  const p = new Command('terminology').exitOverride().configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
  addDataCommands(p, {
    config: () => config,
    withDb: (fn) => fn(db),
    io: {
      out: (s) => void (stdout += s),
      err: (s) => void (stderr += s),
      input: (file) => (file === '-' ? Readable.from([req.stdin ?? '']) : createReadStream(path.resolve(req.cwd, file))),
      cwd: req.cwd,
    },
  });
  try {
    await p.parseAsync(req.argv, { from: 'user' });
    return { stdout, stderr, code: 0 };
  } catch (e) {
    if (e instanceof CommanderError) return { stdout, stderr, code: e.exitCode === 0 ? 0 : 2 };
    stderr += e instanceof CliError ? `${e.message}\n` : `error: ${(e as Error).message}\n`;
    return { stdout, stderr, code: 1 };
  }
}

/** Server side: listens on the data directory's control socket until close(). */
export async function startControlChannel(dataDir: string, config: Config, db: Database, log: Logger): Promise<{ close(): Promise<void> }> {
  const file = controlSocketPath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(file), 0o700);
  // We own the data directory (its lock): a socket left there belongs to a process that is gone.
  rmSync(file, { force: true });
  // One command at a time: they are short, and PGlite runs one statement at a time anyway.
  let queue = Promise.resolve();
  const server: Server = createServer((socket) => {
    let buf = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (d: string) => {
      buf += d;
      if (buf.length > MAX_REQUEST_BYTES) return socket.destroy();
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      socket.pause();
      let req: ControlRequest;
      try {
        req = JSON.parse(buf.slice(0, nl)) as ControlRequest;
        if (!Array.isArray(req.argv) || !req.argv.every((a) => typeof a === 'string') || typeof req.cwd !== 'string') throw new Error('bad request');
      } catch {
        return socket.end(`${JSON.stringify({ stdout: '', stderr: 'terminology: malformed control request\n', code: 2 })}\n`);
      }
      if (!DATA_COMMANDS.has(req.argv[0] ?? '')) {
        return socket.end(`${JSON.stringify({ stdout: '', stderr: `terminology ${req.argv[0] ?? ''}: not available through the running server\n`, code: 1 })}\n`);
      }
      queue = queue.then(async () => {
        log.info({ command: req.argv.slice(0, req.argv[0] === 'keys' ? 2 : 1).join(' ') }, 'running a CLI command for a local client (control socket)');
        const answer = await runForClient(req, config, db);
        socket.end(`${JSON.stringify(answer)}\n`);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(file, { force: true });
      }),
  };
}

/** CLI side: whether a server's control socket is there to ask. */
export const controlChannelExists = (dataDir: string) => existsSync(controlSocketPath(dataDir));

/** CLI side: runs argv in the server that owns `dataDir`; undefined when no server answers there. */
export async function askRunningServer(dataDir: string, argv: string[], cwd: string, stdin?: string): Promise<ControlAnswer | undefined> {
  const file = controlSocketPath(dataDir);
  if (!existsSync(file)) return undefined;
  return new Promise((resolve, reject) => {
    const socket = createConnection(file);
    let buf = '';
    let connected = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new CliError(`terminology ${argv[0]}: the running server did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`));
    }, ANSWER_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ argv, cwd, ...(stdin === undefined ? {} : { stdin }) } satisfies ControlRequest)}\n`);
    });
    socket.on('data', (d: string) => (buf += d));
    socket.on('error', (e) => {
      clearTimeout(timer);
      // A socket file nobody listens on (a server killed with -9): not a running server.
      if (!connected) resolve(undefined);
      else reject(e);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (!connected) return;
      try {
        resolve(JSON.parse(buf) as ControlAnswer);
      } catch {
        reject(new CliError(`terminology ${argv[0]}: the running server closed the control channel without an answer`));
      }
    });
  });
}
