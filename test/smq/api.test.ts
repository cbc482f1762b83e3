// SMQs through real HTTP on the demo releases (demo-authored SMQs, not MedDRA's): the list
// and search, one SMQ with sub-SMQs and terms by scope, Code.smqs, SMQ changes between
// releases, running an SMQ over coded rows (narrow/broad, the category rule, weights), errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { answerProblems, NASTY, pick, rng } from '../helpers/fuzz.ts';

let t: TestApp;
let base: string;
let close: () => Promise<void>;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ url: base, close } = await listen(t.app));
  key = (await createApiKey(t.db.prisma, 'smq tests')).key;
});
afterAll(async () => {
  await close?.();
  await t?.cleanup();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
async function apply(code: string, body: unknown, headers: Record<string, string> = { 'X-API-Key': key }) {
  const res = await fetch(`${base}/smqs/${code}/apply`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
async function graphql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as any;
}
const expectProblem = (r: { status: number; headers: Headers; body: any }, status: number, code: string) => {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toContain('application/problem+json');
  expect(r.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String), requestId: expect.any(String) });
};

describe('GET /smqs', () => {
  it('lists the SMQs of the latest release by name, with results and meta', async () => {
    const r = await get('/smqs');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-terminology-version')).toBe('5.0.1');
    expect(r.body.meta).toEqual({ page: 1, limit: 20, total: 7, next: null, previous: null });
    expect(r.body.results.map((s: any) => s.code)).toEqual(['90500005', '90500006', '90500001', '90500003', '90500007', '90500002', '90500004']);
    expect(r.body.results[0]).toEqual({
      code: '90500005',
      name: 'Demo anaphylactic reaction (demo SMQ)',
      level: 1,
      status: 'ACTIVE',
      isAlgorithmic: true,
      algorithm: 'A or (B and C) or (D and (B or C))',
      parentCode: null,
    });
    expect(r.body.results.find((s: any) => s.code === '90500002')).toMatchObject({ level: 2, parentCode: '90500001', isAlgorithmic: false, algorithm: null });
    for (const s of r.body.results) expect(s.name).toMatch(/^Demo .*\(demo SMQ\)$/);
  });

  it('searches by name (any case) in a selected release, and pages with next/previous', async () => {
    const r = await get('/smqs?q=HEPATIC&version=4.03');
    expect(r.headers.get('x-terminology-version')).toBe('4.03');
    expect(r.body.results.map((s: any) => s.name)).toEqual(['Demo hepatic disorders (demo SMQ)', 'Demo hepatic failure and injury (demo SMQ)']);
    expect((await get('/smqs', { 'X-Terminology-Version': '4.03' })).body.meta.total).toBe(6); // 90500007 is new in 5.0.1
    const p2 = await get('/smqs?q=demo&limit=2&page=2');
    expect(p2.body.meta).toEqual({ page: 2, limit: 2, total: 7, next: '?q=demo&page=3&limit=2', previous: '?q=demo&page=1&limit=2' });
    expect(p2.body.results.map((s: any) => s.code)).toEqual(['90500001', '90500003']);
    expect((await get('/smqs?q=nothing-like-this')).body).toEqual({ results: [], meta: { page: 1, limit: 20, total: 0, next: null, previous: null } });
  });

  it('refuses bad parameters with the problem JSON', async () => {
    expectProblem(await get('/smqs?limit=101'), 400, 'VALIDATION_ERROR');
    expectProblem(await get('/smqs?page=0'), 400, 'VALIDATION_ERROR');
    expectProblem(await get(`/smqs?q=${'x'.repeat(201)}`), 400, 'VALIDATION_ERROR');
    const unknown = await get('/smqs?foo=1');
    expectProblem(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.errors).toEqual({ foo: ["unknown parameter 'foo'"] });
    expectProblem(await get('/smqs?version=9.9'), 404, 'VERSION_NOT_FOUND');
  });
});

describe('GET /smqs/{code}', () => {
  it('gives the definition, sub-SMQs and the terms of both sub-SMQs, narrow first, paged', async () => {
    const r = await get('/smqs/90500001?termsLimit=3');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      code: '90500001',
      name: 'Demo hepatic disorders (demo SMQ)',
      level: 1,
      description: expect.stringContaining('not a MedDRA SMQ'),
      source: expect.stringContaining('not MedDRA'),
      definitionVersion: '4.03',
      version: '5.0.1',
      parent: null,
    });
    expect(r.body.children.map((c: any) => [c.code, c.level])).toEqual([['90500003', 2], ['90500002', 2]]);
    expect(r.body.terms.counts).toEqual({ narrow: 26, broad: 18 });
    expect(r.body.terms.meta).toEqual({ page: 1, limit: 3, total: 44, next: '?termsPage=2&termsLimit=3', previous: null });
    expect(r.body.terms.results[0]).toEqual({
      code: '10001551',
      term: 'Alanine aminotransferase increased',
      level: 'PT',
      scope: 'NARROW',
      category: 'A',
      weight: 0,
      status: 'ACTIVE',
      additionVersion: '4.03',
      lastModifiedVersion: '4.03',
      smqCode: '90500002',
    });
    const child = await get('/smqs/90500002');
    expect(child.body.parent).toMatchObject({ code: '90500001', level: 1 });
    expect(child.body.children).toEqual([]);
  });

  it('filters terms by scope, level and status; an inactive term stays listed', async () => {
    const narrow = await get('/smqs/90500004?scope=narrow&level=PT');
    expect(narrow.body.terms.results.map((x: any) => x.term)).toEqual(['Bullous dermatitis', 'Erythema multiforme', 'Stevens-Johnson syndrome', 'Toxic epidermal necrolysis']);
    expect(narrow.body.terms.results[0]).toMatchObject({ additionVersion: '5.0.1', scope: 'NARROW' });
    const broad = await get('/smqs/90500004?scope=BROAD&level=pt');
    expect(broad.body.terms.results.map((x: any) => [x.term, x.status])).toEqual([
      ['Erythroderma', 'ACTIVE'],
      ['Rash acneiform', 'INACTIVE'],
      ['Rash maculo-papular', 'ACTIVE'],
      ['Skin ulceration', 'ACTIVE'],
    ]);
    const inactive = await get('/smqs/90500004?status=inactive');
    expect(inactive.body.terms.results.map((x: any) => x.term)).toEqual(['Rash acneiform', 'Acne-like rash', 'Acneiform dermatitis', 'Acneiform eruption', 'Acneiform rash']);
    expect(inactive.body.terms.results[0]).toMatchObject({ lastModifiedVersion: '5.0.1', additionVersion: '4.03' });
    const older = await get('/smqs/90500004?version=5.0&level=PT&scope=narrow');
    expect(older.body.terms.results.map((x: any) => x.term)).not.toContain('Bullous dermatitis');
    expect(older.body.definitionVersion).toBe('4.03');
  });

  it('unknown SMQ → 404 problem JSON; bad code → 400; bad filters → 400', async () => {
    const missing = await get('/smqs/90599999');
    expectProblem(missing, 404, 'CODE_NOT_FOUND');
    expect(missing.body.detail).toContain('SMQ 90599999');
    expectProblem(await get('/smqs/90500007?version=5.0'), 404, 'CODE_NOT_FOUND');
    expectProblem(await get('/smqs/abc'), 400, 'VALIDATION_ERROR');
    expectProblem(await get('/smqs/00000001'), 404, 'CODE_NOT_FOUND');
    expectProblem(await get('/smqs/90500004?scope=wide'), 400, 'VALIDATION_ERROR');
    expectProblem(await get('/smqs/90500004?termsLimit=201'), 400, 'VALIDATION_ERROR');
  });
});

