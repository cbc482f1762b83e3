// The empty embedded store shipped with the program (src/db/seedStore.ts; dist/store-seed, which
// scripts/build.mjs builds): a new store is unpacked from it, one whose manifest does not match this
// installation is ignored for initdb and the migrations, and either way the store has the same schema and
// migration records. PGlite only: on PostgreSQL the server makes its databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/db/client.ts';
import { migrate, readMigrations } from '../../src/db/migrate.ts';
import { openMigrated } from '../../src/db/open.ts';
import { defaultSeedDir, expectedSeedManifest, loadSeed, SEED_ARCHIVE, SEED_MANIFEST, seedMismatch } from '../../src/db/seedStore.ts';
import { createApiKey, listApiKeys } from '../../src/domain/apiKeys.ts';
import { runHere } from '../helpers/cli.ts';
import { usingPostgres } from '../helpers/db.ts';

const work = mkdtempSync(path.join(tmpdir(), 'te-seed-'));
const open = (dir: string, seed?: { dir: string }) => openMigrated({ databaseUrl: undefined, dataDir: path.join(work, dir), poolSize: 1 }, { seed });

/** A copy of the shipped seed with its manifest changed by `edit`. */
function seedCopy(name: string, edit: (m: Record<string, unknown>) => void, archive?: Buffer): string {
  const dir = path.join(work, name);
  cpSync(defaultSeedDir, dir, { recursive: true });
  const m = JSON.parse(readFileSync(path.join(dir, SEED_MANIFEST), 'utf8')) as Record<string, unknown>;
  edit(m);
  writeFileSync(path.join(dir, SEED_MANIFEST), JSON.stringify(m));
  if (archive) writeFileSync(path.join(dir, SEED_ARCHIVE), archive);
  return dir;
}

