// The release index's hierarchy (parents, children, paths, synonyms, codes at every level)
// against the SQL it replaces on a code page: the same answers, in the same order, for
// every concept of a synthetic release with multi-axial PTs, on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';
import { ReleaseIndex } from '../../src/domain/releaseIndex/releaseIndex.ts';
import { childrenByKeys, parentsByKeys, pathsByKeys, synonymCounts, synonymPages } from '../../src/domain/hierarchy.ts';
import { conceptsByCodes, type ConceptKey } from '../../src/domain/concepts.ts';

let db: TestDatabase;
let releaseId: number;
let keys: ConceptKey[];
let ix: ReleaseIndex;

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated' });
  const dir = mkdtempSync(path.join(tmpdir(), 'syn-'));
  const syn = generateRelease({ seed: 11, version: '81.0', scale: 0.02, withSmq: false });
  await writeMedAscii(syn, path.join(dir, '81.0'));
  releaseId = (await importRelease(db, path.join(dir, '81.0'))).releaseId;
  const rows = await db.prisma.$queryRawUnsafe<{ level: ConceptKey['level']; code: number }[]>(
    `SELECT level::text AS level, code FROM concept_at($1) ORDER BY level, code`,
    releaseId,
  );
  keys = rows.map((r) => ({ releaseId, ...r }));
  ix = await ReleaseIndex.load(db.prisma, releaseId);
}, 180_000);

afterAll(async () => {
  await db?.cleanup();
});

// Compared as JSON: key order and value types must match too (byte-identical answers).
const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

describe('release index hierarchy', () => {
  it('answers children and parents of every concept as childrenByKeys()/parentsByKeys() do', async () => {
    expect(keys.length).toBeGreaterThan(1000);
    const [down, up] = await Promise.all([childrenByKeys(db.prisma, keys), parentsByKeys(db.prisma, keys)]);
    for (const k of keys) {
      same(ix.children(k.level, k.code), down.get(`${releaseId}:${k.level}:${k.code}`));
      same(ix.parents(k.level, k.code), up.get(`${releaseId}:${k.level}:${k.code}`));
    }
  });

  it('answers every path of every concept as pathsByKeys() does, multi-axial PTs included', async () => {
    const all = await pathsByKeys(db.prisma, keys);
    let multi = 0;
    for (const k of keys) {
      const mine = ix.allPaths(k.level, k.code).map((p) => ({ isPrimary: p.isPrimary, nodes: p.nodes.map((n) => ({ releaseId, ...n })) }));
      const sql = all.get(`${releaseId}:${k.level}:${k.code}`)!;
      if (sql.length > 1) multi++;
      same(mine, sql);
    }
    expect(multi).toBeGreaterThan(10);
  });

  it('answers synonym pages, counts and codes at every level as the SQL does', async () => {
    const pts = keys.filter((k) => k.level === 'PT');
    const pages = pts.flatMap((k) => [{ releaseId, ptCode: k.code, offset: 0, limit: 3 }, { releaseId, ptCode: k.code, offset: 1, limit: 100 }]);
    const [sqlPages, counts, byCode] = await Promise.all([
      synonymPages(db.prisma, pages),
      synonymCounts(db.prisma, pts.map((k) => ({ releaseId, ptCode: k.code }))),
      conceptsByCodes(db.prisma, [...new Set(keys.map((k) => k.code))].map((code) => ({ releaseId, code }))),
    ]);
    for (const p of pages) {
      const mine = ix.synonyms(p.ptCode).slice(p.offset, p.offset + p.limit).map((i) => ix.concept(i));
      same(mine, sqlPages.get(`${releaseId}:${p.ptCode}:${p.offset}:${p.limit}`));
    }
    for (const k of pts) expect(ix.synonyms(k.code).length).toBe(counts.get(`${releaseId}:${k.code}`));
    for (const k of keys) same(ix.byCodeAll(k.code).map((i) => ix.concept(i)), byCode.get(`${releaseId}:${k.code}`));
  });
});
