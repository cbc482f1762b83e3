// The language contract (issue 28) as examples over the demo releases, each hosted in English
// (primary), German and Japanese (names written for the demo, not MedDRA's translations): the
// languages of a release, a code in Japanese, a German search, Accept-Language and its
// fallback, an unknown language, GraphQL names and FHIR $lookup with displayLanguage.
// transcript.ts describes the format; `npx vitest run test/contract -u` rewrites the snapshots.
import { describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { exchange, type ContractRequest } from './transcript.ts';

let base: string;

serveTestApp((_app, url) => {
  base = url;
});

const call = async (req: ContractRequest) => (await exchange(base, req)).text;

describe('languages', () => {
  it('GET /versions: each release lists its languages, primary first', async () => {
    expect(await call({ path: '/versions?limit=1' })).toMatchInlineSnapshot();
  });

  it('GET /codes/{code}?lang=ja: the code, its synonyms, parents and children named in Japanese, with every name', async () => {
    expect(await call({ path: '/codes/10019211?lang=ja&synonymsLimit=2' })).toMatchInlineSnapshot();
  });

  it('GET /codes?q=…&lang=de: German search folds case, umlauts and their transliteration', async () => {
    expect(await call({ path: '/codes?q=uebelkeit&lang=de&limit=2' })).toMatchInlineSnapshot();
  });

  it('GET /codes?q=…&lang=ja: a Japanese name found by a part of it, no spaces needed', async () => {
    expect(await call({ path: `/codes?q=${encodeURIComponent('頭痛')}&lang=ja&limit=2` })).toMatchInlineSnapshot();
  });

  it('Accept-Language: the best hosted match by q-value; none hosted falls back to the primary language', async () => {
    expect(await call({ path: '/codes/10028813?synonymsLimit=1', headers: { 'Accept-Language': 'fr;q=1, de;q=0.8, en;q=0.1' } })).toMatchInlineSnapshot();
    expect(await call({ path: '/codes/10028813?synonymsLimit=1', headers: { 'Accept-Language': 'fr-CA, fr;q=0.9' } })).toMatchInlineSnapshot();
  });

  it('?lang= naming a language the release does not host: 404 LANGUAGE_NOT_FOUND naming the hosted ones', async () => {
    expect(await call({ path: '/codes/10028813?lang=fr' })).toMatchInlineSnapshot();
  });

  it('POST /graphql: Code.names and Code.name(language:), the language argument', async () => {
    expect(
      await call({
        path: '/graphql',
        body: {
          query: 'query ($code: String!) { version { languages } code(code: $code, language: "de") { term language name(language: "ja") names { language name } } }',
          variables: { code: '10047700' },
        },
      }),
    ).toMatchInlineSnapshot();
  });

  it('FHIR $lookup with displayLanguage: the display in Japanese, every other language as a designation', async () => {
    expect(
      await call({ path: '/fhir/CodeSystem/$lookup?system=https://www.meddra.org&code=10028813&displayLanguage=ja&property=designation&property=level' }),
    ).toMatchInlineSnapshot();
  });
});
