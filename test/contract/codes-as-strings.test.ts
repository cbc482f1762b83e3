// Codes are strings in every answer (issue 26): change metadata once answered
// `"ptCode": 10031264` and `"parents": [90200002]`. Every contract transcript is walked for
// numbers under code keys (transcript.ts, with test/helpers/codeValues.ts); here, the walker
// itself, and a store written before the rule: its change sets hold numbers (releases are
// immutable, stored change sets are never recomputed) and must still answer strings, over
// REST, GraphQL (the JSON scalar) and the code page's loader, on both databases.
import { describe, expect, it } from 'vitest';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { numericCodes } from '../helpers/codeValues.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

describe('the numeric-code walker', () => {
  it('names numbers under code keys at any depth, as the issue saw them', () => {
    const before = {
      results: {
        results: [
          { code: '10066480', metadata: { after: { level: 'LLT', ptCode: 10031264 }, before: { level: 'PT', primarySocCode: 10028395 } } },
          { code: '10001723', metadata: { after: { parents: [90200002, '90200003'] }, before: { parents: [] } } },
        ],
      },
    };
    expect(numericCodes(before)).toEqual([
      '$.results.results[0].metadata.after.ptCode = 10031264',
      '$.results.results[0].metadata.before.primarySocCode = 10028395',
      '$.results.results[1].metadata.after.parents[0] = 90200002',
    ]);
    expect(numericCodes({ data: { code: { code: 10027787 } } })).toEqual(['$.data.code.code = 10027787']);
  });

  it('leaves strings and numbers that are not codes alone', () => {
    expect(
      numericCodes({
        code: '10027787',
        parents: [{ code: { code: '10027788' }, isPrimary: true }],
        metadata: { after: { ptCode: '10031264', internationalOrder: 3, parents: ['90200002'] } },
        meta: { page: 1, total: 14 },
        mention: { start: 0, end: 4 },
      }),
    ).toEqual([]);
  });
});

/** Codes back to numbers, as change sets were stored before codes were strings. */
function oldFormat(side: Record<string, unknown>): Record<string, unknown> {
  const out = { ...side };
  for (const k of ['ptCode', 'primarySocCode']) if (typeof out[k] === 'string') out[k] = Number(out[k]);
  if (Array.isArray(out.parents)) out.parents = out.parents.map(Number);
  return out;
}

let t: TestApp;
let base: string;
let rewritten = 0;

serveTestApp(async (app, url) => {
  t = app;
  base = url;
  // Before any request (nothing has read a change set yet): every stored change in the old format.
  type Row = { f: number; t: number; level: string; code: number; metadata: { kinds: string[]; before: Record<string, unknown>; after: Record<string, unknown> } };
  const rows = await t.db.prisma.$queryRawUnsafe<Row[]>(
    `SELECT from_release_id AS f, to_release_id AS t, level::text AS level, code, metadata FROM release_change`,
  );
  for (const r of rows) {
    const old = { ...r.metadata, before: oldFormat(r.metadata.before), after: oldFormat(r.metadata.after) };
    if (JSON.stringify(old) === JSON.stringify(r.metadata)) continue;
    await t.db.prisma.$executeRawUnsafe(
      `UPDATE release_change SET metadata = $1::jsonb WHERE from_release_id = $2 AND to_release_id = $3 AND level = $4::"Level" AND code = $5`,
      JSON.stringify(old), r.f, r.t, r.level, r.code,
    );
    rewritten++;
  }
});

describe('a change set stored with numeric codes (before codes were strings)', () => {
  it('is stored with numbers', async () => {
    expect(rewritten).toBeGreaterThan(10);
    const [row] = await t.db.prisma.$queryRawUnsafe<{ soc: unknown }[]>(
      `SELECT rc.metadata->'after'->'primarySocCode' AS soc FROM release_change rc JOIN release r ON r.id = rc.to_release_id
       WHERE r.version = '5.0.1' AND rc.level = 'PT' AND rc.code = 10001723`,
    );
    expect(row!.soc).toBe(10021428);
  });

  it('answers strings over REST', async () => {
    const res = await fetch(`${base}/versions/5.0.1/changes?limit=100`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.results.length).toBeGreaterThan(20);
    expect(numericCodes(body)).toEqual([]);
    const rhinitis = body.results.results.find((c: { code: string }) => c.code === '10001723');
    expect(rhinitis.metadata).toMatchObject({ before: { primarySocCode: '10038738' }, after: { primarySocCode: '10021428' } });
    const demoted = body.results.results.find((c: { code: string }) => c.code === '10066480');
    expect(demoted.metadata.after).toEqual({ level: 'LLT', ptCode: '10031264' });
  });

  it('answers strings over GraphQL: the changes list and a code’s change', async () => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{
          version(version: "5.0.1") { changes(first: 100) { edges { node { code metadata } } } }
          code(code: "10001723", version: "5.0.1") { change { metadata } }
        }`,
      }),
    });
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.version.changes.edges.length).toBeGreaterThan(20);
    expect(numericCodes(body)).toEqual([]);
    expect(body.data.code.change.metadata).toMatchObject({ after: { primarySocCode: '10021428' } });
    // Parents lists too (a PT that moved between HLTs).
    const withParents = body.data.version.changes.edges.filter((e: any) => Array.isArray(e.node.metadata.after.parents));
    for (const e of withParents) for (const p of e.node.metadata.after.parents) expect(typeof p).toBe('string');
  });
});

describe('codes elsewhere: a label’s excluded candidates, FHIR', () => {
  it('an excluded candidate’s ptCode is a string (REST and GraphQL)', async () => {
    const { key } = await createApiKey(t.db.prisma, 'codes as strings');
    const text = 'EXAMPLAR is indicated for the treatment of hypertension. Nausea occurred in 5% of patients. In rats, seizures were seen.';
    const res = await fetch(`${base}/labels/classify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ description: text, minConfidence: 0, includeExcluded: true }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.excluded.length).toBeGreaterThan(0);
    expect(numericCodes(body)).toEqual([]);
    for (const e of body.results.excluded) expect(e.ptCode).toMatch(/^\d{8}$/);
    const g = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({
        query: 'query($d: String!) { classifyLabel(input: { description: $d, includeExcluded: true, minConfidence: 0 }) { excluded { ptCode context } } }',
        variables: { d: text },
      }),
    });
    const gb = await g.json();
    expect(gb.errors).toBeUndefined();
    expect(gb.data.classifyLabel.excluded.map((e: { ptCode: unknown }) => typeof e.ptCode)).toContain('string');
    expect(numericCodes(gb)).toEqual([]);
  });

  it('FHIR $lookup (parents, children, primary SOC) and $expand answer codes as strings', async () => {
    for (const path of [
      `/fhir/CodeSystem/$lookup?system=${encodeURIComponent('https://www.meddra.org')}&code=10001723&property=parent&property=child&property=primarySOC`,
      `/fhir/ValueSet/$expand?url=${encodeURIComponent('https://www.meddra.org?fhir_vs')}&count=5`,
    ]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      const body = await res.json();
      expect(JSON.stringify(body)).toMatch(/"100\d{5}"/);
      expect(numericCodes(body), path).toEqual([]);
    }
  });
});
