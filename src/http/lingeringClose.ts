// Lingering close for an answer given before the request body was read (a 413 from the declared
// Content-Length, a 401 ahead of an upload…). The answer goes out at once with `Connection: close`; Node then ends the
// socket and closes it as soon as the answer is written. Closing a socket with unread input makes
// the kernel reset the connection, and a client that reads only after sending its whole body
// (Python's urllib, many scripts) then sees a broken pipe instead of the answer. So, as HTTP
// servers do, the socket is half-closed (the client reads the answer and its end) and the rest of
// the upload is read and discarded, bounded in bytes and time, before the socket is closed.
import type { IncomingMessage } from 'node:http';

export interface LingerLimit {
  bytes: number;
  ms: number;
}

const lingering = Symbol('lingering');

/** Call before answering `incoming` with `Connection: close`; its socket then lingers once the answer is written. */
export function lingerAfterAnswer(incoming: IncomingMessage | undefined, limit: LingerLimit): void {
  const socket = incoming?.socket as (IncomingMessage['socket'] & { [lingering]?: boolean }) | undefined;
  if (!incoming || !socket || socket.destroyed) return;
  // Node's server calls destroySoon() once a `Connection: close` answer is finished (so does the
  // Fetch adapter's own bounded drain): here it ends the output and lingers instead of closing.
  socket.destroySoon = function lingeringDestroySoon() {
    if (socket[lingering]) return;
    socket[lingering] = true;
    if (socket.writable) socket.end();
    let bytes = 0;
    const close = () => {
      clearTimeout(timer);
      // Only once the answer has left (as Node's own destroySoon): destroy() drops unsent bytes.
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    };
    const timer = setTimeout(close, limit.ms);
    timer.unref();
    // The body arrives through the request (the HTTP parser still owns the socket). Whatever was
    // set to read it (the Fetch adapter's body stream, which pauses the request when nobody
    // reads it) is dropped, as Node's own dump of an unread request does.
    incoming.removeAllListeners('data');
    incoming.on('data', (d: Buffer) => {
      bytes += d.length;
      if (bytes > limit.bytes) close();
    });
    // The whole declared body read, or the client closed its side: nothing left to reset.
    if (incoming.readableEnded) return close();
    incoming.once('end', close);
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
    incoming.resume();
  };
}
