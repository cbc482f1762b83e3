// Fuzz: thousands of generated malformed requests across every endpoint. None may
// produce a 5xx or leak a stack trace, and the service must stay healthy afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { answerProblems, FUZZ_ITERATIONS, fuzzRequest, rng } from '../helpers/fuzz.ts';

let t: TestApp;
let KEY = 'sk-unset';
let base: string;
let close: () => Promise<void>;
beforeAll(async () => {
  t = await createTestApp({ env: { MAX_BODY_BYTES: String(256 * 1024) } });
  KEY = (await createApiKey(t.db.prisma, 'fuzz')).key;
  ({ url: base, close } = await listen(t.app));
});
afterAll(async () => {
  await close?.();
  await t?.cleanup();
});

describe('fuzzing every endpoint', () => {
  it(`${FUZZ_ITERATIONS} generated malformed requests in process: no 5xx, no stack trace`, async () => {
    const r = rng(20261122);
    const failures: string[] = [];
    for (let i = 0; i < FUZZ_ITERATIONS; i++) {
      const { url, init } = fuzzRequest(r, KEY);
      let res: Response;
      try {
        res = await t.request(url.startsWith('/') ? url : `/${url}`, init);
      } catch (e) {
        failures.push(`#${i} ${init.method} ${url}: threw ${(e as Error).message}`);
        continue;
      }
      const text = await res.text();
      failures.push(...answerProblems(`#${i} ${init.method} ${url}`, res.status, res.headers.get('content-type') ?? '', text, init.method, url.startsWith('/docs')));
    }
    expect(failures.slice(0, 20)).toEqual([]);
  }, 240_000);

  it('a tenth as many over a real socket, then the server is still healthy and correct', async () => {
    const r = rng(7);
    for (let i = 0; i < FUZZ_ITERATIONS / 10; i++) {
      const { url, init } = fuzzRequest(r, KEY);
      const res = await fetch(`${base}${url.startsWith('/') ? url : `/${url}`}`, init).catch((e: Error) => e);
      if (res instanceof Error) throw new Error(`${init.method} ${url}: ${res.message}`);
      expect(res.status, `${init.method} ${url}`).toBeLessThan(500);
      await res.arrayBuffer();
    }
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    const ok = await (await fetch(`${base}/codes/10047700`)).json();
    expect(ok.term).toBe('Vomiting');
  }, 120_000);
});
