// Binding a listening socket, with a refusal a person can act on. Node reports a taken port as an
// 'error' event that, unhandled, ends the process with a stack trace; and a server that binds its
// main port but not METRICS_PORT would keep serving half-configured. Both become one message.
import type { Server } from 'node:net';

/** A port could not be bound; `setting` names the configuration variable that chose it. */
export class ListenError extends Error {
  constructor(
    readonly setting: string,
    readonly port: number,
    readonly host: string,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`cannot listen on ${host}:${port} (${setting}): ${reason}`);
    this.name = 'ListenError';
  }
}

function reasonOf(e: NodeJS.ErrnoException, setting: string): string {
  if (e.code === 'EADDRINUSE') return `the port is in use by another process; stop it or choose another ${setting}`;
  if (e.code === 'EACCES') return `permission denied (ports below 1024 need privileges); choose another ${setting}`;
  if (e.code === 'EADDRNOTAVAIL') return 'the address is not one of this host\'s; check HOST';
  return e.message;
}

/** Listens on `port` at `host`; rejects with a ListenError instead of emitting 'error'. */
export function listen(server: Server, port: number, host: string, setting: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException) => reject(new ListenError(setting, port, host, e.code, reasonOf(e, setting)));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}