describe('SMQ changes', () => {
  it('GET /versions/5.0.1/smq-changes: an SMQ added, terms added and made inactive', async () => {
    const r = await get('/versions/5.0.1/smq-changes?limit=100');
    expect(r.status).toBe(200);
    expect(r.body.versions).toEqual({ from: '5.0', to: '5.0.1' });
    expect(r.body.changes).toEqual({ smq_added: 1, smq_retired: 0, smq_updated: 0, term_added: 14, term_removed: 5, term_updated: 0 });
    const all = r.body.results.results as any[];
    expect(all[0]).toMatchObject({ changeType: 'smq_added', smqCode: '90500007', termCode: null, details: 'SMQ added.' });
    expect(all.find((c) => c.termName === 'Bullous dermatitis')).toMatchObject({
      changeType: 'term_added',
      smqCode: '90500004',
      termLevel: 'PT',
      termCode: '10006556',
      before: null,
      after: { scope: 2, category: 'A', weight: 0, status: 'A' },
    });
    expect(all.find((c) => c.termName === 'Rash acneiform')).toMatchObject({
      changeType: 'term_removed',
      details: 'PT Rash acneiform removed (made inactive).',
      before: { status: 'A' },
      after: { status: 'I' },
    });
    expect(all.find((c) => c.termName === 'Morbilliform rash')).toMatchObject({ changeType: 'term_added', termLevel: 'LLT', smqCode: '90500004' });
  });

  it('4.03 → 5.0, any older baseline, and the smq and changeType filters', async () => {
    const r = await get('/versions/5.0/smq-changes');
    expect(r.body.results.results).toEqual([
      expect.objectContaining({ changeType: 'term_added', smqCode: '90500003', termName: 'Chylous ascites', details: 'PT Chylous ascites added (broad, category A).' }),
    ]);
    const wide = await get('/versions/5.0.1/smq-changes?fromVersionId=4.03&smq=90500004&changeType=TERM_REMOVED');
    expect(wide.body.versions).toEqual({ from: '4.03', to: '5.0.1' });
    expect(wide.body.changes).toMatchObject({ term_added: 5, term_removed: 5, smq_added: 0 });
    expect(wide.body.results.meta.total).toBe(5);
    expect(wide.body.results.results.every((c: any) => c.changeType === 'term_removed' && c.smqCode === '90500004')).toBe(true);
    const paged = await get('/versions/5.0.1/smq-changes?limit=5&page=2');
    expect(paged.body.results.meta).toEqual({ page: 2, limit: 5, total: 20, next: '?page=3&limit=5', previous: '?page=1&limit=5' });
  });

  it('refuses a baseline that is not older, unknown releases and bad filters', async () => {
    expectProblem(await get('/versions/4.03/smq-changes'), 400, 'VALIDATION_ERROR');
    const same = await get('/versions/5.0/smq-changes?fromVersionId=5.0.1');
    expectProblem(same, 400, 'VALIDATION_ERROR');
    expect(Object.keys(same.body.errors)).toEqual(['fromVersionId']);
    expectProblem(await get('/versions/7.0/smq-changes'), 404, 'VERSION_NOT_FOUND');
    expectProblem(await get('/versions/5.0.1/smq-changes?changeType=gone'), 400, 'VALIDATION_ERROR');
    expectProblem(await get('/versions/5.0.1/smq-changes?smq=x'), 400, 'VALIDATION_ERROR');
  });
});

