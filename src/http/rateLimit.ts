// Per-client request limits that hold across replicas. rate-limiter-flexible counts
// atomically (a Lua script on Redis), so two replicas sharing Redis admit N requests
// per window together, not 2N. Without REDIS_URL the count is per process, in memory
// (windowCounter.ts: synchronous, no timer per client).
//
// Redis must never hold a request up: every call has a short timeout, after which the
// request is counted in memory. A connection error, or a timeout confirmed by a ping that
// times out too (a busy process is not a slow Redis), marks the store degraded: requests
// are then counted in memory per process without waiting on Redis at all, one warning is
// logged, and Redis is probed every second until it answers again.
import { createRequire } from 'node:module';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { WindowCounter, type RateLimitDecision } from './windowCounter.ts';
import { counts, recordRateDecision, timings, type RateStore } from '../observability/signals.ts';
import { traceHooks } from '../observability/traceHooks.ts';

export type { RateLimitDecision } from './windowCounter.ts';

/** `memory`: no shared store configured; `ok`: Redis answers; `degraded`: counting in memory until it does. */
export type StoreState = 'memory' | 'ok' | 'degraded';

export interface RateLimiter {
  readonly limit: number;
  readonly store: 'memory' | 'redis';
  consume(key: string): Promise<RateLimitDecision>;
  /** The decision at once when counting in memory (no store, or Redis degraded); undefined when Redis must be asked. */
  consumeNow(key: string): RateLimitDecision | undefined;
  /** The store's state for readiness reports; checks Redis (bounded by the timeout) unless already degraded. */
  storeState?(): Promise<StoreState>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  perMinute: number;
  redisUrl?: string | undefined;
  /** Namespace for Redis keys (several deployments may share one Redis). */
  keyPrefix?: string;
  /** Longest wait for one Redis call (default 500 ms). */
  storeTimeoutMs?: number;
  /** While degraded, how often Redis is probed (default 1 s). */
  probeIntervalMs?: number;
  /** Called once when Redis stops answering (not per request). */
  onDegraded?: (err: Error) => void;
  /** Called once when Redis answers again. */
  onRecovered?: () => void;
}

/**
 * p, or a rejection after ms. The verdict waits for the poll phase of the event loop that
 * fired the timer: under a burst the loop may be late, and a reply already sitting in the
 * socket must win over the timer (otherwise a busy process, not Redis, would look slow).
 */
