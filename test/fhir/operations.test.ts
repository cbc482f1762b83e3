// The FHIR terminology service through real HTTP against the demo releases: every
// interaction, every error, and every returned resource validated as FHIR R4.
import { describe, expect, it } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { FUZZ_ITERATIONS, NASTY, pick, rng, STACK } from '../helpers/fuzz.ts';
import { expectValidR4 } from './r4.ts';
import { LOOKUP_PARAMS } from '../../src/fhir/lookup.ts';
import { CS_VALIDATE_PARAMS, VS_VALIDATE_PARAMS } from '../../src/fhir/validateCode.ts';
import { EXPAND_PARAMS } from '../../src/fhir/expand.ts';

let t: TestApp;
let base: string;

serveTestApp((app, url) => {
  t = app;
  base = url;
}, { readOnly: true });

const MDR = 'https://www.meddra.org';
const LEGACY = 'http://terminology.hl7.org/CodeSystem/mdr';
// Allergic rhinitis: primary SOC Immune system disorders; secondary path HLT 90200116 →
// HLGT 90100062 → SOC Respiratory, thoracic and mediastinal disorders (demo 5.0.1).
const RHINITIS = '10001723';
const IMMUNE_SOC = '10021428';
const RESP_SOC = '10038738';
const RESP_HLGT = '90100062';
const RESP_HLT = '90200116';
const HAY_FEVER = '90300050';
const INFECTIONS_SOC = '10021881';
const FETAL_DEATH_NONCURRENT = '10016479';

type Answer = { status: number; headers: Headers; body: any };

