// Starts the service: database (migrated), demo releases on an empty store, the HTTP
// app with its protections, and a graceful shutdown on SIGTERM/SIGINT.
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { openMigrated } from './db/open.ts';
import type { Database } from './db/client.ts';
import { ensureDemoReleases } from './importer/demo.ts';
import { createApp } from './http/app.ts';
import { createLogger, type Logger } from './logger.ts';
import { compose } from './compose.ts';

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  log: Logger;
  close(): Promise<void>;
}

export async function startServer(config: Config, opts: { log?: Logger; handleSignals?: boolean } = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.logLevel, undefined, config.logFormat);
  const started = performance.now();
  const db = await openMigrated({ ...config, replicaUrls: config.replicaUrls });
  if (config.demo) {
    const imported = await ensureDemoReleases(db, (version, p) => {
      if (p.phase === 'done' || p.phase === 'read') log.info({ release: version, phase: p.phase }, p.message);
    });
    if (imported.length) log.info({ releases: imported.map((s) => s.version) }, 'imported the demo releases into the empty store');
  }
  let shuttingDown = false;
  const { services, appOptions, limiter, close: closeServices } = compose(config, db, log, { isShuttingDown: () => shuttingDown });
  const { catalog, assessment } = services;
  const { fetch } = createApp(services, appOptions);

  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
  });
  // The latest release's in-memory index (search, and concepts/paths of catalog reads),
  // built in the background in small slices, a few seconds after start: its reads would
  // otherwise queue ahead of the first readiness probes (PGlite answers one query at a time).
  const warm =
    config.searchIndexWarmDelayMs < 0
      ? undefined
      : setTimeout(() => {
          void catalog
            .latest()
            .then((r) => r && catalog.searchIndexes.get(r.id, db.reader()))
            .catch((e: Error) => log.warn({ err: { message: e.message } }, 'search index warm-up failed; it will load on first search'));
        }, config.searchIndexWarmDelayMs);
  warm?.unref();
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  log.info(
    { url, mode: db.mode, replicas: config.replicaUrls.length, provider: assessment.providerName, rateLimit: limiter ? `${limiter.limit}/min (${limiter.store})` : 'off', ms: Math.round(performance.now() - started) },
    'Terminology Explorer is listening',
  );
  // For a person at a terminal: where to go next, in one line (log lines are for machines).
  if (process.stdout.isTTY) {
    const local = url.replace('://127.0.0.1:', '://localhost:');
    process.stdout.write(`\nTerminology Explorer is ready: GraphiQL ${local}/graphql · REST docs ${local}/docs · health ${local}/health/ready\n\n`);
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Refuse new connections, let in-flight requests finish (answered with Connection: close),
      // drop idle keep-alive sockets, and cut whatever is left after the timeout.
      shuttingDown = true;
      clearTimeout(warm);
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      const hard = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearInterval(idle);
      clearTimeout(hard);
      await closeServices();
      await db.close();
      log.info('stopped');
    })());
  if (opts.handleSignals !== false) {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      process.once(sig, () => {
        log.info({ signal: sig }, 'shutting down');
        void close().then(() => process.exit(0));
      });
    }
  }
  return { url, port, db, log, close };
}
