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
    expect(await call({ path: '/versions?limit=1' })).toMatchInlineSnapshot(`
      "GET /versions?limit=1

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: (none)
      X-Request-Id: <request-id>

      {
        "results": [
          {
            "id": "5.0.1",
            "version": "5.0.1",
            "releaseDate": "2025-06-01",
            "language": "English",
            "languages": ["en", "de", "ja"],
            "isLatest": true,
            "counts": { "SOC": 26, "HLGT": 117, "HLT": 239, "PT": 814, "LLT": 2300 },
            "changes": { "added": 19, "updated": 31, "retired": 3 }
          }
        ],
        "meta": { "page": 1, "limit": 1, "total": 3, "next": "?page=2&limit=1", "previous": null }
      }"
    `);
  });

  it('GET /codes/{code}?lang=ja: the code, its synonyms, parents and children named in Japanese, with every name', async () => {
    expect(await call({ path: '/codes/10019211?lang=ja&synonymsLimit=2' })).toMatchInlineSnapshot(`
      "GET /codes/10019211?lang=ja&synonymsLimit=2

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: ja

      {
        "code": "10019211",
        "term": "頭痛",
        "language": "ja",
        "names": [
          { "language": "en", "name": "Headache" },
          { "language": "de", "name": "Kopfschmerzen" },
          { "language": "ja", "name": "頭痛" }
        ],
        "level": "PT",
        "status": "CURRENT",
        "isPrimary": true,
        "primarySocCode": "10029205",
        "version": "5.0.1",
        "synonyms": {
          "results": [{ "name": "頭痛", "isPrimary": true }, { "name": "Cephalalgia", "isPrimary": false }],
          "meta": { "page": 1, "limit": 2, "total": 8, "next": "?lang=ja&synonymsPage=2&synonymsLimit=2", "previous": null }
        },
        "parents": [
          {
            "code": "10029205",
            "term": "神経系障害",
            "level": "SOC",
            "status": "CURRENT",
            "relationshipType": "SOC_TO_PT",
            "isPrimary": true
          },
          {
            "code": "90200057",
            "term": "頭痛の病態",
            "level": "HLT",
            "status": "CURRENT",
            "relationshipType": "HLT_TO_PT",
            "isPrimary": true
          }
        ],
        "children": [
          {
            "code": "90300541",
            "term": "Cephalalgia",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300538",
            "term": "頭部痛",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300537",
            "term": "Head ache",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300539",
            "term": "頭の痛み",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "10019211",
            "term": "頭痛",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300540",
            "term": "頭痛症",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300543",
            "term": "吐き気を伴う頭痛",
            "level": "LLT",
            "status": "NON_CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300542",
            "term": "Sore head",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          }
        ]
      }"
    `);
  });

  it('GET /codes?q=…&lang=de: German search folds case, umlauts and their transliteration', async () => {
    expect(await call({ path: '/codes?q=uebelkeit&lang=de&limit=2' })).toMatchInlineSnapshot(`
      "GET /codes?q=uebelkeit&lang=de&limit=2

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: de

      {
        "results": [
          {
            "code": "10028813",
            "term": "Übelkeit",
            "level": "PT",
            "status": "CURRENT",
            "match": {
              "term": "Übelkeit",
              "level": "PT",
              "code": "10028813",
              "type": "EXACT",
              "isSynonym": false,
              "score": 1,
              "language": "de"
            },
            "hierarchy": [
              { "code": "10017947", "term": "Erkrankungen des Gastrointestinaltrakts", "level": "SOC" },
              { "code": "90100065", "term": "Gastrointestinale Zeichen und Symptome", "level": "HLGT" },
              { "code": "90200125", "term": "Übelkeit und Erbrechen", "level": "HLT" },
              { "code": "10028813", "term": "Übelkeit", "level": "PT" }
            ]
          },
          {
            "code": "90200125",
            "term": "Übelkeit und Erbrechen",
            "level": "HLT",
            "status": "CURRENT",
            "match": {
              "term": "Übelkeit und Erbrechen",
              "level": "HLT",
              "code": "90200125",
              "type": "PREFIX",
              "isSynonym": false,
              "score": 1,
              "language": "de"
            },
            "hierarchy": [
              { "code": "10017947", "term": "Erkrankungen des Gastrointestinaltrakts", "level": "SOC" },
              { "code": "90100065", "term": "Gastrointestinale Zeichen und Symptome", "level": "HLGT" },
              { "code": "90200125", "term": "Übelkeit und Erbrechen", "level": "HLT" }
            ]
          }
        ],
        "meta": { "page": 1, "limit": 2, "total": 3, "next": "?q=uebelkeit&lang=de&page=2&limit=2", "previous": null }
      }"
    `);
  });

  it('GET /codes?q=…&lang=ja: a Japanese name found by a part of it, no spaces needed', async () => {
    expect(await call({ path: `/codes?q=${encodeURIComponent('頭痛')}&lang=ja&limit=2` })).toMatchInlineSnapshot(`
      "GET /codes?q=%E9%A0%AD%E7%97%9B&lang=ja&limit=2

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: ja

      {
        "results": [
          {
            "code": "10019211",
            "term": "頭痛",
            "level": "PT",
            "status": "CURRENT",
            "match": {
              "term": "頭痛",
              "level": "PT",
              "code": "10019211",
              "type": "EXACT",
              "isSynonym": false,
              "score": 1,
              "language": "ja"
            },
            "hierarchy": [
              { "code": "10029205", "term": "神経系障害", "level": "SOC" },
              { "code": "90100033", "term": "頭痛および神経性疼痛", "level": "HLGT" },
              { "code": "90200057", "term": "頭痛の病態", "level": "HLT" },
              { "code": "10019211", "term": "頭痛", "level": "PT" }
            ]
          },
          {
            "code": "90200057",
            "term": "頭痛の病態",
            "level": "HLT",
            "status": "CURRENT",
            "match": {
              "term": "頭痛の病態",
              "level": "HLT",
              "code": "90200057",
              "type": "PREFIX",
              "isSynonym": false,
              "score": 0.78,
              "language": "ja"
            },
            "hierarchy": [
              { "code": "10029205", "term": "神経系障害", "level": "SOC" },
              { "code": "90100033", "term": "頭痛および神経性疼痛", "level": "HLGT" },
              { "code": "90200057", "term": "頭痛の病態", "level": "HLT" }
            ]
          }
        ],
        "meta": {
          "page": 1,
          "limit": 2,
          "total": 4,
          "next": "?q=%E9%A0%AD%E7%97%9B&lang=ja&page=2&limit=2",
          "previous": null
        }
      }"
    `);
  });

  it('Accept-Language: the best hosted match by q-value; none hosted falls back to the primary language', async () => {
    expect(await call({ path: '/codes/10028813?synonymsLimit=1', headers: { 'Accept-Language': 'fr;q=1, de;q=0.8, en;q=0.1' } })).toMatchInlineSnapshot(`
      "GET /codes/10028813?synonymsLimit=1
      Accept-Language: fr;q=1, de;q=0.8, en;q=0.1

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: de

      {
        "code": "10028813",
        "term": "Übelkeit",
        "language": "de",
        "names": [
          { "language": "en", "name": "Nausea" },
          { "language": "de", "name": "Übelkeit" },
          { "language": "ja", "name": "悪心" }
        ],
        "level": "PT",
        "status": "CURRENT",
        "isPrimary": true,
        "primarySocCode": "10017947",
        "version": "5.0.1",
        "synonyms": {
          "results": [{ "name": "Übelkeit", "isPrimary": true }],
          "meta": { "page": 1, "limit": 1, "total": 8, "next": "?synonymsPage=2&synonymsLimit=1", "previous": null }
        },
        "parents": [
          {
            "code": "10017947",
            "term": "Erkrankungen des Gastrointestinaltrakts",
            "level": "SOC",
            "status": "CURRENT",
            "relationshipType": "SOC_TO_PT",
            "isPrimary": true
          },
          {
            "code": "90200125",
            "term": "Übelkeit und Erbrechen",
            "level": "HLT",
            "status": "CURRENT",
            "relationshipType": "HLT_TO_PT",
            "isPrimary": true
          }
        ],
        "children": [
          {
            "code": "90300847",
            "term": "Bilious",
            "level": "LLT",
            "status": "NON_CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300841",
            "term": "Übelkeitsgefühl",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "10028813",
            "term": "Übelkeit",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300843",
            "term": "Nauseated",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300844",
            "term": "Nauseous",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300846",
            "term": "Queasiness",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300842",
            "term": "Queasy",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300845",
            "term": "Sick to my stomach",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          }
        ]
      }"
    `);
    expect(await call({ path: '/codes/10028813?synonymsLimit=1', headers: { 'Accept-Language': 'fr-CA, fr;q=0.9' } })).toMatchInlineSnapshot(`
      "GET /codes/10028813?synonymsLimit=1
      Accept-Language: fr-CA, fr;q=0.9

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en

      {
        "code": "10028813",
        "term": "Nausea",
        "language": "en",
        "names": [
          { "language": "en", "name": "Nausea" },
          { "language": "de", "name": "Übelkeit" },
          { "language": "ja", "name": "悪心" }
        ],
        "level": "PT",
        "status": "CURRENT",
        "isPrimary": true,
        "primarySocCode": "10017947",
        "version": "5.0.1",
        "synonyms": {
          "results": [{ "name": "Nausea", "isPrimary": true }],
          "meta": { "page": 1, "limit": 1, "total": 8, "next": "?synonymsPage=2&synonymsLimit=1", "previous": null }
        },
        "parents": [
          {
            "code": "10017947",
            "term": "Gastrointestinal disorders",
            "level": "SOC",
            "status": "CURRENT",
            "relationshipType": "SOC_TO_PT",
            "isPrimary": true
          },
          {
            "code": "90200125",
            "term": "Nausea and vomiting symptoms",
            "level": "HLT",
            "status": "CURRENT",
            "relationshipType": "HLT_TO_PT",
            "isPrimary": true
          }
        ],
        "children": [
          {
            "code": "90300847",
            "term": "Bilious",
            "level": "LLT",
            "status": "NON_CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300841",
            "term": "Feeling sick",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "10028813",
            "term": "Nausea",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300843",
            "term": "Nauseated",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300844",
            "term": "Nauseous",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300846",
            "term": "Queasiness",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300842",
            "term": "Queasy",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          },
          {
            "code": "90300845",
            "term": "Sick to my stomach",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          }
        ]
      }"
    `);
  });

  it('?lang= naming a language the release does not host: 404 LANGUAGE_NOT_FOUND naming the hosted ones', async () => {
    expect(await call({ path: '/codes/10028813?lang=fr' })).toMatchInlineSnapshot(`
      "GET /codes/10028813?lang=fr

      HTTP/1.1 404 Not Found
      Content-Type: application/problem+json; charset=utf-8
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>

      {
        "type": "/problems/language-not-found",
        "title": "Language not found",
        "status": 404,
        "detail": "Release 5.0.1 is not hosted in language fr; it is hosted in en, de, ja.",
        "code": "LANGUAGE_NOT_FOUND",
        "requestId": "<request-id>",
        "languages": ["en", "de", "ja"]
      }"
    `);
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
    ).toMatchInlineSnapshot(`
      "POST /graphql
      Content-Type: application/json

      query ($code: String!) { version { languages } code(code: $code, language: "de") { term language name(language: "ja") names { language name } } }
      variables: { "code": "10047700" }

      HTTP/1.1 200 OK
      Content-Type: application/json; charset=utf-8
      Cache-Control: (none)
      ETag: (none)
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: de

      {
        "data": {
          "version": { "languages": ["en", "de", "ja"] },
          "code": {
            "term": "Erbrechen",
            "language": "de",
            "name": "嘔吐",
            "names": [
              { "language": "en", "name": "Vomiting" },
              { "language": "de", "name": "Erbrechen" },
              { "language": "ja", "name": "嘔吐" }
            ]
          }
        }
      }"
    `);
  });

  it('FHIR $lookup with displayLanguage: the display in Japanese, every other language as a designation', async () => {
    expect(
      await call({ path: '/fhir/CodeSystem/$lookup?system=https://www.meddra.org&code=10028813&displayLanguage=ja&property=designation&property=level' }),
    ).toMatchInlineSnapshot(`
      "GET /fhir/CodeSystem/$lookup?system=https://www.meddra.org&code=10028813&displayLanguage=ja&property=designation&property=level

      HTTP/1.1 200 OK
      Content-Type: application/fhir+json; charset=utf-8
      Cache-Control: (none)
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: ja

      {
        "resourceType": "Parameters",
        "parameter": [
          { "name": "name", "valueString": "MedDRA" },
          { "name": "version", "valueString": "5.0.1" },
          { "name": "display", "valueString": "悪心" },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "ja" },
              {
                "name": "use",
                "valueCoding": { "system": "http://snomed.info/sct", "code": "900000000000013009", "display": "Synonym" }
              },
              { "name": "value", "valueString": "吐き気" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "ja" },
              {
                "name": "use",
                "valueCoding": { "system": "http://snomed.info/sct", "code": "900000000000013009", "display": "Synonym" }
              },
              { "name": "value", "valueString": "Nauseated" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "ja" },
              {
                "name": "use",
                "valueCoding": { "system": "http://snomed.info/sct", "code": "900000000000013009", "display": "Synonym" }
              },
              { "name": "value", "valueString": "Nauseous" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "ja" },
              {
                "name": "use",
                "valueCoding": { "system": "http://snomed.info/sct", "code": "900000000000013009", "display": "Synonym" }
              },
              { "name": "value", "valueString": "Queasiness" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "ja" },
              {
                "name": "use",
                "valueCoding": { "system": "http://snomed.info/sct", "code": "900000000000013009", "display": "Synonym" }
              },
              { "name": "value", "valueString": "Queasy" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "ja" },
              {
                "name": "use",
                "valueCoding": { "system": "http://snomed.info/sct", "code": "900000000000013009", "display": "Synonym" }
              },
              { "name": "value", "valueString": "Sick to my stomach" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "ja" },
              {
                "name": "use",
                "valueCoding": { "system": "http://snomed.info/sct", "code": "900000000000013009", "display": "Synonym" }
              },
              { "name": "value", "valueString": "Bilious" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "en" },
              {
                "name": "use",
                "valueCoding": {
                  "system": "http://terminology.hl7.org/CodeSystem/designation-usage",
                  "code": "display",
                  "display": "Display"
                }
              },
              { "name": "value", "valueString": "Nausea" }
            ]
          },
          {
            "name": "designation",
            "part": [
              { "name": "language", "valueCode": "de" },
              {
                "name": "use",
                "valueCoding": {
                  "system": "http://terminology.hl7.org/CodeSystem/designation-usage",
                  "code": "display",
                  "display": "Display"
                }
              },
              { "name": "value", "valueString": "Übelkeit" }
            ]
          },
          { "name": "property", "part": [{ "name": "code", "valueCode": "level" }, { "name": "value", "valueCode": "PT" }] }
        ]
      }"
    `);
  });
});
