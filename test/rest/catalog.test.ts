// Contract tests of the catalog endpoints against the demo releases, through real HTTP.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { captureLogs } from '../helpers/http.ts';
import { createLogger } from '../../src/logger.ts';
import { rowsAt } from '../helpers/releaseRows.ts';

let t: TestApp;
let base: string;
const logs = captureLogs();

serveTestApp((app, url) => {
  t = app;
  base = url;
}, { log: createLogger('info', logs.stream), readOnly: true });

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

function expectProblem(r: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toContain('application/problem+json');
  expect(r.body).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String), type: expect.stringMatching(/^\/problems\//) });
  expect(r.body.requestId).toBe(r.headers.get('x-request-id'));
  expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts:\d+|node_modules/);
}

describe('GET /versions', () => {
  it('lists the hosted releases latest first, with counts and isLatest', async () => {
    const r = await get('/versions');
    expect(r.status).toBe(200);
    expect(r.body.results.map((v: any) => v.version)).toEqual(['5.0.1', '5.0', '4.03']);
    expect(r.body.results.map((v: any) => v.isLatest)).toEqual([true, false, false]);
    expect(r.body.results[1]).toMatchObject({ id: '5.0', releaseDate: '2017-11-27', language: 'English' });
    const db = (await rowsAt(t.db.prisma, 'concept', '5.0', "t.level = 'PT'")).length;
    expect(r.body.results[1].counts.PT).toBe(db);
    expect(r.body.meta).toEqual({ page: 1, limit: 20, total: 3, next: null, previous: null });
  });

  it('pages with next/previous query strings', async () => {
    const p1 = await get('/versions?limit=1');
    expect(p1.body.results.map((v: any) => v.version)).toEqual(['5.0.1']);
    expect(p1.body.meta).toEqual({ page: 1, limit: 1, total: 3, next: '?page=2&limit=1', previous: null });
    const p2 = await get(`/versions${p1.body.meta.next}`);
    expect(p2.body.results.map((v: any) => v.version)).toEqual(['5.0']);
    expect(p2.body.meta.previous).toBe('?page=1&limit=1');
    const p3 = await get('/versions?page=3&limit=1');
    expect(p3.body.meta.next).toBeNull();
  });

  it.each([
    ['/versions?limit=0', 'limit'],
    ['/versions?limit=101', 'limit'],
    ['/versions?page=0', 'page'],
    ['/versions?page=abc', 'page'],
    ['/versions?sort=name', 'sort'],
  ])('%s is a VALIDATION_ERROR naming %s', async (path, field) => {
    const r = await get(path);
    expectProblem(r, 400, 'VALIDATION_ERROR');
    expect(r.body.errors[field]).toHaveLength(1);
  });
});

