// Issue 28 over REST and GraphQL: a release imported as three language folders (English
// first, then German and Japanese), its names chosen by ?lang= / language > Accept-Language >
// the primary language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { german, japanese, translated } from '../helpers/languages.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    fixtures: [miniSpec('1.0')],
    dirs: [writeFixture(translated('1.0', 'German', german)), writeFixture(translated('1.0', 'Japanese', japanese), { encoding: 'utf8' })],
  });
});
afterAll(async () => {
  await t?.cleanup();
});

describe('GET /versions', () => {
  it('lists the languages of each release, primary first', async () => {
    const r = await t.json('/versions');
    expect(r.body.results[0]).toMatchObject({ version: '1.0', language: 'English', languages: ['en', 'de', 'ja'] });
  });
});

describe('GET /codes/{code}', () => {
  it('without lang or Accept-Language: the primary language, with every name and Content-Language', async () => {
    const r = await t.json('/codes/10028813');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      code: '10028813',
      term: 'Nausea',
      language: 'en',
      names: [
        { language: 'en', name: 'Nausea' },
        { language: 'de', name: 'Übelkeit' },
        { language: 'ja', name: '悪心' },
      ],
    });
    expect(r.headers.get('content-language')).toBe('en');
    expect(r.headers.get('vary')).toMatch(/Accept-Language/);
  });

  it('?lang=ja names the code, its synonyms, parents and children in Japanese', async () => {
    const r = await t.json('/codes/10047700?lang=ja');
    expect(r.body.term).toBe('嘔吐');
    expect(r.body.language).toBe('ja');
    // The order is the primary language's (own LLT first, current before non-current, by English name): documented.
    expect(r.body.synonyms.results.map((s: { name: string }) => s.name)).toEqual(['嘔吐', 'Emesis（日本語）', 'ゲーゲー吐く', 'Vomiting NOS（日本語）']);
    expect(r.body.parents.map((p: { term: string }) => p.term)).toEqual(['Gastrointestinal disorders（日本語）', 'Nausea and vomiting symptoms（日本語）']);
    expect(r.headers.get('content-language')).toBe('ja');
  });

  it('Accept-Language with q-values picks the best hosted language; lang beats it', async () => {
    const de = await t.json('/codes/10028813', { headers: { 'accept-language': 'fr;q=1, de;q=0.8, ja;q=0.5' } });
    expect(de.body).toMatchObject({ term: 'Übelkeit', language: 'de' });
    expect(de.headers.get('content-language')).toBe('de');
    const ja = await t.json('/codes/10028813?lang=ja', { headers: { 'accept-language': 'de' } });
    expect(ja.body).toMatchObject({ term: '悪心', language: 'ja' });
  });

  it('an Accept-Language with no hosted match falls back to the primary language', async () => {
    const r = await t.json('/codes/10028813', { headers: { 'accept-language': 'fr-CA, fr;q=0.9' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ term: 'Nausea', language: 'en' });
  });

  it('?lang= naming a language the release does not host: 404 LANGUAGE_NOT_FOUND naming the hosted ones', async () => {
    const r = await t.json('/codes/10028813?lang=fr');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/problem\+json/);
    expect(r.body).toMatchObject({ code: 'LANGUAGE_NOT_FOUND', status: 404, title: 'Language not found', type: '/problems/language-not-found' });
    expect(r.body.detail).toMatch(/en, de, ja/);
  });

  it('a malformed lang is a VALIDATION_ERROR on lang', async () => {
    const r = await t.json('/codes/10028813?lang=' + encodeURIComponent('1; drop'));
    expect(r.status).toBe(400);
    expect(r.body.errors.lang).toBeDefined();
  });

  it('cached answers keep languages apart (warm answer cache keyed on Accept-Language)', async () => {
    const a = await t.json('/codes/10019211', { headers: { 'accept-language': 'ja' } });
    const b = await t.json('/codes/10019211', { headers: { 'accept-language': 'de' } });
    const c = await t.json('/codes/10019211', { headers: { 'accept-language': 'ja' } });
    expect([a.body.term, b.body.term, c.body.term]).toEqual(['頭痛', 'Kopfschmerzen', '頭痛']);
  });
});

