// Each router mounts the middleware of the routes it serves (src/http/routers/): body limits,
// the API key, no-store, the coded-work budget, the catalog's cache headers. These tests walk the
// app's own route table, so a route mounted without its middleware — or a new route nobody
// listed here — fails them. Real HTTP over the demo releases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { createRateLimiter } from '../../src/http/rateLimit.ts';
import { parseTrustProxy } from '../../src/net/trustProxy.ts';
import { CATALOG_PATHS } from '../../src/http/warmAnswerCache.ts';
import { memoryShares } from '../../src/config.ts';
import { JOB_MEMORY_FACTOR } from '../../src/services/codedWork.ts';

const ORDINARY = 16 * 1024;
const UPLOADS = 10 * 1024 * 1024;
/** At MEMORY_BUDGET_MB=256 keyed uploads hold 15 MB (their part of the on-heap pool), a job counted as 4× its input: 3.75 MiB of input at most. */
const UPLOAD_BUDGET = Math.floor(memoryShares(256).codedUploads / JOB_MEMORY_FACTOR);

let t: TestApp;
let base: string;
let plain: string;
let key: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = await createTestApp({
    demo: true,
    env: { MEMORY_BUDGET_MB: '256' },
    app: { maxBodyBytes: ORDINARY, maxImpactBodyBytes: UPLOADS, rateLimit: { limiter: createRateLimiter({ perMinute: 120 }), trustProxy: parseTrustProxy('127.0.0.1') } },
  });
  const served = await listen(t.app);
  base = served.url;
  closers.push(served.close);
  // The Fetch adapter alone (no Node fast path): the warm answer cache's handle() in front of the app.
  const adapter = await listen(t.app.fetch);
  plain = adapter.url;
  closers.push(adapter.close);
  key = (await createApiKey(t.db.prisma, 'route middleware')).key;
}, 120_000);
afterAll(async () => {
  for (const close of closers) await close();
  await t?.cleanup();
});

let client = 0;
/** A client address of its own per call site, so that no test spends another's rate budget. */
const newClient = () => `198.51.100.${++client}`;

/** A concrete path for a route pattern. */
const concrete = (pattern: string) => pattern.replace(':code', pattern.startsWith('/smqs') ? '90500005' : '10047700').replace(':toVersionId', '5.0.1').replace(':id', 'meddra-5.0');

function patterns(method: string): string[] {
  return [...new Set(t.app.app.routes.filter((r) => r.method === method).map((r) => r.path))];
}

const UPLOAD_ROUTES = ['/impact', '/smqs/:code/apply'];

