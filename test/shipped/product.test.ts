// The product as a user runs it: `node bin/terminology.mjs serve` from the bundle that
// `npm install` builds, in a fresh directory, with no configuration but PORT (on the
// PostgreSQL pass: DATABASE_URL and REDIS_URL, as a server deployment sets them). Every
// documented endpoint and its main variants, with only the required fields, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../helpers/cli.ts';
import { createFreshPostgres, usingPostgres } from '../helpers/db.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';
import { answerProblems, FUZZ_ITERATIONS, narrativeBody, rng } from '../helpers/fuzz.ts';

const cwd = mkdtempSync(path.join(tmpdir(), 'te-shipped-'));
let env: Record<string, string> = {};
let dropDatabase = async () => {};
let server: ServerProcess;
let key = '';

beforeAll(async () => {
  if (usingPostgres) {
    const fresh = await createFreshPostgres();
    env = { DATABASE_URL: fresh.url, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
    dropDatabase = fresh.drop;
  }
  // The server first, as `npm start` after `npm install`: its first start creates the store and
  // imports the demo releases. The key is then made as a user makes one while it runs (on the
  // embedded store, through the server's control socket: no second WebAssembly start).
  server = await startServerProcess({ ...env, PORT: '0', TERMINOLOGY_REPORT_LOADER: '1' }, 120_000, { cwd, baseEnv: false, shipped: true });
  const created = await run(['keys', 'create', '--name', 'shipped'], env, 60_000, { cwd });
  expect(created.code, created.stderr).toBe(0);
  key = created.stdout.trim();
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await dropDatabase();
});

type Answer = { status: number; body: any; headers: Headers };
async function call(p: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${p}`, init);
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, body: json ? JSON.parse(text) : text, headers: res.headers };
}
const post = (p: string, body: unknown, headers: Record<string, string> = { 'X-API-Key': key }) =>
  call(p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const graphql = (query: string, variables?: Record<string, unknown>) => post('/graphql', { query, variables });

function expectProblem(a: Answer, status: number, code: string) {
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  expect(a.body).toMatchObject({ status, code, requestId: expect.any(String), title: expect.any(String), detail: expect.any(String), type: expect.any(String) });
}

describe('the shipped product, default configuration', () => {
  it('runs the bundle that npm install built, with the default settings', () => {
    expect(server.logs()).toContain('terminology: running dist/cli.mjs');
    const listening = server.logs().split('\n').find((l) => l.includes('is listening'))!;
    expect(JSON.parse(listening)).toMatchObject({ mode: usingPostgres ? 'server' : 'embedded', provider: 'lexical', rateLimit: `120/min (${usingPostgres ? 'redis' : 'memory'})` });
    // The embedded store of the first start is the empty cluster npm install built (src/db/seedStore.ts), not a new initdb.
    const store = server.logs().split('\n').filter((l) => l.includes('"new store'));
    expect(store.map((l) => JSON.parse(l).store)).toEqual(usingPostgres ? [] : ['archive']);
  });

  it('asked itself the catalog routes clients open with at start (src/http/routeWarming.ts), each a 200', async () => {
    // Before listening, unless it outlasted the start's 1.5 s wait on a loaded host: then it is logged just after.
    const routes = () => server.logs().split('\n').find((l) => l.includes('"msg":"warmed the catalog routes"'));
    await expect.poll(routes, { timeout: 15_000, interval: 100 }).toBeDefined();
    expect(JSON.parse(routes()!)).toMatchObject({ routes: 6, statuses: [200, 200, 200, 200, 200, 200] });
    // It let go of the older release its change routes loaded: the start's older-release warm-up still finds it not loaded.
    const older = () => server.logs().split('\n').find((l) => /load paths of an older release|older-release load paths not warmed/.test(l));
    await expect.poll(older, { timeout: 30_000, interval: 100 }).toBeDefined();
    expect(JSON.parse(older()!)).toMatchObject({ warmed: true });
  });

  it('serves the catalog endpoints', async () => {
    const versions = await call('/versions');
    expect(versions.status).toBe(200);
    expect(versions.body.results.map((v: { version: string }) => v.version)).toEqual(['5.0.1', '5.0', '4.03']);
    expect(versions.body.meta).toMatchObject({ page: 1, total: 3, next: null, previous: null });

    const search = await call('/codes?q=vomiting');
    expect(search.status).toBe(200);
    expect(search.body.results[0]).toMatchObject({ code: '10047700', term: 'Vomiting' });
    expect(search.headers.get('x-terminology-version')).toBe('5.0.1');
    const listing = await call('/codes?level=SOC&limit=2');
    expect(listing.body.results).toHaveLength(2);
    expect(listing.body.meta.next).toBe('?level=SOC&page=2&limit=2');
    expect((await call('/codes?changeType=ADDED&level=PT')).body.results.length).toBeGreaterThan(0);
    expect((await call('/codes?soc=10017947&level=PT&version=5.0')).status).toBe(200);

    const code = await call('/codes/10047700');
    expect(code.status).toBe(200);
    expect(code.body).toMatchObject({ code: '10047700', term: 'Vomiting', level: 'PT', status: 'CURRENT', primarySocCode: '10017947' });
    expect(code.body.parents.length).toBeGreaterThan(0);
    expect((await call('/codes/10047700?synonymsPage=1&synonymsLimit=1')).body.synonyms.meta.limit).toBe(1);
    const older = await call('/codes/10047700', { headers: { 'X-Terminology-Version': '4.03' } });
    expect(older.headers.get('x-terminology-version')).toBe('4.03');

    const compared = await call('/codes/10047700/changes?against=4.03');
    expect(compared.status).toBe(200);
    expect(compared.body.versions).toEqual({ from: '4.03', to: '5.0.1' });
    expect(compared.body.snapshots.to).toMatchObject({ exists: true, code: '10047700', status: 'current' });

    const changes = await call('/versions/5.0.1/changes');
    expect(changes.status).toBe(200);
    expect(changes.body.versions).toEqual({ from: '5.0', to: '5.0.1' });
    expect(changes.body.changes.added).toBeGreaterThan(0);
    expect((await call('/versions/5.0.1/changes?fromVersionId=4.03&level=PT&changeType=added&limit=5')).body.results.meta.limit).toBe(5);
  });

  it('codes narratives with only the required fields, with and without a release', async () => {
    const description = 'Headache then vomiting. No rash.';
    for (const body of [{ description }, { description, version: '5.0' }]) {
      const identified = await post('/identify', body);
      expect(identified.status, JSON.stringify(identified.body)).toBe(200);
      expect(identified.body.version).toBe(body.version ?? '5.0.1');
      expect(identified.body.results.map((e: { description: string }) => e.description.toLowerCase()).join(' ')).toContain('vomit');

      const classified = await post('/classify', body);
      expect(classified.status, JSON.stringify(classified.body)).toBe(200);
      expect(classified.body.results.terminologyCodes.length).toBeGreaterThan(0);
    }
    const label = await post('/labels/classify', { description: 'ADVERSE REACTIONS\nThe most common adverse reactions were nausea, vomiting and headache.' });
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    expect(label.body.results.terminologyCodes.map((c: { value: { term: string } }) => c.value.term)).toContain('Vomiting');
    expect(label.headers.get('x-ai-notice')).toBeTruthy();

    expect((await post('/identify', { description }, {})).status).toBe(401);
    expect((await post('/classify', { description }, { 'X-API-Key': 'sk-not-a-real-key-at-all-000000000000000' })).status).toBe(401);
  });

  it('serves the safety-data workflows, SMQs and FHIR with only the required fields', async () => {
    const impact = await post('/impact', { from: '5.0', to: '5.0.1', rows: [{ rowId: 'r1', code: '10047700' }] });
    expect(impact.status, JSON.stringify(impact.body)).toBe(200);
    expect(impact.body.summary.rowsUploaded).toBe(1);
    const csv = await call('/impact?from=5.0&to=5.0.1&format=csv', { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': key }, body: 'rowId,code\r\nr1,10047700\r\n' });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('r1');
    expect((await post('/impact', { from: '5.0', to: '5.0.1', rows: [{ rowId: 'r1', code: '10047700' }] }, {})).status).toBe(401);
    expect((await post('/codes/validate', { codes: ['10047700'] }, {})).body.items[0]).toMatchObject({ exists: true });
    expect((await post('/codes/analyse', { codes: ['10047700'] }, {})).status).toBe(200);
    const smqs = await call('/smqs');
    expect(smqs.status).toBe(200);
    expect(smqs.body.results.length).toBeGreaterThan(0);
    expect((await call('/smqs/90500005')).body.name).toMatch(/demo SMQ/);
    expect((await call('/versions/5.0.1/smq-changes')).status).toBe(200);
    const applied = await post('/smqs/90500005/apply', { rows: [{ rowId: 'r1', code: '10002218' }] });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.counts.narrow).toBe(1);
    const lookup = await call('/fhir/CodeSystem/$lookup?system=https://www.meddra.org&code=10047700');
    expect(lookup.status).toBe(200);
    expect(lookup.headers.get('content-type')).toContain('application/fhir+json');
    expect(lookup.body.parameter.find((p: { name: string }) => p.name === 'display').valueString).toBe('Vomiting');
    expect((await call('/fhir/metadata')).body.resourceType).toBe('CapabilityStatement');
    // The explorer from dist/web (its serving in detail: test/web/serving.test.ts, in-process).
    const page = await call('/', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('<html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const asset = await fetch(`${server.url}${/src="([^"]+\.js)"/.exec(String(page.body))![1]!}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    await asset.arrayBuffer();
    expect((await call('/')).headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers every GraphQL root field', async () => {
    const q = await graphql(`{
      versions { totalCount }
      version { version isLatest }
      code(code: "10047700") { id term children { code { term } } }
      codes(q: "headache", first: 1) { totalCount edges { node { code { code } } } }
      codeChanges(code: "10047700", against: "4.03") { differences }
      identify(description: "Headache then vomiting.") { version events(first: 5) { totalCount } }
      classify(input: { description: "vomiting" }) { terminologyCodes { code { term } } }
      classifyLabel(input: { description: "ADVERSE REACTIONS\\nNausea and vomiting." }) { terminologyCodes { code { term } } }
      smqs(first: 1) { totalCount }
      smq(code: "90500005") { name }
    }`);
    expect(q.status).toBe(200);
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.version).toEqual({ version: '5.0.1', isLatest: true });
    expect(q.body.data.identify.version).toBe('5.0.1');
    // One coded-data field per document (issue 27): each in a query of its own.
    const coded = async (field: string) => {
      const r = await graphql(`{ ${field} }`);
      expect(r.body.errors, field).toBeUndefined();
      return r.body.data;
    };
    expect((await coded('applySmq(code: "90500005", rows: [{ rowId: "r1", code: "10002218" }]) { counts { narrow } }')).applySmq.counts.narrow).toBe(1);
    expect((await coded('impact(input: { from: "5.0", to: "5.0.1", rows: [{ rowId: "r1", code: "10047700" }] }) { summary { rowsUploaded } }')).impact.summary.rowsUploaded).toBe(1);
    expect((await coded('validateCodes(codes: [{ code: "10047700" }]) { summary { items } }')).validateCodes.summary.items).toBe(1);
    expect((await coded('analyseCodes(codes: [{ code: "10047700" }]) { counted }')).analyseCodes.counted).toBe(1);
    const id = q.body.data.code.id;
    const nodes = await graphql('query($id: ID!) { node(id: $id) { id } nodes(ids: [$id]) { id } }', { id });
    expect(nodes.body.data).toEqual({ node: { id }, nodes: [{ id }] });
  });

  it('serves GraphiQL, the REST reference, the OpenAPI document and health', async () => {
    const graphiql = await call('/graphql', { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    expect(graphiql.body).toContain('GraphiQL');
    expect((await call('/docs')).status).toBe(200);
    const openapi = await call('/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/versions', '/codes', '/codes/{code}', '/identify', '/classify', '/labels/classify']));
    expect((await call('/health/live')).body).toEqual({ status: 'ok' });
    expect((await call('/health/ready')).status).toBe(200);
  });

  it('keeps an idle connection open longer than a load balancer would (Keep-Alive: timeout=65, not Node\'s 5)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.request(`${server.url}/health/live`, { agent }, resolve).on('error', reject).end());
    res.resume();
    expect(res.statusCode).toBe(200);
    expect(res.headers['keep-alive']).toBe('timeout=65');
    agent.destroy();
  });

  it('answers bad input with the documented error', async () => {
    expectProblem(await call('/codes/00000001'), 404, 'CODE_NOT_FOUND');
    expectProblem(await call('/codes/abc'), 400, 'VALIDATION_ERROR');
    expectProblem(await call('/codes/10047700?version=99.9'), 404, 'VERSION_NOT_FOUND');
    expectProblem(await call('/versions/5.0.1/changes?limit=0'), 400, 'VALIDATION_ERROR');
    expectProblem(await call('/codes/10047700/changes'), 400, 'VALIDATION_ERROR');
    expectProblem(await post('/identify', '{"description": '), 400, 'VALIDATION_ERROR');
    expectProblem(await post('/classify', {}), 400, 'VALIDATION_ERROR');
  });

  it('answers an oversized body with 413 that every client can read, and keeps serving', async () => {
    const big = JSON.stringify({ description: 'x'.repeat(3 * 1024 * 1024) });
    for (let i = 0; i < 5; i++) {
      // Node's fetch (undici) saw its socket reset here when the server answered mid-upload.
      const r = await post('/labels/classify', big);
      expectProblem(r, 413, 'PAYLOAD_TOO_LARGE');
      expect(r.headers.get('connection')).toBe('close');
    }
    expect((await call('/versions')).status).toBe(200);
  });
});

