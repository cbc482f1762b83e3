// Starts the service: database (migrated), demo releases on an empty store, the HTTP
// app with its protections, and a graceful shutdown on SIGTERM/SIGINT.
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import { describeTarget, openMigrated } from './db/open.ts';
import type { Database } from './db/client.ts';
import { ensureDemoReleases } from './importer/demo.ts';
import { ReleaseCatalog } from './domain/catalog.ts';
import { createApp } from './http/app.ts';
import { createRateLimiter, type RateLimiter } from './http/rateLimit.ts';
import { trackConnections } from './http/drain.ts';
import { createLogger, type Logger } from './logger.ts';
import { AssessmentService } from './assessment/service.ts';
import { VocabularyCache } from './assessment/vocabularyCache.ts';
import { AuditLog } from './assessment/audit.ts';
import { OpenAIProvider } from './assessment/openai.ts';

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

/** During the shutdown drain, a keep-alive socket idle this long is closed (a busy client's pause is far shorter). */
const DRAIN_IDLE_GRACE_MS = 500;

/** A readiness probe's database check gives up after this long (load balancers wait a few seconds at most). */
const READY_TIMEOUT_MS = 2_000;

export async function startServer(config: Config, opts: { log?: Logger; handleSignals?: boolean } = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.logLevel);
  const started = performance.now();
  if (config.databaseUrl) log.info({ database: describeTarget(config.databaseUrl) }, 'connecting to the database');
  const db = await openMigrated(
    { ...config, replicaUrls: config.replicaUrls },
    {
      queryTimeoutMs: config.databaseQueryTimeoutMs,
      onRetry: (r) => log.warn({ database: r.target, attempt: r.attempt, retryInMs: r.retryInMs, err: { message: r.error } }, 'database not reachable; retrying'),
    },
  );
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
      keyPrefix: config.redisKeyPrefix,
      storeTimeoutMs: config.rateLimitStoreTimeoutMs,
      onDegraded: (e) => log.warn({ err: { message: e.message } }, 'rate-limit store (Redis) not answering; counting in memory per process until it does'),
      onRecovered: () => log.info('rate-limit store (Redis) answers again; counts are shared again'),
    });
  }
  if (config.trustProxy.kind === 'all') {
    log.warn('TRUST_PROXY=true: the left-most X-Forwarded-For entry is the rate-limit key, and clients can write it themselves; list the proxies instead (README, Rate limits)');
  }
  let shuttingDown = false;
  const assessment = new AssessmentService(
    new VocabularyCache(db.prisma),
    new AuditLog(db.prisma, config.auditStoreText, log),
    config.openai ? new OpenAIProvider(config.openai) : null,
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
      ready: async () => {
        await db.ping(READY_TIMEOUT_MS);
        return true;
      },
    },
  );

  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
  });
  const connections = trackConnections(server);
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
      // Refuse new connections; requests in flight and any that still arrive on open keep-alive
      // sockets are answered with Connection: close; only a socket idle for a while is closed, so
      // a busy client is not cut while sending its next request; the rest is cut at the timeout.
      shuttingDown = true;
      clearTimeout(warm);
      await connections.drain({ idleGraceMs: DRAIN_IDLE_GRACE_MS, timeoutMs: config.shutdownTimeoutMs });
      await limiter?.close();
      await assessment.flush();
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
