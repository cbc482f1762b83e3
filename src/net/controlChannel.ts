// The server's side of the private channel between the CLI and a server that owns the embedded
// store. PGlite is single-process, so while `terminology serve` runs, `terminology keys …`,
// `impact` and `releases` cannot open the data directory; instead the CLI asks the server
// through a Unix socket in the data directory (run/control.sock, in a 0700 folder, the socket
// itself 0600: only the owner of the store can connect), and the server runs the command on its
// own database. Never an HTTP route: nothing on the network can reach it. What a request runs is
// the CLI's business (src/cli/control.ts gives the runner and asks from the client side): the
// server only carries it, so it imports nothing of the CLI.
//
// Protocol: one JSON line each way. Request {argv, cwd, stdin?}; answer {stdout, stderr, code}.
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import type { Logger } from '../logger.ts';

export const controlSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'run', 'control.sock');

/** Largest request (an impact CSV from stdin travels in it): the impact upload limit. */
const MAX_REQUEST_BYTES = 40 * 1024 * 1024;

export interface ControlRequest {
  argv: string[];
  cwd: string;
  stdin?: string;
}
export interface ControlAnswer {
  stdout: string;
  stderr: string;
  code: number;
}
/** The commands a server runs for the CLI on its own database: their names, and how one runs. */
export interface ControlCommands {
  names: ReadonlySet<string>;
  run(req: ControlRequest): Promise<ControlAnswer>;
}

/** Listens on the data directory's control socket until close(), running each request for one of `commands`. */
export async function startControlChannel(dataDir: string, commands: ControlCommands, log: Logger): Promise<{ close(): Promise<void> }> {
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
      if (!commands.names.has(req.argv[0] ?? '')) {
        return socket.end(`${JSON.stringify({ stdout: '', stderr: `terminology ${req.argv[0] ?? ''}: not available through the running server\n`, code: 1 })}\n`);
      }
      queue = queue.then(async () => {
        log.info({ command: req.argv.slice(0, req.argv[0] === 'keys' ? 2 : 1).join(' ') }, 'running a CLI command for a local client (control socket)');
        socket.end(`${JSON.stringify(await commands.run(req))}\n`);
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
