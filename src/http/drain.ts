// Graceful drain of an HTTP/1.1 server at shutdown. Closing idle keep-alive sockets at once
// (what http.Server.close() does since Node 19) races with a client that is just sending its
// next request on one: the client gets ECONNRESET. Instead, as HTTP servers do, the drain
// stops listening, answers every request that still arrives with `Connection: close` (the
// app's shutdown middleware; Node then closes the socket after the response), and closes a
// socket only once it has been idle for a grace period — longer than a busy client's pause.
//
// Per request only the socket's latest response is noted (responses on a socket finish in
// order, so the socket is busy while that one is open): a 'close' listener and two Map
// updates per request were ~3% of a warm answer's CPU (issue 18). When a socket went idle
// is only needed during the drain: the sweep notes it, so a socket is closed up to one sweep
// later than its grace, never earlier.
import { Server as NetServer, type Socket } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

export interface DrainOptions {
  /** A socket idle this long during the drain is closed. */
  idleGraceMs: number;
  /** After this, every remaining connection is cut. */
  timeoutMs: number;
}

export interface Drainer {
  /** Stops listening and resolves when every connection has closed (or was cut at the timeout). */
  drain(opts: DrainOptions): Promise<void>;
}

/** Must be installed when the server starts: it records each socket and its latest response. */
export function trackConnections(server: Server): Drainer {
  const sockets = new Set<Socket>();
  const latest = new WeakMap<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => latest.set(req.socket, res));
  const busy = (socket: Socket) => {
    const res = latest.get(socket);
    return res !== undefined && !res.closed;
  };

  return {
    async drain({ idleGraceMs, timeoutMs }) {
      // net.Server's close: stop accepting, without http.Server's immediate idle-socket cut.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      // Idle at the start counts from the start (when it went idle before is not recorded).
      const start = Date.now();
      const idleSince = new Map<Socket, number>();
      for (const socket of sockets) if (!busy(socket)) idleSince.set(socket, start);
      const sweep = setInterval(() => {
        const now = Date.now();
        for (const socket of sockets) {
          if (busy(socket)) idleSince.delete(socket);
          else if (!idleSince.has(socket)) idleSince.set(socket, now);
          else if (now - idleSince.get(socket)! >= idleGraceMs) socket.destroy();
        }
      }, Math.max(10, Math.min(100, idleGraceMs / 4)));
      const hard = setTimeout(() => {
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }, timeoutMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(hard);
    },
  };
}
