// The start's warm-up of the catalog routes (src/http/routeWarming.ts): what it asks, on the
// demo store and on an empty one, and that a client's rate limit is not spent by it. That the
// metrics count none of it is held by test/observability/metrics.test.ts (exact counts on the
// shipped server, which warms its routes by default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { warmRoutes } from '../../src/http/routeWarming.ts';

let demo: TestApp;
let empty: TestApp;

beforeAll(async () => {
  // One request a minute for everyone: a warm-up that spent it would leave the client's refused.
  [demo, empty] = await Promise.all([createTestApp({ readOnly: true, env: { RATE_LIMIT_PER_MINUTE: '1' } }), createTestApp({ demo: false })]);
});
afterAll(async () => {
  await demo?.cleanup();
  await empty?.cleanup();
});

describe('the catalog routes warm-up', () => {
  it('asks the latest release what clients ask first, every answer a 200, and spends no client limit', async () => {
    const w = await warmRoutes(demo.app, () => false);
    expect(w.asked.map((a) => a.path)).toEqual([
      '/versions?limit=2',
      '/codes?q=a&limit=1&version=5.0.1',
      expect.stringMatching(/^\/codes\/\d{8}\?version=5\.0\.1$/),
      '/graphql',
      expect.stringMatching(/^\/codes\/\d{8}\/changes\?against=5\.0&version=5\.0\.1$/),
      '/versions/5.0.1/changes?limit=1',
    ]);
    expect(w.asked.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // The one request a minute is still the client's.
    expect((await demo.request('/versions')).status).toBe(200);
    expect((await demo.request('/versions')).status).toBe(429);
  });

  it('stops after the release list on a store with no release, and stops when the server is shutting down', async () => {
    const w = await warmRoutes(empty.app, () => false);
    expect(w.asked).toEqual([{ path: '/versions?limit=2', status: 200, ms: expect.any(Number) }]);
    expect((await warmRoutes(demo.app, () => true)).asked.map((a) => a.path)).toEqual(['/versions?limit=2']);
  });
});
