// The CLI's side of the control channel (src/net/controlChannel.ts: the socket and its
// protocol, served by a server that owns the embedded store): what the server runs for a
// request — the data commands of src/cli/commands.ts, given to startServer by `serve` — and
// how the CLI asks a running server.
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { controlSocketPath, type ControlAnswer, type ControlRequest, type ControlCommands } from '../net/controlChannel.ts';
import { addDataCommands, CliError, DATA_COMMANDS } from './commands.ts';

/** How long the CLI waits for the server's answer (an impact of 100,000 rows takes seconds). */
const ANSWER_TIMEOUT_MS = 120_000;

/** What the server runs for a control request: the data commands, on its own database. */
export function dataCommands(config: Config, db: Database): ControlCommands {
  return { names: DATA_COMMANDS, run: (req) => runForClient(req, config, db) };
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
