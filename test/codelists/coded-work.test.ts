// Coded-data jobs share the serving thread (src/services/codedWork.ts, issue 27): each runs in
// slices that let other work in, and only a few run or wait at once per class — public lists and
// keyed uploads each with their own budget; beyond it a request is refused at once with
// 503 SERVICE_UNAVAILABLE and Retry-After, on REST and GraphQL alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, serveTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { memoryShares } from '../../src/config.ts';
import { JOB_MEMORY_FACTOR } from '../../src/services/codedWork.ts';

let t: TestApp;
let base: string;
let key: string;
serveTestApp(
  async (app, url) => {
    t = app;
    base = url;
    key = (await createApiKey(app.db.prisma, 'coded work')).key;
  },
  { env: { CODED_LISTS_CONCURRENCY: '1', CODED_LISTS_QUEUE: '1', CODED_UPLOADS_CONCURRENCY: '1', CODED_UPLOADS_QUEUE: '1' } },
);

const CODES = ['10047848', '90301218', '10028813', '10043649', '1'];
const codes = (n: number) => Array.from({ length: n }, (_, i) => ({ code: CODES[i % CODES.length]!, term: 'Watering eyes' }));
const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('coded-data jobs', () => {
  it('a 10,000-code validation lets other work run between its slices', async () => {
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    const body = { codes: codes(10_000) };
    // Warm (release index, loaders), then measured.
    // Over 2,000 codes a list needs a key (MAX_PUBLIC_CODE_LIST).
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    expect((await t.request('/codes/validate', { method: 'POST', headers, body: JSON.stringify(body) })).status).toBe(200);
    setImmediate(spin);
    const res = await t.request('/codes/validate', { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as { summary: { items: number } };
    done = true;
    expect(json.summary.items).toBe(10_000);
    // Two passes over 10,000 items, 500 per slice: 38 yields (none before the fix).
    expect(turns).toBeGreaterThanOrEqual(30);
  });

  it('public lists: one runs, one waits, the rest are refused with 503 and Retry-After (REST and GraphQL)', async () => {
    const body = { codes: codes(10_000) };
    const keyed = { 'x-api-key': key }; // over 2,000 codes; the gate is the lists' gate all the same
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => postJson('/codes/validate', body, keyed)),
      postJson('/codes/analyse', { ...body, allPaths: true }, keyed),
      postJson('/graphql', { query: 'query($c: [CodeListItemInput!]!) { validateCodes(codes: $c) { summary { items } } }', variables: { c: body.codes } }, keyed),
    ]);
    const statuses = answers.map((a) => a.status);
    const refused = answers.filter((a) => a.status === 503 || a.headers.get('retry-after'));
    expect(statuses.filter((s) => s === 200).length, String(statuses)).toBeGreaterThanOrEqual(2);
    expect(refused.length, String(statuses)).toBeGreaterThanOrEqual(1);
    for (const a of answers) {
      const text = await a.text();
      if (a.status === 503) {
        expect(a.headers.get('retry-after')).toBe('2');
        expect(JSON.parse(text)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: 2 });
      } else if (text.includes('"errors"')) {
        expect(JSON.parse(text).errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: 2 });
      }
    }
    // Once they are done, the next one runs.
    expect((await postJson('/codes/validate', { codes: codes(10) })).status).toBe(200);
  });

  it('keyed uploads have their own budget: a busy list gate does not refuse an impact, and excess impacts are refused', async () => {
    const csv = `rowId,code\n${Array.from({ length: 30_000 }, (_, i) => `r${i},${CODES[i % CODES.length]}`).join('\n')}`;
    const impact = () => fetch(`${base}/impact?from=5.0&to=5.0.1`, { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key }, body: csv });
    const answers = await Promise.all([postJson('/codes/validate', { codes: codes(10_000) }, { 'x-api-key': key }), ...Array.from({ length: 4 }, impact)]);
    const statuses = answers.map((a) => a.status);
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1).filter((s) => s === 200).length, String(statuses)).toBeGreaterThanOrEqual(2);
    expect(statuses.slice(1).filter((s) => s === 503).length, String(statuses)).toBeGreaterThanOrEqual(1);
    for (const a of answers) await a.arrayBuffer();
    // Without a key an impact never takes a place: 401 even when the gate is full.
    expect((await fetch(`${base}/impact?from=5.0&to=5.0.1`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'rowId,code\na,1' })).status).toBe(401);
  });
});

// Memory per job (issue 27 defect 3): each class holds at most its share of MEMORY_BUDGET_MB,
// each job counted as JOB_MEMORY_FACTOR times its input. At the smallest budget (256 MB) keyed
// uploads get 15 MB (their part of the on-heap pool): one upload of 3.75 MiB at most, and what is
// held at once stays within it.
const UPLOAD_INPUT_MB = memoryShares(256).codedUploads / JOB_MEMORY_FACTOR / 2 ** 20;
describe('coded-data jobs within their memory budget', () => {
  let small: TestApp;
  let url: string;
  let close: () => Promise<void>;
  let smallKey: string;
  beforeAll(async () => {
    // An app of its own over the file's database (the demo releases): its budget differs, not its data.
    small = await createTestApp({ over: t, env: { MEMORY_BUDGET_MB: '256', CODED_UPLOADS_CONCURRENCY: '4', CODED_UPLOADS_QUEUE: '4' } });
    ({ url, close } = await listen(small.app));
    smallKey = (await createApiKey(small.db.prisma, 'budget')).key;
  });
  afterAll(async () => {
    await close?.();
    await small?.cleanup();
  });

  /** A CSV upload of about `mb` MB (rows with long recorded terms). */
  const upload = (mb: number) => {
    const term = 'x'.repeat(400);
    const rows = Math.ceil((mb * 1024 * 1024) / 425);
    return `rowId,code,term\n${Array.from({ length: rows }, (_, i) => `r${i},${CODES[i % CODES.length]},${term}`).join('\n')}`;
  };
  const impact = (body: string) => fetch(`${url}/impact?from=5.0&to=5.0.1&validateOnly=true`, { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': smallKey }, body });

  it('a job larger than its class budget is refused with 413 and the documented problem, before its body is read', async () => {
    const res = await impact(upload(UPLOAD_INPUT_MB + 1));
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413, requestId: expect.any(String) });
    expect(body.detail).toMatch(new RegExp(`at most ${Math.floor(UPLOAD_INPUT_MB * 2 ** 20)} bytes of input`));
    // One within the budget is answered.
    const ok = await impact(upload(1));
    expect(ok.status).toBe(200);
    expect((await ok.json()).summary.rowsUploaded).toBeGreaterThan(2_000);
  });

  it('jobs that together exceed the class budget: the one beyond it is refused with 503 and Retry-After', async () => {
    const body = upload(UPLOAD_INPUT_MB * 0.6); // counted 60 % of the class: two cannot be held at once, though 4 may run
    const answers = await Promise.all([impact(body), impact(body), impact(body)]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length, String(statuses)).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 503).length, String(statuses)).toBeGreaterThanOrEqual(1);
    for (const a of answers) {
      const text = await a.text();
      if (a.status !== 503) continue;
      expect(a.headers.get('retry-after')).toBe('2');
      expect(JSON.parse(text)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    }
    // Their memory is given back once they are done: the same upload is taken again.
    const again = await impact(body);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });
});
