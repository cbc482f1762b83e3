// Starts the service: database (migrated), demo releases on an empty store,
// the HTTP app, and a graceful shutdown on SIGTERM/SIGINT.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { openMigrated } from './db/open.ts';
import type { Database } from './db/client.ts';
import { ensureDemoReleases } from './importer/demo.ts';
import { ReleaseCatalog } from './domain/catalog.ts';
import { createApp } from './http/app.ts';
import { createLogger, type Logger } from './logger.ts';

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  log: Logger;
  close(): Promise<void>;
}

export async function startServer(config: Config, opts: { log?: Logger; handleSignals?: boolean } = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.logLevel);
  const started = performance.now();
  const db = await openMigrated(config);
  if (config.demo) {
    const imported = await ensureDemoReleases(db, (version, p) => {
      if (p.phase === 'done' || p.phase === 'read') log.info({ release: version, phase: p.phase }, p.message);
    });
    if (imported.length) log.info({ releases: imported.map((s) => s.version) }, 'imported the demo releases into the empty store');
  }
  const catalog = new ReleaseCatalog(db.prisma, db.mode === 'embedded' ? 60_000 : 5_000);
  const { fetch } = createApp(
    { prisma: db.prisma, catalog, log },
    {
      graphql: {
        limits: { maxDepth: config.graphql.maxDepth, maxComplexity: config.graphql.maxComplexity },
        introspection: config.graphql.introspection,
      },
      ready: async () => (await db.prisma.$queryRawUnsafe<unknown[]>('SELECT 1')).length === 1,
    },
  );

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  log.info({ url, mode: db.mode, ms: Math.round(performance.now() - started) }, 'Terminology Explorer is listening');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, let in-flight requests finish, then release the database.
      await new Promise<void>((resolve) => server.close(() => resolve()));
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