async function call(path: string, init?: RequestInit): Promise<Answer> {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
const get = (path: string, headers: Record<string, string> = {}) => call(`/fhir${path}`, { headers });
const post = (path: string, body: unknown, type = 'application/fhir+json') =>
  call(`/fhir${path}`, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** A 200 FHIR answer of the given type, valid R4. */
function ok(r: Answer, resourceType: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
  expect(r.headers.get('x-request-id')).toBeTruthy();
  expect(r.body.resourceType).toBe(resourceType);
  expectValidR4(r.body);
  return r.body;
}

function outcome(r: Answer, status: number, code?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
  expect(r.body.resourceType).toBe('OperationOutcome');
  expectValidR4(r.body);
  const issue = r.body.issue[0];
  expect(issue.severity).toMatch(/error|fatal/);
  if (code) expect(issue.code).toBe(code);
  expect(issue.diagnostics).toContain(r.headers.get('x-request-id'));
  expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts:\d+|node_modules|\bstack\b/);
  return issue;
}

/** Parameters → { name: value | value[] } (parts flattened to objects). */
function params(body: any): Record<string, any> {
  const out: Record<string, any> = {};
  for (const p of body.parameter ?? []) {
    const v = p.part ? Object.fromEntries(p.part.map((x: any) => [x.name, valueOf(x)])) : valueOf(p);
    if (p.name in out) out[p.name] = [].concat(out[p.name], v);
    else out[p.name] = v;
  }
  return out;
}
const valueOf = (p: any) => p[Object.keys(p).find((k) => k.startsWith('value'))!];
const props = (body: any, code: string) => (body.parameter as any[]).filter((p) => p.name === 'property' && p.part[0].valueCode === code).map((p) => valueOf(p.part[1]));

describe('metadata', () => {
  it('CapabilityStatement: instance, R4, the terminology-server capability, both resources and their operations', async () => {
    const cs = ok(await get('/metadata'), 'CapabilityStatement');
    expect(cs).toMatchObject({ kind: 'instance', fhirVersion: '4.0.1', status: 'active', format: ['json'] });
    expect(cs.instantiates).toContain('http://hl7.org/fhir/CapabilityStatement/terminology-server');
    const [codeSystem, valueSet] = cs.rest[0].resource;
    expect(codeSystem.operation.map((o: any) => o.name)).toEqual(['lookup', 'validate-code', 'subsumes']);
    expect(valueSet.operation.map((o: any) => o.name)).toEqual(['expand', 'validate-code']);
  });

  it('mode=terminology: TerminologyCapabilities with every hosted release, the latest the default', async () => {
    const tc = ok(await get('/metadata?mode=terminology'), 'TerminologyCapabilities');
    expect(tc.codeSystem[0].uri).toBe(MDR);
    expect(tc.codeSystem[0].version.map((v: any) => [v.code, v.isDefault])).toEqual([['5.0.1', true], ['5.0', false], ['4.03', false]]);
  });

  it('an unknown mode or parameter is a 400', async () => {
    outcome(await get('/metadata?mode=everything'), 400, 'invalid');
    outcome(await get('/metadata?color=red'), 400, 'invalid');
  });
});

describe('CodeSystem read and search', () => {
  it('reads a release: content not-present, is-a, the six properties, concept count', async () => {
    const r = await get('/CodeSystem/meddra-5.0');
    const cs = ok(r, 'CodeSystem');
    expect(cs).toMatchObject({ id: 'meddra-5.0', url: MDR, version: '5.0', content: 'not-present', hierarchyMeaning: 'is-a', valueSet: `${MDR}?fhir_vs` });
    expect(cs.property.map((p: any) => p.code)).toEqual(['parent', 'child', 'inactive', 'level', 'primarySOC', 'socAbbreviation']);
    // SOC + HLGT + HLT + LLT: a PT and its own LLT are one code (demo README counts).
    expect(cs.count).toBe(26 + 117 + 236 + 2287);
    expect(r.headers.get('x-terminology-version')).toBe('5.0');
    expect(r.headers.get('etag')).toBeTruthy();
  });

  it('answers If-None-Match with 304', async () => {
    const first = await get('/CodeSystem/meddra-5.0');
    const res = await fetch(`${base}/fhir/CodeSystem/meddra-5.0`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(res.status).toBe(304);
  });

  it('an unknown id is a 404 OperationOutcome', async () => {
    outcome(await get('/CodeSystem/meddra-9.9'), 404, 'not-found');
    outcome(await get('/CodeSystem/snomed'), 404, 'not-found');
  });

  it.each([
    ['', ['5.0.1', '5.0', '4.03']],
    [`?url=${encodeURIComponent(MDR)}`, ['5.0.1', '5.0', '4.03']],
    [`?url=${encodeURIComponent(LEGACY)}&version=4.03`, ['4.03']],
    [`?url=${encodeURIComponent(`${MDR}|5.0`)}`, ['5.0']],
    ['?name=medd&status=active', ['5.0.1', '5.0', '4.03']],
    ['?_id=meddra-5.0.1', ['5.0.1']],
    ['?status=retired', []],
    [`?url=${encodeURIComponent('http://snomed.info/sct')}`, []],
  ])('search %s', async (q, versions) => {
    const b = ok(await get(`/CodeSystem${q}`), 'Bundle');
    expect(b.type).toBe('searchset');
    expect(b.total).toBe(versions.length);
    expect((b.entry ?? []).map((e: any) => e.resource.version)).toEqual(versions);
    for (const e of b.entry ?? []) expect(e.fullUrl).toBe(`${base}/fhir/CodeSystem/${e.resource.id}`);
  });

  it('an unknown search parameter is a 400', async () => {
    outcome(await get('/CodeSystem?publisher=x'), 400, 'invalid');
  });
});

describe('CodeSystem/$lookup', () => {
  it('a multiaxial PT: display, level, both parent HLTs, its LLT children, primary SOC and its abbreviation', async () => {
    const b = ok(await get(`/CodeSystem/$lookup?system=${encodeURIComponent(MDR)}&code=${RHINITIS}`), 'Parameters');
    const p = params(b);
    expect(p).toMatchObject({ name: 'MedDRA', version: '5.0.1', display: 'Allergic rhinitis' });
    expect(props(b, 'level')).toEqual(['PT']);
    expect(props(b, 'inactive')).toEqual([false]);
    expect(props(b, 'parent').sort()).toEqual(['90200027', RESP_HLT]);
    expect(props(b, 'child')).toContain(HAY_FEVER);
    expect(props(b, 'child')).not.toContain(RHINITIS); // its own LLT is the PT itself
    expect(props(b, 'primarySOC')).toEqual([IMMUNE_SOC]);
    expect(props(b, 'socAbbreviation')).toEqual(['Immun']);
    expect(p.designation).toBeUndefined();
  });

  it('designations (the PT’s LLTs) and only the properties asked for', async () => {
    const b = ok(await get(`/CodeSystem/$lookup?system=${encodeURIComponent(LEGACY)}&code=${RHINITIS}&property=designation&property=level`), 'Parameters');
    const p = params(b);
    expect([p.designation].flat().map((d: any) => d.value)).toEqual(expect.arrayContaining(['Hay fever', 'Hayfever', 'Seasonal allergic rhinitis']));
    expect([p.designation].flat()[0]).toMatchObject({ language: 'en', use: { code: '900000000000013009' } });
    expect(props(b, 'level')).toEqual(['PT']);
    expect(props(b, 'parent')).toEqual([]);
  });

  it('a non-current LLT is inactive, its PT its parent', async () => {
    const b = ok(await get(`/CodeSystem/$lookup?system=${encodeURIComponent(MDR)}&code=${FETAL_DEATH_NONCURRENT}&version=5.0.1`), 'Parameters');
    expect(props(b, 'level')).toEqual(['LLT']);
    expect(props(b, 'inactive')).toEqual([true]);
    expect(props(b, 'parent')).toEqual(['10072314']);
  });

  it('POST Parameters (application/json too), with a coding, and on a CodeSystem instance', async () => {
    const body = { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: MDR }, { name: 'code', valueCode: RHINITIS }, { name: 'version', valueString: '4.03' }] };
    expect(params(ok(await post('/CodeSystem/$lookup', body), 'Parameters')).version).toBe('4.03');
    expect(params(ok(await post('/CodeSystem/$lookup', body, 'application/json'), 'Parameters')).display).toBe('Allergic rhinitis');
    const coding = { resourceType: 'Parameters', parameter: [{ name: 'coding', valueCoding: { system: MDR, code: RESP_SOC } }] };
    expect(params(ok(await post('/CodeSystem/$lookup', coding), 'Parameters')).display).toBe('Respiratory, thoracic and mediastinal disorders');
    const inst = ok(await get(`/CodeSystem/meddra-5.0/$lookup?code=${RHINITIS}`), 'Parameters');
    expect(params(inst).version).toBe('5.0');
  });

  it('the release from X-Terminology-Version when no version parameter is given', async () => {
    const r = await get(`/CodeSystem/$lookup?system=${encodeURIComponent(MDR)}&code=${RHINITIS}`, { 'X-Terminology-Version': '5.0' });
    expect(params(ok(r, 'Parameters')).version).toBe('5.0');
    expect(r.headers.get('x-terminology-version')).toBe('5.0');
  });

  it.each([
    ['missing code', `?system=${encodeURIComponent(MDR)}`, 400, 'invalid'],
    ['missing system', `?code=${RHINITIS}`, 400, 'invalid'],
    ['malformed code', `?system=${encodeURIComponent(MDR)}&code=abc`, 400, 'invalid'],
    ['malformed version', `?system=${encodeURIComponent(MDR)}&code=${RHINITIS}&version=${'x'.repeat(60)}`, 400, 'invalid'],
    ['repeated code', `?system=${encodeURIComponent(MDR)}&code=1&code=2`, 400, 'invalid'],
    ['unknown parameter', `?system=${encodeURIComponent(MDR)}&code=${RHINITIS}&foo=1`, 400, 'invalid'],
    ['_format=xml', `?system=${encodeURIComponent(MDR)}&code=${RHINITIS}&_format=xml`, 406, 'not-supported'],
    ['unknown code', `?system=${encodeURIComponent(MDR)}&code=12345`, 404, 'not-found'],
    ['unknown system', `?system=${encodeURIComponent('http://snomed.info/sct')}&code=${RHINITIS}`, 404, 'not-found'],
    ['unknown version', `?system=${encodeURIComponent(MDR)}&code=${RHINITIS}&version=9.9`, 404, 'not-found'],
  ])('%s → %i', async (_name, q, status, code) => {
    outcome(await get(`/CodeSystem/$lookup${q}`), status, code);
  });

  it('_format=json is accepted', async () => {
    ok(await get(`/CodeSystem/$lookup?system=${encodeURIComponent(MDR)}&code=${RHINITIS}&_format=json`), 'Parameters');
  });

  it('bad POST bodies: media type 415, not JSON 400, not Parameters 400, a value[x] of the wrong shape 400', async () => {
    outcome(await post('/CodeSystem/$lookup', 'code=1', 'application/x-www-form-urlencoded'), 415, 'not-supported');
    outcome(await post('/CodeSystem/$lookup', '{"resourceType":'), 400, 'structure');
    outcome(await post('/CodeSystem/$lookup', { resourceType: 'Patient' }), 400, 'structure');
    outcome(await post('/CodeSystem/$lookup', { resourceType: 'Parameters', parameter: [{ name: 'code', valueCoding: 'x' }] }), 400, 'invalid');
    outcome(await post('/CodeSystem/$lookup', { resourceType: 'Parameters', parameter: [{ name: 'code' }] }), 400, 'invalid');
  });

  it('clips client text quoted in diagnostics', async () => {
    const issue = outcome(await get(`/CodeSystem/$lookup?system=${'h'.repeat(900)}&code=1`), 404);
    expect(issue.diagnostics.length).toBeLessThan(400);
  });
});

