// What one /graphql request may ask for (src/graphql/listWork.ts, listCost in builder.ts) and
// how the refusals look (issue 27): at most one coded-data field per document however it is
// spelt, list sizes in the cost, coded data only over POST, no form or multipart bodies, no
// mutation or subscription (a client error, logged at info at most), and nothing written outside
// the logger (graphql-jit's console line for a JSON literal).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { captureLogs } from '../helpers/http.ts';
import { createLogger } from '../../src/logger.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

let t: TestApp;
let base: string;
let key: string;
const logs = captureLogs();
serveTestApp(
  async (app, url) => {
    t = app;
    base = url;
    key = (await createApiKey(app.db.prisma, 'list work')).key;
  },
  { log: createLogger('info', logs.stream), env: { GRAPHQL_MAX_COMPLEXITY: '6000' } },
);

const post = async (body: unknown, contentType = 'application/json') => {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': contentType, accept: 'application/json', 'x-api-key': key }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

/**
 * A refusal in the GraphQL shape. Validation errors answer HTTP 200 to `Accept: application/json`
 * (Yoga, after the GraphQL-over-HTTP rule for that media type) and 400 to
 * application/graphql-response+json; `extensions.status` is the documented status either way.
 */
const expectRefused = (r: { status: number; body: any }, status: number, code: string, pattern: RegExp, httpStatus = status === 400 ? 200 : status) => {
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(httpStatus);
  expect(r.body.data ?? null).toBeNull();
  expect(r.body.errors[0]).toMatchObject({ message: expect.stringMatching(pattern), extensions: { code, status, requestId: expect.any(String) } });
};

const codes = (n: number) => Array.from({ length: n }, (_, i) => ({ code: String(10_000_000 + i) }));

describe('GraphQL list work', () => {
  afterAll(() => vi.restoreAllMocks());

  it('refuses a second coded-data field, however it is spelt, before running either', async () => {
    const list = 'codes: [{code: "10047700"}]';
    const documents = [
      `{ a: validateCodes(${list}) { summary { items } } b: validateCodes(${list}) { summary { items } } }`,
      `{ validateCodes(${list}) { summary { items } } analyseCodes(${list}) { items } }`,
      `{ ...F ...F } fragment F on Query { validateCodes(${list}) { summary { items } } }`,
      `{ ... on Query { a: analyseCodes(${list}) { items } } ... on Query { b: analyseCodes(${list}) { items } } }`,
    ];
    for (const query of documents) expectRefused(await post({ query }), 400, 'VALIDATION_ERROR', /at most 1 of validateCodes/);
    const strict = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: documents[0] }) });
    expectRefused({ status: strict.status, body: await strict.json() }, 400, 'VALIDATION_ERROR', /at most 1/, 400);
    // One is fine.
    const one = await post({ query: `{ validateCodes(${list}) { summary { items } } }` });
    expect(one.status).toBe(200);
    expect(one.body.data.validateCodes.summary.items).toBe(1);
  });

  it('counts the size of a client list in the cost: 6,000 codes exceed a limit of 6,000 that 100 codes fit in', async () => {
    const query = 'query($c: [CodeListItemInput!]!) { validateCodes(codes: $c) { summary { items } items { code } } }';
    const small = await post({ query, variables: { c: codes(100) } });
    expect(small.status, JSON.stringify(small.body).slice(0, 300)).toBe(200);
    expectRefused(await post({ query, variables: { c: codes(6000) } }), 400, 'VALIDATION_ERROR', /complexity \d+ exceeds the limit of 6000/);
    // So does a list of node ids.
    const ids = Array.from({ length: 7000 }, (_, i) => Buffer.from(`Version:${i}`).toString('base64'));
    expectRefused(await post({ query: 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', variables: { ids } }), 400, 'VALIDATION_ERROR', /complexity \d+ exceeds/);
  });

  it('refuses a coded list longer than 10,000 items before GraphQL coerces it', async () => {
    const query = 'query($c: [CodeListItemInput!]!) { validateCodes(codes: $c) { summary { items } } }';
    // Ending in an item GraphQL cannot coerce: the length is refused first, so the list was not walked.
    const list = [...codes(10_000), { code: 1, nope: true }];
    expectRefused(await post({ query, variables: { c: list } }), 400, 'VALIDATION_ERROR', /at most 10000 codes per request \(got 10001\)/);
    // One item fewer is coerced, and refused for that item.
    expectRefused(await post({ query, variables: { c: list.slice(1) } }), 400, 'VALIDATION_ERROR', /got invalid value 1/);
  });

  it('runs coded-data and narrative fields only over POST', async () => {
    const q = encodeURIComponent('{ validateCodes(codes: [{code: "10047700"}]) { summary { items } } }');
    const res = await fetch(`${base}/graphql?query=${q}`, { headers: { accept: 'application/json' } });
    expectRefused({ status: res.status, body: await res.json() }, 405, 'METHOD_NOT_ALLOWED', /only on POST/);
    const read = await fetch(`${base}/graphql?query=${encodeURIComponent('{ versions { totalCount } }')}`, { headers: { accept: 'application/json' } });
    expect(read.status).toBe(200);
    // The same document over POST after the GET: the validation verdict is not shared.
    expect((await post({ query: decodeURIComponent(q) })).status).toBe(200);
  });

  it('refuses form and multipart bodies with 415, before executing them', async () => {
    const form = await post(`query=${encodeURIComponent('{ versions { totalCount } }')}`, 'application/x-www-form-urlencoded');
    expectRefused(form, 415, 'UNSUPPORTED_MEDIA_TYPE', /application\/json/);
    const multipart = await post('--b\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"{ __typename }"}\r\n--b--\r\n', 'multipart/form-data; boundary=b');
    expectRefused(multipart, 415, 'UNSUPPORTED_MEDIA_TYPE', /application\/json/);
  });

  it('answers a mutation or subscription as a client error, logged at info at most', async () => {
    const before = logs.lines().length;
    for (const query of ['mutation { __typename }', 'subscription { __typename }', 'mutation M { a: __typename } query Q { __typename }']) {
      const r = await post({ query, operationName: query.startsWith('mutation M') ? 'M' : undefined });
      expectRefused(r, 400, 'VALIDATION_ERROR', /read-only/);
    }
    const lines = logs.lines().slice(before);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => Number(l.level) > 30)).toEqual([]);
  });

  it('writes nothing outside the logger for a JSON-scalar literal, and reads its variables', async () => {
    const writes: unknown[] = [];
    for (const m of ['error', 'warn', 'log', 'info'] as const) vi.spyOn(console, m).mockImplementation((...a) => void writes.push(a));
    const rows = '[{rowId: "r1", code: "10047700"}]';
    const query = `{ impact(input: {from: "5.0", to: "5.0.1", rowsData: ${rows}}) { summary { rowsValid } } }`;
    // Twice: the first run of a document may go to graphql-js, the second to the compiled one.
    for (let k = 0; k < 2; k++) {
      const r = await post({ query });
      expect(r.body, JSON.stringify(r.body).slice(0, 300)).toMatchObject({ data: { impact: { summary: { rowsValid: 1 } } } });
    }
    // A variable inside the literal is read (graphql-jit would read it as missing).
    const withVariable = `query($c: String) { impact(input: {from: "5.0", to: "5.0.1", rowsData: [{rowId: "r1", code: $c}]}) { summary { rowsValid } } }`;
    for (let k = 0; k < 2; k++) {
      const r = await post({ query: withVariable, variables: { c: '10047700' } });
      expect(r.body, JSON.stringify(r.body).slice(0, 300)).toMatchObject({ data: { impact: { summary: { rowsValid: 1 } } } });
    }
    expect(writes).toEqual([]);
  });
});
