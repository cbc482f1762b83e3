// The narrative endpoints' contract as examples: POST /identify, /classify and /labels/classify
// over the demo releases (latest 5.0.1), sent over real HTTP with an API key, each with its whole
// answer as an inline snapshot; and the 401 a request without a key gets. The offline (lexical)
// engine is deterministic, so confidences are shown as they are. transcript.ts describes the format
// and what is masked (request ids, the API key, ETag values). `npx vitest run test/contract -u`
// rewrites the snapshots when an answer changes on purpose.
import { describe, expect, it } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { exchange, type ContractRequest } from './transcript.ts';

let t: TestApp;
let base: string;
let key: string;

serveTestApp(async (app, url) => {
  t = app;
  base = url;
  key = (await createApiKey(t.db.prisma, 'contract examples')).key;
});

const call = async (req: ContractRequest) => (await exchange(base, req)).text;

describe('narrative endpoints (X-API-Key)', () => {
  it('POST /identify: a narrative split into events (negated and historical findings left out), paged; no codes', async () => {
    const description = 'The patient vomited twice and was admitted overnight; no rash. Later she had a headache. On day 3 she had a fever. History of migraine.';
    expect(await call({ path: '/identify', headers: { 'X-API-Key': key }, body: { description, options: { page: 1, limit: 2 } } })).toMatchInlineSnapshot(`
      "POST /identify
      Content-Type: application/json
      X-API-Key: sk-<key>

      {
        "description": "The patient vomited twice and was admitted overnight; no rash. Later she had a headache. On day 3 she had a fever. History of migraine.",
        "options": { "page": 1, "limit": 2 }
      }

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      X-AI-Notice: Assessments are AI-generated and must be reviewed by a qualified person before use in regulatory submissions.

      {
        "requestId": "<request-id>",
        "version": "5.0.1",
        "provider": "lexical",
        "fallbackReason": null,
        "notice": "Assessments are AI-generated and must be reviewed by a qualified person before use in regulatory submissions.",
        "results": [
          {
            "description": "The patient vomited twice and was admitted overnight.",
            "reasons": ["vomited", "The patient vomited twice and was admitted overnight"],
            "confidence": 0.8332
          },
          {
            "description": "Later she had a headache.",
            "reasons": ["headache", "Later she had a headache."],
            "confidence": 0.8332
          }
        ],
        "meta": { "page": 1, "limit": 2, "total": 3, "next": "?page=2&limit=2", "previous": null }
      }"
    `);
  });

  it('POST /classify: ranked PTs with the LLT matched, plus seriousness and severity (both scales: the default)', async () => {
    const body = {
      description: 'grade 3 diarrhoea, hospitalised',
      assessments: { seriousness: { enabled: true }, severity: { enabled: true } },
      limit: 1,
    };
    expect(await call({ path: '/classify', headers: { 'X-API-Key': key }, body })).toMatchInlineSnapshot(`
      "POST /classify
      Content-Type: application/json
      X-API-Key: sk-<key>

      {
        "description": "grade 3 diarrhoea, hospitalised",
        "assessments": { "seriousness": { "enabled": true }, "severity": { "enabled": true } },
        "limit": 1
      }

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en
      X-AI-Notice: Assessments are AI-generated and must be reviewed by a qualified person before use in regulatory submissions.

      {
        "requestId": "<request-id>",
        "version": "5.0.1",
        "provider": "lexical",
        "fallbackReason": null,
        "notice": "Assessments are AI-generated and must be reviewed by a qualified person before use in regulatory submissions.",
        "results": {
          "terminologyCodes": [
            {
              "value": { "code": "10012727", "term": "Diarrhea", "level": "PT" },
              "confidence": 0.9724,
              "reasons": ["\\"diarrhoea\\" matched LLT \\"Diarrhoea\\""],
              "matchedTerm": { "code": "90300308", "term": "Diarrhoea", "level": "LLT" },
              "hierarchy": [
                { "code": "10017947", "term": "Gastrointestinal disorders", "level": "SOC" },
                { "code": "90100064", "term": "Gastrointestinal motility and defecation conditions", "level": "HLGT" },
                { "code": "90200121", "term": "Diarrhea and malabsorption", "level": "HLT" },
                { "code": "10012727", "term": "Diarrhea", "level": "PT" }
              ]
            }
          ],
          "seriousness": {
            "serious": true,
            "confidence": 0.9072,
            "criteria": {
              "death": { "met": false, "confidence": 0.9892, "reasons": [] },
              "life_threatening": { "met": false, "confidence": 0.9748, "reasons": [] },
              "hospitalization": { "met": true, "confidence": 0.8976, "reasons": ["\\"hospitalised\\""] },
              "disability": { "met": false, "confidence": 0.9885, "reasons": [] },
              "congenital_anomaly": { "met": false, "confidence": 0.9751, "reasons": [] },
              "medically_important": { "met": false, "confidence": 0.9134, "reasons": [] }
            }
          },
          "severity": {
            "ctcae": {
              "value": { "grade": 3, "label": "Severe" },
              "confidence": 0.9167,
              "reasons": ["explicit grade: \\"grade 3\\""]
            },
            "simple": {
              "value": { "grade": "severe" },
              "confidence": 0.9676,
              "reasons": ["from grade 3", "explicit grade: \\"grade 3\\""]
            }
          }
        }
      }"
    `);
  });

  it('POST /labels/classify: the reactions a product label lists (here the first one), each located in the text', async () => {
    const description = 'ADVERSE REACTIONS\nThe most common adverse reactions (>10%) were nausea and headache.';
    expect(await call({ path: '/labels/classify', headers: { 'X-API-Key': key }, body: { description, maxResults: 1 } })).toMatchInlineSnapshot(`
      "POST /labels/classify
      Content-Type: application/json
      X-API-Key: sk-<key>

      {
        "description": "ADVERSE REACTIONS\\nThe most common adverse reactions (>10%) were nausea and headache.",
        "maxResults": 1
      }

      HTTP/1.1 200 OK
      Content-Type: application/json
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: 5.0.1
      X-Request-Id: <request-id>
      Content-Language: en
      X-AI-Notice: Assessments are AI-generated and must be reviewed by a qualified person before use in regulatory submissions.

      {
        "requestId": "<request-id>",
        "version": "5.0.1",
        "provider": "lexical",
        "fallbackReason": null,
        "notice": "Assessments are AI-generated and must be reviewed by a qualified person before use in regulatory submissions.",
        "results": {
          "terminologyCodes": [
            {
              "value": { "code": "10019211", "term": "Headache", "level": "PT" },
              "confidence": 0.8879,
              "reasons": [
                "PT \\"Headache\\": \\"headache\\" matched PT \\"Headache\\"",
                "1 supporting snippet",
                "mentioned in ADVERSE REACTIONS"
              ],
              "matchedTerm": null,
              "hierarchy": [
                { "code": "10029205", "term": "Nervous system disorders", "level": "SOC" },
                { "code": "90100033", "term": "Headaches and neurological pain", "level": "HLGT" },
                { "code": "90200057", "term": "Headache conditions", "level": "HLT" },
                { "code": "10019211", "term": "Headache", "level": "PT" }
              ],
              "rawScore": 0.9,
              "supportingSnippets": [
                {
                  "id": "u0",
                  "context": "adverse_event",
                  "mention": { "text": "headache", "start": 75, "end": 83 },
                  "section": "ADVERSE REACTIONS",
                  "text": "The most common adverse reactions (>10%) were nausea and headache.",
                  "start": 18,
                  "end": 84,
                  "likelihood": 0.9,
                  "confidence": 0.8879,
                  "explanations": [
                    "\\"headache\\" matched PT \\"Headache\\"",
                    "section ADVERSE REACTIONS",
                    "context: adverse_event"
                  ]
                }
              ]
            }
          ],
          "sectionType": "adverse_reactions",
          "sectionTypeSource": "heading",
          "excluded": []
        }
      }"
    `);
  });

  it('401 UNAUTHORIZED: no X-API-Key (checked before the body)', async () => {
    expect(await call({ path: '/classify', body: { description: 'nausea' } })).toMatchInlineSnapshot(`
      "POST /classify
      Content-Type: application/json

      { "description": "nausea" }

      HTTP/1.1 401 Unauthorized
      Content-Type: application/problem+json; charset=utf-8
      Cache-Control: no-store
      ETag: (none)
      X-Terminology-Version: (none)
      X-Request-Id: <request-id>
      WWW-Authenticate: ApiKey header="X-API-Key"

      {
        "type": "/problems/unauthorized",
        "title": "Unauthorized",
        "status": 401,
        "detail": "This endpoint needs an API key: send X-API-Key: sk-….",
        "code": "UNAUTHORIZED",
        "requestId": "<request-id>"
      }"
    `);
  });
});
