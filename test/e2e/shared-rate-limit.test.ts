// Two server processes sharing the real Redis admit 120 requests a minute together,
// not 240, under a concurrent burst; without Redis each counts alone.
import { afterAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';
import { freshStore } from '../helpers/cli.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const running: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  for (const c of cleanups) await c();
});

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
    // A generous store timeout: this test is about shared counting, and a loaded CI machine can
    // make Redis answers slower than the default 500 ms (the fallback is tested in test/server/faults).
    const env = async () => ({ ...(await freshStore()).env, LOG_LEVEL: 'info', TRUST_PROXY: '127.0.0.1', REDIS_URL, RATE_LIMIT_STORE_TIMEOUT_MS: '5000' });
    const servers = await Promise.all([startServerProcess(await env()), startServerProcess(await env())]);
    running.push(...servers);
    expect(servers[0]!.logs()).toContain('120/min (redis)');
    const ip = `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;
    const statuses = await burst(servers.map((s) => s.url), ip);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(180);
    // Both replicas refused some: the count really is shared.
    const refusedBy = new Set(statuses.map((s, i) => (s === 429 ? i % 2 : -1)).filter((x) => x >= 0));
    expect(refusedBy.size).toBe(2);
  }, 120_000);

  // The control: the same burst on two replicas without Redis. Two apps in this process, each
  // composed from the server's configuration (the default 120/min, no REDIS_URL: counting in
  // memory) behind a real listener — what differs from the processes above is only the store of
  // the counts, and a process start each (seconds of WebAssembly start on PGlite) is saved.
  it('without Redis each replica counts on its own (why Redis is needed behind a load balancer)', async () => {
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const t: TestApp = await createTestApp({ demo: false, env: { RATE_LIMIT_PER_MINUTE: '120', TRUST_PROXY: '127.0.0.1', REDIS_URL: '' } });
      const served = await listen(t.app);
      cleanups.push(served.close, t.cleanup);
      urls.push(served.url);
    }
    const statuses = await burst(urls, '198.18.0.1');
    expect(statuses.filter((s) => s === 200)).toHaveLength(240);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
  }, 120_000);
});
