// What the service's parts report for the metrics, as plain numbers and optional hooks. A leaf
// module (it imports nothing), so the lowest layers (database, domain, coding engine) report
// without knowing of Prometheus. Counters are bare increments (cheaper than any metric call
// on the hot path) read by prom-client at scrape time; the timing hooks are undefined until
// metrics are on (src/observability/metrics.ts sets them), so nothing reads a clock meanwhile.
// One set per process: a process serves one app.

/** Monotonic counts, read at scrape time. */
export const counts = {
  /** Warm-answer cache (src/http/warmAnswerCache.ts): catalog GETs answered from memory, or not. */
  warmHits: 0,
  warmMisses: 0,
  /** Release-index cache (src/domain/releaseIndex/indexCache.ts): index found loaded, or loaded now. */
  indexHits: 0,
  indexMisses: 0,
  indexEvictions: 0,
  /** Per-request DataLoaders (src/services/loaders.ts): keys found in the request's cache, or batched. */
  loaderHits: 0,
  loaderMisses: 0,
  /** Redis calls of the rate limiter that took longer than RATE_LIMIT_STORE_TIMEOUT_MS. */
  redisTimeouts: 0,
  /** Coding-engine tasks refused at once (queue full) and stopped at their time budget. */
  engineRefusals: 0,
  engineTimeouts: 0,
  /** Coding-engine tasks waiting for a worker, and running (gauges, kept current by the pool). */
  engineQueued: 0,
  engineRunning: 0,
  /** SQL statements sent and not answered yet (gauge). */
  dbInFlight: 0,
};

/** A bounded cache's estimated bytes now and its share of MEMORY_BUDGET_MB (the cache_bytes gauges). */
export interface MemoryGauge {
  bytes: () => number;
  budget: number;
}
/** Registered by each bounded cache as it is made (the latest of a kind wins: one app per process). */
export const memoryGauges: Partial<Record<'warmAnswers' | 'graphqlResults' | 'graphqlDocuments' | 'releaseIndexes' | 'codedUploads' | 'codedLists' | 'changeSets' | 'languageNames' | 'engineVocabularies' | 'engineSources' | 'apiKeys', MemoryGauge>> = {};

/** memory: no Redis configured; redis: counted in Redis; fallback: Redis configured but counted in memory (slow or degraded). */
export type RateStore = 'memory' | 'redis' | 'fallback';
export const rateDecisions: Record<RateStore, { allowed: number; refused: number }> = {
  memory: { allowed: 0, refused: 0 },
  redis: { allowed: 0, refused: 0 },
  fallback: { allowed: 0, refused: 0 },
};

/** missing: no X-API-Key; rejected: malformed, unknown or revoked; accepted. */
export type ApiKeyOutcome = 'accepted' | 'rejected' | 'missing';
export const apiKeyOutcomes: Record<ApiKeyOutcome, number> = { accepted: 0, rejected: 0, missing: 0 };

export type EngineOutcome = 'ok' | 'timeout' | 'error';

/** Timing hooks; set only while metrics are on. Seconds throughout. */
export interface TimingHooks {
  dbQuery?: (seconds: number, ok: boolean) => void;
  redisCall?: (seconds: number, outcome: 'ok' | 'timeout' | 'error') => void;
  engineTask?: (endpoint: string, seconds: number, outcome: EngineOutcome) => void;
  indexLoad?: (source: 'snapshot' | 'rows' | 'overlay', seconds: number, bytes: number) => void;
}
export const timings: TimingHooks = {};

/** PostgreSQL pools, for the pool gauges: role → counts now. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}
export const pools = new Map<PoolStats, 'primary' | 'replica'>();

export function recordRateDecision(allowed: boolean, store: RateStore): void {
  rateDecisions[store][allowed ? 'allowed' : 'refused']++;
}
