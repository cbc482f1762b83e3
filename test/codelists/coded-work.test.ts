// Coded-data jobs share the serving thread (src/services/codedWork.ts, issue 27): each runs in
// slices that let other work in, and only a few run or wait at once per class — public lists and
// keyed uploads each with their own budget; beyond it a request is refused at once with
// 503 SERVICE_UNAVAILABLE and Retry-After, on REST and GraphQL alike.
import { describe, expect, it } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

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