describe('CodeSystem/$validate-code', () => {
  const q = (extra: string) => `/CodeSystem/$validate-code?url=${encodeURIComponent(MDR)}&${extra}`;

  it('a valid code with its display', async () => {
    const p = params(ok(await get(q(`code=${RHINITIS}&display=allergic%20rhinitis`)), 'Parameters'));
    expect(p).toMatchObject({ result: true, display: 'Allergic rhinitis' });
    expect(p.message).toBeUndefined();
  });

  it('a wrong display: result false, a message, and the right display', async () => {
    const p = params(ok(await get(q(`code=${RHINITIS}&display=Hay%20fever`)), 'Parameters'));
    expect(p).toMatchObject({ result: false, display: 'Allergic rhinitis' });
    expect(p.message).toMatch(/Hay fever.*Allergic rhinitis/);
  });

  it('a non-current LLT: valid, but flagged inactive with a message saying so', async () => {
    const p = params(ok(await get(q(`code=${FETAL_DEATH_NONCURRENT}`)), 'Parameters'));
    expect(p).toMatchObject({ result: true, inactive: true });
    expect(p.message).toMatch(new RegExp(`^Code ${FETAL_DEATH_NONCURRENT} \\('.+'\\) is non-current \\(inactive\\) in release 5\\.0\\.1`));
    // A current code has neither.
    const cur = params(ok(await get(q(`code=${RHINITIS}`)), 'Parameters'));
    expect(cur.inactive).toBeUndefined();
    expect(cur.message).toBeUndefined();
  });

  it('an unknown code is result false (not an error); a code of another release is checked there', async () => {
    const p = params(ok(await get(q('code=12345')), 'Parameters'));
    expect(p.result).toBe(false);
    expect(p.message).toMatch(/Unknown code/);
    // 90400001… are new in 5.0.1.
    expect(params(ok(await get(q('code=90400001&version=5.0.1')), 'Parameters')).result).toBe(true);
    expect(params(ok(await get(q('code=90400001&version=5.0')), 'Parameters')).result).toBe(false);
  });

  it('legacy system URI, POST with a coding, and errors', async () => {
    expect(params(ok(await get(`/CodeSystem/$validate-code?url=${encodeURIComponent(LEGACY)}&code=${RHINITIS}`), 'Parameters')).result).toBe(true);
    const body = { resourceType: 'Parameters', parameter: [{ name: 'coding', valueCoding: { system: MDR, code: RHINITIS, display: 'Allergic rhinitis' } }] };
    expect(params(ok(await post('/CodeSystem/$validate-code', body), 'Parameters')).result).toBe(true);
    outcome(await get(`/CodeSystem/$validate-code?url=${encodeURIComponent('http://loinc.org')}&code=1`), 404, 'not-found');
    outcome(await get(q('code=1&version=9.9')), 404, 'not-found');
    outcome(await get(q('display=x')), 400, 'invalid');
  });
});

