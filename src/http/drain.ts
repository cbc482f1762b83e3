// Graceful drain of an HTTP/1.1 server at shutdown. Closing idle keep-alive sockets at once
// (what http.Server.close() does since Node 19) races with a client that is just sending its
// next request on one: the client gets ECONNRESET. Instead, as HTTP servers do, the drain
// stops listening, answers every request that still arrives with `Connection: close` (the
// app's shutdown middleware; Node then closes the socket after the response), and closes a
// socket only once it has been idle for a grace period — longer than a busy client's pause.
import { Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:http';

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

/** Must be installed when the server starts: it records when each socket was last busy. */
export function trackConnections(server: Server): Drainer {
  const idleSince = new Map<Socket, number>();
  const busy = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    idleSince.set(socket, Date.now());
    socket.once('close', () => {
      idleSince.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) busy.set(socket, left);
      else busy.delete(socket);
      idleSince.set(socket, Date.now());
    });
  });

  return {
    async drain({ idleGraceMs, timeoutMs }) {
      // net.Server's close: stop accepting, without http.Server's immediate idle-socket cut.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      const sweep = setInterval(() => {
        const now = Date.now();
        for (const [socket, since] of idleSince) {
          if (!busy.has(socket) && now - since >= idleGraceMs) socket.destroy();
        }
      }, Math.max(10, Math.min(100, idleGraceMs / 4)));
      const hard = setTimeout(() => {
        server.closeAllConnections();
        for (const socket of idleSince.keys()) socket.destroy();
      }, timeoutMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(hard);
    },
  };
}
