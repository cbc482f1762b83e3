// `terminology releases delete <version>` through the real CLI: it removes the release and says
// what went (rows, and the other releases' index snapshots stored again because they were deltas
// over its snapshot), the other releases stay listed and readable; an unknown version or a
// missing argument is refused clearly. One process run (the command as shipped); the refusals
// run the same command in this process (runHere: test/helpers/cli.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, run, runHere, withStoreDb, type Store } from '../helpers/cli.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { listReleases } from '../../src/domain/releases.ts';

let store: Store;
beforeAll(async () => {
  store = await freshStore();
  for (const v of ['1.0', '2.0']) expect((await runHere(['import', writeFixture(miniSpec(v))], store.env)).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await store?.cleanup();
});

describe('terminology releases delete', () => {
  it('deletes a hosted release and confirms what was removed; the other release stays, its index snapshot stored again', async () => {
    // One open of the store for both reads (each open of a file-backed PGlite is ~0.5 s of CPU).
    const { before, concepts } = await withStoreDb(store, async (db) => ({
      before: await db.prisma.$queryRawUnsafe<{ version: string; base: string | null }[]>(
        `SELECT r.version, b.version AS base FROM release_index_snapshot s JOIN release r ON r.id = s.release_id LEFT JOIN release b ON b.id = s.base_release_id ORDER BY r.ordinal`,
      ),
      concepts: (await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM concept_at((SELECT id FROM release WHERE version = '1.0'))`))[0]!.n,
    }));
    // The newest release's snapshot is whole, the earlier one a delta over it (snapshotChain.ts).
    expect(before).toEqual([{ version: '1.0', base: '2.0' }, { version: '2.0', base: null }]);
    expect(concepts).toBeGreaterThan(0);
    const r = await run(['releases', 'delete', '2.0'], store.env, 90_000);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deleted release 2\.0 \(en\): \d+ content rows removed, \d+ shared with its neighbours cut or extended; 1 other release index snapshot\(s\) that depended on its snapshot stored again\n$/);
    const after = await withStoreDb(store, async (db) => ({
      versions: (await listReleases(db.prisma)).map((x) => x.version),
      snapshots: await db.prisma.$queryRawUnsafe<{ base: number | null }[]>('SELECT base_release_id AS base FROM release_index_snapshot'),
      concepts: (await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM concept_at((SELECT id FROM release WHERE version = '1.0'))`))[0]!.n,
    }));
    expect(after).toEqual({ versions: ['1.0'], snapshots: [{ base: null }], concepts });
    const list = await runHere(['releases'], store.env);
    expect(list.stdout).toBe('1.0\t-\tEnglish\tlatest\n');
  }, 120_000);

  it('refuses an unknown release (exit 1) and a missing version (usage, exit 2), changing nothing', async () => {
    const unknown = await runHere(['releases', 'delete', '2.0'], store.env);
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'Release 2.0 is not hosted.\n' });
    const missing = await runHere(['releases', 'delete'], store.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'version'");
    expect((await runHere(['releases'], store.env)).stdout).toBe('1.0\t-\tEnglish\tlatest\n');
  });
});
