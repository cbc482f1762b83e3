// The Prometheus metrics of one process (prom-client, a registry of its own). Counts the
// service's parts keep as plain numbers (signals.ts) are read at scrape time; durations are
// observed through the timing hooks, which exist only while metrics are on. Every label has a
// bounded set of values by construction: route templates (routes.ts), known operation names,
// known error codes, fixed outcome words.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { projectRoot } from '../paths.ts';
import { FastHistogram } from './fastHistogram.ts';
import { apiKeyOutcomes, counts, memoryGauges, pools, rateDecisions, timings } from './signals.ts';

/** Request durations: 1 ms to 10 s (the p99 target is 100 ms; timeouts are 5–15 s). */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Body sizes: 100 B to 32 MB (MAX_IMPACT_BODY_BYTES). */
export const SIZE_BUCKETS = [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 33_554_432];
/**
 * The event-loop-delay monitor's timer period, ms (prom-client's default is 10). Each wake-up costs
 * CPU whether or not the loop is busy: 4.0–4.4 ms of CPU a second at 10 ms, ≈ 1.5 at 50 (bench/results.md
 * › Cost of the metrics, session 18). Node's histogram records the whole period between wake-ups, so the
 * `nodejs_eventloop_lag_*` gauges read at least this much on an idle loop: lag is what exceeds it.
 * A blocking stretch shorter than the period is caught in proportion to its length; the lag that matters
 * (tens to hundreds of ms, sustained) is caught every time.
 */
export const EVENT_LOOP_SAMPLE_MS = 50;

export interface BuildInfo {
  store: 'embedded' | 'server';
  /** The languages of the hosted releases, now (read at scrape time). */
  languages: () => string[];
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: FastHistogram;
  readonly httpRequestSize: FastHistogram;
  readonly httpResponseSize: FastHistogram;
  /** Requests being answered now (the HTTP wrapper keeps it current). */
  httpInFlight = 0;

  constructor(build: BuildInfo) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    const version = packageVersion();
    const metrics = this;

    new Gauge({
      name: 'build_info',
      help: 'Always 1: the running version, Node.js version, store kind and the languages of the hosted releases.',
      labelNames: ['version', 'node', 'store', 'languages'],
      registers,
      collect() {
        this.reset();
        this.set({ version, node: process.version, store: build.store, languages: [...new Set(build.languages())].sort().join(',') || 'none' }, 1);
      },
    });

    // The request path's histograms: series kept by the HTTP wrapper (fastHistogram.ts).
    this.httpDuration = new FastHistogram(
      'http_server_request_duration_seconds',
      'HTTP requests by method, route template, status class and surface (rest, graphql, fhir, explorer, service).',
      ['method', 'route', 'status_class', 'surface'],
      DURATION_BUCKETS,
      this.registry,
    );
    new Gauge({
      name: 'http_server_active_requests',
      help: 'HTTP requests being answered.',
      registers,
      collect() {
        this.set(metrics.httpInFlight);
      },
    });
    this.httpRequestSize = new FastHistogram(
      'http_server_request_body_size_bytes',
      'Request bodies by surface (their Content-Length; requests without a body count 0).',
      ['surface'],
      SIZE_BUCKETS,
      this.registry,
    );
    this.httpResponseSize = new FastHistogram(
      'http_server_response_size_bytes',
      'Responses by surface: bytes sent (status line, headers and body).',
      ['surface'],
      SIZE_BUCKETS,
      this.registry,
    );

