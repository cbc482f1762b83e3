// Serves an app on a real loopback socket, for tests that must go through HTTP. Given the
// app, the listener is the server's own (src/http/nodeListener.ts: warm answers before the
// Fetch adapter), so tests go the way requests go in production; given a bare fetch function,
// the plain @hono/node-server adapter.
import { serve } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { nodeListener } from '../../src/http/nodeListener.ts';
import type { App } from '../../src/http/options.ts';

type Fetch = (req: Request, env?: unknown) => Response | Promise<Response>;

export async function listen(app: Fetch | Pick<App, 'fetch' | 'warmAnswers'>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    if (typeof app === 'function') {
      const s = serve({ fetch: app, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    } else {
      const s = createServer(nodeListener(app, { hostname: '127.0.0.1' }));
      s.listen(0, '127.0.0.1', () => resolve(s));
    }
  });
  // Longer than any stall of this process's event loop (PGlite runs on it): with Node's 5 s the
  // server could close an idle kept-alive socket as fetch reused it (ECONNRESET on a loaded host).
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A pino destination that keeps every log line, for asserting on logs. */
export function captureLogs(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return {
    stream,
    lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
