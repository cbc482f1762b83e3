// Impact of an upgrade on coded data through real HTTP on the demo releases: every impact
// kind (5.0 → 5.0.1 exercises them; a retired code needs the reverse direction), suggested
// recodes, JSON and CSV in and out, bad rows, validateOnly, the size limits, GraphQL and the CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { freshStore, runHere, type Store } from '../helpers/cli.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { IMPACT_CSV_HEADER } from '../../src/domain/impact/csv.ts';

let t: TestApp;
let server: { url: string; close: () => Promise<void> };
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  key = (await createApiKey(t.db.prisma, 'impact tests')).key;
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

function post(pathAndQuery: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${pathAndQuery}`, { method: 'POST', headers: { 'x-api-key': key, ...headers }, body });
}
const postJson = (p: string, body: unknown, headers: Record<string, string> = {}) => post(p, JSON.stringify(body), { 'content-type': 'application/json', ...headers });

/** One row per impact kind (5.0 → 5.0.1), the code chosen from the release's change set. */
const ROWS = [
  { rowId: 'non-current', code: '90301218', term: 'Cold' }, // LLT made non-current
  { rowId: 'moved', code: '90300351' }, // LLT Heartburn: Dyspepsia → Gastroesophageal reflux disease
  { rowId: 'demoted', code: '10066480' }, // PT Avascular necrosis → LLT of Osteonecrosis
  { rowId: 'promoted', code: '10010783' }, // LLT Constrictive pericarditis → PT
  { rowId: 'renamed', code: '10047848', term: 'Watering eyes' }, // → Lacrimation increased (and the recorded term no longer matches)
  { rowId: 'soc', code: '10001723' }, // Allergic rhinitis: Respiratory → Immune system disorders
  { rowId: 'hierarchy', code: '10025476' }, // Malabsorption: HLT 90200121 → 90200122
  { rowId: 'mismatch', code: '90300351', term: 'Nausea' }, // recorded term is another current LLT
  { rowId: 'unchanged', code: '10028813', term: 'nausea' },
];

type Report = any;
let report: Report;
const row = (id: string) => report.rows.find((r: any) => r.rowId === id);
const kinds = (id: string) => row(id).impacts.map((i: any) => i.kind);
const impact = (id: string, kind: string) => row(id).impacts.find((i: any) => i.kind === kind);

describe('POST /impact (JSON)', () => {
  beforeAll(async () => {
    const res = await postJson('/impact', { from: '5.0', to: '5.0.1', rows: ROWS });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ai-notice')).toBeNull();
    report = await res.json();
  });

  it('reports every impact kind with the new values', () => {
    expect(kinds('non-current')).toEqual(['LLT_NON_CURRENT']);
    expect(impact('non-current', 'LLT_NON_CURRENT')).toMatchObject({ before: 'current', after: 'non-current' });
    expect(kinds('moved')).toEqual(['LLT_MOVED', 'HIERARCHY_CHANGED']);
    expect(impact('moved', 'LLT_MOVED').after).toContain('10066874');
    expect(row('moved').after.pt).toEqual({ code: '10066874', term: 'Gastroesophageal reflux disease', level: 'PT' });
    expect(kinds('demoted')).toContain('PT_DEMOTED');
    expect(row('demoted')).toMatchObject({ before: { level: 'PT' }, after: { level: 'LLT', pt: { code: '10031264' } } });
    expect(kinds('promoted')).toContain('LLT_PROMOTED');
    expect(row('promoted')).toMatchObject({ before: { level: 'LLT', pt: { term: 'Pericarditis' } }, after: { level: 'PT', pt: { code: '10010783' } } });
    expect(impact('renamed', 'RENAMED')).toMatchObject({ before: 'Watering eyes', after: 'Lacrimation increased' });
    expect(impact('soc', 'PRIMARY_SOC_CHANGED')).toMatchObject({ before: expect.stringContaining('10038738'), after: expect.stringContaining('10021428') });
    expect(kinds('hierarchy')).toEqual(['HIERARCHY_CHANGED']);
    expect(impact('hierarchy', 'HIERARCHY_CHANGED').after).toContain('90200122');
    expect(kinds('mismatch')).toContain('TERM_MISMATCH');
    expect(row('unchanged').impacts).toEqual([]);
  });

  it('suggests a recode with its reason for each impact', () => {
    // Non-current LLT: the current LLT of the same PT closest to the recorded term.
    expect(impact('non-current', 'LLT_NON_CURRENT').suggestion).toMatchObject({ action: 'RECODE', code: '90301217', term: 'Common cold', level: 'LLT' });
    expect(impact('non-current', 'LLT_NON_CURRENT').suggestion.reason).toMatch(/closest to 'Cold'/);
    for (const [id, kind] of [['moved', 'LLT_MOVED'], ['demoted', 'PT_DEMOTED'], ['promoted', 'LLT_PROMOTED'], ['renamed', 'RENAMED'], ['soc', 'PRIMARY_SOC_CHANGED']]) {
      expect(impact(id!, kind!).suggestion, `${id} ${kind}`).toMatchObject({ action: 'KEEP', code: row(id!).code });
      expect(impact(id!, kind!).suggestion.reason.length).toBeGreaterThan(10);
    }
    // The recorded term was the old name: keep the code.
    expect(impact('renamed', 'TERM_MISMATCH').suggestion).toMatchObject({ action: 'KEEP', code: '10047848' });
    // The recorded term is exactly another current LLT.
    expect(impact('mismatch', 'TERM_MISMATCH').suggestion).toMatchObject({ action: 'RECODE', code: '10028813', term: 'Nausea' });
  });

  it('summarises: counts per kind, SOC-to-SOC movements, per-PT deltas', () => {
    const s = report.summary;
    expect(s).toMatchObject({ rowsUploaded: ROWS.length, rowsValid: ROWS.length, rowsInvalid: 0, rowsImpacted: ROWS.length - 1 });
    expect(s.impactedPercent).toBeCloseTo(((ROWS.length - 1) / ROWS.length) * 100, 0);
    const byKind = Object.fromEntries(s.byKind.map((k: any) => [k.kind, k.rows]));
    expect(byKind).toMatchObject({ LLT_NON_CURRENT: 1, LLT_MOVED: 2, PT_DEMOTED: 1, LLT_PROMOTED: 1, RENAMED: 1, CODE_RETIRED: 0, PRIMARY_SOC_CHANGED: 1, TERM_MISMATCH: 2 });
    expect(s.socMovements).toContainEqual({
      from: { code: '10038738', term: 'Respiratory, thoracic and mediastinal disorders', level: 'SOC' },
      to: { code: '10021428', term: 'Immune system disorders', level: 'SOC' },
      rows: 1,
    });
    const delta = (code: string) => s.ptDeltas.find((d: any) => d.pt.code === code);
    expect(delta('10013946')).toMatchObject({ pt: { term: 'Dyspepsia' }, before: 2, after: 0, delta: -2 });
    expect(delta('10066874')).toMatchObject({ before: 0, after: 2, delta: 2 });
    expect(delta('10028813')).toBeUndefined();
  });

  it('a retired LLT (5.0.1 → 5.0) whose PT lives on is recoded to its PT (src/domain/impact/retired.ts; test/impact/retired.test.ts)', async () => {
    const res = await postJson('/impact', { from: '5.0.1', to: '5.0', rows: [{ rowId: 'a', code: 90400010, term: 'Cancer-related fatigue' }] });
    const body = await res.json();
    expect(body.rows[0].after).toBeNull();
    expect(body.rows[0].impacts).toEqual([
      expect.objectContaining({ kind: 'CODE_RETIRED', before: 'Cancer-related fatigue', after: null, suggestion: expect.objectContaining({ action: 'RECODE', code: '10016256', term: 'Fatigue', reason: expect.stringMatching(/^Basis: its PT\./) }) }),
    ]);
    expect(body.summary.byKind.find((k: any) => k.kind === 'CODE_RETIRED').rows).toBe(1);
    expect(body.summary.ptDeltas).toContainEqual(expect.objectContaining({ pt: expect.objectContaining({ code: '10016256' }), before: 1, after: 0 }));
  });

  it('bad rows are reported with rowId and reason; the other rows are analysed', async () => {
    const res = await postJson('/impact', {
      from: '5.0',
      to: '5.0.1',
      rows: [{ rowId: 'ok', code: '10047848' }, { rowId: 'no-code' }, { code: '10047848' }, { rowId: 'ok', code: '10028813' }, { rowId: 'x', code: '12ab' }, { rowId: 'soc', code: '10017947' }, { rowId: 'gone', code: '99999999' }],
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.rows.map((r: any) => r.rowId)).toEqual(['ok']);
    expect(body.summary).toMatchObject({ rowsUploaded: 7, rowsValid: 1, rowsInvalid: 6 });
    expect(body.errors).toEqual([
      { rowId: 'no-code', position: 2, line: null, field: 'code', reason: 'code is required' },
      { rowId: null, position: 3, line: null, field: 'rowId', reason: 'rowId is required' },
      { rowId: 'ok', position: 4, line: null, field: 'rowId', reason: 'duplicate rowId (first at row 1)' },
      { rowId: 'x', position: 5, line: null, field: 'code', reason: 'code must be a terminology code: 1 to 12 digits' },
      { rowId: 'soc', position: 6, line: null, field: 'code', reason: expect.stringContaining('is an SOC in release 5.0') },
      { rowId: 'gone', position: 7, line: null, field: 'code', reason: 'code 99999999 does not exist in release 5.0 at LLT or PT level' },
    ]);
  });

  it('validateOnly returns the errors alone', async () => {
    const body = await (await postJson('/impact?validateOnly=true', { from: '5.0', to: '5.0.1', rows: [{ rowId: 'a', code: '10047848' }, { rowId: 'b', code: 'x' }] })).json();
    expect(body).toMatchObject({ validateOnly: true, rows: [], summary: { rowsUploaded: 2, rowsValid: 1, rowsInvalid: 1, rowsImpacted: 0 } });
    expect(body.errors).toHaveLength(1);
  });

  it('needs the API key; request errors are the documented problem JSON', async () => {
    const res = await fetch(`${server.url}/impact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: '5.0', to: '5.0.1', rows: [] }) });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('UNAUTHORIZED');
    const unknown = await postJson('/impact', { from: '5.0', to: '9.9', rows: [] });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'VERSION_NOT_FOUND', requestId: expect.any(String) });
    const missing = await postJson('/impact', { to: '5.0.1', rows: [] });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'VALIDATION_ERROR', errors: { from: ['from is required'] } });
    const badType = await post('/impact?from=5.0&to=5.0.1', 'rowId,code', { 'content-type': 'text/plain' });
    expect(badType.status).toBeLessThan(500);
    expect(badType.status).toBeGreaterThanOrEqual(400);
  });
});

