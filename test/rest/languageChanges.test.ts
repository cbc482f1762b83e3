// Issue 28: translation changes between releases, FHIR in several languages, and narratives
// not in English — over two releases each hosted in English (primary) and German.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { german, translated } from '../helpers/languages.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { loadConfig } from '../../src/config.ts';
import { runImpact } from '../../src/cli/impact.ts';
import { Readable } from 'node:stream';
import { TEST_ENV } from '../helpers/app.ts';

let t: TestApp;
// 1.1: the German name of Headache corrected (a translation change); nothing else differs.
const german11 = (n: string) => (n === 'Headache' ? 'Kopfschmerz' : german(n));
beforeAll(async () => {
  t = await createTestApp({
    fixtures: [miniSpec('1.0'), miniSpec('1.1')],
    dirs: [writeFixture(translated('1.0', 'German', german)), writeFixture(translated('1.1', 'German', german11))],
  });
});
afterAll(async () => {
  await t?.cleanup();
});

const FHIR_SYSTEM = encodeURIComponent('https://www.meddra.org');

describe('translation changes', () => {
  it('GET /versions/{to}/changes?lang=de lists the German name corrected, as updated with its language', async () => {
    const plain = await t.json('/versions/1.1/changes');
    expect(plain.status).toBe(200);
    expect(plain.body.changes).toEqual({ added: 0, updated: 0, retired: 0 });
    const de = await t.json('/versions/1.1/changes?lang=de');
    // The PT and its own LLT (same code, same name) both changed.
    expect(de.body.changes).toEqual({ added: 0, updated: 2, retired: 0 });
    expect(de.body.results.results.map((x: { level: string }) => x.level)).toEqual(['PT', 'LLT']);
    expect(de.body.results.results.slice(0, 1)).toEqual([
      {
        code: '10019211',
        level: 'PT',
        term: 'Kopfschmerz',
        changeType: 'updated',
        details: "German name changed (translation): 'Kopfschmerzen' → 'Kopfschmerz'",
        previousTerm: 'Kopfschmerzen',
        language: 'de',
        metadata: { kinds: ['translation_changed'], before: { name: 'Kopfschmerzen', language: 'de' }, after: { name: 'Kopfschmerz', language: 'de' } },
      },
    ]);
    expect(de.headers.get('content-language')).toBe('de');
    // Filters: another level or change type leaves it out.
    expect((await t.json('/versions/1.1/changes?lang=de&level=SOC')).body.results.results).toEqual([]);
    expect((await t.json('/versions/1.1/changes?lang=de&level=LLT')).body.results.results.map((x: { code: string }) => x.code)).toEqual(['10019211']);
    // Paging runs on across the stored changes and the translation changes.
    const p2 = await t.json('/versions/1.1/changes?lang=de&limit=1&page=2');
    expect(p2.body.results.results.map((x: { level: string }) => x.level)).toEqual(['LLT']);
    expect(p2.body.results.meta.total).toBe(2);
    expect((await t.json('/versions/1.1/changes?lang=de&changeType=added')).body.results.results).toEqual([]);
    // The primary language has no translation changes.
    expect((await t.json('/versions/1.1/changes?lang=en')).body.changes.updated).toBe(0);
    expect((await t.json('/versions/1.1/changes?lang=ja')).status).toBe(404);
  });
});