describe('CodeSystem/$subsumes', () => {
  const q = (a: string, b: string, extra = '') => `/CodeSystem/$subsumes?system=${encodeURIComponent(MDR)}&codeA=${a}&codeB=${b}${extra}`;
  const outcomeOf = async (a: string, b: string, extra = '') => params(ok(await get(q(a, b, extra)), 'Parameters')).outcome;

  it('follows the secondary path of a multiaxial PT, not only the primary one', async () => {
    expect(await outcomeOf(RESP_SOC, RHINITIS)).toBe('subsumes');
    expect(await outcomeOf(RESP_HLGT, RHINITIS)).toBe('subsumes');
    expect(await outcomeOf(RESP_HLT, RHINITIS)).toBe('subsumes');
    expect(await outcomeOf(IMMUNE_SOC, RHINITIS)).toBe('subsumes');
    expect(await outcomeOf(RHINITIS, RESP_SOC)).toBe('subsumed-by');
  });

  it('an LLT under the secondary SOC; equivalent; not subsumed', async () => {
    expect(await outcomeOf(HAY_FEVER, RESP_SOC)).toBe('subsumed-by');
    expect(await outcomeOf(RHINITIS, HAY_FEVER)).toBe('subsumes');
    expect(await outcomeOf(RHINITIS, RHINITIS)).toBe('equivalent');
    expect(await outcomeOf(INFECTIONS_SOC, RHINITIS)).toBe('not-subsumed');
    expect(await outcomeOf(RESP_HLT, IMMUNE_SOC)).toBe('not-subsumed');
  });

  it('POST with codings, and on a CodeSystem instance', async () => {
    const body = { resourceType: 'Parameters', parameter: [{ name: 'codingA', valueCoding: { system: LEGACY, code: RESP_SOC } }, { name: 'codingB', valueCoding: { system: MDR, code: RHINITIS } }] };
    expect(params(ok(await post('/CodeSystem/$subsumes', body), 'Parameters')).outcome).toBe('subsumes');
    expect(params(ok(await get(`/CodeSystem/meddra-4.03/$subsumes?codeA=${RESP_SOC}&codeB=${RHINITIS}`), 'Parameters')).outcome).toBeDefined();
  });

  it('errors: unknown code 422, missing codeB 400, malformed code 400, unknown version 404, contradicting instance 400', async () => {
    outcome(await get(q(RESP_SOC, '12345')), 422, 'not-found');
    outcome(await get(`/CodeSystem/$subsumes?system=${encodeURIComponent(MDR)}&codeA=${RESP_SOC}`), 400, 'invalid');
    outcome(await get(q(RESP_SOC, 'x1')), 400, 'invalid');
    outcome(await get(q(RESP_SOC, RHINITIS, '&version=9.9')), 404, 'not-found');
    outcome(await get(`/CodeSystem/meddra-5.0/$subsumes?codeA=${RESP_SOC}&codeB=${RHINITIS}&version=4.03`), 400, 'invalid');
    outcome(await get(`/CodeSystem/meddra-1.0/$subsumes?codeA=${RESP_SOC}&codeB=${RHINITIS}`), 404, 'not-found');
  });
});