/** What a migrated store's schema is, as PostgreSQL's catalog describes it, and its migration records. */
async function describeStore(db: Database) {
  const q = (sql: string) => db.withConnection((c) => c.query(sql));
  return {
    columns: await q(`SELECT table_name, column_name, ordinal_position, udt_name, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`),
    indexes: await q(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`),
    constraints: await q(`SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public' ORDER BY rel, conname`),
    types: await q(`SELECT t.typname, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY t.typname`),
    functions: await q(`SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, pg_get_functiondef(p.oid) AS def
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p') ORDER BY 1, 2`),
    triggers: await q(`SELECT tgname, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t WHERE NOT tgisinternal ORDER BY tgname`),
    views: await q(`SELECT viewname, definition FROM pg_views WHERE schemaname = 'public' ORDER BY viewname`),
    sequences: await q(`SELECT sequence_name, data_type, start_value, increment FROM information_schema.sequences ORDER BY sequence_name`),
    extensions: await q(`SELECT extname, extversion FROM pg_extension ORDER BY extname`),
    migrations: await q(`SELECT migration_name, checksum, applied_steps_count, finished_at IS NOT NULL AS finished, rolled_back_at IS NULL AS live
      FROM "_prisma_migrations" ORDER BY migration_name`),
  };
}

describe.skipIf(usingPostgres)('the shipped empty store', () => {
  let fromArchive: Database;
  let fromInitdb: Database;
  let reason = '';
  beforeAll(async () => {
    fromArchive = await open('a');
    // The same archive, its manifest naming another PGlite: ignored, the store made as before.
    const other = seedCopy('seed-other-pglite', (m) => (m.pglite = '0.0.1'));
    const choice = loadSeed({ dir: other });
    reason = choice.archive ? '' : choice.reason;
    fromInitdb = await open('b', { dir: other });
  }, 120_000);
  afterAll(async () => {
    await fromArchive?.close();
    await fromInitdb?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('matches this installation: the build wrote it for the installed PGlite and these migrations', () => {
    expect(seedMismatch(defaultSeedDir)).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(defaultSeedDir, SEED_MANIFEST), 'utf8'))).toEqual(expectedSeedManifest());
  });

  // An existing store is opened, never replaced by the archive (PGlite would refuse to load it over one):
  // every file that starts a process on a copied template shows that.
  it('makes a new store: unpacked into the data directory, already migrated', async () => {
    expect(fromArchive.created).toEqual({ from: 'archive' });
    expect(existsSync(path.join(work, 'a', 'pglite', 'PG_VERSION'))).toBe(true);
    const again = await migrate(fromArchive);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(readMigrations().map((m) => m.name));
    await createApiKey(fromArchive.prisma, 'written');
    expect((await listApiKeys(fromArchive.prisma)).map((k) => k.name)).toEqual(['written']);
  });

  // `terminology migrate` on a directory with no store makes it as `serve` does (in this process: runHere).
  it('is what `terminology migrate` starts a new store from; a second run finds it up to date', async () => {
    const env = { TERMINOLOGY_DATA_DIR: path.join(work, 'cli') };
    const first = await runHere(['migrate'], env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe('created a new store from the shipped empty store\ndatabase is up to date\n');
    const again = await runHere(['migrate'], env);
    expect(again).toMatchObject({ code: 0, stdout: 'database is up to date\n', stderr: '' });
  });

  it('is ignored when its manifest does not match: initdb and the migrations make a store that works', async () => {
    expect(reason).toMatch(/pglite is "0\.0\.1", this installation's "\d+\.\d+\.\d+"/);
    expect(fromInitdb.created).toEqual({ from: 'initdb', reason });
    expect(await fromInitdb.prisma.release.count()).toBe(0);
    const { key } = await createApiKey(fromInitdb.prisma, 'works');
    expect(key).toMatch(/\S{20,}/);
    expect((await listApiKeys(fromInitdb.prisma)).map((k) => k.name)).toEqual(['works']);
  });

  it('gives the same schema and migration records as initdb and the migrations', async () => {
    const [a, b] = [await describeStore(fromArchive), await describeStore(fromInitdb)];
    expect(a.migrations).toHaveLength(readMigrations().length);
    expect(a.columns.length).toBeGreaterThan(20);
    expect(a.extensions.map((e) => e.extname)).toContain('pg_trgm');
    expect(a).toEqual(b);
  });

  it('says why another manifest or a missing archive is not used', () => {
    const cases: [string, (m: Record<string, unknown>) => void, RegExp][] = [
      ['seed-other-migrations', (m) => (m.migrations = 'f'.repeat(64)), /its migrations is "f{64}"/],
      ['seed-other-format', (m) => (m.format = 0), /its format is 0, this installation's 1/],
    ];
    for (const [name, edit, why] of cases) expect(loadSeed({ dir: seedCopy(name, edit) })).toEqual({ reason: expect.stringMatching(why) });
    const noArchive = seedCopy('seed-no-archive', () => {});
    rmSync(path.join(noArchive, SEED_ARCHIVE));
    expect(loadSeed({ dir: noArchive })).toEqual({ reason: expect.stringMatching(/^no archive at /) });
    expect(loadSeed({ dir: path.join(work, 'nowhere') })).toEqual({ reason: expect.stringMatching(/^no manifest at /) });
    expect(loadSeed(false)).toEqual({ reason: 'disabled' });
  });

  it('refuses a damaged archive whose manifest matches, and leaves no half-made cluster behind', async () => {
    const damaged = seedCopy('seed-damaged', () => {}, readFileSync(path.join(defaultSeedDir, SEED_ARCHIVE)).subarray(0, 4_000_000));
    const exitCode = process.exitCode;
    await expect(open('c', { dir: damaged })).rejects.toThrow(/The shipped empty store did not load .*npm run build/);
    expect(process.exitCode).toBe(exitCode);
    expect(existsSync(path.join(work, 'c', 'pglite'))).toBe(false);
    expect(existsSync(path.join(work, 'c', '.lock'))).toBe(false);
  });
});
