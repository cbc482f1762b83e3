// An embedded store written by PGlite 0.4 (PostgreSQL 17) opens under PGlite 0.5 (PostgreSQL 18)
// by being copied into a new cluster (src/db/storeUpgrade.ts), with every row, sequence and the
// snapshot file copies intact, the old cluster kept beside, and a cut run finished or begun again.
// The old store is made by PGlite 0.4.3 itself (the `pglite-pg17` alias the product ships for
// this): migrated by it, then filled from the demo store with the product's copy.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGlite as OldPGlite } from 'pglite-pg17';
import { pg_trgm as oldTrgm } from 'pglite-pg17/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { applyMigrations, pgliteSession, readMigrations } from '../../src/db/migrate.ts';
import { openMigrated } from '../../src/db/open.ts';
import { CLUSTER_MAJOR, StoreUpgradeError, clusterMajor, copyTables } from '../../src/db/storeUpgrade.ts';
import { freshStore, run, runHere, withStoreDb, type Store } from '../helpers/cli.ts';

type Client = { query: PGlite['query'] };

/** Each table's rows (count and a digest of their text, in order) and each sequence's position: what a store holds. */
async function contents(c: Client): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const tables = (await c.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).rows;
  for (const { t } of tables) {
    const r = (await c.query<{ n: number; d: string | null }>(`SELECT count(*)::int AS n, md5(string_agg(x::text, E'\\n' ORDER BY x::text)) AS d FROM "${t}" x`)).rows[0]!;
    out[t] = `${r.n} ${r.d}`;
  }
  const seqs = (await c.query<{ s: string }>(`SELECT sequencename AS s FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`)).rows;
  for (const { s } of seqs) out[`seq ${s}`] = JSON.stringify((await c.query(`SELECT last_value, is_called FROM "${s}"`)).rows[0]);
  return out;
}

async function readContents(dataDir: string, old = false): Promise<Record<string, string>> {
  const c = old ? await OldPGlite.create({ dataDir, extensions: { pg_trgm: oldTrgm } }) : await PGlite.create({ dataDir, extensions: { pg_trgm } });
  try {
    return await contents(c as Client);
  } finally {
    await c.close();
  }
}

/** The store's root opened as `serve` and the CLI open it (embedded, defaults). */
const open = (dataDir: string, opts?: Parameters<typeof openMigrated>[1]) => openMigrated({ dataDir, databaseUrl: undefined, poolSize: 1 }, opts);

let demo: Store;
let before: Record<string, string>;
let root: string;
/** An untouched store of PGlite 0.4.3 (its root: `pglite/` and the snapshot files' `cache/`), copied for each case. */
let oldStore: string;

function copyOfOldStore(): string {
  const dir = mkdtempSync(path.join(root, 'store-'));
  cpSync(oldStore, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  demo = await freshStore('demo');
  // A key and its use, so keys and their hashes travel too.
  await withStoreDb(demo, (db) => createApiKey(db.prisma, 'upgrade test'));
  before = await readContents(path.join(demo.dataDir!, 'pglite'));
  root = mkdtempSync(path.join(tmpdir(), 'te-upgrade-'));
  oldStore = path.join(root, 'old');
  mkdirSync(oldStore);
  if (existsSync(path.join(demo.dataDir!, 'cache'))) cpSync(path.join(demo.dataDir!, 'cache'), path.join(oldStore, 'cache'), { recursive: true });
  const from = await PGlite.create({ dataDir: path.join(demo.dataDir!, 'pglite'), extensions: { pg_trgm } });
  const to = await OldPGlite.create({ dataDir: path.join(oldStore, 'pglite'), extensions: { pg_trgm: oldTrgm } });
  try {
    await applyMigrations(pgliteSession(to), readMigrations());
    await copyTables(from, to as unknown as Parameters<typeof copyTables>[1]);
  } finally {
    await from.close();
    await to.close();
  }
}, 120_000);

