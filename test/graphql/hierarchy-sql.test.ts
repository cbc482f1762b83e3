// N+1 guard: a whole subtree costs one SQL statement per hierarchy level, whatever its width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec } from '../helpers/medascii.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';

let t: TestApp;
let wideSoc: string;
let widePt: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'syn-'));
  const syn = generateRelease({ seed: 7, version: '80.0', scale: 0.03, withSmq: false });
  await writeMedAscii(syn, path.join(dir, '80.0'));
  // A long catalogue TTL keeps release lookups out of the count: only hierarchy SQL is measured.
  t = await createTestApp({ fixtures: [miniSpec('1.0')], dirs: [path.join(dir, '80.0')], catalogTtlMs: 600_000 });
  // The widest SOC of the synthetic release, and a PT with several paths.
  const socs = (await t.db.prisma.$queryRawUnsafe<{ c: number }[]>(`SELECT p.soc_code AS c FROM release r, hierarchy_path_at(r.id) p WHERE r.version = '80.0' GROUP BY p.soc_code ORDER BY count(*) DESC LIMIT 1`));
  wideSoc = String(socs[0]!.c);
  const pts = (await t.db.prisma.$queryRawUnsafe<{ c: number }[]>(`SELECT p.pt_code AS c FROM release r, hierarchy_path_at(r.id) p WHERE r.version = '80.0' GROUP BY p.pt_code ORDER BY count(*) DESC LIMIT 1`));
  widePt = String(pts[0]!.c);
});
afterAll(async () => {
  await t?.cleanup();
});

const SUBTREE = `query($code: String!, $version: String) {
  code(code: $code, version: $version) { code term
    children { relationshipType isPrimary code { code term level
      children { relationshipType code { code term level
        children { isPrimary code { code term level status
          children { code { code term status isPrimary } } } } } } } } } }`;

const UPWARDS = `query($code: String!, $version: String) {
  code(code: $code, version: $version) { code term
    parents { relationshipType code { code term level
      parents { code { code term level
        parents { code { code term level } } } } } } } }`;

async function measure(query: string, variables: Record<string, string>) {
  await t.graphql('{ versions(first: 5) { totalCount } }'); // warm the release cache
  t.queries.length = 0;
  const r = await t.graphql(query, variables);
  expect(r.body.errors).toBeUndefined();
  return { data: r.body.data, statements: [...t.queries] };
}

function countNodes(node: any): number {
  return 1 + (node.children ?? []).reduce((n: number, c: any) => n + countNodes(c.code), 0);
}

describe('hierarchy queries are batched', () => {
  it('a narrow SOC subtree down to LLTs: one statement for the code and one per level', async () => {
    const { data, statements } = await measure(SUBTREE, { code: '10017947', version: '1.0' });
    expect(countNodes(data.code)).toBeGreaterThan(8);
    expect(statements.length).toBe(1 + 4);
  });

  it('the widest synthetic SOC subtree costs exactly the same number of statements', async () => {
    const { data, statements } = await measure(SUBTREE, { code: wideSoc, version: '80.0' });
    expect(countNodes(data.code)).toBeGreaterThan(200);
    expect(statements.length).toBe(1 + 4);
  });

  it('a multiaxial PT up to all its SOCs: one statement per level', async () => {
    const { data, statements } = await measure(UPWARDS, { code: widePt, version: '80.0' });
    const socs = new Set<string>();
    const walk = (n: any) => {
      if (n.level === 'SOC') socs.add(n.code);
      for (const p of n.parents ?? []) walk(p.code);
    };
    walk(data.code);
    expect(socs.size).toBeGreaterThan(1);
    expect(statements.length).toBe(1 + 3);
  });

  it('paths and synonyms of many search hits are batched too', async () => {
    await t.graphql('{ versions(first: 5) { totalCount } }');
    t.queries.length = 0;
    const r = await t.graphql(`{ codes(version: "80.0", level: PT, first: 50) { edges { node { code {
      code primaryPath { nodes { code term } } synonyms(first: 3) { totalCount edges { node { term } } } } } } } }`);
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    expect(r.body.data.codes.edges).toHaveLength(50);
    // The listing loads the release index from its snapshot (through the database's binary COPY
    // channel, not a Prisma statement); the listing, paths, path node names and synonyms then
    // answer from it: not one statement.
    expect(t.queries).toEqual([]);
  });
});