describe('malformed input', () => {
  it('is never a 5xx: every refusal is the problem JSON', async () => {
    const json = { 'content-type': 'application/json' };
    const csv = { 'content-type': 'text/csv' };
    const cases: [string, string, Record<string, string>][] = [
      ['/impact', '{', json],
      ['/impact', 'null', json],
      ['/impact', '[]', json],
      ['/impact', JSON.stringify({ from: '5.0', to: '5.0.1', rows: null }), json],
      ['/impact', JSON.stringify({ from: '5.0', to: '5.0.1', rows: [null, 1, 'x', []] }), json],
      ['/impact', JSON.stringify({ from: '5.0', to: '5.0.1', rows: [{ rowId: {}, code: [] }] }), json],
      ['/impact', JSON.stringify({ from: '../etc', to: '5.0.1', rows: [] }), json],
      ['/impact', JSON.stringify({ from: '5.0', to: '5.0.1', rows: [{ rowId: 'a', code: 1e300 }] }), json],
      ['/impact?from=5.0&to=5.0.1', '\u0000\u0001\uFFFF,,,\n"', csv],
      ['/impact?from=5.0&to=5.0.1', '', csv],
      ['/impact?from=5.0&to=5.0.1&format=xml', 'rowId,code\na,1', csv],
      ['/impact?from=5.0&to=5.0.1&validateOnly=maybe', 'rowId,code\na,1', csv],
      [`/impact?from=5.0&to=5.0.1`, `rowId,code,term\na,1,${'x'.repeat(70_000)}`, csv],
      ['/codes/validate', JSON.stringify({ codes: [null] }), json],
      ['/codes/analyse', JSON.stringify({ codes: [{ code: -1 }], allPaths: 'yes' }), json],
    ];
    for (const [p, body, headers] of cases) {
      const res = await post(p, body, headers);
      const text = await res.text();
      expect(res.status, `${p} ${body.slice(0, 60)}: ${text.slice(0, 200)}`).toBeLessThan(500);
      if (res.status >= 400) expect(JSON.parse(text), p).toMatchObject({ code: expect.any(String), requestId: expect.any(String) });
    }
  });
});

