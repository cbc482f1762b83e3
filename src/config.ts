// Environment → typed, validated configuration. Every knob is documented in the README.
// One schema: the variables (EnvSchema) and their transform into the nested shape the
// code reads; `Config` is inferred from it, so a setting is declared once.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './net/trustProxy.ts';

/** Request body of POST /impact (MAX_IMPACT_BODY_BYTES, default): 100,000 rows with long terms fit. */
export const IMPACT_BODY_BYTES = 32 * 1024 * 1024;

const POSTGRES_URL = /^postgres(ql)?:\/\//;
const port = z.coerce.number().int().min(0).max(65535);
/** "a, b,,c" → ['a', 'b', 'c']. */
const commaList = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** OTEL_TRACES_SAMPLER's values (the OpenTelemetry specification's, less the Jaeger ones). */
const TRACE_SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
const otlpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL such as http://127.0.0.1:4318');

/** `a=1, b=x%20y` (the OpenTelemetry list format: percent-encoded values) → entries; undefined when malformed. */
export function parseKeyValueList(s: string | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of commaList(s)) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    try {
      out[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return out;
}

/** The environment variables, one entry each: name, type, bounds and default. */
const EnvSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(POSTGRES_URL, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_REPLICA_URLS: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  DATABASE_START_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  TERMINOLOGY_DATA_DIR: z.string().min(1).default('./.data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('te-rl'),
  RATE_LIMIT_STORE_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** auto: readable lines on a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** Import the bundled demo releases into an empty database at start. */
  TERMINOLOGY_DEMO: bool.default(true),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(14),
  GRAPHQL_MAX_COMPLEXITY: z.coerce.number().int().min(100).default(25_000),
  GRAPHQL_INTROSPECTION: bool.default(true),
  /** Path to a JSON map {hash: query}; when set, /graphql runs only these operations. */
  GRAPHQL_PERSISTED_OPERATIONS: z.string().min(1).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
  TRUST_PROXY: z.string().optional(),
  CORS_ORIGINS: z.string().default('*'),
  SECURITY_HEADERS: bool.default(true),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(1024 * 1024),
  /** The process's memory budget: every cache's and coded-data class's byte bound is a share of it (memoryShares). */
  MEMORY_BUDGET_MB: z.coerce.number().int().min(256).max(1_048_576).default(1024),
  /** Memory for whole catalog answers replayed byte for byte (src/http/warmAnswerCache.ts); 0 = off; unset: a share of MEMORY_BUDGET_MB. */
  RESPONSE_CACHE_MB: z.coerce.number().int().min(0).max(4096).optional(),
  /** Body limit of POST /impact alone: 100,000 coded rows (CSV or JSON) need more than MAX_BODY_BYTES. */
  MAX_IMPACT_BODY_BYTES: z.coerce.number().int().min(1024).max(512 * 1024 * 1024).default(IMPACT_BODY_BYTES),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** How long an idle kept-alive connection stays open: longer than a load balancer's idle timeout (60 s is common), or it reuses a socket the server is closing and answers 502. */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(65_000),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url('must be a URL such as http://127.0.0.1:11434/v1').optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  AI_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(30),
  AUDIT_STORE_TEXT: bool.default(false),
  SEARCH_INDEX_RELEASES: z.coerce.number().int().min(1).max(100).default(2),
  SEARCH_INDEX_WARM_DELAY_MS: z.coerce.number().int().min(-1).max(3_600_000).default(3_000),
  /** Before listening, the server asks itself the catalog routes clients open with (src/http/routeWarming.ts). */
  ROUTE_WARM_UP: bool.default(true),
  /** Worker threads of the coding engine; 0 = run it on the request thread (tests only). */
  NLP_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  NLP_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(5_000),
  NLP_MAX_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
  /** Coded-data jobs at once and waiting (src/services/codedWork.ts): public lists, keyed uploads. */
  CODED_LISTS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  CODED_LISTS_QUEUE: z.coerce.number().int().min(0).max(1_000).default(2),
  CODED_UPLOADS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  CODED_UPLOADS_QUEUE: z.coerce.number().int().min(0).max(1_000).default(4),
  /** Prometheus metrics on a port of their own (src/observability/); unset = not served there. */
  METRICS_PORT: port.optional(),
  /** Bearer token for GET /metrics on the main port (and on METRICS_PORT when both are set). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces').optional(),
  /** OpenTelemetry traces (src/observability/tracing.ts), the standard variables: off unless an OTLP endpoint is set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl.optional(),
  /** The traces' full URL (…/v1/traces); wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl.optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json'], { message: 'must be http/protobuf or http/json (gRPC is not supported)' }).default('http/protobuf'),
  /** `key=value,key2=value2` sent with every export (a collector's credentials): never logged. */
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().min(100).max(60_000).default(10_000),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('terminology-explorer'),
  OTEL_RESOURCE_ATTRIBUTES: z.string().optional(),
  OTEL_TRACES_SAMPLER: z.enum(TRACE_SAMPLERS).default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_SDK_DISABLED: bool.default(false),
  /** Spans are sent in batches this often (ms). */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(600_000).default(5_000),
  /** Spans waiting to be sent at most; newer ones are dropped while a collector is down. */
  OTEL_BSP_MAX_QUEUE_SIZE: z.coerce.number().int().min(1).max(65_536).default(2_048),
  /** Spans in one OTLP request at most (the SDK's rule: never more than the queue holds). */
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(65_536).default(512),
});


const MB = 1024 * 1024;

/** Byte bounds derived from MEMORY_BUDGET_MB. */
export interface MemoryShares {
  budget: number;
  /** V8's heap limit that `terminology serve` sets (HEAP_SHARE of the budget: bin/heap-limit.mjs). */
  heap: number;
  /** What the on-heap caches and coded-data classes below may hold together (onHeapPool). */
  onHeap: number;
  // Off the main thread's heap (Buffers, shared memory, the workers' own heaps): bounded by the budget.
  /** Whole catalog answers replayed, as Buffers (0: off). */
  warmAnswers: number;
  /** The coding engine's built vocabularies, all workers together (~45 MB per full-size release in each worker that codes for it). */
  engineVocabularies: number;
  /** Encoded vocabulary sources (SharedArrayBuffers, ~4 MB per full-size release), shared with the workers. */
  engineSources: number;
  // On the main thread's heap: together within `onHeap`.
  /** GraphQL results' JSON text. */
  graphqlResults: number;
  /** Parsed GraphQL documents (their errors get a tenth more). */
  graphqlDocuments: number;
  /** Built release indexes (search, hierarchy reads; ~50 MB each at full size). */
  releaseIndexes: number;
  /** Change sets in memory (src/domain/changes/memory.ts: pairs by code, computed pairs' listings; first → last of a long chain ~40 MB). */
  changeSets: number;
  /** Keyed uploads held at once (impact, SMQ application), each counted as 4× its input. */
  codedUploads: number;
  /** Public coded lists held at once, counted the same way. */
  codedLists: number;
  /** Verified API keys remembered for API_KEY_CACHE_TTL_MS (~750 bytes each). */
  apiKeys: number;
}

/** V8's old space as a share of MEMORY_BUDGET_MB: the value bin/heap-limit.mjs gives `serve` (test/cli/heap-limit.test.ts checks they agree). */
export const HEAP_SHARE = 0.5;
/**
 * The server's own heap beside its caches, in MB: code, schema, database clients, request
 * state. Measured: 49 MB live after a full collection on the demo store with its index built.
 */
export const HEAP_RESERVE_MB = 64;
/**
 * Of the heap beyond the reserve, what the on-heap caches may fill: the rest is garbage between
 * collections. Seven eighths, not less: the release indexes' typed arrays are counted here but live
 * outside V8's old space, and at the default budget keyed uploads must reach the 32 MB body limit
 * (4 × 32 MB ≤ 21/64 of the pool).
 */
const ON_HEAP_CACHE_FRACTION = 7 / 8;

/**
 * The on-heap pool's split, in 64ths: release indexes 24, keyed uploads 21, GraphQL results 6,
 * change sets 6, GraphQL documents 3 (and their errors a tenth of that), public lists 2, API
 * keys 1 — 63.3 of 64.
 */
const ON_HEAP_SPLIT = { releaseIndexes: 24, codedUploads: 21, graphqlResults: 6, changeSets: 6, graphqlDocuments: 3, codedLists: 2, apiKeys: 1 } as const;

/**
 * The bytes the on-heap caches may hold together at a budget: seven eighths of what V8's
 * heap limit leaves beside the server's own reserve. Before, every share was a fraction of the
 * budget and the on-heap ones added up to 503 MB at the default 1,024 beside a 512 MB heap: had
 * they all filled, the server would have died of heap exhaustion instead of evicting.
 */
export function onHeapPool(budgetMb: number): number {
  return Math.max(0, budgetMb * HEAP_SHARE - HEAP_RESERVE_MB) * ON_HEAP_CACHE_FRACTION * MB;
}

/**
 * One budget, shared out. Off the heap (the budget's RSS beside V8's heap): whole answers 1/16,
 * the engine's vocabularies 1/8 (the workers' heaps), their sources 1/32. On the heap: the pool
 * above, split by ON_HEAP_SPLIT. At the default 1,024 MB: answers 64, vocabularies 128, sources 32;
 * heap 512, pool 392: release indexes 147, uploads 128.625, results 36.75, change sets 36.75,
 * documents 18.375, lists 12.25, API keys 6.125 (MB). At 256: heap 128, pool 56 (indexes 21,
 * uploads 18.375, results 5.25, change sets 5.25, documents 2.625, lists 1.75, keys 0.875).
 */
export function memoryShares(budgetMb: number, responseCacheMb?: number): MemoryShares {
  const budget = budgetMb * MB;
  const pool = onHeapPool(budgetMb);
  const part = (k: keyof typeof ON_HEAP_SPLIT) => (pool * ON_HEAP_SPLIT[k]) / 64;
  return {
    budget,
    heap: budgetMb * HEAP_SHARE * MB,
    onHeap: pool,
    warmAnswers: responseCacheMb !== undefined ? responseCacheMb * MB : budget / 16,
    engineVocabularies: budget / 8,
    engineSources: budget / 32,
    graphqlResults: part('graphqlResults'),
    graphqlDocuments: part('graphqlDocuments'),
    releaseIndexes: part('releaseIndexes'),
    changeSets: part('changeSets'),
    codedUploads: part('codedUploads'),
    codedLists: part('codedLists'),
    apiKeys: part('apiKeys'),
  };
}

/**
 * Checks between variables, then the nested shape. A failed check adds one issue and
 * stops: start-up reports the first such problem (after every per-variable one).
 */
export const ConfigSchema = EnvSchema.transform((c, ctx) => {
  const fail = (variable: string, message: string) => {
    ctx.addIssue({ code: 'custom', path: [variable], message });
    return z.NEVER;
  };
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(c.TRUST_PROXY);
  } catch (e) {
    return fail('TRUST_PROXY', (e as Error).message);
  }
  const replicaUrls = commaList(c.DATABASE_REPLICA_URLS);
  if (replicaUrls.some((u) => !POSTGRES_URL.test(u))) return fail('DATABASE_REPLICA_URLS', 'every entry must be a postgres:// URL');
  if (c.DATABASE_REPLICA_URLS && !c.DATABASE_URL) return fail('DATABASE_REPLICA_URLS', 'needs DATABASE_URL (the primary)');
  if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT) return fail('METRICS_PORT', 'must differ from PORT (use METRICS_TOKEN for /metrics on the main port)');
  const otlpHeaders = parseKeyValueList(c.OTEL_EXPORTER_OTLP_HEADERS);
  if (!otlpHeaders) return fail('OTEL_EXPORTER_OTLP_HEADERS', 'must be key=value pairs separated by commas');
  const resourceAttributes = parseKeyValueList(c.OTEL_RESOURCE_ATTRIBUTES);
  if (!resourceAttributes) return fail('OTEL_RESOURCE_ATTRIBUTES', 'must be key=value pairs separated by commas');
  const tracesUrl = c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (c.OTEL_EXPORTER_OTLP_ENDPOINT && `${c.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    replicaUrls,
    poolSize: c.DATABASE_POOL_SIZE,
    /** One attempt to reach PostgreSQL (TCP, handshake, SELECT 1), and the longest wait for a pool slot. */
    databaseConnectTimeoutMs: c.DATABASE_CONNECT_TIMEOUT_MS,
    /** How long start-up keeps retrying an unreachable PostgreSQL before the process exits. */
    databaseStartTimeoutMs: c.DATABASE_START_TIMEOUT_MS,
    /** Serving: statement limit (0 = none); the CLI's batch jobs run without one. */
    databaseQueryTimeoutMs: c.DATABASE_QUERY_TIMEOUT_MS,
    dataDir: c.TERMINOLOGY_DATA_DIR,
    redisUrl: c.REDIS_URL,
    /** Namespace of the rate-limit keys in Redis (deployments sharing one Redis). */
    redisKeyPrefix: c.REDIS_KEY_PREFIX,
    /** Longest wait for Redis per request before counting in memory instead. */
    rateLimitStoreTimeoutMs: c.RATE_LIMIT_STORE_TIMEOUT_MS,
    logLevel: c.LOG_LEVEL,
    logFormat: c.LOG_FORMAT,
    demo: c.TERMINOLOGY_DEMO,
    graphql: {
      maxDepth: c.GRAPHQL_MAX_DEPTH,
      maxComplexity: c.GRAPHQL_MAX_COMPLEXITY,
      introspection: c.GRAPHQL_INTROSPECTION,
      persistedOperations: c.GRAPHQL_PERSISTED_OPERATIONS,
    },
    rateLimitPerMinute: c.RATE_LIMIT_PER_MINUTE,
    trustProxy,
    corsOrigins: commaList(c.CORS_ORIGINS),
    securityHeaders: c.SECURITY_HEADERS,
    maxBodyBytes: c.MAX_BODY_BYTES,
    /** Byte bounds of the caches and coded-data classes, shares of MEMORY_BUDGET_MB. */
    memory: memoryShares(c.MEMORY_BUDGET_MB, c.RESPONSE_CACHE_MB),
    maxImpactBodyBytes: c.MAX_IMPACT_BODY_BYTES,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    keepAliveTimeoutMs: c.KEEP_ALIVE_TIMEOUT_MS,
    /** Set when OPENAI_API_KEY or OPENAI_BASE_URL is: the `openai` provider is used. */
    openai:
      c.OPENAI_API_KEY || c.OPENAI_BASE_URL
        ? { apiKey: c.OPENAI_API_KEY, baseURL: c.OPENAI_BASE_URL, model: c.OPENAI_MODEL, timeoutMs: c.OPENAI_TIMEOUT_MS }
        : undefined,
    aiRateLimitPerMinute: c.AI_RATE_LIMIT_PER_MINUTE,
    /** Releases whose in-memory search index is kept (LRU). */
    searchIndexReleases: c.SEARCH_INDEX_RELEASES,
    /** Delay before the latest release's index is built in the background; -1 = never (first search builds it). */
    searchIndexWarmDelayMs: c.SEARCH_INDEX_WARM_DELAY_MS,
    routeWarmUp: c.ROUTE_WARM_UP,
    auditStoreText: c.AUDIT_STORE_TEXT,
    /** The coding engine's worker pool (see src/assessment/enginePool.ts). */
    nlp: { workers: c.NLP_WORKERS ?? Math.max(1, availableParallelism()), timeoutMs: c.NLP_TIMEOUT_MS, maxQueue: c.NLP_MAX_QUEUE },
    codedWork: {
      lists: { running: c.CODED_LISTS_CONCURRENCY, queued: c.CODED_LISTS_QUEUE, bytes: memoryShares(c.MEMORY_BUDGET_MB).codedLists },
      uploads: { running: c.CODED_UPLOADS_CONCURRENCY, queued: c.CODED_UPLOADS_QUEUE, bytes: memoryShares(c.MEMORY_BUDGET_MB).codedUploads },
    },
    /** Metrics are collected when either is set (src/observability/setup.ts). */
    metrics: { port: c.METRICS_PORT, token: c.METRICS_TOKEN },
    /** OpenTelemetry traces: set when an OTLP endpoint is (and OTEL_SDK_DISABLED is not true). */
    tracing:
      tracesUrl && !c.OTEL_SDK_DISABLED
        ? {
            url: tracesUrl,
            protocol: c.OTEL_EXPORTER_OTLP_PROTOCOL,
            headers: otlpHeaders,
            timeoutMs: c.OTEL_EXPORTER_OTLP_TIMEOUT,
            serviceName: c.OTEL_SERVICE_NAME,
            resourceAttributes,
            sampler: c.OTEL_TRACES_SAMPLER,
            /** The ratio of the traceidratio samplers (default 1: every trace). */
            samplerRatio: c.OTEL_TRACES_SAMPLER_ARG ?? 1,
            batchDelayMs: c.OTEL_BSP_SCHEDULE_DELAY,
            maxQueueSize: c.OTEL_BSP_MAX_QUEUE_SIZE,
            exportBatchSize: Math.min(c.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, c.OTEL_BSP_MAX_QUEUE_SIZE),
          }
        : undefined,
  };
});

export type Config = z.output<typeof ConfigSchema>;

/** Every environment variable the service reads. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape);

export class ConfigError extends Error {}

/** Reads the environment once; a bad value stops start-up with one line per problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as operators expect from `FOO= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
