// The Node fast path (nodeListener.ts → WarmAnswerCache.serveNode): warm catalog answers sent
// from Node's own request, before the Fetch adapter. It must be indistinguishable from the
// adapter's answer — every header, 304, rate limits counted once with the same headers and
// 429 — and leave anything unusual to the chain. Real HTTP, real database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { miniSpec } from '../helpers/medascii.ts';
import { createRateLimiter } from '../../src/http/rateLimit.ts';
import { parseTrustProxy } from '../../src/net/trustProxy.ts';
import { nodeListener } from '../../src/http/nodeListener.ts';

let t: TestApp;
let fast: string;
let adapter: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = await createTestApp({
    fixtures: [miniSpec('1.0')],
    app: { rateLimit: { limiter: createRateLimiter({ perMinute: 120 }), trustProxy: parseTrustProxy('127.0.0.1') } },
  });
  const server = http.createServer(nodeListener(t.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fast = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const plain = await listen(t.app.fetch);
  adapter = plain.url;
  closers.push(plain.close);
});
afterAll(async () => {
  for (const c of closers) await c();
  await t?.cleanup();
});

const from = (ip: string, headers: Record<string, string> = {}) => ({ headers: { ...headers, 'X-Forwarded-For': ip } });
const strip = (h: Headers) => [...h.entries()].filter(([k]) => !['x-request-id', 'date', 'keep-alive', 'connection'].includes(k));

describe('Node fast path for warm answers', () => {
  it('sends the same bytes and headers as the adapter, without SQL, with its own request id', async () => {
    const first = await fetch(`${adapter}/codes/10028813?synonymsLimit=2`, from('192.0.2.1'));
    const body = new Uint8Array(await first.arrayBuffer());
    t.queries.length = 0;
    const again = await fetch(`${fast}/codes/10028813?synonymsLimit=2`, from('192.0.2.1', { 'X-Request-Id': 'trace-0123456789' }));
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(body);
    expect(strip(again.headers)).toEqual(strip(first.headers));
    expect(again.headers.get('content-length')).toBe(String(body.byteLength));
    expect(again.headers.get('x-request-id')).toBe('trace-0123456789');
    expect(t.queries.filter((q) => !q.includes('"release"'))).toEqual([]);
    // A malformed request id is replaced, as the chain does.
    const other = await fetch(`${fast}/codes/10028813?synonymsLimit=2`, from('192.0.2.1', { 'X-Request-Id': 'bad id' }));
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers If-None-Match with 304 (no body, no content type), as the adapter does', async () => {
    const tag = (await fetch(`${fast}/versions`, from('192.0.2.2'))).headers.get('etag')!;
    const viaAdapter = await fetch(`${adapter}/versions`, from('192.0.2.2', { 'If-None-Match': tag }));
    const viaFast = await fetch(`${fast}/versions`, from('192.0.2.2', { 'If-None-Match': tag }));
    expect(viaFast.status).toBe(304);
    expect(await viaFast.text()).toBe('');
    expect(viaFast.headers.get('content-type')).toBeNull();
    expect(strip(viaFast.headers)).toEqual(strip(viaAdapter.headers));
  });

  it('counts each request once, adds the rate headers near the limit and refuses with the 429 JSON', async () => {
    await fetch(`${fast}/codes/10047700`, from('198.51.100.20')); // warm
    const responses: Response[] = [];
    for (let i = 1; i < 125; i++) responses.push(await fetch(`${fast}/codes/10047700`, from('198.51.100.20')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(119);
    expect(statuses.slice(119)).toEqual([429, 429, 429, 429, 429]);
    expect(responses[0]!.headers.get('x-ratelimit-limit')).toBeNull();
    expect(responses[88]!.headers.get('x-ratelimit-remaining')).toBe('30');
    expect(responses[118]!.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = responses[119]!;
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(refused.headers.get('x-request-id')).not.toBeNull();
    expect(await refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: retry, limit: 120 });
    // Another client is not affected.
    expect((await fetch(`${fast}/codes/10047700`, from('198.51.100.21'))).status).toBe(200);
  });

  it('a traced request tries the synchronous replay first (serveNodeNow), then the listener: still counted once', async () => {
    // As src/observability/tracingSdk.ts does for a sampled request: the replay without a context, else the whole listener.
    const inner = nodeListener(t.app);
    const warm = t.app.warmAnswers!;
    const server = http.createServer((req, res) => {
      if (!warm.serveNodeNow(req, res)) inner(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const traced = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await fetch(`${traced}/codes/10047700`, from('198.51.100.30')); // warm (kept by the chain)
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 1; i < 125; i++) {
      const r = await fetch(`${traced}/codes/10047700`, from('198.51.100.30'));
      statuses.push(r.status);
      remaining.push(r.headers.get('x-ratelimit-remaining'));
      await r.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(119);
    expect(statuses.slice(119)).toEqual([429, 429, 429, 429, 429]);
    expect(remaining[88]).toBe('30');
    expect(remaining[118]).toBe('0');
  });

  it('leaves unusual requests to the chain: X-API-Version, dot segments, a body on GET, HEAD', async () => {
    await fetch(`${fast}/codes/10012735`, from('192.0.2.3'));
    const bad = await fetch(`${fast}/codes/10012735`, from('192.0.2.3', { 'X-API-Version': '2' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe('VALIDATION_ERROR');
    const dotted = await rawGet(fast, '/versions/../codes/10012735');
    expect(dotted.status).toBe(200);
    expect(JSON.parse(dotted.body).code).toBe('10012735');
    // As through the adapter alone (same status and Connection), whatever the chain decides.
    const withBody = await rawGet(fast, '/codes/10012735', { 'content-length': '2' }, 'xx');
    const withBodyAdapter = await rawGet(adapter, '/codes/10012735', { 'content-length': '2' }, 'xx');
    expect(withBody.status).toBe(200);
    expect(withBody.headers.connection).toBe(withBodyAdapter.headers.connection);
    expect(withBody.body).toBe(withBodyAdapter.body);
    const head = await fetch(`${fast}/codes/10012735`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});

/** A GET exactly as written (fetch would normalise the path, and refuses a GET body). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'GET', headers, path }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
