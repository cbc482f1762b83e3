// The large unchanging bodies (GraphiQL's page, the Swagger UI bundle, /openapi.json) go out
// gzipped to clients that take gzip, as the same bytes every time, with an ETag; over real HTTP
// (node:http, which does not decompress) so the bytes on the wire are what is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { acceptsGzip } from '../../src/http/compressedBodies.ts';

let t: TestApp;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  t = await createTestApp({ readOnly: true });
  ({ url: base, close } = await listen(t.app));
});
afterAll(async () => {
  await close?.();
  await t?.cleanup();
});

function get(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const CASES = [
  { path: '/graphql', accept: 'text/html', type: /^text\/html/, contains: 'graphiql' },
  { path: '/docs', accept: 'text/html', type: /^text\/html/, contains: 'swagger-ui' },
  { path: '/docs/assets/swagger-ui-bundle.js', accept: '*/*', type: /javascript/, contains: 'SwaggerUIBundle' },
  { path: '/openapi.json', accept: 'application/json', type: /^application\/json/, contains: '"openapi":"3.1.0"' },
];

describe('large static bodies', () => {
  for (const c of CASES) {
    it(`${c.path}: gzip when accepted, identical bytes when not, 304 on the ETag`, async () => {
      const plain = await get(c.path, { accept: c.accept });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-type']).toMatch(c.type);
      expect(plain.body.toString('utf8')).toContain(c.contains);

      const zipped = await get(c.path, { accept: c.accept, 'accept-encoding': 'br, gzip;q=0.8, deflate' });
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      if (plain.body.length > 100_000) expect(zipped.body.length).toBeLessThan(plain.body.length * 0.4);

      // gzip refused with q=0: the plain bytes.
      const refused = await get(c.path, { accept: c.accept, 'accept-encoding': 'gzip;q=0, identity' });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body.equals(plain.body)).toBe(true);

      const etag = String(zipped.headers.etag);
      expect(etag).toBe(String(plain.headers.etag));
      const again = await get(c.path, { accept: c.accept, 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    });
  }

  it('GraphiQL is rendered once: the second page is the same bytes, and a GET query still executes', async () => {
    const a = await get('/graphql', { accept: 'text/html', 'accept-encoding': 'gzip' });
    const b = await get('/graphql', { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(a.body.equals(b.body)).toBe(true);
    const q = await get(`/graphql?query=${encodeURIComponent('{ versions { totalCount } }')}`, { accept: 'application/json' });
    expect(q.status, q.body.toString()).toBe(200);
    expect(JSON.parse(q.body.toString()).data.versions.totalCount).toBeGreaterThan(0);
  });
});

describe('acceptsGzip (RFC 9110 §12.5.3)', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZIP', true],
    ['deflate, gzip;q=0.5', true],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*', true],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['identity', false],
    ['x-gzip', true],
  ])('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
