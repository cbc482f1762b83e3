// The rate limiter's first moments against a real Redis: a request that arrives while the
// client is still connecting waits for the connection (bounded by the store timeout) and is
// counted in Redis, rather than marking the store degraded and counting in memory alone.
import { createServer, type Server } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRateLimiter } from '../../src/http/rateLimit.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `te-connect-${randomUUID()}`;
const admin = new Redis(REDIS_URL);

afterAll(async () => {
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length) await admin.del(...keys);
  admin.disconnect();
});

describe('rate limiter: the first connection to Redis', () => {
  it('a request asked before the connection is up is counted in Redis, and the store is not degraded', async () => {
    const degraded: Error[] = [];
    const limiter = createRateLimiter({ perMinute: 5, redisUrl: REDIS_URL, keyPrefix: prefix, storeTimeoutMs: 2_000, onDegraded: (e) => degraded.push(e) });
    try {
      // Asked synchronously after creation: the client has not connected yet.
      const first = await limiter.consume('198.51.100.7');
      expect(first).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
      expect(degraded).toEqual([]);
      expect(Number(await admin.get(`${prefix}:198.51.100.7`))).toBe(1);
      expect(await limiter.storeState!()).toBe('ok');
      // Shared counting goes on: four more allowed, the sixth refused.
      for (let i = 0; i < 4; i++) expect((await limiter.consume('198.51.100.7')).allowed).toBe(true);
      expect((await limiter.consume('198.51.100.7')).allowed).toBe(false);
    } finally {
      await limiter.close();
    }
  });

  it('a Redis that never answers holds the first request no longer than the store timeout; it is then counted in memory', async () => {
    // A listener that accepts and never speaks: the connection is made but Redis never says ready.
    const sockets: import('node:net').Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as import('node:net').AddressInfo).port;
    const limiter = createRateLimiter({ perMinute: 5, redisUrl: `redis://127.0.0.1:${port}`, keyPrefix: prefix, storeTimeoutMs: 300 });
    try {
      const started = performance.now();
      const d = await limiter.consume('198.51.100.8');
      const ms = performance.now() - started;
      expect(d).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
      expect(ms).toBeLessThan(300 + 1_000);
      expect(ms).toBeGreaterThanOrEqual(250);
    } finally {
      await limiter.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
