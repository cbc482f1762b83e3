// Once a release's in-memory index is built, a code page and a whole subtree answer from
// memory: the same bytes as the SQL path, with no SQL at all (the code page's change record
// comes from the release pair's change set, held in memory once a code page has read it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec } from '../helpers/medascii.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';

let t: TestApp;
let codes: string[];
let wideSoc: string;

const SUBTREE = `query($code: String!, $version: String) {
  code(code: $code, version: $version) { code term
    children { relationshipType isPrimary code { code term level
      children { relationshipType code { code term level
        children { isPrimary code { code term level status
          children { code { code term status isPrimary } } } } } } } } } }`;

const DETAIL = `query($code: String!) { code(code: $code, version: "80.0") { code term level status primarySocCode
  parents { relationshipType isPrimary code { code term level } }
  children { relationshipType isPrimary code { code term level } }
  paths { isPrimary nodes { code term level } }
  synonyms(first: 5) { totalCount edges { node { term } } } } }`;

let before: { rest: string[]; subtree: string; detail: string[] };

async function answers() {
  const rest = [];
  const detail = [];
  for (const c of codes) {
    rest.push(await (await t.request(`/codes/${c}?version=80.0`)).text());
    detail.push(JSON.stringify((await t.graphql(DETAIL, { code: c })).body));
  }
  return { rest, detail, subtree: JSON.stringify((await t.graphql(SUBTREE, { code: wideSoc, version: '80.0' })).body) };
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'syn-'));
  const syn = generateRelease({ seed: 7, version: '80.0', scale: 0.03, withSmq: false });
  await writeMedAscii(syn, path.join(dir, '80.0'));
  // Whole-answer caches off: every request below is executed.
  t = await createTestApp({
    fixtures: [miniSpec('1.0')],
    dirs: [path.join(dir, '80.0')],
    catalogTtlMs: 600_000,
    app: { responseCache: false, graphql: { resultCache: false } },
  });
  const rows = await t.db.prisma.$queryRawUnsafe<{ code: number }[]>(
    `SELECT DISTINCT ON (level) code FROM release r, concept_at(r.id) c WHERE r.version = '80.0' ORDER BY level, code DESC`,
  );
  codes = rows.map((r) => String(r.code));
  const socs = (await t.db.prisma.$queryRawUnsafe<{ c: number }[]>(`SELECT p.soc_code AS c FROM release r, hierarchy_path_at(r.id) p WHERE r.version = '80.0' GROUP BY p.soc_code ORDER BY count(*) DESC LIMIT 1`));
  wideSoc = String(socs[0]!.c);
  before = await answers(); // through SQL: no index built yet
  // A search builds the release's index; past INDEX_WAIT_MS it answers from SQL while the build
  // goes on: searched again until one is answered from the index (no candidate statement).
  for (let i = 0; ; i++) {
    t.queries.length = 0;
    expect((await t.request('/codes?q=pain&version=80.0')).status).toBe(200);
    if (!t.queries.some((q) => /WITH m AS MATERIALIZED/.test(q))) break;
    expect(i).toBeLessThan(600);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 180_000);
afterAll(async () => {
  await t?.cleanup();
});

describe('code pages and subtrees from the release index', () => {
  it('answer byte for byte as the SQL path did', async () => {
    expect(codes).toHaveLength(5);
    const after = await answers();
    expect(after.rest).toEqual(before.rest);
    expect(after.detail).toEqual(before.detail);
    expect(after.subtree).toEqual(before.subtree);
  });

  it('a GraphQL code page (parents, children, paths, synonyms) of every level issues no SQL', async () => {
    for (const c of codes) {
      t.queries.length = 0;
      const r = await t.graphql(DETAIL, { code: c });
      expect(r.body.errors).toBeUndefined();
      expect(t.queries).toEqual([]);
    }
  });

  it('a REST code page issues no SQL once the index and the change pair are loaded', async () => {
    for (const c of codes) {
      t.queries.length = 0;
      expect((await t.request(`/codes/${c}?version=80.0`)).status).toBe(200);
      expect(t.queries, t.queries.join('\n---\n')).toEqual([]);
    }
  });

  it('the widest SOC subtree down to LLTs issues no SQL', async () => {
    t.queries.length = 0;
    const r = await t.graphql(SUBTREE, { code: wideSoc, version: '80.0' });
    expect(r.body.errors).toBeUndefined();
    expect(t.queries).toEqual([]);
  });
});
