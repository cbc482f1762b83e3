// Issue 28: the response caches key on the language Accept-Language NEGOTIATES for the releases
// hosted, not on the raw header: two headers that negotiate to the same language share one
// entry; headers that negotiate differently never get each other's answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { counts } from '../../src/observability/signals.ts';
import { negotiatedLanguageKey } from '../../src/domain/languageCacheKey.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readOnly: true }); // demo releases: en (primary), de, ja
});
afterAll(async () => {
  await t?.cleanup();
});

const get = async (path: string, acceptLanguage?: string) => {
  const r = await t.request(path, acceptLanguage ? { headers: { 'accept-language': acceptLanguage } } : undefined);
  return { body: (await r.json()) as { term: string; language: string }, language: r.headers.get('content-language') };
};

describe('warm answer cache (REST)', () => {
  it('"de" and "de-AT, fr;q=0.5" share one entry; "ja" and no header get their own', async () => {
    const path = '/codes/10028813?synonymsLimit=3';
    const hits = () => counts.warmHits;
    const de = await get(path, 'de');
    expect(de.body.language).toBe('de');
    const before = hits();
    const deAt = await get(path, 'de-AT, fr;q=0.5');
    expect(hits()).toBe(before + 1); // replayed: the same negotiated language
    expect(deAt.body).toEqual(de.body);
    expect(deAt.language).toBe('de');
    const ja = await get(path, 'ja-JP');
    expect(hits()).toBe(before + 1); // not a hit: another language
    expect(ja.body.language).toBe('ja');
    expect(ja.body.term).not.toBe(de.body.term);
    const none = await get(path);
    expect(none.body.language).toBe('en');
    expect(hits()).toBe(before + 1);
    // A header no hosted language matches negotiates the primary: the entry without a header.
    const fr = await get(path, 'fr-CA');
    expect(hits()).toBe(before + 2);
    expect(fr.body).toEqual(none.body);
    // ?lang= beats the header and is part of the query: never mixed with the header's language.
    const langJa = await get(`${path}&lang=ja`, 'de');
    expect(langJa.body.language).toBe('ja');
  });
});

describe('GraphQL result cache', () => {
  it('keys on the negotiated language too', async () => {
    const q = '{ code(code: "10028813") { term language } }';
    const run = async (al: string) => {
      const misses = counts.loaderMisses;
      const r = await t.graphql(q, undefined, { 'accept-language': al });
      return { data: r.body.data.code, executed: counts.loaderMisses > misses };
    };
    const de = await run('de');
    expect(de).toEqual({ data: { term: 'Übelkeit', language: 'de' }, executed: true });
    expect(await run('de-CH;q=0.9, en;q=0.1')).toEqual({ data: de.data, executed: false });
    const ja = await run('ja');
    expect(ja.executed).toBe(true);
    expect(ja.data.language).toBe('ja');
  });
});

describe('negotiatedLanguageKey', () => {
  it('is the negotiated tag per distinct set of hosted languages', () => {
    const releases = [{ languages: ['en', 'de', 'ja'] }, { languages: ['en', 'de', 'ja'] }, { languages: ['en', 'ja'] }];
    expect(negotiatedLanguageKey('de, ja;q=0.5', releases)).toBe('de,ja');
    expect(negotiatedLanguageKey('de', releases)).toBe('de,en');
    expect(negotiatedLanguageKey(undefined, releases)).toBe('en,en');
    expect(negotiatedLanguageKey('xx', releases)).toBe('en,en');
  });
});