describe('ValueSet/$expand', () => {
  const expand = (vs: string, extra = '') => get(`/ValueSet/$expand?url=${encodeURIComponent(MDR + vs)}${extra}`);

  it.each(['headake', 'nausia', 'diarhea', 'alergic rinitis', 'thrombocytopnia', 'pnemonia', 'hypertenshun', 'fatige'])(
    'filter=%s gives the same top hit as GET /codes?q=',
    async (text) => {
      const rest = await call(`/codes?q=${encodeURIComponent(text)}&limit=5`);
      expect(rest.status).toBe(200);
      const vs = ok(await expand('?fhir_vs', `&filter=${encodeURIComponent(text)}&count=5`), 'ValueSet');
      expect(rest.body.results.length).toBeGreaterThan(0);
      expect(vs.expansion.contains.map((c: any) => c.code)).toEqual(rest.body.results.map((r: any) => r.code));
      expect(vs.expansion.total).toBe(rest.body.meta.total);
    },
  );

  it('pages with count and offset; count=0 gives the total only', async () => {
    const all = ok(await expand('?fhir_vs=level/SOC', '&count=26'), 'ValueSet');
    expect(all.expansion.total).toBe(26);
    const page = ok(await expand('?fhir_vs=level/SOC', '&count=5&offset=5'), 'ValueSet');
    expect(page.expansion.offset).toBe(5);
    expect(page.expansion.contains.map((c: any) => c.code)).toEqual(all.expansion.contains.slice(5, 10).map((c: any) => c.code));
    const none = ok(await expand('?fhir_vs', '&count=0'), 'ValueSet');
    expect(none.expansion.contains).toBeUndefined();
    expect(none.expansion.total).toBeGreaterThan(2000);
  });

  it('isa/{code} follows every path: a secondary HLT holds the multiaxial PT and its LLTs', async () => {
    const vs = ok(await expand(`?fhir_vs=isa/${RESP_HLT}`, '&count=1000'), 'ValueSet');
    const codes = vs.expansion.contains.map((c: any) => c.code);
    expect(codes).toEqual(expect.arrayContaining([RESP_HLT, RHINITIS, HAY_FEVER]));
    expect(new Set(codes).size).toBe(codes.length); // one entry per code
    expect(vs.expansion.total).toBe(codes.length);
    const filtered = ok(await expand(`?fhir_vs=isa/${RESP_SOC}`, '&filter=alergic%20rinitis&count=3'), 'ValueSet');
    expect(filtered.expansion.contains[0].code).toBe(RHINITIS);
  });

  it('isa/{SOC} of a SOC without HLGTs is the SOC alone', async () => {
    const vs = ok(await expand('?fhir_vs=isa/10042613'), 'ValueSet');
    expect(vs.expansion).toMatchObject({ total: 1, contains: [{ code: '10042613', display: 'Surgical and medical procedures' }] });
  });

  it('isa/{PT}: the PT and its LLTs; with a filter, the matching ones', async () => {
    const vs = ok(await expand(`?fhir_vs=isa/${RHINITIS}`), 'ValueSet');
    expect(vs.expansion.contains[0]).toMatchObject({ code: RHINITIS, display: 'Allergic rhinitis' });
    expect(vs.expansion.contains.map((c: any) => c.display)).toEqual(expect.arrayContaining(['Hay fever', 'Seasonal allergic rhinitis']));
    const hay = ok(await expand(`?fhir_vs=isa/${RHINITIS}`, '&filter=hay'), 'ValueSet');
    expect(hay.expansion.contains.map((c: any) => c.display).sort()).toEqual(['Hay fever', 'Hayfever']);
  });

  it('activeOnly drops non-current LLTs; includeDesignations lists a PT’s LLTs', async () => {
    const withInactive = ok(await expand('?fhir_vs=isa/10072314', '&count=100'), 'ValueSet');
    expect(withInactive.expansion.contains.find((c: any) => c.code === FETAL_DEATH_NONCURRENT)).toMatchObject({ inactive: true });
    const active = ok(await expand('?fhir_vs=isa/10072314', '&count=100&activeOnly=true'), 'ValueSet');
    expect(active.expansion.contains.some((c: any) => c.code === FETAL_DEATH_NONCURRENT)).toBe(false);
    const d = ok(await expand('?fhir_vs', '&filter=allergic%20rhinitis&count=1&includeDesignations=true'), 'ValueSet');
    expect(d.expansion.contains[0].designation.map((x: any) => x.value)).toContain('Hay fever');
  });

  it('the release: valueSetVersion, system-version, url|version; named in the expansion', async () => {
    for (const extra of ['&valueSetVersion=4.03', `&system-version=${encodeURIComponent(`${LEGACY}|4.03`)}`]) {
      const vs = ok(await expand('?fhir_vs=level/SOC', `${extra}&count=1`), 'ValueSet');
      expect(vs.version).toBe('4.03');
      expect(vs.expansion.parameter).toContainEqual({ name: 'version', valueUri: `${MDR}|4.03` });
    }
  });

  it('POST Parameters', async () => {
    const body = { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: `${MDR}?fhir_vs` }, { name: 'filter', valueString: 'headache' }, { name: 'count', valueInteger: 3 }] };
    const vs = ok(await post('/ValueSet/$expand', body), 'ValueSet');
    expect(vs.expansion.contains[0].display).toBe('Headache');
  });

  it.each([
    ['unknown value set', `/ValueSet/$expand?url=${encodeURIComponent('http://loinc.org?fhir_vs')}`, 404, 'not-found'],
    ['unknown implicit kind', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs=refset/1`)}`, 404, 'not-found'],
    ['isa of an unknown code', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs=isa/12345`)}`, 404, 'not-found'],
    ['isa of a malformed code', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs=isa/abc`)}`, 400, 'invalid'],
    ['unknown level', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs=level/XYZ`)}`, 400, 'invalid'],
    ['missing url', '/ValueSet/$expand?filter=x', 400, 'invalid'],
    ['count too large', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs`)}&count=5000`, 400, 'invalid'],
    ['negative offset', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs`)}&offset=-1`, 400, 'invalid'],
    ['bad boolean', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs`)}&activeOnly=yes`, 400, 'invalid'],
    ['filter too long', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs`)}&filter=${'a'.repeat(201)}`, 400, 'invalid'],
    ['unknown release', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs`)}&valueSetVersion=9.9`, 404, 'not-found'],
    ['system-version without a bar', `/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs`)}&system-version=5.0`, 400, 'invalid'],
  ])('%s → %i', async (_name, path, status, code) => {
    outcome(await get(path), status, code);
  });

  it('a ValueSet in the request cannot be expanded: 422', async () => {
    const body = { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: `${MDR}?fhir_vs` }, { name: 'valueSet', valueString: 'x' }] };
    outcome(await post('/ValueSet/$expand', body), 422, 'not-supported');
  });
});

describe('SMQ value sets (smq/{code}/narrow|broad)', () => {
  // Demo SMQs (not MedDRA's): 90500001 has the sub-SMQs 90500002 and 90500003; in 90500002,
  // 10001551 is a narrow PT and 10001675 a broad one.
  const HEPATIC = '90500001';
  const LIVER_TESTS = '90500002';
  const vsq = (vs: string, extra: string) => `/ValueSet/$validate-code?url=${encodeURIComponent(MDR + vs)}&system=${encodeURIComponent(MDR)}&${extra}`;
  const member = async (vs: string, code: string) => params(ok(await get(vsq(vs, `code=${code}`)), 'Parameters')).result;

  it('membership: narrow terms only in narrow, broad search has both, sub-SMQ terms count for the parent, an LLT counts through its PT', async () => {
    expect(await member(`?fhir_vs=smq/${LIVER_TESTS}/narrow`, '10001551')).toBe(true);
    expect(await member(`?fhir_vs=smq/${LIVER_TESTS}/narrow`, '10001675')).toBe(false);
    expect(await member(`?fhir_vs=smq/${LIVER_TESTS}/broad`, '10001675')).toBe(true);
    expect(await member(`?fhir_vs=smq/${LIVER_TESTS}`, '10001675')).toBe(true);
    expect(await member(`?fhir_vs=smq/${HEPATIC}/narrow`, '10001551')).toBe(true);
    expect(await member(`?fhir_vs=smq/${LIVER_TESTS}`, RHINITIS)).toBe(false);
    const pt = await call('/codes/10001551?synonymsLimit=50');
    const llt = pt.body.synonyms.results.find((s: any) => !s.isPrimary);
    if (llt) {
      const lltCode = (await call(`/codes?q=${encodeURIComponent(llt.name)}&level=LLT&limit=1`)).body.results[0].code;
      expect(await member(`?fhir_vs=smq/${LIVER_TESTS}/narrow`, lltCode)).toBe(true);
    }
  });

  it('$expand lists the terms (narrow ⊂ broad), pages, filters by name words; errors for an unknown SMQ or scope', async () => {
    const ex = (vs: string, extra = '') => get(`/ValueSet/$expand?url=${encodeURIComponent(MDR + vs)}${extra}`);
    const narrow = ok(await ex(`?fhir_vs=smq/${LIVER_TESTS}/narrow`, '&count=1000'), 'ValueSet');
    const broad = ok(await ex(`?fhir_vs=smq/${LIVER_TESTS}/broad`, '&count=1000'), 'ValueSet');
    expectValidR4(narrow);
    const n = narrow.expansion.contains.map((c: any) => c.code);
    const b = broad.expansion.contains.map((c: any) => c.code);
    expect(n).toContain('10001551');
    expect(n).not.toContain('10001675');
    expect(b).toEqual(expect.arrayContaining([...n, '10001675']));
    expect(narrow.expansion.total).toBe(n.length);
    expect(narrow.url).toBe(`${MDR}?fhir_vs=smq/${LIVER_TESTS}/narrow`);
    const page = ok(await ex(`?fhir_vs=smq/${LIVER_TESTS}/broad`, '&count=2&offset=1'), 'ValueSet');
    expect(page.expansion.contains.map((c: any) => c.code)).toEqual(b.slice(1, 3));
    const name = broad.expansion.contains.find((c: any) => c.code === '10001675').display as string;
    const word = name.split(' ')[0]!.slice(0, 4);
    const filtered = ok(await ex(`?fhir_vs=smq/${LIVER_TESTS}/broad`, `&filter=${encodeURIComponent(word)}&count=1000`), 'ValueSet');
    expect(filtered.expansion.contains.map((c: any) => c.code)).toContain('10001675');
    expect(filtered.expansion.contains.every((c: any) => (c.display as string).toLowerCase().split(/\W+/).some((w) => w.startsWith(word.toLowerCase())))).toBe(true);
    outcome(await ex('?fhir_vs=smq/90599999'), 404, 'not-found');
    outcome(await ex(`?fhir_vs=smq/${LIVER_TESTS}/wide`), 400, 'invalid');
  });
});

describe('ValueSet/$validate-code', () => {
  const q = (vs: string, extra: string) => `/ValueSet/$validate-code?url=${encodeURIComponent(MDR + vs)}&system=${encodeURIComponent(MDR)}&${extra}`;

  it('membership over every path, levels, activeOnly, displays', async () => {
    expect(params(ok(await get(q(`?fhir_vs=isa/${RESP_SOC}`, `code=${RHINITIS}`)), 'Parameters')).result).toBe(true);
    expect(params(ok(await get(q(`?fhir_vs=isa/${RESP_SOC}`, `code=${HAY_FEVER}`)), 'Parameters')).result).toBe(true);
    const out = params(ok(await get(q(`?fhir_vs=isa/${INFECTIONS_SOC}`, `code=${RHINITIS}`)), 'Parameters'));
    expect(out).toMatchObject({ result: false, display: 'Allergic rhinitis' });
    expect(out.message).toMatch(/not in the value set/);
    expect(params(ok(await get(q('?fhir_vs=level/PT', `code=${RHINITIS}`)), 'Parameters')).result).toBe(true);
    expect(params(ok(await get(q('?fhir_vs=level/SOC', `code=${RHINITIS}`)), 'Parameters')).result).toBe(false);
    expect(params(ok(await get(q('?fhir_vs', `code=${FETAL_DEATH_NONCURRENT}&activeOnly=true`)), 'Parameters')).result).toBe(false);
    expect(params(ok(await get(q('?fhir_vs', `code=${RHINITIS}&display=Hay%20fever`)), 'Parameters')).result).toBe(false);
    expect(params(ok(await get(q('?fhir_vs', 'code=12345')), 'Parameters')).result).toBe(false);
  });

  it('a non-current LLT: inactive with and without activeOnly, never just "not in the value set"', async () => {
    const plain = params(ok(await get(q('?fhir_vs', `code=${FETAL_DEATH_NONCURRENT}`)), 'Parameters'));
    expect(plain).toMatchObject({ result: true, inactive: true });
    expect(plain.message).toMatch(/is non-current \(inactive\) in release 5\.0\.1/);
    const active = params(ok(await get(q('?fhir_vs', `code=${FETAL_DEATH_NONCURRENT}&activeOnly=true`)), 'Parameters'));
    expect(active).toMatchObject({ result: false, inactive: true });
    expect(active.message).toMatch(/is non-current \(inactive\) in release 5\.0\.1.*activeOnly/);
    expect(active.message).not.toMatch(/not in the value set/);
  });

  it('errors', async () => {
    outcome(await get(`/ValueSet/$validate-code?code=${RHINITIS}&system=${encodeURIComponent(MDR)}`), 400, 'invalid');
    outcome(await get(q('?fhir_vs=isa/12345', `code=${RHINITIS}`)), 404, 'not-found');
    outcome(await get(q('?fhir_vs', `code=${RHINITIS}&valueSetVersion=5.0&systemVersion=4.03`)), 400, 'invalid');
    // Agreeing versions, or one of them alone, are fine.
    expect(params(ok(await get(q('?fhir_vs', `code=90400001&valueSetVersion=5.0`)), 'Parameters')).result).toBe(false);
    expect(params(ok(await get(q('?fhir_vs', `code=90400001&valueSetVersion=5.0.1&systemVersion=5.0.1`)), 'Parameters')).result).toBe(true);
  });
});

describe('transport', () => {
  it('unknown routes under /fhir are OperationOutcome 404; a method a path is not served with, 405 with Allow', async () => {
    outcome(await get('/Patient/1'), 404, 'not-found');
    outcome(await get('/CodeSystem/$translate'), 404, 'not-found');
    outcome(await call('/fhir/Patient/1', { method: 'DELETE' }), 404, 'not-found');
    outcome(await call('/fhir'), 404, 'not-found');
    for (const [path, method, allow] of [
      ['/fhir/CodeSystem/meddra-5.0', 'DELETE', 'GET, HEAD, OPTIONS'],
      ['/fhir/CodeSystem/$lookup', 'DELETE', 'GET, HEAD, OPTIONS, POST'],
      ['/fhir/ValueSet/$expand', 'PUT', 'GET, HEAD, OPTIONS, POST'],
      ['/fhir/metadata', 'POST', 'GET, HEAD, OPTIONS'],
    ]) {
      const r = await call(path!, { method });
      const issue = outcome(r, 405, 'not-supported');
      expect(r.headers.get('allow'), path).toBe(allow);
      expect(issue.diagnostics).toContain(`${method} is not allowed on ${path}`);
    }
    const head = await fetch(`${base}/fhir/metadata`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
  });

  it('X-Terminology-Version: an unknown release is a 404 OperationOutcome; a malformed one is refused by the shared header check (400), as an OperationOutcome too', async () => {
    outcome(await get(`/CodeSystem/$lookup?system=${encodeURIComponent(MDR)}&code=${RHINITIS}`, { 'X-Terminology-Version': '9.9' }), 404, 'not-found');
    // The header check runs before any route (src/http/requestHeaders.ts); under /fhir its refusal is rewritten.
    const bad = await get('/metadata', { 'X-Terminology-Version': '../../etc' });
    outcome(bad, 400, 'invalid');
    expect(bad.body.issue[0].expression).toEqual(['X-Terminology-Version']);
  });

  it('keeps a client X-Request-Id', async () => {
    const r = await get('/metadata', { 'X-Request-Id': 'fhir-test-0001' });
    expect(r.headers.get('x-request-id')).toBe('fhir-test-0001');
  });

  it('/openapi.json documents displayLanguage on every operation that takes it (issue 28)', async () => {
    const doc = (await call('/openapi.json')).body;
    const takes: Record<string, readonly string[]> = {
      '/fhir/CodeSystem/$lookup': LOOKUP_PARAMS,
      '/fhir/CodeSystem/$validate-code': CS_VALIDATE_PARAMS,
      '/fhir/ValueSet/$expand': EXPAND_PARAMS,
      '/fhir/ValueSet/$validate-code': VS_VALIDATE_PARAMS,
    };
    for (const [p, accepted] of Object.entries(takes)) {
      expect(accepted, p).toContain('displayLanguage');
      const documented = (doc.paths[p].get.parameters as { name: string; in: string }[]).filter((x) => x.in === 'query').map((x) => x.name);
      expect(documented, p).toContain('displayLanguage');
    }
  });

  it('/openapi.json lists the FHIR endpoints', async () => {
    const doc = (await call('/openapi.json')).body;
    for (const p of ['/fhir/metadata', '/fhir/CodeSystem', '/fhir/CodeSystem/{id}', '/fhir/CodeSystem/$lookup', '/fhir/CodeSystem/$validate-code', '/fhir/CodeSystem/$subsumes', '/fhir/ValueSet/$expand', '/fhir/ValueSet/$validate-code']) {
      expect(doc.paths[p], p).toBeDefined();
    }
  });
});

// The test app re-reads the release list on every selection (catalog TTL 0; 5 s in the
// server): one or two of these statements are that.
describe('SQL per request (batched, bounded)', () => {
  const statements = async (path: string, resourceType = 'Parameters') => {
    await get(path); // warm: the release list and the search index are loaded once per process
    t.queries.length = 0;
    ok(await get(path), resourceType);
    return t.queries.length;
  };

  it('$expand of 100 PTs with their designations: a handful of statements, not one per entry', async () => {
    const n = await statements(`/ValueSet/$expand?url=${encodeURIComponent(`${MDR}?fhir_vs=level/PT`)}&count=100&includeDesignations=true`, 'ValueSet');
    expect(n).toBeLessThanOrEqual(4);
  });

  it('$lookup with every property and designations; $subsumes; isa membership', async () => {
    expect(await statements(`/CodeSystem/$lookup?system=${encodeURIComponent(MDR)}&code=${RHINITIS}&property=parent&property=child&property=level&property=primarySOC&property=socAbbreviation&property=designation`)).toBeLessThanOrEqual(8);
    expect(await statements(`/CodeSystem/$subsumes?system=${encodeURIComponent(MDR)}&codeA=${RESP_SOC}&codeB=${HAY_FEVER}`)).toBeLessThanOrEqual(4);
    expect(await statements(`/ValueSet/$validate-code?url=${encodeURIComponent(`${MDR}?fhir_vs=isa/${RESP_SOC}`)}&system=${encodeURIComponent(MDR)}&code=${HAY_FEVER}`)).toBeLessThanOrEqual(4);
  });
});

describe('hostile input', () => {
  it('random parameters, values and bodies never give a 500, a stack, or anything but FHIR JSON', async () => {
    const r = rng(14);
    const paths = ['/metadata', '/CodeSystem', '/CodeSystem/meddra-5.0', '/CodeSystem/{x}', '/CodeSystem/$lookup', '/CodeSystem/$validate-code', '/CodeSystem/$subsumes', '/CodeSystem/meddra-4.03/$lookup', '/ValueSet/$expand', '/ValueSet/$validate-code', '/{x}'];
    const names = ['system', 'url', 'code', 'codeA', 'codeB', 'version', 'display', 'filter', 'count', 'offset', 'activeOnly', 'property', 'coding', 'valueSetVersion', 'system-version', '_format', 'mode', 'name', 'foo'];
    const values = [...NASTY, MDR, LEGACY, `${MDR}?fhir_vs`, `${MDR}?fhir_vs=isa/${RESP_SOC}`, `${MDR}?fhir_vs=isa/`, `${MDR}|5.0`, `${MDR}?fhir_vs=level/pt`, RHINITIS, '-1', '1e3', 'true'];
    const n = Math.min(FUZZ_ITERATIONS, 400);
    for (let i = 0; i < n; i++) {
      const path = pick(r, paths).replace('{x}', encodeURIComponent(pick(r, values)));
      const q = new URLSearchParams();
      for (let k = Math.floor(r() * 5); k > 0; k--) q.append(pick(r, names), pick(r, values));
      const isPost = r() < 0.3;
      const body = isPost
        ? r() < 0.7
          ? JSON.stringify({ resourceType: 'Parameters', parameter: [...q].map(([name, v]) => (r() < 0.8 ? { name, valueString: v } : { name, valueCoding: { system: v, code: v } })) })
          : pick(r, values)
        : undefined;
      const res = await t.request(`/fhir${path}${isPost ? '' : `?${q}`}`, isPost ? { method: 'POST', headers: { 'content-type': 'application/fhir+json' }, body } : {});
      const text = await res.text();
      const label = `${isPost ? 'POST' : 'GET'} ${path}?${q} ${body ?? ''}`.slice(0, 300);
      expect(res.status, label).toBeLessThan(500);
      expect(res.headers.get('content-type'), label).toBe('application/fhir+json; charset=utf-8');
      expect(text, label).not.toMatch(STACK);
      const json = JSON.parse(text);
      if (res.status >= 400) expect(json.resourceType, label).toBe('OperationOutcome');
    }
  });
});