describe('body limits, mounted by each router', () => {
  it('every route that takes a body refuses one over its limit with 413, ahead of the key check; uploads of coded data have the larger limit', async () => {
    const ip = newClient();
    const routes = [...patterns('POST'), '/graphql'];
    expect(routes).toEqual(expect.arrayContaining([...UPLOAD_ROUTES, '/identify', '/codes/validate', '/fhir/CodeSystem/$lookup']));
    const over = JSON.stringify({ pad: 'x'.repeat(ORDINARY + 1) });
    for (const route of routes) {
      const r = await fetch(`${base}${concrete(route)}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Forwarded-For': ip }, body: over });
      const text = await r.text();
      if (UPLOAD_ROUTES.includes(route)) {
        // Past the ordinary limit, the upload reaches the key check.
        expect(r.status, route).toBe(401);
      } else {
        expect(r.status, route).toBe(413);
        if (!route.startsWith('/fhir/')) expect(JSON.parse(text).code, route).toBe('PAYLOAD_TOO_LARGE');
      }
    }
    const huge = 'x'.repeat(UPLOADS + 1);
    for (const route of UPLOAD_ROUTES) {
      const r = await fetch(`${base}${concrete(route)}`, { method: 'POST', headers: { 'content-type': 'text/csv', 'X-Forwarded-For': ip }, body: huge });
      expect(r.status, route).toBe(413);
      expect(await r.json(), route).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', detail: `Request body exceeds ${UPLOADS} bytes.` });
    }
  }, 120_000);

  it('a body no route reads keeps the ordinary limit: another method on an upload route, a path no route serves', async () => {
    const ip = newClient();
    const over = 'x'.repeat(ORDINARY + 1);
    for (const [method, path] of [['PUT', '/impact'], ['PUT', '/smqs/90500005/apply'], ['POST', '/nowhere'], ['POST', '/versions']]) {
      const r = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'text/csv', 'X-Forwarded-For': ip }, body: over });
      expect(r.status, `${method} ${path}`).toBe(413);
      expect((await r.json()).code).toBe('PAYLOAD_TOO_LARGE');
    }
  });
});

describe('coded-data uploads: key, budget and no-store, mounted by their routers', () => {
  it('an upload larger than its class budget is refused before its body is read, on each upload route', async () => {
    const ip = newClient();
    const body = 'x'.repeat(UPLOAD_BUDGET + 1024);
    for (const route of UPLOAD_ROUTES) {
      const r = await fetch(`${base}${concrete(route)}?from=5.0&to=5.0.1`, { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': key, 'X-Forwarded-For': ip }, body });
      expect(r.status, route).toBe(413);
      expect((await r.json()).detail, route).toMatch(new RegExp(`at most ${UPLOAD_BUDGET} bytes of input`));
    }
  }, 60_000);

  it('answers to coded data and narratives are never stored; an upload of another type is 415', async () => {
    const headers = { 'content-type': 'application/json', 'X-API-Key': key, 'X-Forwarded-For': newClient() };
    const rows = [{ rowId: 'a', code: '10002218' }];
    for (const [path, body] of [
      ['/impact?from=5.0&to=5.0.1', { rows }],
      ['/smqs/90500005/apply', { rows }],
      ['/identify', { description: 'nausea' }],
    ] as const) {
      const r = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cache-control'), path).toBe('no-store');
      await r.body?.cancel();
    }
    for (const route of UPLOAD_ROUTES) {
      const r = await fetch(`${base}${concrete(route)}?from=5.0&to=5.0.1`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'a' });
      expect(r.status, route).toBe(415);
      await r.body?.cancel();
    }
  }, 60_000);
});

describe('catalog cache headers, mounted by the catalog routers', () => {
  // Every GET route but served files and FHIR (their own caching: compressedBodies.ts, src/fhir/router.ts).
  const SAMPLES: Record<string, string> = {
    '/versions': '/versions',
    '/codes': '/codes?q=throwing%20up&limit=2',
    '/codes/:code': '/codes/10047700',
    '/codes/:code/changes': '/codes/10027787/changes?against=5.0',
    '/versions/:toVersionId/changes': '/versions/5.0.1/changes?limit=2',
    '/smqs': '/smqs',
    '/smqs/:code': '/smqs/90500005',
    '/versions/:toVersionId/smq-changes': '/versions/5.0.1/smq-changes',
    '/openapi.json': '/openapi.json',
    '/docs': '/docs',
    '/': '/',
    '/health/live': '/health/live',
    '/health/ready': '/health/ready',
    '/problems/:slug': '/problems/method-not-allowed',
  };
  const CATALOG = ['/versions', '/codes', '/codes/:code', '/codes/:code/changes', '/versions/:toVersionId/changes', '/smqs', '/smqs/:code', '/versions/:toVersionId/smq-changes'];

  it('every catalog GET has ETag, Cache-Control and Vary; no other route has them; the warm answer cache keeps exactly these paths', async () => {
    const ip = newClient();
    const served = patterns('GET').filter((p) => !p.startsWith('/fhir') && !p.includes('/assets/'));
    expect(Object.keys(SAMPLES).sort()).toEqual(served.sort());
    for (const [pattern, path] of Object.entries(SAMPLES)) {
      const r = await fetch(`${base}${path}`, { headers: { 'X-Forwarded-For': ip } });
      expect(r.status, path).toBe(200);
      await r.body?.cancel();
      const catalog = CATALOG.includes(pattern);
      expect(r.headers.get('cache-control') === 'public, no-cache', path).toBe(catalog);
      expect(r.headers.get('etag') !== null && /X-Terminology-Version, Accept-Language/.test(r.headers.get('vary') ?? ''), path).toBe(catalog);
      expect(CATALOG_PATHS.test(new URL(path, base).pathname), path).toBe(catalog);
    }
  }, 60_000);
});

describe('the rate decision taken by the warm answer cache reaches the chain with the request', () => {
  it('through the Fetch adapter: a warm answer near the limit is counted once, with the rate headers, then refused with 429', async () => {
    const ip = newClient();
    const get = () => fetch(`${plain}/codes/10047700`, { headers: { 'X-Forwarded-For': ip } });
    await (await get()).arrayBuffer(); // warm
    const responses: Response[] = [];
    for (let i = 1; i < 124; i++) {
      const r = await get();
      await r.arrayBuffer();
      responses.push(r);
    }
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(119);
    expect(statuses.slice(119)).toEqual([429, 429, 429, 429]);
    // Counted twice near the limit, these would run ahead of the requests.
    expect(responses[88]!.headers.get('x-ratelimit-remaining')).toBe('30');
    expect(responses[100]!.headers.get('x-ratelimit-remaining')).toBe('18');
    expect(responses[118]!.headers.get('x-ratelimit-remaining')).toBe('0');
  }, 60_000);
});
