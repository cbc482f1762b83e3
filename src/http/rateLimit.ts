// Per-client request limits that hold across replicas. rate-limiter-flexible counts
// atomically (a Lua script on Redis), so two replicas sharing Redis admit N requests
// per window together, not 2N. Without REDIS_URL the count is per process, in memory.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface RateLimiter {
  readonly limit: number;
  readonly store: 'memory' | 'redis';
  consume(key: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  perMinute: number;
  redisUrl?: string | undefined;
  /** Namespace for Redis keys (several deployments may share one Redis). */
  keyPrefix?: string;
  onStoreError?: (err: Error) => void;
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const points = opts.perMinute;
  const duration = 60;
  let redis: Redis | undefined;
  let limiter: RateLimiterAbstract;
  if (opts.redisUrl) {
    redis = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    redis.on('error', (e: Error) => opts.onStoreError?.(e));
    limiter = new RateLimiterRedis({
      storeClient: redis,
      points,
      duration,
      keyPrefix: opts.keyPrefix ?? 'te-rl',
      // If Redis is down, each replica keeps limiting on its own rather than failing requests.
      insuranceLimiter: new RateLimiterMemory({ points, duration }),
    });
  } else {
    limiter = new RateLimiterMemory({ points, duration });
  }
  const decide = (r: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, r.remainingPoints),
    resetMs: r.msBeforeNext,
  });
  return {
    limit: points,
    store: redis ? 'redis' : 'memory',
    async consume(key) {
      try {
        return decide(await limiter.consume(key), true);
      } catch (e) {
        if (e instanceof RateLimiterRes) return decide(e, false);
        throw e;
      }
    },
    async close() {
      if (redis) redis.disconnect();
    },
  };
}
