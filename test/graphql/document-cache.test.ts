// Yoga's parse/validation caches are bounded in bytes, and what they keep does not hold on to the
// request that produced it: cached GraphQLErrors used to keep V8's call-site records, whose
// closures reached the request (its IncomingMessage, socket and body), so 1,024 distinct invalid
// documents pinned 1,024 requests (issue 27 defect 6: 16,000 distinct documents took the heap
// from 53 to 448 MB).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'graphql';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeListener } from '../../src/http/nodeListener.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { documentCaches } from '../../src/graphql/documentCache.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readOnly: true });
});
afterAll(async () => {
  await t?.cleanup();
});

async function collected(refs: WeakRef<object>[]): Promise<number> {
  for (let k = 0; k < 5; k++) {
    await new Promise((r) => setTimeout(r, 20));
    gc();
  }
  return refs.filter((r) => r.deref() === undefined).length;
}

function post(url: string, body: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('GraphQL document caches', () => {
  it('a request whose document fails validation (or parsing) is not kept by the caches', async () => {
    // The server's own listener over real HTTP, with a weak reference to every IncomingMessage.
    const refs: WeakRef<object>[] = [];
    const listener = nodeListener(t.app, { hostname: '127.0.0.1' });
    const server = createServer((req, res) => {
      refs.push(new WeakRef(req));
      listener(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new Agent({ keepAlive: false });
    try {
      for (let k = 0; k < 20; k++) {
        // Distinct documents: each is parsed, validated and cached once.
        const query = k % 2 ? `{ codes(q: "x${k}") { edges { node { code } } } }` : `{ codes(q: "x${k}") { totalCount `;
        const body = await post(`${base}/graphql`, JSON.stringify({ query }), agent);
        expect(JSON.parse(body).errors?.[0]?.extensions.code).toBe('VALIDATION_ERROR');
      }
      // The document and its errors are still cached (the same document is answered from them) …
      const again = await t.graphql('{ codes(q: "x1") { edges { node { code } } } }');
      expect(again.body.errors?.[0]?.extensions.code).toBe('VALIDATION_ERROR');
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    // … and every request could be collected.
    expect(await collected(refs)).toBe(refs.length);
  });

  it('bounds parsed documents by their size, not their number', () => {
    const { documentCache, errorCache } = documentCaches({ maxBytes: 2_000_000 });
    const big = (k: number) => `{ ${Array.from({ length: 200 }, (_, i) => `a${k}_${i}: __typename`).join(' ')} }`;
    for (let k = 0; k < 100; k++) documentCache.set(big(k), parse(big(k)));
    // ~4.4 KB of source each (too many fields for graphql-jit): 100 bytes per character of AST, so about four fit.
    expect(documentCache.calculatedSize).toBeLessThanOrEqual(2_000_000);
    expect(documentCache.size).toBeLessThan(10);
    expect(documentCache.get(big(99))).toBeDefined();
    expect(documentCache.get(big(0))).toBeUndefined();
    // A small document that graphql-jit compiles counts its compiled query too (~80 KB, measured).
    const search = '{ codes(q: "eye 1", first: 2) { totalCount edges { node { code { code term level } } } } }';
    const small = documentCaches({ maxBytes: 2_000_000 }).documentCache;
    small.set(search, parse(search));
    expect(small.calculatedSize).toBeGreaterThan(80 * 1024);
    // Errors keep their message, not their stack frames.
    const e = new Error('Syntax Error: Expected Name');
    errorCache.set('{', e);
    expect(errorCache.get('{')).toBe(e);
    expect(e.stack).toBe('Error: Syntax Error: Expected Name');
  });
});
