// Rate limits (in memory), body limits, CORS, security headers, GraphQL switches — through real HTTP.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createRateLimiter } from '../../src/http/rateLimit.ts';
import { parseTrustProxy } from '../../src/net/trustProxy.ts';
import { miniSpec } from '../helpers/medascii.ts';

let t: TestApp;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  t = await createTestApp({
    fixtures: [miniSpec('1.0')],
    app: {
      rateLimit: { limiter: createRateLimiter({ perMinute: 120 }), trustProxy: parseTrustProxy('127.0.0.1') },
      corsOrigins: ['https://safety.example'],
      maxBodyBytes: 64 * 1024,
    },
  });
  ({ url: base, close } = await listen(t.app));
});
afterAll(async () => {
  await close?.();
  await t?.cleanup();
});

const from = (ip: string, init: RequestInit = {}) => ({ ...init, headers: { ...(init.headers as Record<string, string>), 'X-Forwarded-For': ip } });

describe('rate limits', () => {
  it('admits 120 requests a minute per client, announces the limit near the end, then refuses with 429', async () => {
    const responses: Response[] = [];
    for (let i = 0; i < 125; i++) responses.push(await fetch(`${base}/versions`, from('198.51.100.10')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.slice(120)).toEqual([429, 429, 429, 429, 429]);
    // No rate headers while far from the limit; from the last quarter on, yes.
    expect(responses[0]!.headers.get('x-ratelimit-limit')).toBeNull();
    expect(responses[89]!.headers.get('x-ratelimit-remaining')).toBe('30');
    expect(responses[119]!.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = responses[120]!;
    expect(refused.headers.get('x-ratelimit-limit')).toBe('120');
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    const body = await refused.json();
    expect(body).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: retry, limit: 120 });
    expect(body.reset).toBeGreaterThan(Date.now() / 1000);
    // GraphQL counts against the same budget; health probes never do.
    const g = await fetch(`${base}/graphql`, from('198.51.100.10', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ versions(first: 1) { totalCount } }"}' }));
    expect(g.status).toBe(429);
    expect((await fetch(`${base}/health/live`, from('198.51.100.10'))).status).toBe(200);
  });

  it('counts each client separately', async () => {
    expect((await fetch(`${base}/versions`, from('198.51.100.11'))).status).toBe(200);
  });
});

describe('input and transport protection', () => {
  it('a body over the limit is 413 with the error object', async () => {
    const r = await fetch(`${base}/graphql`, from('198.51.100.20', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ versions(first: 1) { totalCount } } #${'x'.repeat(70_000)}` }) }));
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('an answer given before the body is read closes the connection, so the next request on a keep-alive socket is answered', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(base);
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request({ host: url.hostname, port: url.port, method, path, agent, headers: { 'X-Forwarded-For': '198.51.100.23', ...(body ? { 'content-type': 'application/graphql' } : {}) } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end(body);
      });
    // No key: 401 before a 60 KB body (under this app's 64 KB limit) is read — the hostile suite's case
    // (135 KB there), which used to cut the next request on the socket.
    const early = await send('PUT', '/identify', 'ä'.repeat(30_000));
    expect(early).toEqual({ status: 401, connection: 'close' });
    expect((await send('GET', '/versions')).status).toBe(200);
    // A body that was read keeps the connection.
    expect((await send('POST', '/graphql', '{ versions(first: 1) { totalCount } }')).connection).toBe('keep-alive');
    agent.destroy();
  });

  it('malformed JSON on /graphql is a VALIDATION_ERROR, not a 500', async () => {
    const r = await fetch(`${base}/graphql`, from('198.51.100.21', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' }));
    expect(r.status).toBeLessThan(500);
    const body = await r.json();
    expect(body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('sends security headers and answers CORS preflights for the configured origin', async () => {
    const r = await fetch(`${base}/versions`, from('198.51.100.22', { headers: { Origin: 'https://safety.example' } }));
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('access-control-allow-origin')).toBe('https://safety.example');
    expect(r.headers.get('access-control-expose-headers')).toContain('X-Terminology-Version');
    const pre = await fetch(`${base}/graphql`, from('198.51.100.22', { method: 'OPTIONS', headers: { Origin: 'https://safety.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type' } }));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    const other = await fetch(`${base}/versions`, from('198.51.100.22', { headers: { Origin: 'https://evil.example' } }));
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a problem keeps the headers its route set before failing, whatever the CORS headers', async () => {
    // No Origin: nothing but the route touches the answer's headers before the error answer is made.
    for (const headers of [{}, { Origin: 'https://safety.example' }] as Record<string, string>[]) {
      const r = await fetch(`${base}/codes/99999999`, from('198.51.100.23', { headers }));
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-store');
      // The release the code is missing from.
      expect(r.headers.get('x-terminology-version')).toBe('1.0');
      expect(r.headers.get('vary')).toContain('Origin');
    }
  });
});

describe('GraphQL switches', () => {
  it('introspection can be disabled', async () => {
    // Apps of their own over the file's database: the setting differs, not the data.
    const off = await createTestApp({ over: t, env: { GRAPHQL_INTROSPECTION: 'false' } });
    try {
      const r = await off.graphql('{ __schema { types { name } } }');
      expect(r.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
      expect((await off.graphql('{ versions(first: 1) { totalCount } }')).body.data.versions.totalCount).toBe(1);
    } finally {
      await off.cleanup();
    }
  });

  it('persisted operations: only listed operations run over HTTP; REST is unaffected', async () => {
    const only = await createTestApp({ over: t, app: { graphql: { persistedOperations: { abc123: '{ versions(first: 1) { totalCount } }' } } } });
    try {
      const arbitrary = await only.graphql('{ versions(first: 1) { totalCount } }');
      expect(arbitrary.body.errors?.[0]).toBeDefined();
      const res = await only.request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'abc123' } } }),
      });
      expect((await res.json()).data.versions.totalCount).toBe(1);
      expect((await only.json('/codes/10047700')).status).toBe(200);
    } finally {
      await only.cleanup();
    }
  });
});