describe('FHIR in several languages', () => {
  it('$validate-code: a display in any hosted language without displayLanguage; only that language with it', async () => {
    const v = async (q: string) => (await t.json(`/fhir/CodeSystem/$validate-code?url=${FHIR_SYSTEM}&code=10028813&${q}`)).body.parameter;
    const result = (p: { name: string; valueBoolean?: boolean }[]) => p.find((x) => x.name === 'result')!.valueBoolean;
    const display = (p: { name: string; valueString?: string }[]) => p.find((x) => x.name === 'display')!.valueString;
    expect(result(await v('display=Nausea'))).toBe(true);
    expect(result(await v(`display=${encodeURIComponent('Übelkeit')}`))).toBe(true);
    expect(result(await v(`display=${encodeURIComponent('Übelkeit')}&displayLanguage=en`))).toBe(false);
    const de = await v(`display=${encodeURIComponent('Übelkeit')}&displayLanguage=de`);
    expect(result(de)).toBe(true);
    expect(display(de)).toBe('Übelkeit');
    expect(result(await v('display=Nausea&displayLanguage=de'))).toBe(false);
  });

  it('$expand with displayLanguage and includeDesignations: displays in German, the English name as a designation', async () => {
    const r = await t.json(`/fhir/ValueSet/$expand?url=${encodeURIComponent('https://www.meddra.org?fhir_vs=level/PT')}&displayLanguage=de&includeDesignations=true&filter=ubelkeit`);
    expect(r.status).toBe(200);
    const nausea = r.body.expansion.contains.find((c: { code: string }) => c.code === '10028813');
    expect(nausea.display).toBe('Übelkeit');
    expect(nausea.designation).toEqual(expect.arrayContaining([expect.objectContaining({ language: 'en', value: 'Nausea' }), expect.objectContaining({ language: 'de', value: 'Übelkeitsgefühl' })]));
  });

  it('$lookup with Accept-Language, and a displayLanguage not hosted: 404 OperationOutcome', async () => {
    const r = await t.json(`/fhir/CodeSystem/$lookup?system=${FHIR_SYSTEM}&code=10019211`, { headers: { 'accept-language': 'de' } });
    expect(r.body.parameter.find((p: { name: string }) => p.name === 'display').valueString).toBe('Kopfschmerz');
    const bad = await t.json(`/fhir/CodeSystem/$lookup?system=${FHIR_SYSTEM}&code=10019211&displayLanguage=ja`);
    expect(bad.status).toBe(404);
    expect(bad.body.resourceType).toBe('OperationOutcome');
    expect(bad.body.issue[0].diagnostics).toMatch(/en, de/);
  });

  it('TerminologyCapabilities and CodeSystem list the languages', async () => {
    const caps = await t.json('/fhir/metadata?mode=terminology');
    expect(caps.body.codeSystem[0].version.map((v: { language: string[] }) => v.language)).toEqual([['en', 'de'], ['en', 'de']]);
    const cs = await t.json('/fhir/CodeSystem');
    expect(cs.body.entry[0].resource.language).toBe('en');
    expect(cs.body.entry[0].resource.description).toMatch(/en, de/);
  });
});

describe('narrative endpoints', () => {
  it('a narrative not in English: 422 LANGUAGE_NOT_SUPPORTED naming what is supported; English still coded', async () => {
    const { key } = await createApiKey(t.db.prisma, 'languages');
    const post = (description: string) =>
      t.json('/classify', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ description }) });
    const ja = await post('患者は投与後に激しい頭痛と悪心を訴えた。');
    expect(ja.status).toBe(422);
    expect(ja.body).toMatchObject({ code: 'LANGUAGE_NOT_SUPPORTED', status: 422, supportedLanguages: ['en'], detectedLanguage: 'ja' });
    const de = await post('Der Patient klagte nach der Gabe über starke Kopfschmerzen und Übelkeit, die nicht abklangen.');
    expect(de.status).toBe(422);
    expect(de.body.detectedLanguage).toBe('de');
    const en = await post('The patient had a severe headache and nausea after the dose.');
    expect(en.status).toBe(200);
  });
});

describe('a code’s history in a language', () => {
  it('shows the translation change and names the snapshots in that language', async () => {
    const q = `query ($l: String) { code(code: "10019211", level: PT, language: $l) { history { version { version } snapshot { term } changes { changeType kinds language details } } } }`;
    const de = await t.graphql(q, { l: 'de' });
    expect(de.body.errors).toBeUndefined();
    const h = de.body.data.code.history;
    expect(h.map((e: { snapshot: { term: string } }) => e.snapshot.term)).toEqual(['Kopfschmerzen', 'Kopfschmerz']);
    // As the stored changes of a code: every level it exists at (the PT and its own LLT).
    const change = { changeType: 'UPDATED', kinds: ['translation_changed'], language: 'de', details: "German name changed (translation): 'Kopfschmerzen' → 'Kopfschmerz'" };
    expect(h[1].changes).toEqual([change, change]);
    const en = await t.graphql(q, { l: 'en' });
    expect(en.body.data.code.history[1].changes).toEqual([]);
  });
});

