// SMQs imported from MedAscii files (smq_list.asc / smq_content.asc) of two small fixture
// releases: a sub-SMQ, an algorithmic SMQ whose content lists PTs only (LLTs match through
// their PT), every kind of SMQ change between the two, and files the importer refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { writeFixture, type FixtureSpec } from '../helpers/medascii.ts';
import { importRelease } from '../../src/importer/import.ts';
import { ImportValidationError } from '../../src/importer/errors.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

const spec = (version: string): FixtureSpec => ({
  version,
  socs: [
    [10019805, 'Hepatobiliary disorders', 'Hepat'],
    [10040785, 'Skin and subcutaneous tissue disorders', 'Skin'],
  ],
  hlgts: [
    [20000001, 'Hepatic conditions', [10019805]],
    [20000002, 'Skin conditions', [10040785]],
  ],
  hlts: [
    [30000001, 'Hepatic failures', [20000001]],
    [30000002, 'Rashes', [20000002]],
  ],
  pts: [
    [40000001, 'Hepatic failure', 10019805, [30000001]],
    [40000002, 'Jaundice', 10019805, [30000001]],
    [40000003, 'Rash', 10040785, [30000002]],
    [40000004, 'Urticaria', 10040785, [30000002]],
    [40000005, 'Angioedema', 10040785, [30000002]],
  ],
  llts: [
    [50000001, 'Liver failure', 40000001],
    [50000002, 'Yellow skin', 40000002],
    [50000003, 'Hives', 40000004],
  ],
});

const rec = (...f: (string | number)[]) => `${f.join('$')}$\r\n`;
const smq = (code: number, name: string, level: number, algorithm: string, status = 'A', v = '60.0') =>
  rec(code, name, level, `Test query ${code}`, 'test source', '', v, status, algorithm);
const term = (smqCode: number, code: number, level: number, scope: number, category: string, weight: number, status = 'A') =>
  rec(smqCode, code, level, scope, category, weight, status, '60.0', '60.0');

function release(version: string, list: string[], content: string[]): string {
  const dir = writeFixture(spec(version));
  writeFileSync(path.join(dir, 'smq_list.asc'), Buffer.from(list.join(''), 'latin1'));
  writeFileSync(path.join(dir, 'smq_content.asc'), Buffer.from(content.join(''), 'latin1'));
  return dir;
}

const v600 = () =>
  release(
    '60.0',
    [smq(61000001, 'Hepatic parent (SMQ)', 1, 'N'), smq(61000002, 'Hepatic child (SMQ)', 2, 'N'), smq(61000003, 'Allergic algorithm (SMQ)', 1, 'A or (B and C)')],
    [
      term(61000001, 61000002, 0, 0, 'S', 0),
      term(61000002, 40000001, 4, 2, 'A', 0),
      term(61000002, 40000002, 4, 1, 'A', 0),
      term(61000003, 40000005, 4, 2, 'A', 0),
      term(61000003, 40000003, 4, 1, 'B', 0),
      term(61000003, 40000004, 4, 1, 'C', 0),
      term(61000003, 40000002, 4, 1, 'D', 0, 'I'),
    ],
  );

const v601 = () =>
  release(
    '60.1',
    [smq(61000001, 'Hepatic parent (SMQ)', 1, 'N'), smq(61000002, 'Hepatic child, renamed (SMQ)', 2, 'N'), smq(61000003, 'Allergic algorithm (SMQ)', 1, 'A or (B and C)', 'I')],
    [
      term(61000001, 61000002, 0, 0, 'S', 0),
      term(61000002, 40000001, 4, 2, 'A', 0),
      term(61000002, 40000002, 4, 2, 'A', 0), // broad → narrow
      term(61000003, 40000005, 4, 2, 'A', 0),
      term(61000003, 40000003, 4, 1, 'B', 0),
      // Urticaria no longer listed
      term(61000003, 40000002, 4, 1, 'D', 0), // inactive → active
    ],
  );

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ dirs: [v600(), v601()] });
  key = (await createApiKey(t.db.prisma, 'smq import tests')).key;
});
afterAll(async () => {
  await t?.cleanup();
});