describe('POST /smqs/{code}/apply', () => {
  const anaphylaxisRows = [
    { rowId: 'r1', caseId: 'c1', code: '10002218' }, // Anaphylaxis: A (narrow)
    { rowId: 'r2', caseId: 'c2', code: '10006482' }, // Bronchospasm: B
    { rowId: 'r3', caseId: 'c2', code: 10046735 }, // Urticaria: C (a number is accepted)
    { rowId: 'r4', caseId: 'c3', code: '10021097' }, // Hypotension: D alone
    { rowId: 'r5', caseId: 'c4', code: '10021097' }, // D …
    { rowId: 'r6', caseId: 'c4', code: '10047924' }, // … and Wheezing: B
    { rowId: 'r7', caseId: 'c5', code: '90300062' }, // LLT Anaphylactic reaction (listed)
    { rowId: 'r8', code: '10019663', term: 'Hepatic failure' }, // not in the SMQ
    { rowId: 'r9', code: '99999999' }, // unknown
    { rowId: 'r10', code: '10021428' }, // a SOC
  ];

  it('needs the API key (401 before the body is validated), without the AI notice', async () => {
    const r = await apply('90500005', { rows: 'not even rows' }, {});
    expectProblem(r, 401, 'UNAUTHORIZED');
    expectProblem(await apply('90500005', { rows: anaphylaxisRows }, { 'X-API-Key': 'sk-wrongwrongwrongwrongwrongwrong' }), 401, 'UNAUTHORIZED');
    const ok = await apply('90500005', { rows: anaphylaxisRows });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ai-notice')).toBeNull();
  });

  it('an algorithmic SMQ: matches per scope and the category rule per case', async () => {
    const r = await apply('90500005', { rows: anaphylaxisRows });
    expect(r.body.version).toBe('5.0.1');
    expect(r.body.smq).toMatchObject({ code: '90500005', isAlgorithmic: true });
    expect(r.body.counts).toEqual({ rows: 10, narrow: 2, broad: 5, broadSearch: 7, unmatched: 1, problems: 2 });
    expect(r.body.narrow.map((m: any) => m.rowId)).toEqual(['r1', 'r7']);
    expect(r.body.narrow[1]).toMatchObject({ level: 'LLT', term: 'Anaphylactic reaction', scope: 'NARROW', category: 'A', smqCode: '90500005' });
    expect(r.body.broad.map((m: any) => [m.rowId, m.category])).toEqual([['r2', 'B'], ['r3', 'C'], ['r4', 'D'], ['r5', 'D'], ['r6', 'B']]);
    expect(r.body.problems).toEqual([
      { rowId: 'r9', code: '99999999', reason: 'UNKNOWN_CODE' },
      { rowId: 'r10', code: '10021428', reason: 'NOT_PT_OR_LLT' },
    ]);
    expect(r.body.algorithm.expression).toBe('A or (B and C) or (D and (B or C))');
    expect(r.body.algorithm.error).toBeNull();
    const cases = Object.fromEntries(r.body.algorithm.cases.map((c: any) => [c.caseId, c]));
    expect(Object.fromEntries(Object.entries(cases).map(([k, c]: [string, any]) => [k, c.matched]))).toEqual({ c1: true, c2: true, c3: false, c4: true, c5: true });
    expect(cases.c2).toEqual({ caseId: 'c2', rowIds: ['r2', 'r3'], categories: [{ category: 'B', weight: 0 }, { category: 'C', weight: 0 }], weight: 0, matched: true });
    expect(r.body.algorithm.matchedCases).toBe(4);
  });

  it('the same rows as a CSV upload (the impact format plus caseId) give the same answer; GraphQL takes typed rows or rowsData', async () => {
    const csv = ['rowId,caseId,code,term', ...anaphylaxisRows.map((r) => [r.rowId, r.caseId ?? '', String(r.code), r.term ? `"${r.term}"` : ''].join(','))].join('\r\n');
    const post = (body: string, path = '/smqs/90500005/apply') =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': key }, body }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any }));
    const json = await apply('90500005', { rows: anaphylaxisRows });
    const fromCsv = await post(csv);
    expect(fromCsv.status, JSON.stringify(fromCsv.body)).toBe(200);
    expect(fromCsv.body).toEqual(json.body);
    expect((await post(csv, '/smqs/90500005/apply?version=5.0')).body.version).toBe('5.0');
    expectProblem(await post('code,term\r\n10002218,x'), 400, 'VALIDATION_ERROR');
    expectProblem(await post('rowId,code\r\n'), 400, 'VALIDATION_ERROR');
    const r = await fetch(`${base}/smqs/90500005/apply`, { method: 'POST', headers: { 'X-API-Key': key } });
    expectProblem({ status: r.status, headers: r.headers, body: await r.json() }, 400, 'VALIDATION_ERROR');
    const q = 'query($rows: [SmqRowInput!], $rowsData: JSON) { applySmq(code: "90500005", rows: $rows, rowsData: $rowsData) { counts { narrow broad } } }';
    const typed = await graphql(q, { rows: [{ rowId: 'a', code: '10002218' }] }, { 'X-API-Key': key });
    const data = await graphql(q, { rowsData: [{ rowId: 'a', code: '10002218' }] }, { 'X-API-Key': key });
    expect(typed.data.applySmq.counts).toEqual({ narrow: 1, broad: 0 });
    expect(data.data).toEqual(typed.data);
    expect((await graphql(q, {}, { 'X-API-Key': key })).errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect((await graphql(q, { rowsData: [{ rowId: 'a' }] }, { 'X-API-Key': key })).errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('uploads of coded rows have the impact body limit, not the 1 MB of other requests', async () => {
    // 40,000 rows of JSON: about 2 MB, over MAX_BODY_BYTES (1 MB), under MAX_IMPACT_BODY_BYTES.
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ rowId: `row-${i}`, caseId: `case-${i % 5000}`, code: i % 2 ? '10002218' : '10019663' }));
    const r = await apply('90500005', { rows });
    expect(r.status).toBe(200);
    expect(r.body.counts).toMatchObject({ rows: 40_000, narrow: 20_000 });
  }, 60_000);

  it('a weighted rule: categories counted once, at their highest weight', async () => {
    const r = await apply('90500006', {
      version: '5.0',
      rows: [
        { rowId: 'x1', caseId: 'X', code: '10001551' }, // ALT: B 2
        { rowId: 'x2', caseId: 'X', code: '10005364' }, // bilirubin: C 2 → 4
        { rowId: 'y1', caseId: 'Y', code: '10001551' }, // ALT: B 2
        { rowId: 'y2', caseId: 'Y', code: '10003481' }, // AST: B 2 → B once: 2
        { rowId: 'z1', caseId: 'Z', code: '10019705' }, // hepatic pain: D 1
        { rowId: 'z2', caseId: 'Z', code: '10003445' }, // ascites: D 1
        { rowId: 'z3', caseId: 'Z', code: '90300034' }, // LLT ALT increased → B 2 → 3
        { rowId: 'w1', code: '90300575' }, // LLT Liver failure → A (case of its own)
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.version).toBe('5.0');
    const byCase = Object.fromEntries(r.body.algorithm.cases.map((c: any) => [c.caseId ?? c.rowIds[0], [c.weight, c.matched]]));
    expect(byCase).toEqual({ X: [4, true], Y: [2, false], Z: [3, false], w1: [3, true] });
    // The demo lists LLTs too (as a distribution does): the LLT matches itself.
    expect(r.body.narrow).toEqual([expect.objectContaining({ rowId: 'w1', caseId: null, level: 'LLT', matchedCode: '90300575', matchedLevel: 'LLT', matchedTerm: 'Liver failure', weight: 3 })]);
  });

  it('a hierarchical SMQ applies its sub-SMQs; a non-algorithmic SMQ has no rule', async () => {
    const r = await apply('90500001', { rows: [{ rowId: '1', code: '90300575' }, { rowId: '2', code: '10001675' }, { rowId: '3', code: '10037868' }] });
    expect(r.body.algorithm).toBeNull();
    expect(r.body.narrow).toEqual([expect.objectContaining({ rowId: '1', smqCode: '90500003', scope: 'NARROW' })]);
    expect(r.body.broad).toEqual([expect.objectContaining({ rowId: '2', smqCode: '90500002', scope: 'BROAD', term: 'Alkaline phosphatase increased' })]);
    expect(r.body.counts).toMatchObject({ unmatched: 1, broadSearch: 2 });
    // An inactive term does not match: Rash acneiform in 5.0.1, but in 5.0 it is active.
    expect((await apply('90500004', { rows: [{ rowId: 'a', code: '10037847' }] })).body.counts.unmatched).toBe(1);
    expect((await apply('90500004', { version: '5.0', rows: [{ rowId: 'a', code: '10037847' }] })).body.counts.broad).toBe(1);
  });

  it('bad rows → 400 with the row named; unknown SMQ → 404; bad SMQ code → 400', async () => {
    const shape = await apply('90500005', { rows: [{ rowId: 'a' }, 5, { rowId: 'b', code: '1', extra: true }] });
    expectProblem(shape, 400, 'VALIDATION_ERROR');
    expect(shape.body.errors).toEqual({ 'rows.0.code': ['code is required'], 'rows.1': ['must be an object {rowId, code, caseId?}'], 'rows.2': ["unknown field 'extra'"] });
    const codes = await apply('90500005', { rows: [{ rowId: 'a', code: 'abc' }, { rowId: 'a', code: '1' }] });
    expectProblem(codes, 400, 'VALIDATION_ERROR');
    expect(codes.body.errors).toEqual({ 'rows.0.code': ['row a: code must be a terminology code: 1 to 12 digits'], 'rows.1.rowId': ['row a: rowId repeats an earlier row'] });
    const many = await apply('90500005', { rows: Array.from({ length: 50 }, (_, i) => ({ rowId: `r${i}`, code: 'x' })) });
    expectProblem(many, 400, 'VALIDATION_ERROR');
    expect(Object.keys(many.body.errors)).toHaveLength(21); // 20 listed, the rest counted
    const long = await apply('90500005', { rows: [{ rowId: 'x'.repeat(300), code: '1' }, { rowId: 2, code: 123456789012345, caseId: 7 }] });
    expectProblem(long, 400, 'VALIDATION_ERROR');
    expect(long.body.errors).toEqual({ 'rows.0.rowId': ['must be 1 to 200 characters'], 'rows.1.code': ['row 2: code must be a terminology code: 1 to 12 digits'] });
    expect(JSON.stringify(long.body)).not.toContain('x'.repeat(41));
    expectProblem(await apply('90500005', { rows: [] }), 400, 'VALIDATION_ERROR');
    expectProblem(await apply('90500005', { rows: [{ rowId: 'a', code: '1' }], other: 1 }), 400, 'VALIDATION_ERROR');
    expectProblem(await apply('90599999', { rows: [{ rowId: 'a', code: '10002218' }] }), 404, 'CODE_NOT_FOUND');
    expectProblem(await apply('smq', { rows: [{ rowId: 'a', code: '10002218' }] }), 400, 'VALIDATION_ERROR');
    expectProblem(await apply('90500005', { version: '1.0', rows: [{ rowId: 'a', code: '10002218' }] }), 404, 'VERSION_NOT_FOUND');
    const notJson = await fetch(`${base}/smqs/90500005/apply`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': key }, body: '{rows' });
    expect(notJson.status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('Code.smqs: which SMQs list a code, in which scope (an LLT through its PT too)', async () => {
    const r = await graphql(`{
      failure: code(code: "10019663") { smqs { smq { code parent { code } } scope category weight direct termLevel } }
      llt: code(code: "90300575") { level smqs { smq { code } scope direct termCode termLevel } }
      soc: code(code: "10019805") { smqs { scope } }
    }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.failure.smqs).toEqual([
      { smq: { code: '90500006', parent: null }, scope: 'NARROW', category: 'A', weight: 3, direct: true, termLevel: 'PT' },
      { smq: { code: '90500003', parent: { code: '90500001' } }, scope: 'NARROW', category: 'A', weight: 0, direct: true, termLevel: 'PT' },
    ]);
    expect(r.data.llt.smqs.map((m: any) => m.smq.code)).toEqual(['90500006', '90500003']);
    expect(r.data.soc.smqs).toEqual([]);
  });

  it('smqs, smq, node and Version.smqChanges', async () => {
    const r = await graphql(`{
      smqs(q: "cutaneous", version: "5.0") { totalCount edges { node { id code terms(scope: NARROW, level: PT) { totalCount counts { narrow broad } } } } }
      smq(code: "90500002") { name release { version } parent { name children { code } } }
      version(version: "5.0.1") { smqChanges(changeType: SMQ_ADDED) { totalCount counts { smqAdded termAdded termRemoved } edges { node { smqCode details } } } }
    }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.smqs.totalCount).toBe(1);
    const node = r.data.smqs.edges[0].node;
    expect(node.terms).toEqual({ totalCount: 3, counts: { narrow: 3, broad: 4 } });
    expect(r.data.smq).toEqual({
      name: 'Demo liver-related investigations (demo SMQ)',
      release: { version: '5.0.1' },
      parent: { name: 'Demo hepatic disorders (demo SMQ)', children: [{ code: '90500003' }, { code: '90500002' }] },
    });
    expect(r.data.version.smqChanges).toEqual({ totalCount: 1, counts: { smqAdded: 1, termAdded: 14, termRemoved: 5 }, edges: [{ node: { smqCode: '90500007', details: 'SMQ added.' } }] });
    const again = await graphql(`query ($id: ID!) { node(id: $id) { ... on Smq { code release { version } } } }`, { id: node.id });
    expect(again.data.node).toEqual({ code: '90500004', release: { version: '5.0' } });
    const code = (await graphql('{ code(code: "10019663") { id } }')).data.code.id;
    const both = await graphql('query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: [node.id, code] });
    expect(both.data.nodes).toEqual([{ __typename: 'Smq', id: node.id }, { __typename: 'Code', id: code }]);
  });

  it('applySmq needs the key and is never served from the result cache', async () => {
    const q = 'query ($rows: [SmqRowInput!]!) { applySmq(code: "90500005", rows: $rows) { counts { narrow } } }';
    const rows = [{ rowId: '1', code: '10002218' }];
    const withKey = await graphql(q, { rows }, { 'X-API-Key': key });
    expect(withKey.data.applySmq.counts.narrow).toBe(1);
    const without = await graphql(q, { rows });
    expect(without.data).toBeNull();
    expect(without.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });
});

describe('OpenAPI', () => {
  it('documents the SMQ routes, apply with the API key', async () => {
    const doc = (await get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/smqs', '/smqs/{code}', '/smqs/{code}/apply', '/versions/{toVersionId}/smq-changes']));
    expect(doc.paths['/smqs/{code}/apply'].post.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/smqs/{code}/apply'].post.requestBody.content['application/json'].schema.properties.rows.items.required).toEqual(['rowId', 'code']);
  });
});

describe('generated bad requests', () => {
  it('never answer 5xx, always the error object, on every SMQ route and field', async () => {
    const r = rng(1616);
    const params = ['q', 'version', 'page', 'limit', 'scope', 'level', 'status', 'termsPage', 'termsLimit', 'fromVersionId', 'smq', 'changeType', 'foo'];
    const value = () => pick(r, [...NASTY, '90500001', '90500005', 'narrow', 'BROAD', 'llt', 'inactive', 'term_added', '2']);
    const row = () =>
      pick(r, [
        () => ({ rowId: value(), code: value(), caseId: value() }),
        () => ({ rowId: pick(r, [1, null, true, {}, []]), code: pick(r, [10002218, -1, 1.5, 1e300, null, '10002218']) }),
        () => ({ rowId: 'a', code: '10002218', [pick(r, ['__proto__', 'constructor', 'extra', 'term'])]: value() }),
        () => pick(r, [null, 5, 'row', []]),
      ])();
    const problems: string[] = [];
    for (let i = 0; i < 300; i++) {
      const qs = new URLSearchParams();
      for (let k = Math.floor(r() * 4); k > 0; k--) qs.append(pick(r, params), value());
      const x = encodeURIComponent(value()) || 'x';
      const kind = Math.floor(r() * 5);
      let url: string;
      let init: RequestInit = {};
      if (kind === 0) url = `/smqs?${qs}`;
      else if (kind === 1) url = `/smqs/${x}?${qs}`;
      else if (kind === 2) url = `/versions/${x}/smq-changes?${qs}`;
      else if (kind === 3) {
        url = `/smqs/${pick(r, [x, '90500005', '90500006'])}/apply`;
        const body = pick(r, [
          () => JSON.stringify({ rows: Array.from({ length: Math.floor(r() * 5) }, row), version: r() < 0.3 ? value() : undefined }),
          () => JSON.stringify({ rows: row() }),
          () => '{"rows": [',
          () => value(),
        ])();
        init = { method: 'POST', headers: { 'content-type': 'application/json', ...(r() < 0.9 ? { 'X-API-Key': key } : {}) }, body };
      } else {
        url = '/graphql';
        const q = pick(r, [
          () => ({ query: 'query($c: String!, $v: String) { smq(code: $c, version: $v) { name terms(first: 3) { totalCount } } }', variables: { c: value(), v: value() } }),
          () => ({ query: 'query($q: String) { smqs(q: $q, first: 2) { totalCount } }', variables: { q: value() } }),
          () => ({ query: 'query($r: [SmqRowInput!]!) { applySmq(code: "90500005", rows: $r) { counts { rows } } }', variables: { r: Array.from({ length: 3 }, row) } }),
          () => ({ query: 'query($f: String) { version(version: "5.0.1") { smqChanges(from: $f, first: 2) { totalCount } } }', variables: { f: value() } }),
        ])();
        init = { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': key }, body: JSON.stringify(q) };
      }
      const res = await fetch(`${base}${url}`, init);
      problems.push(...answerProblems(`${init.method ?? 'GET'} ${url.slice(0, 80)}`, res.status, res.headers.get('content-type') ?? '', await res.text(), init.method));
    }
    expect(problems).toEqual([]);
  });
});