describe('translation changes in the impact report', () => {
  const rows = [
    { rowId: 'h', code: '10019211', term: 'Kopfschmerzen' },
    { rowId: 'n', code: '10028813' },
  ];
  const post = async (query: string, headers: Record<string, string> = {}, body: unknown = { from: '1.0', to: '1.1', rows }) => {
    const { key } = await createApiKey(t.db.prisma, 'impact-languages');
    return t.json(`/impact${query}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers }, body: JSON.stringify(body) });
  };
  const kindsOf = (body: { rows: { rowId: string; impacts: { kind: string }[] }[] }) => Object.fromEntries(body.rows.map((r) => [r.rowId, r.impacts.map((i) => i.kind)]));

  it('POST /impact?lang=de: the row whose German name changed is TRANSLATION_CHANGED, named in German', async () => {
    const de = await post('?lang=de');
    expect(de.status).toBe(200);
    expect(de.headers.get('content-language')).toBe('de');
    expect(de.headers.get('vary')).toMatch(/Accept-Language/);
    expect(de.body.language).toBe('de');
    expect(kindsOf(de.body)).toEqual({ h: ['TRANSLATION_CHANGED', 'TERM_MISMATCH'], n: [] });
    const h = de.body.rows.find((r: { rowId: string }) => r.rowId === 'h');
    expect(h.before.term).toBe('Kopfschmerzen');
    expect(h.after.term).toBe('Kopfschmerz');
    expect(h.impacts[0]).toMatchObject({
      kind: 'TRANSLATION_CHANGED',
      details: "German name of 10019211 changed (translation): 'Kopfschmerzen' → 'Kopfschmerz'.",
      before: 'Kopfschmerzen',
      after: 'Kopfschmerz',
      suggestion: { action: 'KEEP', code: '10019211', term: 'Kopfschmerz' },
    });
    // The recorded term was the German name in 1.0: keep the code.
    expect(h.impacts[1].suggestion.action).toBe('KEEP');
    expect(de.body.rows.find((r: { rowId: string }) => r.rowId === 'n').after.term).toBe('Übelkeit');
    expect(de.body.summary.rowsImpacted).toBe(1);
    expect(de.body.summary.byKind).toContainEqual({ kind: 'TRANSLATION_CHANGED', rows: 1 });
  });

  it('in English (default, or lang=en) nothing changed; Accept-Language selects German; a language not hosted is 404', async () => {
    const en = await post('');
    expect(en.body.language).toBe('en');
    expect(en.headers.get('content-language')).toBe('en');
    // The recorded German term does not match the English name: only that.
    expect(kindsOf(en.body)).toEqual({ h: ['TERM_MISMATCH'], n: [] });
    const enExplicit = await post('?lang=en', {}, { from: '1.0', to: '1.1', rows: [rows[1]] });
    expect(kindsOf(enExplicit.body)).toEqual({ n: [] });
    const header = await post('', { 'accept-language': 'de-AT, en;q=0.5' });
    expect(header.body.language).toBe('de');
    expect(header.headers.get('content-language')).toBe('de');
    expect(kindsOf(header.body).h).toEqual(['TRANSLATION_CHANGED', 'TERM_MISMATCH']);
    const ja = await post('?lang=ja');
    expect(ja.status).toBe(404);
    expect(ja.body).toMatchObject({ code: 'LANGUAGE_NOT_FOUND' });
  });

  it('GraphQL impact(language:) reports it too', async () => {
    const { key } = await createApiKey(t.db.prisma, 'impact-languages-gql');
    const g = await t.graphql(
      `query ($rows: [ImpactRowInput!]) { impact(input: { from: "1.0", to: "1.1", rows: $rows }, language: "de") { language summary { byKind { kind rows } } rows(impactedOnly: true) { rowId impacts { kind details } } } }`,
      { rows },
      { 'x-api-key': key },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.impact.language).toBe('de');
    expect(g.body.data.impact.rows).toEqual([
      {
        rowId: 'h',
        impacts: [
          { kind: 'TRANSLATION_CHANGED', details: "German name of 10019211 changed (translation): 'Kopfschmerzen' → 'Kopfschmerz'." },
          expect.objectContaining({ kind: 'TERM_MISMATCH' }),
        ],
      },
    ]);
  });

  it('terminology impact --language de (the CLI use case) reports it in the CSV', async () => {
    let out = '';
    await runImpact(
      loadConfig({ ...TEST_ENV }),
      t.db,
      Readable.from(['rowId,code,term\r\nh,10019211,Kopfschmerzen\r\n']),
      { from: '1.0', to: '1.1', format: 'csv', validateOnly: false, impactedOnly: false, language: 'de' },
      { out: (s) => void (out += s), err: () => {} },
    );
    const lines = out.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.find((l) => l.includes('TRANSLATION_CHANGED'))).toMatch(/^h,2,10019211,Kopfschmerzen,IMPACTED,TRANSLATION_CHANGED,/);
  });
});