describe('GET /codes (search)', () => {
  it('lang=de: diacritics and case folded (ubelkeit finds Übelkeit), names in German', async () => {
    const r = await t.json('/codes?q=ubelkeit&lang=de');
    expect(r.body.results[0]).toMatchObject({ code: '10028813', term: 'Übelkeit', match: { term: 'Übelkeit', type: 'EXACT', language: 'de' } });
    expect(r.headers.get('content-language')).toBe('de');
  });

  it('lang=de keeps typo tolerance for a Latin script', async () => {
    const r = await t.json('/codes?q=kopfschmerzn&lang=de');
    expect(r.body.results.map((x: { code: string }) => x.code)).toContain('10019211');
  });

  it('lang=ja: a substring of a name without spaces, full-width and half-width forms folded', async () => {
    const r = await t.json('/codes?q=' + encodeURIComponent('吐く') + '&lang=ja');
    expect(r.body.results[0]).toMatchObject({ code: '10047700', match: { term: 'ゲーゲー吐く', isSynonym: true, language: 'ja' } });
    const wide = await t.json('/codes?q=' + encodeURIComponent('ＨＥＡＤＡＣＨＥＳ') + '&lang=ja');
    expect(wide.body.results.map((x: { code: string }) => x.code)).toContain('91000002');
  });

  it('lang=*: every hosted language, each hit naming the language that matched', async () => {
    const r = await t.json('/codes?q=' + encodeURIComponent('悪心') + '&lang=*');
    expect(r.body.results[0]).toMatchObject({ code: '10028813', term: '悪心', match: { language: 'ja' } });
    const en = await t.json('/codes?q=nausea&lang=*');
    expect(en.body.results[0]).toMatchObject({ code: '10028813', match: { language: 'en' } });
  });

  it('without lang the search is the primary language’s, unchanged (no language on the match)', async () => {
    const r = await t.json('/codes?q=nausea');
    expect(r.body.results[0]).toMatchObject({ code: '10028813', term: 'Nausea' });
    expect(r.body.results[0].match.language).toBeUndefined();
  });

  it('?lang=fr on search: LANGUAGE_NOT_FOUND', async () => {
    expect((await t.json('/codes?q=x&lang=fr')).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('Version.languages, Code.names, Code.name(language:) and the language argument', async () => {
    const r = await t.graphql(`{
      version { languages }
      code(code: "10028813", language: "de") { term language name(language: "ja") names { language name }
        parents { code { term } } }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.version.languages).toEqual(['en', 'de', 'ja']);
    expect(r.body.data.code).toMatchObject({
      term: 'Übelkeit',
      language: 'de',
      name: '悪心',
      names: [
        { language: 'en', name: 'Nausea' },
        { language: 'de', name: 'Übelkeit' },
        { language: 'ja', name: '悪心' },
      ],
    });
    expect(r.body.data.code.parents.map((p: { code: { term: string } }) => p.code.term)).toEqual([
      'Gastrointestinal disorders (de)',
      'Nausea and vomiting symptoms (de)',
    ]);
  });

  it('falls back to Accept-Language without a language argument', async () => {
    const r = await t.graphql('{ code(code: "10028813") { term language } }', undefined, { 'accept-language': 'ja, en;q=0.5' });
    expect(r.body.data.code).toEqual({ term: '悪心', language: 'ja' });
  });

  it('an unknown language: LANGUAGE_NOT_FOUND in the error extensions', async () => {
    const r = await t.graphql('{ code(code: "10028813", language: "fr") { term } }');
    expect(r.body.errors[0].extensions.code).toBe('LANGUAGE_NOT_FOUND');
  });

  it('a subtree in a second language costs one statement per tree level, like the primary one', async () => {
    const query = `query($l: String) { code(code: "10017947", language: $l) { term children { code { term children { code { term children { code { term children { code { term } } } } } } } } } }`;
    // Warm the catalog so both runs count only the tree's statements.
    await t.graphql(query, { l: 'en' });
    await t.graphql(query, { l: 'de' });
    t.queries.length = 0;
    const en = await t.graphql(query, { l: 'en' });
    const enCount = t.queries.length;
    t.queries.length = 0;
    const de = await t.graphql(query, { l: 'de' });
    const deCount = t.queries.length;
    expect(en.body.errors).toBeUndefined();
    expect(de.body.data.code.term).toBe('Gastrointestinal disorders (de)');
    expect(de.body.data.code.children[0].code.children[0].code.children[0].code.term).toMatch(/\(de\)$|Übelkeit|Erbrechen/);
    // At most one names statement per level below the root (5 levels: SOC … LLT).
    expect(deCount - enCount).toBeLessThanOrEqual(5);
  });
});