describe('SMQs from MedAscii files', () => {
  it('imports the SMQ list with levels, the sub-SMQ link and the algorithm', async () => {
    const list = await t.json('/smqs?version=60.0');
    expect(list.body.results.map((s: any) => [s.code, s.level, s.parentCode, s.isAlgorithmic])).toEqual([
      ['61000003', 1, null, true],
      ['61000002', 2, '61000001', false],
      ['61000001', 1, null, false],
    ]);
    const parent = await t.json('/smqs/61000001?version=60.0');
    expect(parent.body).toMatchObject({ name: 'Hepatic parent (SMQ)', description: 'Test query 61000001', source: 'test source', definitionVersion: '60.0', algorithm: null });
    expect(parent.body.children.map((c: any) => c.code)).toEqual(['61000002']);
    expect(parent.body.terms.counts).toEqual({ narrow: 1, broad: 1 });
    expect(parent.body.terms.results.map((x: any) => [x.term, x.scope, x.smqCode])).toEqual([
      ['Hepatic failure', 'NARROW', '61000002'],
      ['Jaundice', 'BROAD', '61000002'],
    ]);
    const algo = await t.json('/smqs/61000003?version=60.0');
    expect(algo.body.algorithm).toBe('A or (B and C)');
    expect(algo.body.terms.results.map((x: any) => [x.term, x.category, x.status])).toEqual([
      ['Angioedema', 'A', 'ACTIVE'],
      ['Jaundice', 'D', 'INACTIVE'],
      ['Rash', 'B', 'ACTIVE'],
      ['Urticaria', 'C', 'ACTIVE'],
    ]);
    expect((await t.json('/smqs/61000003')).body.status).toBe('INACTIVE');
  });

  it('Code.smqs: an LLT belongs through its PT when the content lists PTs only', async () => {
    const r = await t.graphql('{ code(code: "50000001", version: "60.0") { level smqs { smq { code } scope direct termCode termLevel } } }');
    expect(r.body.data.code).toEqual({ level: 'LLT', smqs: [{ smq: { code: '61000002' }, scope: 'NARROW', direct: false, termCode: '40000001', termLevel: 'PT' }] });
  });

  it('applies the algorithm with LLTs through their PTs; inactive terms do not match', async () => {
    const res = await t.request('/smqs/61000003/apply', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify({
        version: '60.0',
        rows: [
          { rowId: '1', caseId: 'k1', code: '50000003' }, // Hives → Urticaria: C
          { rowId: '2', caseId: 'k1', code: '40000003' }, // Rash: B
          { rowId: '3', caseId: 'k2', code: '40000005' }, // Angioedema: A
          { rowId: '4', caseId: 'k3', code: '40000003' }, // Rash alone: B
          { rowId: '5', caseId: 'k3', code: '50000002' }, // Yellow skin → Jaundice: D, inactive
        ],
      }),
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.counts).toEqual({ rows: 5, narrow: 1, broad: 3, broadSearch: 4, unmatched: 1, problems: 0 });
    expect(body.broad[0]).toMatchObject({ rowId: '1', level: 'LLT', term: 'Hives', matchedCode: '40000004', matchedLevel: 'PT', matchedTerm: 'Urticaria', category: 'C' });
    expect(body.algorithm.cases.map((c: any) => [c.caseId, c.categories.map((x: any) => x.category).join(''), c.matched])).toEqual([
      ['k1', 'BC', true],
      ['k2', 'A', true],
      ['k3', 'B', false],
    ]);
  });

  it('reports every kind of SMQ change between the two releases', async () => {
    const r = await t.json('/versions/60.1/smq-changes');
    expect(r.body.changes).toEqual({ smq_added: 0, smq_retired: 1, smq_updated: 1, term_added: 1, term_removed: 1, term_updated: 1 });
    expect(r.body.results.results.map((c: any) => [c.changeType, c.smqCode, c.termName, c.details])).toEqual([
      ['smq_retired', '61000003', null, 'SMQ made inactive.'],
      ['term_added', '61000003', 'Jaundice', 'PT Jaundice added (broad, category D, made active again).'],
      ['term_removed', '61000003', 'Urticaria', 'PT Urticaria removed.'],
      ['smq_updated', '61000002', null, 'SMQ name "Hepatic child (SMQ)" → "Hepatic child, renamed (SMQ)".'],
      ['term_updated', '61000002', 'Jaundice', 'PT Jaundice: scope broad → narrow.'],
    ]);
  });
});

describe('invalid SMQ files are refused with file, line and reason', () => {
  const refused = async (list: string[], content: string[]) => {
    const dir = release('60.9', list, content);
    const err = await importRelease(t.db, dir).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ImportValidationError);
    return String((err as Error).message) + JSON.stringify((err as { issues?: unknown }).issues ?? '');
  };
  it('unknown PT, LLT and sub-SMQ codes, bad levels and scopes, duplicate rows', async () => {
    const msg = await refused(
      [smq(61000001, 'A (SMQ)', 1, 'N'), smq(61000009, 'B (SMQ)', 7, 'N')],
      [
        term(61000001, 49999999, 4, 2, 'A', 0),
        term(61000001, 59999999, 5, 2, 'A', 0),
        term(61000001, 61000077, 0, 0, 'S', 0),
        term(61000001, 40000001, 3, 2, 'A', 0),
        term(61000001, 40000002, 4, 7, 'A', 0),
        term(61000001, 40000003, 4, 2, 'A', 0),
        term(61000001, 40000003, 4, 1, 'A', 0),
      ],
    );
    for (const m of ['smq_level 7', 'unknown PT code 49999999', 'unknown LLT code 59999999', 'unknown sub-SMQ code 61000077', 'term_level 3', 'term_scope 7', 'duplicate row']) expect(msg).toContain(m);
    expect(msg).toContain('smq_content.asc');
    expect((await t.json('/smqs?version=60.9')).status).toBe(404);
  });
});
