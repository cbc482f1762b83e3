// Coded-list validation and hierarchy analysis through real HTTP on the demo releases:
// unknown, non-current, renamed and multiaxial codes; roll-ups along the primary path and
// along every path; release selection; the problem JSON for the client's mistakes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

let t: TestApp;
let server: { url: string; close: () => Promise<void> };
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  key = (await createApiKey(t.db.prisma, 'lists')).key;
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

// 10043649 'Thrush' is multiaxial (primary: Infections and infestations; also under the GI SOC);
// 90300310 'Runs' is a non-current LLT of 10012727 'Diarrhea' in 5.0.1.
describe('POST /codes/validate', () => {
  it('reports per item: exists, level, currency, term match, PT and primary path, multiaxial', async () => {
    const { status, body, headers } = await post('/codes/validate', {
      version: '5.0.1',
      codes: ['10047848', { code: '90300310', term: 'Runs' }, { code: '10047848', term: 'Watering eyes' }, '99999999', 10043649, '10017947', 'abc'],
    });
    expect(status).toBe(200);
    expect(headers.get('x-terminology-version')).toBe('5.0.1');
    expect(body.version).toBe('5.0.1');
    const [pt, nonCurrent, renamed, unknown, multi, soc, malformed] = body.items;
    expect(pt).toMatchObject({ position: 1, exists: true, level: 'PT', term: 'Lacrimation increased', current: true, termMatches: null, issues: [] });
    expect(pt.primaryPath.map((n: any) => n.level)).toEqual(['SOC', 'HLGT', 'HLT', 'PT']);
    expect(pt.primaryPath[0]).toEqual({ code: '10015919', term: 'Eye disorders', level: 'SOC' });
    expect(nonCurrent).toMatchObject({ exists: true, level: 'LLT', current: false, termMatches: true, pt: { code: '10012727', term: 'Diarrhea', level: 'PT' } });
    expect(nonCurrent.primaryPath.at(-1)).toEqual({ code: '90300310', term: 'Runs', level: 'LLT' });
    expect(nonCurrent.issues).toEqual(['non-current LLT: recode to a current LLT']);
    expect(renamed).toMatchObject({ termMatches: false, recordedTerm: 'Watering eyes', issues: ["recorded term does not match 'Lacrimation increased'"] });
    expect(unknown).toMatchObject({ code: '99999999', exists: false, level: null, issues: ['not in release 5.0.1'] });
    expect(multi).toMatchObject({ code: '10043649', term: 'Thrush', multiaxial: true, pathCount: 2 });
    expect(multi.primaryPath[0].term).toBe('Infections and infestations');
    expect(soc).toMatchObject({ exists: true, level: 'SOC', issues: [expect.stringContaining('coded data holds LLT or PT codes')] });
    expect(malformed).toMatchObject({ exists: false, issues: [expect.stringContaining('malformed')] });
    expect(body.summary).toEqual({ items: 7, valid: 2, unknown: 2, nonCurrent: 1, termMismatches: 1, multiaxial: 1 });
  });

  it('checks against the release selected by body version, else the header, else the latest', async () => {
    // 'Runs' is still current in 5.0.
    const older = await post('/codes/validate', { codes: ['90300310'] }, { 'X-Terminology-Version': '5.0' });
    expect(older.body).toMatchObject({ version: '5.0', items: [{ current: true, issues: [] }] });
    const latest = await post('/codes/validate', { codes: ['90400007'] });
    expect(latest.body).toMatchObject({ version: '5.0.1', items: [{ exists: true, term: 'COVID' }] });
    const missing = await post('/codes/validate', { codes: ['1'], version: '9.9' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('VERSION_NOT_FOUND');
  });

  it("the client's mistakes are 400 problem JSON", async () => {
    const tooMany = await post('/codes/validate', { codes: new Array(10_001).fill('1') });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: 'VALIDATION_ERROR', type: '/problems/validation', errors: { codes: [expect.stringContaining('at most 10000')] } });
    // Public lists get a smaller budget than keyed ones (issue 27 defect 4), REST and GraphQL alike.
    const overPublic = { codes: new Array(2_001).fill('10047848') };
    for (const path of ['/codes/validate', '/codes/analyse']) {
      const open = await post(path, overPublic);
      expect(open.status, path).toBe(400);
      expect(open.body.errors.codes[0]).toMatch(/at most 2000 codes per request without an API key \(got 2001\); with X-API-Key, up to 10000/);
      const badKey = await post(path, overPublic, { 'X-API-Key': 'sk-not-a-key' });
      expect(badKey.status, path).toBe(401);
      const keyed = await post(path, overPublic, { 'X-API-Key': key });
      expect(keyed.status, path).toBe(200);
    }
    const atPublic = await post('/codes/validate', { codes: new Array(2_000).fill('10047848') });
    expect(atPublic.body.summary.items).toBe(2_000);
    const gql = await post('/graphql', { query: 'query($c: [CodeListItemInput!]!) { validateCodes(codes: $c) { summary { items } } }', variables: { c: overPublic.codes.map((code) => ({ code })) } });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(gql.body.errors[0].extensions.errors.codes[0]).toContain('without an API key');
    for (const bad of [{}, { codes: 'x' }, { codes: [{ term: 'x' }] }, { codes: [], extra: 1 }]) {
      const r = await post('/codes/validate', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('POST /codes/analyse', () => {
  it('rolls up by PT, HLT, HLGT and SOC along the primary path, and along every path with allPaths', async () => {
    const codes = ['10047848', '90300310', '10043649', { code: '10043649' }, '99999999', '10017947'];
    const primary = await post('/codes/analyse', { version: '5.0.1', codes });
    expect(primary.status).toBe(200);
    expect(primary.body).toMatchObject({ version: '5.0.1', allPaths: false, items: 6, counted: 4 });
    expect(primary.body.notCounted).toEqual([
      { position: 5, code: '99999999', reason: 'not in release 5.0.1' },
      { position: 6, code: '10017947', reason: 'an SOC code: only LLT and PT codes roll up' },
    ]);
    const count = (list: any[], code: string) => list.find((x) => x.code === code);
    expect(count(primary.body.pt, '10043649')).toEqual({ code: '10043649', term: 'Thrush', level: 'PT', count: 2, allPathsCount: null });
    expect(count(primary.body.pt, '10012727')).toMatchObject({ term: 'Diarrhea', count: 1 });
    expect(primary.body.soc.map((s: any) => [s.code, s.count])).toEqual([
      ['10021881', 2],
      ['10015919', 1],
      ['10017947', 1],
    ]);
    // Every path: the multiaxial PT also counts under its secondary SOC, HLGT and HLT.
    const all = await post('/codes/analyse', { version: '5.0.1', codes, allPaths: true });
    expect(all.body.allPaths).toBe(true);
    expect(count(all.body.soc, '10017947')).toMatchObject({ count: 1, allPathsCount: 3 });
    expect(count(all.body.soc, '10021881')).toMatchObject({ count: 2, allPathsCount: 2 });
    expect(count(all.body.hlt, '90200143')).toMatchObject({ count: 0, allPathsCount: 2 });
    const totalPrimary = primary.body.soc.reduce((n: number, s: any) => n + s.count, 0);
    expect(totalPrimary).toBe(4);
  });

  it('is one GraphQL query too', async () => {
    const res = await t.graphql('{ analyseCodes(codes: [{ code: "10043649" }], version: "5.0.1", allPaths: true) { counted soc { code count allPathsCount } } }');
    expect(res.body.data.analyseCodes.counted).toBe(1);
    expect(res.body.data.analyseCodes.soc).toHaveLength(2);
    // One coded-data field per document (issue 27): the validation is a query of its own.
    const validated = await t.graphql('{ validateCodes(codes: [{ code: "1" }]) { summary { unknown } } }');
    expect(validated.body.data.validateCodes.summary.unknown).toBe(1);
  });
});
