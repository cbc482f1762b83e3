// Metrics on or off for a server process (README › Operations › Metrics). Off unless
// METRICS_PORT or METRICS_TOKEN is set: then nothing is measured, no hook is set and the
// request listener is the app's own. Created before the database opens, so its statements
// are timed from the first one.
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { Metrics } from './metrics.ts';
import { instrumentListener, metricsServer } from './httpMetrics.ts';
import { RouteClassifier } from './routes.ts';
import { listen } from '../net/listen.ts';

export interface Observability {
  metrics: Metrics;
  /** The server's listener with HTTP metrics (and /metrics when METRICS_TOKEN is set). */
  wrap(listener: RequestListener, routes: readonly { path: string }[]): RequestListener;
  /** Starts the METRICS_PORT listener, if configured; its URL. */
  listen(host: string, log: Logger): Promise<string | undefined>;
  close(): Promise<void>;
}

export function createObservability(config: Pick<Config, 'metrics' | 'databaseUrl'>, languages: () => string[]): Observability | undefined {
  const { port, token } = config.metrics;
  if (port === undefined && token === undefined) return undefined;
  const metrics = new Metrics({ store: config.databaseUrl ? 'server' : 'embedded', languages });
  let server: Server | undefined;
  return {
    metrics,
    wrap: (listener, routes) => instrumentListener(listener, metrics, new RouteClassifier(routes), token),
    async listen(host, log) {
      if (port === undefined) {
        log.info({ metrics: 'main port, GET /metrics with the bearer token' }, 'metrics on');
        return undefined;
      }
      const s = metricsServer(metrics, token);
      server = s;
      await listen(s, port, host, 'METRICS_PORT');
      const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${(s.address() as AddressInfo).port}/metrics`;
      log.info({ metricsUrl: url, token: token !== undefined }, 'metrics listening');
      return url;
    },
    async close() {
      metrics.close();
      const s = server;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