describe('POST /impact (CSV)', () => {
  it('a body neither JSON nor CSV is 415 UNSUPPORTED_MEDIA_TYPE (impact and SMQ application)', async () => {
    for (const path of ['/impact?from=5.0&to=5.0.1', '/smqs/90500005/apply']) {
      const res = await post(path, 'rowId,code\na,10047848', { 'content-type': 'text/plain' });
      expect(res.status, path).toBe(415);
      expect(await res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    }
  });

  it('reads a CSV upload and answers CSV a spreadsheet opens as is', async () => {
    const csv = [
      'rowId,code,term',
      'r1,10047848,Watering eyes',
      '"r,2",90301218,"Cold, common"',
      'r3,10028813,=HYPERLINK("http://x")',
      'r4,abc,',
      'r5,10028813,nausea,extra',
      '',
    ].join('\r\n');
    const res = await post('/impact?from=5.0&to=5.0.1&format=csv', csv, { 'content-type': 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // UTF-8 byte-order mark first: spreadsheets then read accents right.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain('\r\n');
    const records: Record<string, string>[] = parse(text, { bom: true, columns: true });
    expect(Object.keys(records[0]!)).toEqual([...IMPACT_CSV_HEADER]);
    const of = (id: string) => records.filter((r) => r.rowId === id);
    expect(of('r1').map((r) => r.impact)).toEqual(['RENAMED', 'TERM_MISMATCH']);
    expect(of('r1')[0]).toMatchObject({ status: 'IMPACTED', line: '2', before: 'Watering eyes', after: 'Lacrimation increased', suggestedAction: 'KEEP', suggestedCode: '10047848' });
    expect(of('r,2')[0]).toMatchObject({ impact: 'LLT_NON_CURRENT', recordedTerm: 'Cold, common', suggestedAction: 'RECODE', suggestedCode: '90301217' });
    // A formula is neutralised: the cell starts with an apostrophe.
    expect(of('r3')[0]!.recordedTerm).toBe(`'=HYPERLINK("http://x")`);
    expect(of('r4')[0]).toMatchObject({ status: 'INVALID', line: '5', details: expect.stringContaining('code must be') });
    expect(of('r5')[0]).toMatchObject({ status: 'INVALID', line: '6', details: expect.stringContaining('more fields') });
    // Positions are the file's record numbers, dropped records included.
    const json = await (await post('/impact?from=5.0&to=5.0.1', 'rowId,code\na,1,extra\nb,10047848\nb,10047848\n', { 'content-type': 'text/csv' })).json();
    expect(json.rows[0]).toMatchObject({ rowId: 'b', position: 2, line: 3 });
    expect(json.errors).toEqual([
      { rowId: 'a', position: 1, line: 2, field: 'row', reason: 'more fields than the 2 columns of the header' },
      { rowId: 'b', position: 3, line: 4, field: 'rowId', reason: 'duplicate rowId (first at row 2)' },
    ]);
  });

  it('a CSV upload answers JSON by default; from and to are required; malformed CSV is a 400', async () => {
    const json = await (await post('/impact?from=5.0&to=5.0.1', 'code,rowId\n10047848,a\n', { 'content-type': 'text/csv; charset=utf-8' })).json();
    expect(json.rows[0]).toMatchObject({ rowId: 'a', line: 2, impacts: [expect.objectContaining({ kind: 'RENAMED' })] });
    const noFrom = await post('/impact?to=5.0.1', 'rowId,code\na,1\n', { 'content-type': 'text/csv' });
    expect(noFrom.status).toBe(400);
    expect((await noFrom.json()).errors.from).toBeDefined();
    const header = await post('/impact?from=5.0&to=5.0.1', 'a,b\n1,2\n', { 'content-type': 'text/csv' });
    expect(header.status).toBe(400);
    expect((await header.json()).errors.file[0]).toMatch(/rowId,code/);
    const broken = await post('/impact?from=5.0&to=5.0.1', 'rowId,code\n"a,1\n', { 'content-type': 'text/csv' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ code: 'VALIDATION_ERROR', errors: { file: [expect.stringMatching(/^malformed CSV/)] } });
  });

  it('JSON in, CSV out with Accept: text/csv; validateOnly lists the bad rows only', async () => {
    const res = await postJson('/impact', { from: '5.0', to: '5.0.1', rows: [{ rowId: 'u', code: '10028813' }, { rowId: 'b', code: '' }], validateOnly: true }, { accept: 'text/csv' });
    const records: Record<string, string>[] = parse(await res.text(), { bom: true, columns: true });
    expect(records).toEqual([expect.objectContaining({ rowId: 'b', status: 'INVALID', details: 'code: code is required' })]);
    const all = await postJson('/impact', { from: '5.0', to: '5.0.1', rows: [{ rowId: 'u', code: '10028813' }] }, { accept: 'text/csv' });
    expect(parse(await all.text(), { bom: true, columns: true })).toEqual([expect.objectContaining({ rowId: 'u', status: 'UNCHANGED', suggestedAction: 'KEEP' })]);
  });
});

describe('size limits', () => {
  it('100,000 rows over the 1 MB default body limit are accepted; one more row is refused', async () => {
    const lines = ['rowId,code'];
    for (let i = 0; i < 100_000; i++) lines.push(`r${i},${i % 2 ? '10047848' : '10028813'}`);
    const body = lines.join('\n');
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const started = performance.now();
    // validateOnly keeps the test short: bench/impact.ts measures a full 100,000-row analysis.
    const ok = await post('/impact?from=5.0&to=5.0.1&validateOnly=true', body, { 'content-type': 'text/csv' });
    expect(ok.status).toBe(200);
    const json = await ok.json();
    expect(json.summary).toMatchObject({ rowsUploaded: 100_000, rowsValid: 100_000, rowsInvalid: 0 });
    expect(json.rows).toEqual([]);
    expect(performance.now() - started).toBeLessThan(30_000);
    const tooMany = await post('/impact?from=5.0&to=5.0.1', `${body}\nlast,10047848`, { 'content-type': 'text/csv' });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: 'VALIDATION_ERROR', errors: { rows: [expect.stringContaining('at most 100000 rows')] } });
  }, 120_000);

  it('a body over MAX_IMPACT_BODY_BYTES is 413 PAYLOAD_TOO_LARGE; other routes keep MAX_BODY_BYTES', async () => {
    const big = await post('/impact?from=5.0&to=5.0.1', `rowId,code\n${'x'.repeat(33 * 1024 * 1024)}`, { 'content-type': 'text/csv' });
    expect(big.status).toBe(413);
    expect((await big.json()).code).toBe('PAYLOAD_TOO_LARGE');
    const codes = await postJson('/codes/validate', { codes: ['1'], pad: 'x'.repeat(1100 * 1024) });
    expect(codes.status).toBe(413);
  }, 60_000);
});

describe('GraphQL impact', () => {
  const query = `query ($input: ImpactInput!) { impact(input: $input) { from to summary { rowsImpacted byKind { kind rows } } rows(impactedOnly: true) { rowId impacts { kind suggestion { action code } } } } }`;
  it('needs the key and answers the same analysis', async () => {
    const input = { from: '5.0', to: '5.0.1', rows: [{ rowId: 'a', code: '90300351' }, { rowId: 'b', code: '10028813' }] };
    const anon = await t.graphql(query, { input });
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const res = await t.graphql(query, { input }, { 'X-API-Key': key });
    expect(res.body.data.impact).toMatchObject({ from: '5.0', to: '5.0.1', summary: { rowsImpacted: 1 }, rows: [{ rowId: 'a', impacts: [{ kind: 'LLT_MOVED' }, { kind: 'HIERARCHY_CHANGED' }] }] });
    // Never served from the result cache: without the key it is refused again.
    expect((await t.graphql(query, { input })).body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });

  it('takes the rows typed or as one JSON value (rowsData), exactly one of them', async () => {
    const h = { 'X-API-Key': key };
    const bulk = await t.graphql(`query ($input: ImpactInput!) { impact(input: $input) { summary { rowsValid rowsInvalid } errors { field reason } rowsData(impactedOnly: true) } }`, {
      input: { from: '5.0', to: '5.0.1', rowsData: [{ rowId: 'a', code: 90300351 }, { rowId: 'b', code: { no: 1 } }, 'x'] },
    }, h);
    expect(bulk.body.data.impact.summary).toEqual({ rowsValid: 1, rowsInvalid: 2 });
    expect(bulk.body.data.impact.errors).toEqual([
      { field: 'code', reason: 'code must be a string' },
      { field: 'row', reason: 'a row must be an object {rowId, code, term?}' },
    ]);
    expect(bulk.body.data.impact.rowsData[0]).toMatchObject({ rowId: 'a', code: '90300351', after: { pt: { code: '10066874' } } });
    for (const input of [{ from: '5.0', to: '5.0.1' }, { from: '5.0', to: '5.0.1', rows: [], rowsData: [] }]) {
      const r = await t.graphql(`query ($input: ImpactInput!) { impact(input: $input) { from } }`, { input }, h);
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', errors: { rows: [expect.any(String)] } });
    }
  });
});

describe('CLI', () => {
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    store = await freshStore('demo');
    dir = mkdtempSync(path.join(tmpdir(), 'te-impact-'));
  });
  afterAll(async () => {
    await store?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('terminology impact <file.csv> --from --to --format json', async () => {
    const file = path.join(dir, 'coded.csv');
    writeFileSync(file, 'rowId,code,term\nr1,10047848,Watering eyes\nr2,90300310,Runs\nr3,oops,\n');
    // The command in this process (runHere): the same entry point and store a process would open, less
    // a process start; `terminology impact` as a process is test/shipped/readme.test.ts's (the README's blocks).
    const r = await runHere(['impact', file, '--from', '5.0', '--to', '5.0.1', '--format', 'json'], store.env);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.summary).toMatchObject({ rowsUploaded: 3, rowsValid: 2, rowsInvalid: 1, rowsImpacted: 2 });
    expect(body.rows[1].impacts[0]).toMatchObject({ kind: 'LLT_NON_CURRENT', suggestion: { action: 'RECODE', code: '10012727' } });
    expect(body.errors[0]).toMatchObject({ rowId: 'r3', line: 4, field: 'code' });
    expect(r.stderr).toMatch(/3 rows, 2 valid, 1 invalid, 2 impacted/);
  }, 90_000);
});