/** The same fuzzed input as variables of the GraphQL narrative field (malformed JSON stays malformed). */
function asGraphQL(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  const o = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return JSON.stringify({ query: 'query($d: String!, $v: String) { identify(description: $d, version: $v) { events { totalCount } } }', variables: { d: o.description, v: o.version } });
}

describe('fuzzing the narrative endpoints of the shipped server', () => {
  it('random and malformed bodies, every limiter on: no answer ≥ 500, every error documented', async () => {
    await server.stop();
    // The same store, now behind a trusted proxy: each request comes from its own client
    // address, so the global and per-field AI limits run on every request without refusing it.
    server = await startServerProcess({ ...env, PORT: '0', TRUST_PROXY: '127.0.0.1' }, 120_000, { cwd, baseEnv: false, shipped: true });
    const r = rng(20261124);
    const failures: string[] = [];
    const paths = ['/identify', '/classify', '/labels/classify', '/graphql'];
    const n = Math.ceil(FUZZ_ITERATIONS / 10);
    for (let i = 0; i < n; i++) {
      const p = paths[i % paths.length]!;
      const body = p === '/graphql' ? asGraphQL(narrativeBody(r)) : narrativeBody(r);
      const res = await fetch(`${server.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-API-Key': key, 'X-Forwarded-For': `198.51.${(i >> 8) & 255}.${i & 255}` },
        body,
      });
      const text = await res.text();
      failures.push(...answerProblems(`#${i} POST ${p} ${body.slice(0, 80)}`, res.status, res.headers.get('content-type') ?? '', text, 'POST'));
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect((await call('/health/ready')).status).toBe(200);
  }, 240_000);
});
