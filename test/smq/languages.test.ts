// Issue 28: SMQ names in the request's language — the demo releases carry German and Japanese
// SMQ lists (smq_name) beside English. Names of SMQs, sub-SMQs and their terms, SMQ changes and
// an SMQ applied to coded rows follow lang > Accept-Language > the primary language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await createApiKey(t.db.prisma, 'smq-languages')).key;
});
afterAll(async () => {
  await t?.cleanup();
});

/** A code's name in a language, as GET /codes/{code} gives it. */
const termIn = async (code: string, lang: string) => (await t.json(`/codes/${code}?lang=${lang}`)).body.term as string;

describe('GET /smqs and /smqs/{code} in a language', () => {
  it('?lang=ja names every SMQ in Japanese, with Content-Language and Vary', async () => {
    const r = await t.json('/smqs?lang=ja&limit=100');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-language')).toBe('ja');
    expect(r.headers.get('vary')).toMatch(/Accept-Language/);
    const names = Object.fromEntries(r.body.results.map((s: { code: string; name: string }) => [s.code, s.name]));
    expect(names['90500001']).toBe('デモ：肝障害（デモSMQ）');
    expect(names['90500003']).toBe('デモ：肝不全および肝損傷（デモSMQ）');
    const en = await t.json('/smqs?limit=100');
    expect(en.headers.get('content-language')).toBe('en');
    expect(en.body.results.find((s: { code: string }) => s.code === '90500001').name).toMatch(/^Demo /);
  });

  it('q searches the names of the language, folded as its search folds (ü = u; CJK by containment)', async () => {
    const de = await t.json(`/smqs?lang=de&q=${encodeURIComponent('leberschadigung')}`);
    expect(de.body.results.map((s: { name: string }) => s.name)).toEqual(['Demo: Leberversagen und Leberschädigung (Demo-SMQ)', 'Demo: Score arzneimittelbedingter Leberschädigung (Demo-SMQ)']);
    const ja = await t.json(`/smqs?lang=ja&q=${encodeURIComponent('肝不全')}`);
    expect(ja.body.results.map((s: { code: string }) => s.code)).toEqual(['90500003']);
    // An English query finds nothing among the Japanese names.
    expect((await t.json('/smqs?lang=ja&q=liver')).body.meta.total).toBe(0);
  });

  it('/smqs/{code}: the SMQ, its sub-SMQs and its terms in the language; Accept-Language picks it too', async () => {
    const r = await t.json('/smqs/90500001?lang=ja&termsLimit=5');
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('デモ：肝障害（デモSMQ）');
    expect(r.body.children.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['デモ：肝不全および肝損傷（デモSMQ）']));
    const first = r.body.terms.results[0];
    expect(first.term).toBe(await termIn(first.code, 'ja'));
    expect(first.term).not.toBe(await termIn(first.code, 'en'));
    const header = await t.json('/smqs/90500001', { headers: { 'accept-language': 'de-CH, de;q=0.9, en;q=0.1' } });
    expect(header.body.name).toBe('Demo: Lebererkrankungen (Demo-SMQ)');
    expect(header.headers.get('content-language')).toBe('de');
    expect((await t.json('/smqs/90500001?lang=fr')).body).toMatchObject({ code: 'LANGUAGE_NOT_FOUND', status: 404 });
  });

  it('GET /versions/{to}/smq-changes?lang=de names SMQs and terms in German', async () => {
    const r = await t.json('/versions/5.0.1/smq-changes?lang=de&limit=200');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-language')).toBe('de');
    const added = r.body.results.results.find((c: { changeType: string }) => c.changeType === 'smq_added');
    expect(added.smqName).toBe('Demo: Toxizitäten von Immuneffektorzellen (Demo-SMQ)');
    const term = r.body.results.results.find((c: { termLevel: string | null; termCode: string | null }) => c.termLevel === 'PT' || c.termLevel === 'LLT');
    expect(term.termName).toBe(await termIn(term.termCode, 'de'));
    const en = await t.json('/versions/5.0.1/smq-changes?limit=200');
    expect(en.body.results.results.find((c: { changeType: string }) => c.changeType === 'smq_added').smqName).toMatch(/^Demo /);
  });

  it('POST /smqs/{code}/apply?lang=ja names the matched terms and the SMQ in Japanese', async () => {
    const rows = [
      { rowId: 'r1', code: '10002218' },
      { rowId: 'r2', code: '90300062' },
    ];
    const r = await t.json('/smqs/90500005/apply?lang=ja', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ rows }) });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-language')).toBe('ja');
    expect(r.body.smq.name).toMatch(/（デモSMQ）$/);
    const [m1, m2] = r.body.narrow;
    expect(m1.term).toBe(await termIn('10002218', 'ja'));
    expect(m2.term).toBe((await t.json('/codes/90300062?lang=ja')).body.term);
    expect(m2.matchedTerm).toBe((await t.json(`/codes/${m2.matchedCode}?lang=ja`)).body.term);
  });
});

describe('GraphQL', () => {
  it('smq(language:), smqs(language:) and Code.smqs follow the language', async () => {
    const r = await t.graphql(`{ smq(code: "90500001", language: "de") { name children { name } } }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.smq.name).toBe('Demo: Lebererkrankungen (Demo-SMQ)');
    expect(r.body.data.smq.children.map((c: { name: string }) => c.name)).toContain('Demo: Leberversagen und Leberschädigung (Demo-SMQ)');
    const l = await t.graphql(`{ smqs(language: "ja", q: "肝不全") { edges { node { code name } } } }`);
    expect(l.body.data.smqs.edges).toEqual([{ node: { code: '90500003', name: 'デモ：肝不全および肝損傷（デモSMQ）' } }]);
    const c = await t.graphql(`{ code(code: "10001551", language: "ja") { term smqs { smq { code name } } } }`);
    expect(c.body.errors).toBeUndefined();
    expect(c.body.data.code.smqs.map((m: { smq: { name: string } }) => m.smq.name).every((n: string) => n.endsWith('（デモSMQ）'))).toBe(true);
  });
});
