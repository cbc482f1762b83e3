// Two replicas sharing the real Redis admit 120 requests a minute together, not 240, under a
// concurrent burst; without Redis each counts alone.
// The replicas are two apps in this process, each composed from the server's configuration
// (src/compose.ts, as `terminology serve` composes it) behind a real listener: the control below
// shows that two such apps share no count in memory, so a shared 120 can only come from Redis.
// A server process's start with Redis (its readiness naming the store, the count in Redis, the
// fallback while Redis is away) is test/server/faults.test.ts's; a process start each here would
// be seconds of WebAssembly start on PGlite for the same counting.
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Two replicas over one database (each with its own limiter and caches), behind listeners of their own. */
async function replicas(env: Record<string, string>): Promise<string[]> {
  const first: TestApp = await createTestApp({ demo: false, env });
  cleanups.push(first.cleanup);
  const second: TestApp = await createTestApp({ over: first, env });
  cleanups.push(second.cleanup);
  const urls: string[] = [];
  for (const t of [first, second]) {
    const served = await listen(t.app);
    cleanups.push(served.close);
    urls.push(served.url);
  }
  return urls;
}

/**
 * Until each replica's limiter says Redis answers (`/health/ready`, not rate-limited): a replica
 * asked before its Redis connection is up counts in memory for that while (the degraded mode
 * test/server/faults.test.ts covers), which on a loaded machine is the whole burst. The server
 * process this stands for is behind a load balancer only once ready.
 */
async function untilRedisAnswers(urls: string[]): Promise<void> {
  for (const url of urls) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const body = (await (await fetch(`${url}/health/ready`)).json()) as { checks?: { rateLimitStore?: string } };
      if (body.checks?.rateLimitStore === 'ok') break;
      if (Date.now() > deadline) throw new Error(`${url}: the rate-limit store is ${body.checks?.rateLimitStore} after 30 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** 300 concurrent requests from one client address, alternating between the servers. */
async function burst(urls: string[], ip: string): Promise<number[]> {
  return Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      fetch(`${urls[i % 2]!}/versions`, { headers: { 'X-Forwarded-For': ip } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    ),
  );
}

describe('rate limits across replicas', () => {
  it('two replicas sharing Redis admit exactly 120 per minute together', async () => {
    const prefix = `te-rl-test-${randomBytes(4).toString('hex')}`;
    const redis = new Redis(REDIS_URL);
    cleanups.push(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });
    // A generous store timeout: this test is about shared counting, and a loaded CI machine can
    // make Redis answers slower than the default 500 ms (the fallback is tested in test/server/faults).
    const urls = await replicas({ RATE_LIMIT_PER_MINUTE: '120', TRUST_PROXY: '127.0.0.1', REDIS_URL, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_STORE_TIMEOUT_MS: '5000' });
    await untilRedisAnswers(urls);
    const ip = `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;
    const statuses = await burst(urls, ip);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(180);
    // Both replicas refused some: the count really is shared, and it is Redis's (every request counted there).
    const refusedBy = new Set(statuses.map((s, i) => (s === 429 ? i % 2 : -1)).filter((x) => x >= 0));
    expect(refusedBy.size).toBe(2);
    expect(Number(await redis.get(`${prefix}:${ip}`))).toBe(300);
  }, 120_000);

  // The control: the same burst on two replicas without Redis (the default 120/min, no
  // REDIS_URL: counting in memory). What differs from the replicas above is only the store of the counts.
  it('without Redis each replica counts on its own (why Redis is needed behind a load balancer)', async () => {
    const urls = await replicas({ RATE_LIMIT_PER_MINUTE: '120', TRUST_PROXY: '127.0.0.1', REDIS_URL: '' });
    const statuses = await burst(urls, '198.18.0.1');
    expect(statuses.filter((s) => s === 200)).toHaveLength(240);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
  }, 120_000);
});
