// Fault injection on a running server (in-process, real sockets): PostgreSQL and Redis are
// each reached through a TCP proxy the test stalls (a partition: no reset), resets and
// refuses. Every fault ends in the documented answer within a bounded time — 503
// SERVICE_UNAVAILABLE for the database, requests served with the limiter degraded to
// memory for Redis, and /health/ready saying which — and the service recovers by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createFreshPostgres } from '../helpers/db.ts';
import { proxiedPostgres, startTcpProxy, type TcpProxy } from '../helpers/tcpProxy.ts';
import { captureLogs } from '../helpers/http.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { importRelease } from '../../src/importer/import.ts';

const REDIS = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const QUERY_TIMEOUT_MS = 1_500;
const STORE_TIMEOUT_MS = 200;
const prefix = `te-test-faults-${randomBytes(4).toString('hex')}`;

let pgdb: Awaited<ReturnType<typeof createFreshPostgres>>;
let pgProxy: TcpProxy;
let redisProxy: TcpProxy;
let server: RunningServer;
let redis: Redis;
const logs = captureLogs();

beforeAll(async () => {
  pgdb = await createFreshPostgres();
  let viaProxy: URL;
  ({ proxy: pgProxy, url: viaProxy } = await proxiedPostgres(pgdb.url));
  redisProxy = await startTcpProxy(REDIS.hostname, Number(REDIS.port || 6379));
  const config = loadConfig({
    DATABASE_URL: viaProxy.toString(),
    DATABASE_POOL_SIZE: '4',
    DATABASE_CONNECT_TIMEOUT_MS: '1000',
    DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
    REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
    RATE_LIMIT_PER_MINUTE: '10000',
    TERMINOLOGY_DEMO: 'false',
    SEARCH_INDEX_WARM_DELAY_MS: '-1',
    PORT: '0',
    HOST: '127.0.0.1',
  });
  server = await startServer(config, { log: createLogger('info', logs.stream), handleSignals: false });
  await importRelease(server.db, writeFixture(miniSpec('1.0')));
  redis = new Redis(REDIS.toString());
});
afterAll(async () => {
  await pgProxy?.restore();
  await redisProxy?.restore();
  await server?.close();
  await pgProxy?.close();
  await redisProxy?.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
  await pgdb?.drop();
});

// Distinct query strings: nothing can be replayed from the response caches.
let n = 0;
async function timed(path: string) {
  const started = performance.now();
  const res = await fetch(server.url + path);
  const body = (await res.json()) as any;
  return { status: res.status, headers: res.headers, body, ms: performance.now() - started };
}
const code = () => timed(`/codes/10047700?synonymsLimit=${(n++ % 200) + 1}`);
const ready = () => timed('/health/ready');
const messages = (re: RegExp) => logs.lines().filter((l) => re.test(String(l.msg)));

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let last = await fn();
  while (!ok(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    last = await fn();
  }
  return last;
}

describe('Redis faults: requests keep being served, counted in memory', () => {
  it('is healthy to start with, counting in Redis', async () => {
    expect((await code()).status).toBe(200);
    const r = await ready();
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ready', checks: { database: 'ok', rateLimitStore: 'ok' } });
    expect(Number(await redis.get(`${prefix}:127.0.0.1`))).toBeGreaterThan(0);
  });

  for (const fault of ['stall', 'reset', 'refuse'] as const) {
    it(`${fault}: every request is answered within the store timeout, readiness reports the degraded store, one warning`, async () => {
      const warnedBefore = messages(/not answering/).length;
      await redisProxy[fault]();
      const first = await code();
      expect(first.status).toBe(200);
      expect(first.ms).toBeLessThan(STORE_TIMEOUT_MS + 1_000);
      // Once degraded, Redis is not waited for at all.
      const burst = [];
      for (let i = 0; i < 20; i++) burst.push(await code());
      expect(burst.every((r) => r.status === 200)).toBe(true);
      // Waiting out the timeout each time would take 20 × STORE_TIMEOUT_MS.
      expect(burst.reduce((t, r) => t + r.ms, 0)).toBeLessThan(10 * STORE_TIMEOUT_MS);
      const r = await ready();
      expect(r.status).toBe(200);
      expect(r.body.checks).toEqual({ database: 'ok', rateLimitStore: 'degraded' });
      expect(messages(/not answering/).length).toBe(warnedBefore + 1);
    });

    it(`${fault}: shared counting resumes without a restart once Redis answers`, async () => {
      const recoveredBefore = messages(/answers again/).length;
      await redisProxy.restore();
      const r = await until(ready, (x) => x.body.checks?.rateLimitStore === 'ok', 10_000);
      expect(r.body.checks.rateLimitStore).toBe('ok');
      expect(messages(/answers again/).length).toBe(recoveredBefore + 1);
      const before = Number(await redis.get(`${prefix}:127.0.0.1`));
      expect((await code()).status).toBe(200);
      expect(Number(await redis.get(`${prefix}:127.0.0.1`))).toBe(before + 1);
    });
  }
});

describe('PostgreSQL faults: 503 SERVICE_UNAVAILABLE within the query timeout', () => {
  it('is healthy to start with', async () => {
    expect((await code()).body.term).toBe('Vomiting');
    expect((await ready()).body.checks.database).toBe('ok');
  });

  for (const fault of ['stall', 'reset', 'refuse'] as const) {
    it(`${fault}: requests answer 503 with Retry-After in bounded time, readiness fails, liveness holds`, async () => {
      await pgProxy[fault]();
      for (let i = 0; i < 2; i++) {
        const r = await code();
        expect(r.status).toBe(503);
        expect(r.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        // Query timeout plus the client-side second, once: the warm-answer layers and the
        // operation all read the release list, but a read that just failed is not repeated
        // (src/domain/catalog.ts), plus slack.
        expect(r.ms).toBeLessThan(QUERY_TIMEOUT_MS + 1_000 + 1_500);
      }
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.body.checks.database).toBe('unavailable');
      expect(r.ms).toBeLessThan(3_000);
      expect((await timed('/health/live')).status).toBe(200);
    }, 30_000);

    it(`${fault}: serves again without a restart once the database answers`, async () => {
      await pgProxy.restore();
      const r = await until(code, (x) => x.status === 200, 15_000);
      expect(r.status).toBe(200);
      expect((await ready()).status).toBe(200);
    }, 30_000);
  }
});