    new Counter({
      name: 'cache_lookups_total',
      help: 'Cache lookups by cache (warm_answer: whole catalog answers; release_index: in-memory release indexes; dataloader: per-request loaders) and result.',
      labelNames: ['cache', 'result'],
      registers,
      collect() {
        this.reset();
        this.inc({ cache: 'warm_answer', result: 'hit' }, counts.warmHits);
        this.inc({ cache: 'warm_answer', result: 'miss' }, counts.warmMisses);
        this.inc({ cache: 'release_index', result: 'hit' }, counts.indexHits);
        this.inc({ cache: 'release_index', result: 'miss' }, counts.indexMisses);
        this.inc({ cache: 'dataloader', result: 'hit' }, counts.loaderHits);
        this.inc({ cache: 'dataloader', result: 'miss' }, counts.loaderMisses);
      },
    });
    new Counter({
      name: 'rate_limit_decisions_total',
      help: 'Rate-limit decisions by decision (allowed, refused) and store (memory: no Redis; redis; fallback: Redis configured but slow or degraded, counted in memory).',
      labelNames: ['decision', 'store'],
      registers,
      collect() {
        this.reset();
        for (const [store, d] of Object.entries(rateDecisions)) {
          this.inc({ decision: 'allowed', store }, d.allowed);
          this.inc({ decision: 'refused', store }, d.refused);
        }
      },
    });
    new Counter({
      name: 'api_key_authentications_total',
      help: 'API-key checks by outcome (accepted; rejected: malformed, unknown or revoked; missing).',
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        for (const [outcome, n] of Object.entries(apiKeyOutcomes)) this.inc({ outcome }, n);
      },
    });

    const dbQuery = new Histogram({
      name: 'db_query_duration_seconds',
      help: 'SQL statements sent through Prisma, by outcome (ok, error).',
      labelNames: ['outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'db_queries_in_flight',
      help: 'SQL statements sent and not answered yet.',
      registers,
      collect() {
        this.set(counts.dbInFlight);
      },
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections by pool (primary, replica; embedded: PGlite, one connection) and state (in_use, idle, waiting: requests waiting for one).',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        this.reset();
        if (build.store === 'embedded') {
          this.set({ pool: 'embedded', state: 'in_use' }, Math.min(1, counts.dbInFlight));
          this.set({ pool: 'embedded', state: 'idle' }, counts.dbInFlight > 0 ? 0 : 1);
          this.set({ pool: 'embedded', state: 'waiting' }, Math.max(0, counts.dbInFlight - 1));
          return;
        }
        const sum = { primary: { in_use: 0, idle: 0, waiting: 0 }, replica: { in_use: 0, idle: 0, waiting: 0 } };
        for (const [p, role] of pools) {
          sum[role].in_use += p.totalCount - p.idleCount;
          sum[role].idle += p.idleCount;
          sum[role].waiting += p.waitingCount;
        }
        for (const [pool, s] of Object.entries(sum)) for (const [state, n] of Object.entries(s)) this.set({ pool, state }, n);
      },
    });

    const redisCall = new Histogram({
      name: 'redis_command_duration_seconds',
      help: 'Rate-limit calls to Redis by outcome (ok, timeout: past RATE_LIMIT_STORE_TIMEOUT_MS, error).',
      labelNames: ['outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Counter({
      name: 'redis_timeouts_total',
      help: 'Rate-limit calls to Redis that took longer than RATE_LIMIT_STORE_TIMEOUT_MS (the request was counted in memory).',
      registers,
      collect() {
        this.reset();
        this.inc(counts.redisTimeouts);
      },
    });

    const indexLoad = new Histogram({
      name: 'release_index_load_duration_seconds',
      help: 'Release index loads by source (snapshot: read from its stored snapshot; rows: built from the database rows; overlay: materialised from an evicted index kept as an overlay).',
      labelNames: ['source'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    const indexBytes = new Counter({
      name: 'release_index_load_bytes_total',
      help: 'Bytes of release index snapshots read.',
      registers,
    });
    new Counter({
      name: 'release_index_evictions_total',
      help: 'Release indexes dropped to make room (SEARCH_INDEX_RELEASES, or their share of MEMORY_BUDGET_MB).',
      registers,
      collect() {
        this.reset();
        this.inc(counts.indexEvictions);
      },
    });

    new Gauge({
      name: 'memory_cache_bytes',
      help: 'Estimated bytes held by each bounded cache and coded-data class (MEMORY_BUDGET_MB shares).',
      labelNames: ['cache'],
      registers,
      collect() {
        for (const [cache, g] of Object.entries(memoryGauges)) if (g) this.set({ cache }, g.bytes());
      },
    });
    new Gauge({
      name: 'memory_cache_budget_bytes',
      help: 'The byte bound of each cache and coded-data class, its share of MEMORY_BUDGET_MB.',
      labelNames: ['cache'],
      registers,
      collect() {
        for (const [cache, g] of Object.entries(memoryGauges)) if (g) this.set({ cache }, g.budget);
      },
    });
    new Gauge({
      name: 'engine_queue_length',
      help: 'Coding-engine tasks waiting for a worker.',
      registers,
      collect() {
        this.set(counts.engineQueued);
      },
    });
    new Gauge({
      name: 'engine_tasks_running',
      help: 'Coding-engine tasks running on a worker.',
      registers,
      collect() {
        this.set(counts.engineRunning);
      },
    });
    const engineTask = new Histogram({
      name: 'engine_task_duration_seconds',
      help: 'Coding-engine tasks by endpoint (identify, classify, severity, label) and outcome (ok, timeout, error), queueing included.',
      labelNames: ['endpoint', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Counter({
      name: 'engine_timeouts_total',
      help: 'Coding-engine tasks stopped at their time budget (NLP_TIMEOUT_MS).',
      registers,
      collect() {
        this.reset();
        this.inc(counts.engineTimeouts);
      },
    });
    new Counter({
      name: 'engine_refusals_total',
      help: 'Coding-engine tasks refused at once because every worker was busy and NLP_MAX_QUEUE tasks waited.',
      registers,
      collect() {
        this.reset();
        this.inc(counts.engineRefusals);
      },
    });

    const ENGINE_OPS = new Set(['identify', 'classify', 'severity', 'label', 'warm']);
    timings.dbQuery = (s, ok) => dbQuery.observe({ outcome: ok ? 'ok' : 'error' }, s);
    timings.redisCall = (s, outcome) => redisCall.observe({ outcome }, s);
    timings.engineTask = (endpoint, s, outcome) => engineTask.observe({ endpoint: ENGINE_OPS.has(endpoint) ? endpoint : 'other', outcome }, s);
    timings.indexLoad = (source, s, bytes) => {
      indexLoad.observe({ source }, s);
      if (bytes) indexBytes.inc(bytes);
    };
  }

  /** Stops the timing hooks (a closed server's registry no longer observes). */
  close(): void {
    for (const k of Object.keys(timings) as (keyof typeof timings)[]) delete timings[k];
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
