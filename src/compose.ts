// The composition root: configuration → the services (catalog and its caches, assessment
// service with its engine pool and audit log, rate limiter) and the HTTP app's options. The
// server, the test helpers and the in-process benchmark all build the product here, so a
// default cannot differ between what users run and what the tests and figures prove. The
// database is opened by the caller and passed in: the server opens it with retries and
// start-up logging, the tests copy a template, the benchmark counts its statements.
import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Logger } from './logger.ts';
import type { Services } from './services/scope.ts';
import type { AppOptions } from './http/app.ts';
import { ReleaseCatalog } from './domain/catalog.ts';
import { ChangeSetMemory } from './domain/changes/memory.ts';
import { createRateLimiter, type RateLimiter } from './http/rateLimit.ts';
import { AssessmentService } from './assessment/service.ts';
import { VocabularyCache } from './assessment/vocabularyCache.ts';
import { AuditLog } from './assessment/audit.ts';
import { OpenAIProvider } from './assessment/openai.ts';
import { EnginePool } from './assessment/enginePool.ts';
import { createCodedWorkGates } from './services/codedWork.ts';
import type { Metrics } from './observability/metrics.ts';
import { KeyUsageRecorder } from './domain/apiKeyUsage.ts';
import { boundApiKeyCache } from './domain/apiKeys.ts';
import { graphqlMetricsPlugin } from './graphql/metricsPlugin.ts';
import type { Plugin } from 'graphql-yoga';

export interface Composition {
  services: Services & { assessment: AssessmentService; changeSets: ChangeSetMemory };
  appOptions: AppOptions;
  limiter: RateLimiter | undefined;
  /** Stops what the services hold open (rate-limit store, queued audit records, engine workers); not the database. */
  close(): Promise<void>;
}

export interface RuntimeHooks {
  /** True once SIGTERM arrived. */
  isShuttingDown?: () => boolean;
  /** Release-list cache lifetime; default: a minute embedded (only this process imports), 5 s on PostgreSQL. */
  catalogTtlMs?: number;
  /** The process's metrics, when on (src/observability/setup.ts): GraphQL operations are measured too. */
  metrics?: Metrics;
  /** GraphQL operation spans, when traces are on (src/graphql/tracingPlugin.ts, made by the server from its tracer). */
  graphqlTracing?: Plugin;
}

/** A readiness probe's database check gives up after this long (load balancers wait a few seconds at most). */
const READY_TIMEOUT_MS = 2_000;

function persistedOperations(path: string | undefined): Record<string, string> | undefined {
  if (!path) return undefined;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!parsed || typeof parsed !== 'object' || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw new Error(`GRAPHQL_PERSISTED_OPERATIONS: ${path} must be a JSON object of {hash: query}`);
  }
  return parsed as Record<string, string>;
}

export function compose(config: Config, db: Database, log: Logger, hooks: RuntimeHooks = {}): Composition {
  const catalog = new ReleaseCatalog(db.prisma, hooks.catalogTtlMs ?? (db.mode === 'embedded' ? 60_000 : 5_000), {
    searchIndexReleases: config.searchIndexReleases,
    searchIndexBytes: config.memory.releaseIndexes,
    // The second languages' names of every release (~17 MB per language at 24 full-size releases), beside the indexes' share.
    languageNameBytes: config.memory.releaseIndexes / 4,
    blobs: db.blobs,
    indexEvents: {
      onWarning: (message, d) => log.warn({ ...(d.releaseId === undefined ? {} : { release: d.releaseId }), err: { message: d.error } }, message),
      onLoaded: (release, source, ms, language) => log.info({ release, source, ms, ...(language ? { language } : {}) }, 'release index ready'),
    },
  });
  // PGlite scans on this thread: one search by SQL per release while its index loads.
  catalog.searchIndexes.sqlFallbacks = db.mode === 'embedded' ? 'one' : 'each';
  const limiter =
    config.rateLimitPerMinute > 0
      ? createRateLimiter({
          perMinute: config.rateLimitPerMinute,
          redisUrl: config.redisUrl,
          keyPrefix: config.redisKeyPrefix,
          storeTimeoutMs: config.rateLimitStoreTimeoutMs,
          onDegraded: (e) => log.warn({ err: { message: e.message } }, 'rate-limit store (Redis) not answering; counting in memory per process until it does'),
          onRecovered: () => log.info('rate-limit store (Redis) answers again; counts are shared again'),
        })
      : undefined;
  const assessment = new AssessmentService(
    new VocabularyCache(db.prisma),
    new AuditLog(db.prisma, config.auditStoreText, log),
    config.openai ? new OpenAIProvider(config.openai) : null,
    // The coding engine on worker threads, so one narrative never blocks other requests.
    // Its vocabulary sources come from the release indexes (read in slices), not a statement of every name.
    config.nlp.workers > 0
      ? new EnginePool(
          db.prisma,
          { ...config.nlp, vocabularyBytes: config.memory.engineVocabularies, sourceBytes: config.memory.engineSources },
          { index: (releaseId) => catalog.searchIndexes.get(releaseId, db.reader()) },
        )
      : undefined,
  );
  boundApiKeyCache(db.prisma, config.memory.apiKeys);
  const codedWork = createCodedWorkGates(config.codedWork.lists, config.codedWork.uploads);
  // Per-key usage: counted in memory, added to the database in one upsert every few seconds.
  const keyUsage = new KeyUsageRecorder(db.prisma, { onError: (e) => log.warn({ err: { message: e.message } }, 'API-key usage not written; kept for the next attempt') });
  const services = { prisma: db.prisma, reader: () => db.reader(), catalog, changeSets: ChangeSetMemory.forApp(config.memory.changeSets), log, assessment, codedWork, keyUsage };
  const appOptions: AppOptions = {
    graphql: {
      aiRateLimitPerMinute: config.aiRateLimitPerMinute,
      limits: { maxDepth: config.graphql.maxDepth, maxComplexity: config.graphql.maxComplexity },
      introspection: config.graphql.introspection,
      persistedOperations: persistedOperations(config.graphql.persistedOperations),
      resultCache: { maxBytes: config.memory.graphqlResults },
      documentCacheBytes: config.memory.graphqlDocuments,
      plugins: [...(hooks.metrics ? [graphqlMetricsPlugin(hooks.metrics.registry)] : []), ...(hooks.graphqlTracing ? [hooks.graphqlTracing] : [])],
    },
    rateLimit: limiter ? { limiter, trustProxy: config.trustProxy } : undefined,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    securityHeaders: config.securityHeaders,
    maxBodyBytes: config.maxBodyBytes,
    responseCache: config.memory.warmAnswers === 0 ? false : { maxBytes: config.memory.warmAnswers },
    maxImpactBodyBytes: config.maxImpactBodyBytes,
    isShuttingDown: hooks.isShuttingDown,
    ready: async () => {
      await db.ping(READY_TIMEOUT_MS);
      return true;
    },
  };
  return {
    services,
    appOptions,
    limiter,
    async close() {
      await limiter?.close();
      await assessment.flush();
      await assessment.close();
      await keyUsage.close();
    },
  };
}