afterAll(async () => {
  await demo?.cleanup();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a store written by PGlite 0.4 (PostgreSQL 17)', () => {
  it('is what the old PGlite wrote, and the installed PGlite writes the major the upgrade targets', async () => {
    expect(clusterMajor(path.join(oldStore, 'pglite'))).toBe('17');
    expect(clusterMajor(path.join(demo.dataDir!, 'pglite'))).toBe(CLUSTER_MAJOR);
    expect(await readContents(path.join(oldStore, 'pglite'), true)).toEqual(before);
  });

  it('opens: copied into a new cluster with every row and sequence, the old cluster kept as a backup, a copy cut short before discarded; a swap cut short is completed; then nothing to do', async () => {
    const store = copyOfOldStore();
    // What a run killed mid-copy leaves: half a cluster beside the old one.
    mkdirSync(path.join(store, 'pglite.upgrading'));
    writeFileSync(path.join(store, 'pglite.upgrading', 'PG_VERSION'), '18\n');
    const progress: string[] = [];
    const db = await open(store, { onUpgradeProgress: (m) => progress.push(m) });
    const upgraded = db.upgraded;
    try {
      expect(await db.prisma.release.count()).toBeGreaterThan(1);
    } finally {
      await db.close();
    }
    expect(upgraded).toMatchObject({ fromMajor: '17', toMajor: CLUSTER_MAJOR, backup: path.join(store, 'pglite-pg17-backup') });
    expect(upgraded!.rows).toBeGreaterThan(1000);
    expect(progress[0]).toMatch(/upgrading the store from PostgreSQL 17/);
    expect(clusterMajor(path.join(store, 'pglite'))).toBe(CLUSTER_MAJOR);
    expect(clusterMajor(upgraded!.backup)).toBe('17');
    expect(existsSync(path.join(store, 'pglite.upgrading'))).toBe(false);

    // The state between the two renames: the old cluster moved aside, the finished copy not yet in place.
    renameSync(path.join(store, 'pglite'), path.join(store, 'pglite.upgrading'));
    writeFileSync(path.join(store, 'pglite.upgrading', 'UPGRADE_COMPLETE'), '');
    const swapped = await open(store);
    expect(swapped.upgraded).toBeUndefined();
    await swapped.close();
    expect(existsSync(path.join(store, 'pglite.upgrading'))).toBe(false);
    expect(existsSync(path.join(store, 'pglite', 'UPGRADE_COMPLETE'))).toBe(false);
    expect(await readContents(path.join(store, 'pglite'))).toEqual(before);
  }, 120_000);

  it('a cluster of a major it cannot read is refused with what to do, and left as it was', async () => {
    const store = copyOfOldStore();
    writeFileSync(path.join(store, 'pglite', 'PG_VERSION'), '16\n');
    const err = await open(store).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUpgradeError);
    expect((err as Error).message).toMatch(/written by PostgreSQL 16; .* reads 18 and can upgrade stores of 17 only\. Import the releases into a new store/);
    expect(readFileSync(path.join(store, 'pglite', 'PG_VERSION'), 'utf8')).toBe('16\n');
    expect(existsSync(path.join(store, 'pglite.upgrading'))).toBe(false);
  });

  it('the CLI (a data command, and `migrate`) says what it did and where the old copy is', async () => {
    const store = copyOfOldStore();
    // As a process of the bundle (bin/terminology.mjs): the old PGlite must load from it as it does from the sources.
    const r = await run(['releases'], { TERMINOLOGY_DATA_DIR: store, TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn' }, 90_000);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/upgrading the store from PostgreSQL 17 to 18/);
    expect(r.stderr).toContain(`upgraded the store from PostgreSQL 17 to 18`);
    expect(r.stderr).toContain(`the old copy is kept at ${path.join(store, 'pglite-pg17-backup')}: delete it once the store has been checked`);
    expect(r.stdout).toMatch(/\d/);
    // `terminology migrate` opens the store its own way: it upgrades it too.
    const other = copyOfOldStore();
    const m = await runHere(['migrate'], { TERMINOLOGY_DATA_DIR: other, TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn' });
    expect(m.code).toBe(0);
    expect(m.stderr).toContain(`the old copy is kept at ${path.join(other, 'pglite-pg17-backup')}`);
    expect(m.stdout).toContain('database is up to date');
  }, 120_000);
});