describe('GET /codes/{code}', () => {
  it('returns a PT with synonyms, parents (incl. SOC_TO_PT) and children', async () => {
    const r = await get('/codes/10047700');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-terminology-version')).toBe('5.0.1');
    expect(r.body).toMatchObject({ code: '10047700', term: 'Vomiting', level: 'PT', status: 'CURRENT', isPrimary: true, primarySocCode: '10017947', version: '5.0.1' });
    expect(r.body.synonyms.results[0]).toEqual({ name: 'Vomiting', isPrimary: true });
    expect(r.body.synonyms.results).toContainEqual({ name: 'Throwing up', isPrimary: false });
    expect(r.body.synonyms.meta).toMatchObject({ page: 1, limit: 20 });
    expect(r.body.parents).toContainEqual({ code: '10017947', term: 'Gastrointestinal disorders', level: 'SOC', status: 'CURRENT', relationshipType: 'SOC_TO_PT', isPrimary: true });
    expect(r.body.parents.filter((p: any) => p.relationshipType === 'HLT_TO_PT').length).toBeGreaterThan(0);
    expect(r.body.children.every((c: any) => c.relationshipType === 'PT_TO_LLT' && c.level === 'LLT')).toBe(true);
    expect(r.body.children.map((c: any) => c.term)).toContain('Throwing up');
    expect(r.body.change).toBeUndefined();
  });

  it('a code that is both a PT and its own LLT is returned at the higher level', async () => {
    const llt = await rowsAt(t.db.prisma, 'concept', '5.0.1', "t.level = 'LLT' AND t.code = 10047700");
    expect(llt).toHaveLength(1);
    expect((await get('/codes/10047700')).body.level).toBe('PT');
  });

  it('an LLT has its PT as parent; a non-current LLT says NON_CURRENT', async () => {
    const r = await get('/codes/90301296');
    expect(r.body).toMatchObject({ term: 'Throwing up', level: 'LLT', status: 'CURRENT', isPrimary: false, primarySocCode: '10017947' });
    expect(r.body.parents).toEqual([{ code: '10047700', term: 'Vomiting', level: 'PT', status: 'CURRENT', relationshipType: 'PT_TO_LLT', isPrimary: true }]);
    const nc = await get('/codes/10016479');
    expect(nc.body).toMatchObject({ term: 'Fetal death', level: 'LLT', status: 'NON_CURRENT' });
  });

  it('a multiaxial PT lists every HLT parent, one of them primary', async () => {
    const r = await get('/codes/10001723');
    expect(r.body.term).toBe('Allergic rhinitis');
    expect(r.body.primarySocCode).toBe('10021428');
    const hlts = r.body.parents.filter((p: any) => p.relationshipType === 'HLT_TO_PT');
    expect(hlts).toHaveLength(2);
    expect(hlts.filter((p: any) => p.isPrimary)).toHaveLength(1);
  });

  it('SOC and HLGT children carry SOC_TO_HLGT and HLGT_TO_HLT', async () => {
    const soc = await get('/codes/10017947');
    expect(soc.body.level).toBe('SOC');
    expect(soc.body.children.length).toBeGreaterThan(1);
    expect(new Set(soc.body.children.map((c: any) => c.relationshipType))).toEqual(new Set(['SOC_TO_HLGT']));
    const hlgt = await get(`/codes/${soc.body.children[0].code}`);
    expect(hlgt.body.parents[0].relationshipType).toBe('SOC_TO_HLGT');
    expect(new Set(hlgt.body.children.map((c: any) => c.relationshipType))).toEqual(new Set(['HLGT_TO_HLT']));
  });

  it('pages synonyms with synonymsPage/synonymsLimit, keeping other parameters', async () => {
    const all = (await get('/codes/10047700?synonymsLimit=200')).body.synonyms;
    const r = await get('/codes/10047700?version=5.0&synonymsLimit=2&synonymsPage=2');
    expect(r.body.synonyms.results).toHaveLength(2);
    expect(r.body.synonyms.meta.previous).toBe('?version=5.0&synonymsPage=1&synonymsLimit=2');
    expect(r.body.synonyms.meta.total).toBe(all.meta.total);
    if (all.meta.total > 4) expect(r.body.synonyms.meta.next).toBe('?version=5.0&synonymsPage=3&synonymsLimit=2');
  });

  it('selects the release: parameter beats header beats latest, and logs a disagreement', async () => {
    expect((await get('/codes/10047700?version=4.03')).headers.get('x-terminology-version')).toBe('4.03');
    expect((await get('/codes/10047700', { 'X-Terminology-Version': '5.0' })).body.version).toBe('5.0');
    const both = await get('/codes/10047700?version=4.03', { 'X-Terminology-Version': '5.0' });
    expect(both.body.version).toBe('4.03');
    const warning = logs.lines().find((l) => l.requestId === both.headers.get('x-request-id') && l.level === 40);
    expect(warning).toMatchObject({ parameter: '4.03', header: '5.0' });
  });

  it('unknown release → VERSION_NOT_FOUND, code absent from the release → CODE_NOT_FOUND', async () => {
    expectProblem(await get('/codes/10047700?version=99.9'), 404, 'VERSION_NOT_FOUND');
    expectProblem(await get('/codes/10047700', { 'X-Terminology-Version': '99.9' }), 404, 'VERSION_NOT_FOUND');
    // COVID-19 is new in 5.0.1.
    expect((await get('/codes/90400003')).status).toBe(200);
    expectProblem(await get('/codes/90400003?version=5.0'), 404, 'CODE_NOT_FOUND');
  });

  it.each(['abc', '1e5', '-1', '1234567890123', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '10047700%00'])('rejects the malformed code %s', async (code) => {
    expectProblem(await get(`/codes/${code}`), 400, 'VALIDATION_ERROR');
  });

  it('a malformed release identifier is a VALIDATION_ERROR on GraphQL as on REST; a well-formed unknown one is VERSION_NOT_FOUND', async () => {
    expectProblem(await get('/codes/10047700?version=!!junk'), 400, 'VALIDATION_ERROR');
    const junk = await t.graphql('{ code(code: "10047700", version: "!!junk") { term } }');
    expect(junk.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', errors: { version: [expect.any(String)] } });
    const against = await t.graphql('{ codeChanges(code: "10047700", against: "a b") { differences } }');
    expect(against.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', errors: { against: [expect.any(String)] } });
    const unknown = await t.graphql('{ code(code: "10047700", version: "99.9") { term } }');
    expect(unknown.body.errors[0].extensions.code).toBe('VERSION_NOT_FOUND');
  });

  // Digits are a well-formed code; one the release does not hold is not found, whatever its spelling.
  it.each(['00000001', '010047700', '0', '1234567890', '99999999'])('answers CODE_NOT_FOUND for the well-formed unknown code %s, on REST and GraphQL', async (code) => {
    const r = await get(`/codes/${code}`);
    expectProblem(r, 404, 'CODE_NOT_FOUND');
    expect(r.body.detail).toContain(code);
    expectProblem(await get(`/codes/${code}/changes?against=5.0`), 404, 'CODE_NOT_FOUND');
    expectProblem(await get(`/codes?soc=${code}`), 404, 'CODE_NOT_FOUND');
    const g = await t.graphql(`{ code(code: "${code}") { term } }`);
    expect(g.body.errors[0].extensions.code).toBe('CODE_NOT_FOUND');
  });

  it('validates synonym paging and unknown parameters', async () => {
    const r = await get('/codes/10047700?synonymsLimit=201&synonymsPage=0&foo=1');
    expectProblem(r, 400, 'VALIDATION_ERROR');
    expect(Object.keys(r.body.errors).sort()).toEqual(['foo', 'synonymsLimit', 'synonymsPage']);
  });

  it('accepts X-API-Version 1 and rejects other values', async () => {
    const ok = await get('/codes/10047700', { 'X-API-Version': '1' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-api-version')).toBe('1');
    const bad = await get('/codes/10047700', { 'X-API-Version': '2' });
    expectProblem(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.errors['X-API-Version']).toBeDefined();
  });

  it('answers If-None-Match with 304 Not Modified', async () => {
    const first = await fetch(`${base}/codes/10047700?version=5.0`);
    const tag = first.headers.get('etag');
    // A strong tag: the hex SHA-1 of the body (stable across releases of the service).
    expect(tag).toBe(`"${createHash('sha1').update(Buffer.from(await first.arrayBuffer())).digest('hex')}"`);
    const again = await fetch(`${base}/codes/10047700?version=5.0`, { headers: { 'If-None-Match': tag! } });
    expect(again.status).toBe(304);
    const other = await fetch(`${base}/codes/10047700?version=4.03`, { headers: { 'If-None-Match': tag! } });
    expect(other.status).toBe(200);
  });
});

describe('GET /codes (search)', () => {
  const search = async (qs: string) => (await get(`/codes?${qs}`)).body;

  it('ranks an exact name first, case-insensitively', async () => {
    const r = await search('q=VOMITING');
    expect(r.results[0]).toMatchObject({ code: '10047700', term: 'Vomiting', level: 'PT', match: { type: 'EXACT', isSynonym: false } });
  });

  it('prefix before word-prefix', async () => {
    const r = await search('q=abdominal');
    expect(r.results[0].match.type).toBe('PREFIX');
    const pain = await search('q=pain&level=PT&limit=50');
    const types = pain.results.map((x: any) => x.match.type);
    expect(types).toContain('WORD_PREFIX');
    // Sorted by tier: no better match after a worse one.
    const rank = { EXACT: 4, PREFIX: 3, WORD_PREFIX: 2, FUZZY: 1 } as Record<string, number>;
    const ranks = types.map((x: string) => rank[x]!);
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
  });

  it.each([
    ['haedache', 'Headache'],
    ['diarhea', 'Diarrhea'],
    ['vomitting', 'Vomiting'],
  ])('typo-tolerant: %s finds %s first', async (q, term) => {
    const r = await search(`q=${q}`);
    expect(r.results[0].term).toBe(term);
    expect(r.results[0].match.type).toBe('FUZZY');
  });

  it('ignores accents on both sides', async () => {
    const plain = await search('q=guillain-barre%20syndrome');
    const accented = await search('q=GUILLAIN-BARR%C3%89%20SYNDROME');
    expect(accented.results[0]).toMatchObject({ term: 'Guillain-Barre syndrome', match: { type: 'EXACT' } });
    expect(accented.results.map((x: any) => x.code)).toEqual(plain.results.map((x: any) => x.code));
    const llts = await search('q=barre&level=LLT&limit=50');
    expect(llts.results.map((x: any) => x.term)).toContain('Guillain-Barré syndrome');
  });

  it('finds a PT through an LLT synonym and says how it matched, with the primary path', async () => {
    const r = await search('q=throwing%20up');
    expect(r.results[0]).toMatchObject({
      code: '10047700',
      term: 'Vomiting',
      match: { term: 'Throwing up', level: 'LLT', code: '90301296', type: 'EXACT', isSynonym: true },
    });
    expect(r.results[0].hierarchy.map((n: any) => n.level)).toEqual(['SOC', 'HLGT', 'HLT', 'PT']);
    expect(r.results[0].hierarchy[0].code).toBe('10017947');
  });

  it('level=LLT returns the LLTs themselves', async () => {
    const r = await search('q=throwing&level=LLT');
    expect(r.results[0]).toMatchObject({ code: '90301296', level: 'LLT' });
    expect(r.results[0].hierarchy.map((n: any) => n.level)).toEqual(['SOC', 'HLGT', 'HLT', 'PT', 'LLT']);
  });

  it('filters by SOC (any path), HLT and LLT', async () => {
    const gi = await search('q=pain&soc=10017947&level=PT&limit=100');
    expect(gi.results.length).toBeGreaterThan(0);
    for (const item of gi.results) {
      const paths = (await rowsAt(t.db.prisma, 'hierarchy_path', '5.0.1', 't.pt_code = $2 AND t.soc_code = 10017947', Number(item.code))).length;
      expect(paths, item.term).toBeGreaterThan(0);
    }
    const vomit = (await get('/codes/10047700')).body;
    const hlt = vomit.parents.find((p: any) => p.relationshipType === 'HLT_TO_PT').code;
    const inHlt = await search(`hlt=${hlt}&level=PT&limit=100`);
    expect(inHlt.results.map((x: any) => x.code)).toContain('10047700');
    const byLlt = await search('llt=90301296');
    expect(byLlt.results.map((x: any) => `${x.level}:${x.code}`).sort()).toEqual(['LLT:90301296', 'PT:10047700']);
  });

  it('an unknown hierarchy filter code is CODE_NOT_FOUND', async () => {
    expectProblem(await get('/codes?soc=10047700'), 404, 'CODE_NOT_FOUND');
  });

  it('without q: a stable listing, SOCs in international order', async () => {
    const socs = await search('level=SOC&limit=100');
    expect(socs.results[0].term).toBe('Infections and infestations');
    const order = await rowsAt<{ code: number }>(t.db.prisma, 'concept', '5.0.1', "t.level = 'SOC' ORDER BY t.intl_order");
    expect(socs.results.map((x: any) => x.code)).toEqual(order.map((o) => String(o.code)));
    const a = await search('page=2&limit=5');
    const b = await search('page=2&limit=5');
    expect(a).toEqual(b);
    expect(a.meta.next).toBe('?page=3&limit=5');
  });

  it('next keeps q and filters', async () => {
    const r = await search('q=pain&level=PT&limit=2');
    expect(r.meta.next).toBe('?q=pain&level=PT&page=2&limit=2');
  });

  it.each([
    ['q=' + 'x'.repeat(201), 'q'],
    ['limit=101', 'limit'],
    ['level=XYZ', 'level'],
    ['soc=abc', 'soc'],
    ['changetype=ADDED', 'changetype'],
  ])('rejects %s', async (qs, field) => {
    const r = await get(`/codes?${qs}`);
    expectProblem(r, 400, 'VALIDATION_ERROR');
    expect(r.body.errors[field]).toBeDefined();
  });
});

describe('request log lines', () => {
  it('name the route template the request matched (never the path, never a catch-all), for REST, GraphQL and a 404', async () => {
    const notFound = await get('/codes/99999999');
    const gql = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }); // unparsable: a 400, logged at info
    await gql.text();
    const missing = await get('/no/such/path');
    const route = (id: string | null) => logs.lines().find((l) => l.requestId === id && l.msg === 'request')?.route;
    expect(notFound.status).toBe(404);
    expect(route(notFound.headers.get('x-request-id'))).toBe('/codes/:code');
    expect(gql.status).toBe(400);
    expect(route(gql.headers.get('x-request-id'))).toBe('/graphql');
    expect(missing.status).toBe(404);
    expect(route(missing.headers.get('x-request-id'))).toBe('/*');
  });
});
