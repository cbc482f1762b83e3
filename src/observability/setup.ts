// Metrics on or off for a server process (README › Operations › Metrics). Off unless
// METRICS_PORT or METRICS_TOKEN is set: then nothing is measured, no hook is set and the
// request listener is the app's own. Created before the database opens, so its statements
// are timed from the first one.
import type { RequestListener, Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { Metrics } from './metrics.ts';
import { instrumentListener, metricsPortListener } from './httpMetrics.ts';
import { RouteClassifier } from './routes.ts';
import { listen } from '../net/listen.ts';

export interface Observability {
  metrics: Metrics;
  /** The server's listener with HTTP metrics (and /metrics when METRICS_TOKEN is set). */
  wrap(listener: RequestListener, routes: readonly { path: string }[]): RequestListener;
  /** Starts the METRICS_PORT listener, if configured, its connections served by `main`; its URL. */
  listen(host: string, log: Logger, main: Server): Promise<string | undefined>;
  close(): Promise<void>;
}

export function createObservability(config: Pick<Config, 'metrics' | 'databaseUrl'>, languages: () => string[]): Observability | undefined {
  const { port, token } = config.metrics;
  if (port === undefined && token === undefined) return undefined;
  const metrics = new Metrics({ store: config.databaseUrl ? 'server' : 'embedded', languages });
  let server: NetServer | undefined;
  // METRICS_PORT's open connections: the wrapper answers their requests with /metrics (or 404).
  const sockets = new Set<Socket>();
  const metricsPort = port === undefined ? undefined : { sockets, serve: metricsPortListener(metrics, token) };
  return {
    metrics,
    wrap: (listener, routes) => instrumentListener(listener, metrics, new RouteClassifier(routes), token, metricsPort),
    async listen(host, log, main) {
      if (port === undefined) {
        log.info({ metrics: 'main port, GET /metrics with the bearer token' }, 'metrics on');
        return undefined;
      }
      // A plain socket listener whose connections the main http.Server parses and serves: a second
      // http.Server in the process cost more than its scrapes (bench/results.md, sessions 22–23).
      // The options are those http.Server gives its own listening socket.
      const s = createNetServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        main.emit('connection', socket);
      });
      server = s;
      await listen(s, port, host, 'METRICS_PORT');
      const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${(s.address() as AddressInfo).port}/metrics`;
      log.info({ metricsUrl: url, token: token !== undefined }, 'metrics listening');
      return url;
    },
    async close() {
      metrics.close();
      const s = server;
      if (!s) return;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      // http.Server.close() would cut its idle keep-alive sockets; a net.Server waits for them. The
      // main port has drained by now: a scraper's connection still open is cut (at worst one scrape).
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
