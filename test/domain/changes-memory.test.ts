// A release pair's change set held in memory (ChangeSetMemory) against the statement it
// replaces on a code page (changesForCodes): the same records, in the same order, for every
// changed code of a synthetic release pair, on PGlite and PostgreSQL; one shared load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { importRelease } from '../../src/importer/import.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';
import { changesForCodes } from '../../src/domain/changes/store.ts';
import { ChangeSetMemory, PairChanges } from '../../src/domain/changes/memory.ts';

let db: TestDatabase;
let fromId: number;
let toId: number;
let changed: number[];
const queries: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ template: 'migrated', onQuery: (sql) => queries.push(sql) });
  const dir = mkdtempSync(path.join(tmpdir(), 'syn-'));
  const r0 = generateRelease({ seed: 13, version: '82.0', scale: 0.02, withSmq: false });
  const r1 = generateRelease({ seed: 13, version: '82.1', scale: 0.02, withSmq: false, changesFrom: r0 });
  await writeMedAscii(r0, path.join(dir, '82.0'));
  await writeMedAscii(r1, path.join(dir, '82.1'));
  fromId = (await importRelease(db, path.join(dir, '82.0'))).releaseId;
  toId = (await importRelease(db, path.join(dir, '82.1'))).releaseId; // stores the pair's change set
  const rows = await db.prisma.$queryRawUnsafe<{ code: number }[]>(
    `SELECT DISTINCT code FROM release_change WHERE from_release_id = $1 AND to_release_id = $2 ORDER BY code`,
    fromId,
    toId,
  );
  changed = rows.map((r) => r.code);
}, 180_000);

afterAll(async () => {
  await db?.cleanup();
});

// Compared as JSON: key order and value types must match too (byte-identical answers).
const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

describe('change sets in memory', () => {
  it('answer every changed code of a release pair as changesForCodes() does', async () => {
    expect(changed.length).toBeGreaterThan(50);
    const pc = (await PairChanges.load(db.prisma, fromId, toId))!;
    const sql = await changesForCodes(db.prisma, changed.map((code) => ({ fromId, toId, code })));
    expect(pc.size).toBe(sql.length);
    let multiLevel = 0;
    for (const code of changed) {
      const fromSql = sql.filter((r) => r.code === code).map(({ fromId: _f, toId: _t, ...c }) => c);
      if (fromSql.length > 1) multiLevel++;
      same(pc.of(code), fromSql);
    }
    // Codes before, between and after the changed ones: nothing.
    const unchanged = await db.prisma.$queryRawUnsafe<{ code: number }[]>(
      `SELECT code FROM concept_at($1) c WHERE NOT EXISTS (SELECT 1 FROM release_change rc WHERE rc.from_release_id = $2 AND rc.to_release_id = $1 AND rc.code = c.code) LIMIT 50`,
      toId,
      fromId,
    );
    expect(unchanged.length).toBeGreaterThan(0);
    for (const { code } of unchanged) expect(pc.of(code)).toEqual([]);
    for (const code of [0, 1, changed[0]! - 1, changed.at(-1)! + 1, 2 ** 31 - 1]) expect(pc.of(code)).toEqual([]);
    expect(multiLevel).toBeGreaterThan(0); // a PT and its own LLT share a code
  });

  it('loads a pair once for concurrent callers, in one statement, and answers peek() only when loaded', async () => {
    const memory = new ChangeSetMemory(2);
    expect(memory.peek(fromId, toId)).toBeUndefined();
    queries.length = 0;
    const [a, b] = await Promise.all([memory.get(fromId, toId, db.prisma), memory.get(fromId, toId, db.prisma)]);
    expect(a).toBe(b);
    expect(queries.filter((q) => q.includes('release_change'))).toHaveLength(1);
    expect(memory.peek(fromId, toId)).toBe(a);
    queries.length = 0;
    expect(await memory.get(fromId, toId, db.prisma)).toBe(a);
    expect(queries).toEqual([]);
  });

  it('does not remember a change set that is not stored; a stored empty one is remembered empty', async () => {
    const memory = new ChangeSetMemory(2);
    // The reverse pair is never stored at import: not an empty set, no set at all.
    expect(await memory.get(toId, fromId, db.prisma)).toBeNull();
    expect(memory.peek(toId, fromId)).toBeUndefined();
    await db.prisma.$executeRawUnsafe(`INSERT INTO change_set (from_release_id, to_release_id, added, updated, retired) VALUES ($1, $1, 0, 0, 0)`, toId);
    try {
      const empty = await memory.get(toId, toId, db.prisma);
      expect(empty?.size).toBe(0);
      expect(memory.peek(toId, toId)).toBe(empty);
    } finally {
      await db.prisma.$executeRawUnsafe(`DELETE FROM change_set WHERE from_release_id = $1 AND to_release_id = $1`, toId);
    }
  });

  it('keeps at most `max` pairs: the least recently used leaves', async () => {
    const memory = new ChangeSetMemory(1);
    await memory.get(fromId, toId, db.prisma);
    await db.prisma.$executeRawUnsafe(`INSERT INTO change_set (from_release_id, to_release_id, added, updated, retired) VALUES ($1, $1, 0, 0, 0)`, fromId);
    try {
      await memory.get(fromId, fromId, db.prisma);
      expect(memory.peek(fromId, fromId)).toBeDefined();
      expect(memory.peek(fromId, toId)).toBeUndefined();
    } finally {
      await db.prisma.$executeRawUnsafe(`DELETE FROM change_set WHERE from_release_id = $1 AND to_release_id = $1`, fromId);
    }
  });
});
