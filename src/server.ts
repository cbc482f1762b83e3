// Starts the service: database (migrated), demo releases on an empty store, the HTTP
// app with its protections, and a graceful shutdown on SIGTERM/SIGINT.
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import { openMigrated } from './db/open.ts';
import type { Database } from './db/client.ts';
import { ensureDemoReleases } from './importer/demo.ts';
import { ReleaseCatalog } from './domain/catalog.ts';
import { createApp } from './http/app.ts';
import { createRateLimiter, type RateLimiter } from './http/rateLimit.ts';
import { createLogger, type Logger } from './logger.ts';
import { AssessmentService } from './assessment/service.ts';
import { VocabularyCache } from './assessment/vocabularyCache.ts';
import { AuditLog } from './assessment/audit.ts';
import { OpenAIProvider } from './assessment/openai.ts';
import { EnginePool } from './assessment/enginePool.ts';

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  log: Logger;
  close(): Promise<void>;
}

function persistedOperations(path: string | undefined): Record<string, string> | undefined {
  if (!path) return undefined;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!parsed || typeof parsed !== 'object' || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw new Error(`GRAPHQL_PERSISTED_OPERATIONS: ${path} must be a JSON object of {hash: query}`);
  }
  return parsed as Record<string, string>;
}

export async function startServer(config: Config, opts: { log?: Logger; handleSignals?: boolean } = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.logLevel);
  const started = performance.now();
  const db = await openMigrated({ ...config, replicaUrls: config.replicaUrls });
  if (config.demo) {
    const imported = await ensureDemoReleases(db, (version, p) => {
      if (p.phase === 'done' || p.phase === 'read') log.info({ release: version, phase: p.phase }, p.message);
    });
    if (imported.length) log.info({ releases: imported.map((s) => s.version) }, 'imported the demo releases into the empty store');
  }
  // Embedded: only this process can import, so the release list is trusted for a minute;
  // PostgreSQL: another process may import at any time.
  const catalog = new ReleaseCatalog(db.prisma, db.mode === 'embedded' ? 60_000 : 5_000, { searchIndexReleases: config.searchIndexReleases });
  let limiter: RateLimiter | undefined;
  if (config.rateLimitPerMinute > 0) {
    limiter = createRateLimiter({
      perMinute: config.rateLimitPerMinute,
      redisUrl: config.redisUrl,
      onStoreError: (e) => log.warn({ err: { message: e.message } }, 'rate-limit store error'),
    });
  }
  let shuttingDown = false;
  const assessment = new AssessmentService(
    new VocabularyCache(db.prisma),
    new AuditLog(db.prisma, config.auditStoreText, log),
    config.openai ? new OpenAIProvider(config.openai) : null,
    config.nlp.workers > 0 ? new EnginePool(db.prisma, config.nlp) : undefined,
  );
  const { fetch } = createApp(
    { prisma: db.prisma, reader: () => db.reader(), catalog, log, assessment },
    {
      graphql: {
        aiRateLimitPerMinute: config.aiRateLimitPerMinute,
        limits: { maxDepth: config.graphql.maxDepth, maxComplexity: config.graphql.maxComplexity },
        introspection: config.graphql.introspection,
        persistedOperations: persistedOperations(config.graphql.persistedOperations),
      },
      rateLimit: limiter ? { limiter, trustProxy: config.trustProxy } : undefined,
      trustProxy: config.trustProxy,
      corsOrigins: config.corsOrigins,
      securityHeaders: config.securityHeaders,
      maxBodyBytes: config.maxBodyBytes,
      isShuttingDown: () => shuttingDown,
      ready: async () => (await db.prisma.$queryRawUnsafe<unknown[]>('SELECT 1')).length === 1,
    },
  );

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
      await limiter?.close();
      await assessment.flush();
      await assessment.close();
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