class StoreTimeoutError extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new StoreTimeoutError(`rate-limit store did not answer within ${ms} ms`));
        }),
      ms,
    );
    p.then(
      (v) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const points = opts.perMinute;
  const duration = 60;
  const counter = new WindowCounter(points, duration * 1000);
  // Every decision is counted for the metrics, by the store that took it.
  const memory = {
    consume(key: string, store: RateStore = 'memory'): RateLimitDecision {
      const d = counter.consume(key);
      recordRateDecision(d.allowed, store);
      return d;
    },
  };
  const decide = (r: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, r.remainingPoints),
    resetMs: r.msBeforeNext,
  });
  if (!opts.redisUrl) {
    return {
      limit: points,
      store: 'memory',
      consume: async (key) => memory.consume(key),
      consumeNow: (key) => memory.consume(key),
      storeState: async () => 'memory',
      close: async () => {},
    };
  }

  // Loaded only with a Redis URL: ioredis and rate-limiter-flexible cost ~0.1 s of every start.
  const load = createRequire(import.meta.url);
  const rlf = load('rate-limiter-flexible') as typeof import('rate-limiter-flexible');
  const { Redis: RedisClient } = load('ioredis') as typeof import('ioredis');
  const consumeShared = async (limiter: RateLimiterRedis, key: string) => {
    try {
      return decide(await limiter.consume(key), true);
    } catch (e) {
      if (e instanceof rlf.RateLimiterRes) return decide(e, false);
      throw e;
    }
  };
  const timeoutMs = opts.storeTimeoutMs ?? 500;
  const redis: Redis = new RedisClient(opts.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A backstop: commands left behind by withTimeout must not wait on a stalled link forever.
    commandTimeout: Math.max(5_000, timeoutMs * 4),
    connectTimeout: Math.max(1_000, timeoutMs),
  });
  if (traceHooks.redis) traceCommands(redis);
  const shared = new rlf.RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix: opts.keyPrefix ?? 'te-rl', rejectIfRedisNotReady: true });
  let degraded = false;
  let probe: NodeJS.Timeout | undefined;
  let probing = false;
  const recover = () => {
    degraded = false;
    clearInterval(probe);
    probe = undefined;
    opts.onRecovered?.();
  };
  const degrade = (err: Error) => {
    if (degraded) return;
    degraded = true;
    opts.onDegraded?.(err);
    probe = setInterval(() => {
      if (probing || redis.status !== 'ready') return;
      probing = true;
      withTimeout(redis.ping(), timeoutMs)
        .then(recover, () => {})
        .finally(() => (probing = false));
    }, opts.probeIntervalMs ?? 1_000);
    probe.unref();
  };
  // A timeout alone may be this process's own backlog: degraded only if a ping times out too.
  let confirming = false;
  const suspect = (err: Error) => {
    if (!(err instanceof StoreTimeoutError)) return degrade(err);
    if (degraded || confirming) return;
    confirming = true;
    withTimeout(redis.ping(), timeoutMs)
      .catch(() => degrade(err))
      .finally(() => (confirming = false));
  };
  // Connection errors arrive here, once per reconnection attempt: they only mark the state.
  redis.on('error', (e: Error) => degrade(e));
  // Until the first connection is up, a request waits for it (at most the store timeout)
  // instead of being refused by the client and marking the store degraded: a replica asked
  // in its first milliseconds would otherwise count in memory, alone, for a probe interval.
  let connecting: Promise<void> | undefined = new Promise<void>((resolve) => {
    const done = () => {
      connecting = undefined;
      redis.off('ready', done);
      redis.off('error', done);
      redis.off('end', done);
      resolve();
    };
    redis.once('ready', done).once('error', done).once('end', done);
  });

  return {
    limit: points,
    store: 'redis',
    async consume(key) {
      if (!degraded) {
        const started = timings.redisCall ? performance.now() : 0;
        try {
          if (connecting) await withTimeout(connecting, timeoutMs);
          const d = await withTimeout(consumeShared(shared, key), timeoutMs);
          timings.redisCall?.((performance.now() - started) / 1000, 'ok');
          recordRateDecision(d.allowed, 'redis');
          return d;
        } catch (e) {
          const timedOut = e instanceof StoreTimeoutError;
          if (timedOut) counts.redisTimeouts++;
          timings.redisCall?.((performance.now() - started) / 1000, timedOut ? 'timeout' : 'error');
          suspect(e as Error);
        }
      }
      return memory.consume(key, 'fallback');
    },
    consumeNow: (key) => (degraded ? memory.consume(key, 'fallback') : undefined),
    async storeState() {
      if (degraded) return 'degraded';
      try {
        if (connecting) await withTimeout(connecting, timeoutMs);
        await withTimeout(redis.ping(), timeoutMs);
        return 'ok';
      } catch (e) {
        degrade(e as Error);
        return 'degraded';
      }
    },
    async close() {
      clearInterval(probe);
      redis.disconnect();
    },
  };
}

/**
 * Every command of this client in a client span while traces are on (its name only, e.g.
 * EVALSHA: keys hold client addresses). ioredis sends each command, scripts and MULTI's
 * included, through sendCommand; its reply settles the command's promise.
 */
function traceCommands(redis: Redis): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
    const traced = traceHooks.redis;
    if (!traced) return send(command, stream);
    let sent: unknown;
    traced(command.name, () => {
      sent = send(command, stream);
      return command.promise;
    }).catch(() => undefined);
    return sent;
  };
}
