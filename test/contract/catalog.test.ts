// The catalog contract as examples: one request per documented endpoint over the demo releases
// (4.03, 5.0, 5.0.1; 5.0.1 is the latest), sent over real HTTP, with its whole answer as an inline
// snapshot: status, the headers a client relies on, and the body in the order the service sends it.
// Small page sizes keep every answer short. transcript.ts describes the format and what is masked
// (request ids and ETag values, nothing else). Also: one error of each kind and a GraphQL query.
// When an answer changes on purpose, `npx vitest run test/contract -u` rewrites the snapshots.
import { describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { exchange, type ContractRequest } from './transcript.ts';

let base: string;

serveTestApp((_app, url) => {
  base = url;
}, { readOnly: true });

const call = async (req: ContractRequest) => (await exchange(base, req)).text;

describe('REST catalog', () => {
  it('GET /versions: the hosted releases, latest first, with counts and changes against the previous one', async () => {
    expect(await call({ path: '/versions?limit=2' })).toMatchInlineSnapshot(`
      "GET /versions?limit=2

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
          },
          {
            "id": "5.0",
            "version": "5.0",
            "releaseDate": "2017-11-27",
            "language": "English",
            "languages": ["en", "de", "ja"],
            "isLatest": false,
            "counts": { "SOC": 26, "HLGT": 117, "HLT": 236, "PT": 811, "LLT": 2287 },
            "changes": { "added": 261, "updated": 17, "retired": 20 }
          }
        ],
        "meta": { "page": 1, "limit": 2, "total": 3, "next": "?page=2&limit=2", "previous": null }
      }"
    `);
  });

  it('GET /codes/{code}: a PT renamed in the latest release, with synonyms (paged), parents, children and its change', async () => {
    expect(await call({ path: '/codes/10027787?synonymsLimit=2' })).toMatchInlineSnapshot(`
      "GET /codes/10027787?synonymsLimit=2

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en

      {
        "code": "10027787",
        "term": "Mobitz type I atrioventricular block",
        "language": "en",
        "names": [
          { "language": "en", "name": "Mobitz type I atrioventricular block" },
          { "language": "de", "name": "Atrioventrikulärer Block Typ Mobitz I" },
          { "language": "ja", "name": "モビッツI型房室ブロック" }
        ],
        "level": "PT",
        "status": "CURRENT",
        "isPrimary": true,
        "primarySocCode": "10007541",
        "version": "5.0.1",
        "synonyms": {
          "results": [{ "name": "Mobitz type I atrioventricular block", "isPrimary": true }],
          "meta": { "page": 1, "limit": 2, "total": 1, "next": null, "previous": null }
        },
        "parents": [
          {
            "code": "10007541",
            "term": "Cardiac disorders",
            "level": "SOC",
            "status": "CURRENT",
            "relationshipType": "SOC_TO_PT",
            "isPrimary": true
          },
          {
            "code": "90200092",
            "term": "Cardiac conduction disorders",
            "level": "HLT",
            "status": "CURRENT",
            "relationshipType": "HLT_TO_PT",
            "isPrimary": true
          }
        ],
        "children": [
          {
            "code": "10027787",
            "term": "Mobitz type I atrioventricular block",
            "level": "LLT",
            "status": "CURRENT",
            "relationshipType": "PT_TO_LLT",
            "isPrimary": true
          }
        ],
        "change": {
          "changeType": "UPDATED",
          "details": "Renamed from 'Mobitz type I' to 'Mobitz type I atrioventricular block'.",
          "previousTerm": "Mobitz type I"
        }
      }"
    `);
  });

  it('GET /codes?q=: search; an LLT match is returned on its PT, the item says which name matched', async () => {
    expect(await call({ path: '/codes?q=throwing%20up&limit=2' })).toMatchInlineSnapshot(`
      "GET /codes?q=throwing%20up&limit=2

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en

      {
        "results": [
          {
            "code": "10047700",
            "term": "Vomiting",
            "level": "PT",
            "status": "CURRENT",
            "match": {
              "term": "Throwing up",
              "level": "LLT",
              "code": "90301296",
              "type": "EXACT",
              "isSynonym": true,
              "score": 1
            },
            "hierarchy": [
              { "code": "10017947", "term": "Gastrointestinal disorders", "level": "SOC" },
              { "code": "90100065", "term": "Gastrointestinal signs and symptoms", "level": "HLGT" },
              { "code": "90200125", "term": "Nausea and vomiting symptoms", "level": "HLT" },
              { "code": "10047700", "term": "Vomiting", "level": "PT" }
            ]
          }
        ],
        "meta": { "page": 1, "limit": 2, "total": 1, "next": null, "previous": null }
      }"
    `);
  });

  it('GET /codes: listing with filters, in an older release chosen by header', async () => {
    expect(await call({ path: '/codes?soc=10017947&level=PT&limit=2', headers: { 'X-Terminology-Version': '5.0' } })).toMatchInlineSnapshot(`
      "GET /codes?soc=10017947&level=PT&limit=2
      X-Terminology-Version: 5.0

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0
      X-Request-Id: <request-id>
      Content-Language: en

      {
        "results": [
          {
            "code": "10000060",
            "term": "Abdominal distension",
            "level": "PT",
            "status": "CURRENT",
            "match": null,
            "hierarchy": [
              { "code": "10017947", "term": "Gastrointestinal disorders", "level": "SOC" },
              { "code": "90100065", "term": "Gastrointestinal signs and symptoms", "level": "HLGT" },
              { "code": "90200127", "term": "Flatulence and bloating", "level": "HLT" },
              { "code": "10000060", "term": "Abdominal distension", "level": "PT" }
            ]
          },
          {
            "code": "10000081",
            "term": "Abdominal pain",
            "level": "PT",
            "status": "CURRENT",
            "match": null,
            "hierarchy": [
              { "code": "10017947", "term": "Gastrointestinal disorders", "level": "SOC" },
              { "code": "90100065", "term": "Gastrointestinal signs and symptoms", "level": "HLGT" },
              { "code": "90200128", "term": "Gastrointestinal and abdominal pains", "level": "HLT" },
              { "code": "10000081", "term": "Abdominal pain", "level": "PT" }
            ]
          }
        ],
        "meta": { "page": 1, "limit": 2, "total": 123, "next": "?soc=10017947&level=PT&page=2&limit=2", "previous": null }
      }"
    `);
  });

  it('GET /versions/{toVersionId}/changes: what changed from the previous release', async () => {
    expect(await call({ path: '/versions/5.0.1/changes?level=PT&changeType=updated&limit=2' })).toMatchInlineSnapshot(`
      "GET /versions/5.0.1/changes?level=PT&changeType=updated&limit=2

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en

      {
        "versions": { "from": "5.0", "to": "5.0.1" },
        "changes": { "added": 3, "updated": 14, "retired": 0 },
        "results": {
          "results": [
            {
              "code": "10001723",
              "level": "PT",
              "term": "Allergic rhinitis",
              "changeType": "updated",
              "details": "Primary SOC moved from SOC 10038738 'Respiratory, thoracic and mediastinal disorders' to SOC 10021428 'Immune system disorders'.",
              "previousTerm": null,
              "metadata": {
                "after": { "primarySocCode": "10021428" },
                "kinds": ["primary_soc_changed"],
                "before": { "primarySocCode": "10038738" }
              }
            },
            {
              "code": "10066480",
              "level": "PT",
              "term": "Avascular necrosis",
              "changeType": "updated",
              "details": "Demoted from PT to an LLT of PT 10031264 'Osteonecrosis'.",
              "previousTerm": null,
              "metadata": {
                "after": { "level": "LLT", "ptCode": "10031264" },
                "kinds": ["demoted"],
                "before": { "level": "PT", "primarySocCode": "10028395" }
              }
            }
          ],
          "meta": {
            "page": 1,
            "limit": 2,
            "total": 14,
            "next": "?level=PT&changeType=updated&page=2&limit=2",
            "previous": null
          }
        }
      }"
    `);
  });

  it('GET /codes/{code}/changes?against=: one code compared between two releases', async () => {
    expect(await call({ path: '/codes/10027787/changes?against=5.0' })).toMatchInlineSnapshot(`
      "GET /codes/10027787/changes?against=5.0

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en

      {
        "code": "10027787",
        "versions": { "from": "5.0", "to": "5.0.1" },
        "snapshots": {
          "from": {
            "exists": true,
            "code": "10027787",
            "term": "Mobitz type I",
            "level": "PT",
            "status": "current",
            "primarySocCode": "10007541"
          },
          "to": {
            "exists": true,
            "code": "10027787",
            "term": "Mobitz type I atrioventricular block",
            "level": "PT",
            "status": "current",
            "primarySocCode": "10007541"
          }
        },
        "differences": [
          "PT: Renamed from 'Mobitz type I' to 'Mobitz type I atrioventricular block'.",
          "LLT: Renamed from 'Mobitz type I' to 'Mobitz type I atrioventricular block'."
        ]
      }"
    `);
  });

  it('caching: If-None-Match with the ETag of a catalog answer is 304 Not Modified', async () => {
    const first = await exchange(base, { path: '/codes/10027787' });
    expect(await call({ path: '/codes/10027787', headers: { 'If-None-Match': first.headers.get('etag')! } })).toMatchInlineSnapshot(`
      "GET /codes/10027787
      If-None-Match: "<etag>"

      HTTP/1.1 304 Not Modified
      Content-Type: (none)
      Cache-Control: public, no-cache
      ETag: "<etag>"
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en"
    `);
  });
});

describe('errors (problem JSON)', () => {
  it('404 CODE_NOT_FOUND: a well-formed code the release does not hold', async () => {
    expect(await call({ path: '/codes/99999999' })).toMatchInlineSnapshot(`
      "GET /codes/99999999

      HTTP/1.1 404 Not Found
      Content-Type: application/problem+json; charset=utf-8
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>

      {
        "type": "/problems/code-not-found",
        "title": "Code not found",
        "status": 404,
        "detail": "Code 99999999 does not exist in release 5.0.1.",
        "code": "CODE_NOT_FOUND",
        "requestId": "<request-id>"
      }"
    `);
  });

  it('400 VALIDATION_ERROR: a missing required parameter and an unknown one, each named in errors', async () => {
    expect(await call({ path: '/codes/10027787/changes?foo=1' })).toMatchInlineSnapshot(`
      "GET /codes/10027787/changes?foo=1

      HTTP/1.1 400 Bad Request
      Content-Type: application/problem+json; charset=utf-8
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: (none)
      X-Request-Id: <request-id>

      {
        "type": "/problems/validation",
        "title": "Validation error",
        "status": 400,
        "detail": "against: against is required | foo: unknown parameter 'foo'",
        "code": "VALIDATION_ERROR",
        "requestId": "<request-id>",
        "errors": { "against": ["against is required"], "foo": ["unknown parameter 'foo'"] }
      }"
    `);
  });

  it('405 METHOD_NOT_ALLOWED: a method the path is not served with; Allow lists those it is', async () => {
    expect(await call({ method: 'DELETE', path: '/codes/10047700' })).toMatchInlineSnapshot(`
      "DELETE /codes/10047700

      HTTP/1.1 405 Method Not Allowed
      Content-Type: application/problem+json; charset=utf-8
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: (none)
      X-Request-Id: <request-id>
      Allow: GET, HEAD, OPTIONS

      {
        "type": "/problems/method-not-allowed",
        "title": "Method not allowed",
        "status": 405,
        "detail": "DELETE is not allowed on /codes/10047700; it is served with GET, HEAD, OPTIONS.",
        "code": "METHOD_NOT_ALLOWED",
        "requestId": "<request-id>"
      }"
    `);
  });
});

describe('GraphQL', () => {
  it('POST /graphql: a code with its parents (a multiaxial PT: two HLTs, one primary) and children', async () => {
    const query = /* GraphQL */ `
      query Code($code: String!) {
        code(code: $code) {
          code term level status
          parents { relationshipType isPrimary code { code term level } }
          children { relationshipType code { code term } }
        }
      }`;
    const req = { path: '/graphql', headers: { Accept: 'application/json' }, body: { query, variables: { code: '10019799' } } };
    expect(await call(req)).toMatchInlineSnapshot(`
      "POST /graphql
      Content-Type: application/json
      Accept: application/json

      query Code($code: String!) {
        code(code: $code) {
          code term level status
          parents { relationshipType isPrimary code { code term level } }
          children { relationshipType code { code term } }
        }
      }
      variables: { "code": "10019799" }

      HTTP/1.1 200 OK
      Content-Type: application/json; charset=utf-8
      Cache-Control: (none)
      ETag: (none)
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en

      {
        "data": {
          "code": {
            "code": "10019799",
            "term": "Hepatitis viral",
            "level": "PT",
            "status": "CURRENT",
            "parents": [
              {
                "relationshipType": "SOC_TO_PT",
                "isPrimary": true,
                "code": { "code": "10021881", "term": "Infections and infestations", "level": "SOC" }
              },
              {
                "relationshipType": "HLT_TO_PT",
                "isPrimary": true,
                "code": { "code": "90200005", "term": "Hepatitis virus infections", "level": "HLT" }
              },
              {
                "relationshipType": "HLT_TO_PT",
                "isPrimary": false,
                "code": { "code": "90200152", "term": "Hepatic inflammatory conditions", "level": "HLT" }
              }
            ],
            "children": [
              { "relationshipType": "PT_TO_LLT", "code": { "code": "10019799", "term": "Hepatitis viral" } },
              { "relationshipType": "PT_TO_LLT", "code": { "code": "90300585", "term": "Hepatitis virus infection" } },
              { "relationshipType": "PT_TO_LLT", "code": { "code": "90300586", "term": "Infectious hepatitis" } },
              { "relationshipType": "PT_TO_LLT", "code": { "code": "90300584", "term": "Viral hepatitis" } }
            ]
          }
        }
      }"
    `);
  });
});
