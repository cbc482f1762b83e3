// A method a path is not served with: 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110 §15.5.6),
// 404 only for a path no route serves — through real HTTP over the demo releases.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTestApp, serveTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

let base: string;
let KEY = 'sk-unset';
let served: TestApp;

serveTestApp(async (t, url) => {
  served = t;
  base = url;
  KEY = (await createApiKey(t.db.prisma, 'methods')).key;
});

const send = (path: string, method: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { method, headers });

async function refused(res: Response, allow: string) {
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe(allow);
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = await res.json();
  expect(body).toMatchObject({ type: '/problems/method-not-allowed', title: 'Method not allowed', status: 405, code: 'METHOD_NOT_ALLOWED', requestId: res.headers.get('x-request-id') });
  return body;
}

describe('405 Method Not Allowed', () => {
  it('DELETE and PUT on a code: 405 with the methods the path is served with; GET and HEAD still answer', async () => {
    const body = await refused(await send('/codes/10047700', 'DELETE'), 'GET, HEAD, OPTIONS');
    expect(body.detail).toBe('DELETE is not allowed on /codes/10047700; it is served with GET, HEAD, OPTIONS.');
    await refused(await send('/codes/10047700', 'PUT'), 'GET, HEAD, OPTIONS');
    expect((await send('/codes/10047700', 'GET')).status).toBe(200);
    const head = await send('/codes/10047700', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(await head.text()).toBe('');
  });

  it('POST on a GET-only route, GET on a POST-only one (with a key: without one, the narrative endpoints say 401 first)', async () => {
    await refused(await send('/versions', 'POST'), 'GET, HEAD, OPTIONS');
    await refused(await send('/versions/5.0.1/changes', 'PATCH'), 'GET, HEAD, OPTIONS');
    await refused(await send('/classify', 'GET', { 'X-API-Key': KEY }), 'OPTIONS, POST');
    // HEAD is GET without the body: refused where GET is.
    const head = await send('/classify', 'HEAD', { 'X-API-Key': KEY });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('OPTIONS, POST');
    expect((await send('/classify', 'GET')).status).toBe(401);
    await refused(await send('/impact', 'DELETE', { 'X-API-Key': KEY }), 'OPTIONS, POST');
  });

  it('a path served by two patterns lists the methods of both (GET /codes/{code} also takes /codes/validate)', async () => {
    await refused(await send('/codes/validate', 'DELETE'), 'GET, HEAD, OPTIONS, POST');
  });

  it('Allow is exactly the methods that are not refused with 405', async () => {
    const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
    for (const path of ['/codes/10047700', '/versions', '/classify', '/impact', '/smqs/90500005/apply', '/fhir/CodeSystem/$lookup', '/fhir/metadata', '/openapi.json', '/']) {
      const answers = await Promise.all(METHODS.map(async (m) => ({ m, res: await send(path, m, { 'X-API-Key': KEY }) })));
      const served = answers.filter((a) => a.res.status !== 405).map((a) => a.m);
      const allow = answers.find((a) => a.res.status === 405)?.res.headers.get('allow');
      expect(allow, path).toBe(served.join(', '));
      for (const a of answers) await a.res.arrayBuffer();
    }
  });

  it('a path no route serves stays 404 NOT_FOUND whatever the method, without Allow; so does a GET the route declines', async () => {
    for (const method of ['GET', 'DELETE', 'POST']) {
      const res = await send('/nothing/here', method);
      expect(res.status).toBe(404);
      expect(res.headers.get('allow')).toBeNull();
      const body = await res.json();
      expect(body).toMatchObject({ code: 'NOT_FOUND', status: 404, detail: `No route for ${method} /nothing/here. See /docs.` });
    }
    const declined = await send('/problems/no-such-problem', 'GET');
    expect(declined.status).toBe(404);
    expect(declined.headers.get('allow')).toBeNull();
    expect((await declined.json()).code).toBe('NOT_FOUND');
    expect((await send('/problems/no-such-problem', 'HEAD')).status).toBe(404);
    await refused(await send('/problems/no-such-problem', 'DELETE'), 'GET, HEAD, OPTIONS');
    // /graphql answers every method itself (Yoga: 405 with its own Allow).
    const graphql = await send('/graphql', 'DELETE');
    expect(graphql.status).toBe(405);
    expect(graphql.headers.get('allow')).toBe('GET, POST');
  });

  it('the problem type is described at /problems/method-not-allowed', async () => {
    const res = await send('/problems/method-not-allowed', 'GET');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
  });

  it('a 405 to a request with a body closes the connection, and the next request on a keep-alive socket is answered', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(base);
    const request = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; connection: string | undefined; allow: string | undefined }>((resolve, reject) => {
        const req = http.request({ host: url.hostname, port: url.port, method, path, agent, headers: body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {} }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, allow: res.headers.allow }));
        });
        req.on('error', reject);
        req.end(body);
      });
    // Content-Length set: Node's client sends a DELETE body without framing otherwise.
    const body = JSON.stringify({ term: 'ä'.repeat(30_000) });
    expect(await request('PUT', '/codes/10047700', body)).toEqual({ status: 405, connection: 'close', allow: 'GET, HEAD, OPTIONS' });
    expect((await request('GET', '/versions')).status).toBe(200);
    expect(await request('DELETE', '/fhir/CodeSystem/meddra-5.0', body)).toEqual({ status: 405, connection: 'close', allow: 'GET, HEAD, OPTIONS' });
    expect((await request('GET', '/codes/10047700')).status).toBe(200);
    agent.destroy();
  });
});

describe('without CORS', () => {
  it('OPTIONS is not served, so it is refused like any other method and Allow leaves it out', async () => {
    // An app of its own over the same database (its CORS setting differs, not its data).
    const t = await createTestApp({ over: served, app: { corsOrigins: [] } });
    const listener = await listen(t.app);
    try {
      for (const method of ['OPTIONS', 'DELETE']) {
        const res = await fetch(`${listener.url}/versions`, { method });
        expect(res.status, method).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect((await res.json()).code).toBe('METHOD_NOT_ALLOWED');
      }
    } finally {
      await listener.close();
      await t.cleanup();
    }
  });
});
