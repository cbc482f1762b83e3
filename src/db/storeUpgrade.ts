// An embedded store written by an older PGlite (PostgreSQL 17: PGlite 0.4) is copied into a new
// cluster of the installed one (PostgreSQL 18: PGlite 0.5) on its first open. PGlite has no
// pg_upgrade and a cluster of another major version does not start, so without this an upgrade
// of the program would lose every hosted release, API key and audit record. The old cluster is
// opened with the old PGlite (the `pglite-pg17` alias of @electric-sql/pglite 0.4.3), brought to
// the current migrations, and every table is copied by binary COPY into a new cluster migrated
// alike; then the directories are swapped and the old one is kept beside as a backup.
// Crash-safe by construction: the new cluster is built under `pglite.upgrading` and only a
// finished one (marked) replaces the old; a start that finds a half-built one discards it and
// begins again, one that finds a finished one whose swap was cut completes the swap.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { StoreUpgrade } from './client.ts';
import { applyMigrations, pgliteSession, readMigrations } from './migrate.ts';
import { loadSeed } from './seedStore.ts';

/** PostgreSQL major version of the installed PGlite's clusters (test/db/storeUpgrade.test.ts checks it against a new store). */
export const CLUSTER_MAJOR = '18';
/** Majors this program can copy from: the PGlite that wrote them ships as a dependency alias. */
const UPGRADABLE = new Set(['17']);
const DONE_MARK = 'UPGRADE_COMPLETE';
/** Rows copied per COPY are bounded by bytes, not count: a table's pages are read in slices of about this much. */
const SLICE_BYTES = 32 * 2 ** 20;

export class StoreUpgradeError extends Error {}

/** The PostgreSQL major version a cluster directory was written by, if it holds one. */
export function clusterMajor(dataDir: string): string | undefined {
  try {
    return readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

/**
 * Brings `dataDir` (the store's `pglite` directory, under its lock) to the installed PGlite's
 * major version when it holds an older cluster; undefined when there is nothing to do. Throws
 * StoreUpgradeError for a cluster this program cannot read (the store is left as it was).
 */
export async function upgradeStoreIfNeeded(dataDir: string, onProgress?: (message: string) => void): Promise<StoreUpgrade | undefined> {
  const work = `${dataDir}.upgrading`;
  // A finished copy whose swap was cut short (the old directory already moved aside).
  if (!existsSync(dataDir) && existsSync(path.join(work, DONE_MARK))) {
    renameSync(work, dataDir);
    rmSync(path.join(dataDir, DONE_MARK), { force: true });
    return undefined;
  }
  const major = clusterMajor(dataDir);
  if (major === undefined || major === CLUSTER_MAJOR) {
    rmSync(work, { recursive: true, force: true }); // a copy begun before a crash, now unneeded
    return undefined;
  }
  if (!UPGRADABLE.has(major)) {
    throw new StoreUpgradeError(
      `The store at ${path.dirname(dataDir)} was written by PostgreSQL ${major}; this version of the program reads ${CLUSTER_MAJOR} and can upgrade stores of ${[...UPGRADABLE].join(', ')} only. ` +
        'Import the releases into a new store (a new DATA_DIR) with this version.',
    );
  }
  const started = performance.now();
  rmSync(work, { recursive: true, force: true });
  onProgress?.(`upgrading the store from PostgreSQL ${major} to ${CLUSTER_MAJOR} (a copy; the old one is kept)`);
  const { PGlite: OldPGlite } = await import('pglite-pg17');
  const { pg_trgm: oldTrgm } = await import('pglite-pg17/contrib/pg_trgm');
  const from = await OldPGlite.create({ dataDir, extensions: { pg_trgm: oldTrgm } });
  let to: PGlite | undefined;
  let tables = 0;
  let rows = 0;
  try {
    const migrations = readMigrations();
    await applyMigrations(pgliteSession(from), migrations);
    // The new cluster from the shipped empty store when it matches (initdb and the migrations are seconds), else initdb.
    const seed = loadSeed(undefined).archive;
    to = await PGlite.create({ dataDir: work, extensions: { pg_trgm }, ...(seed ? { loadDataDir: seed } : {}) });
    await applyMigrations(pgliteSession(to), migrations);
    ({ tables, rows } = await copyTables(from, to, onProgress));
    await to.query('CHECKPOINT');
  } catch (e) {
    await to?.close().catch(() => undefined);
    await from.close().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
    throw new StoreUpgradeError(`The store could not be upgraded (left as it was): ${(e as Error).message}`);
  }
  await to.close();
  await from.close();
  writeFileSync(path.join(work, DONE_MARK), '');
  const backup = `${dataDir}-pg${major}-backup`;
  rmSync(backup, { recursive: true, force: true });
  renameSync(dataDir, backup);
  renameSync(work, dataDir);
  rmSync(path.join(dataDir, DONE_MARK), { force: true });
  return { fromMajor: major, toMajor: CLUSTER_MAJOR, backup, tables, rows, ms: Math.round(performance.now() - started) };
}

interface Column {
  table: string;
  column: string;
}

/** Every table of the public schema, the same in both clusters (the same migrations made them), copied in one transaction of `to`. Exported for the test, which also makes its old store with it. */
export async function copyTables(from: Pick<PGlite, 'query'>, to: Pick<PGlite, 'query' | 'transaction'>, onProgress?: (m: string) => void): Promise<{ tables: number; rows: number }> {
  // Columns as the new cluster has them, generated ones left out (COPY cannot write them).
  const cols = (
    await to.query<Column>(
      `SELECT c.relname AS table, a.attname AS column
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       ORDER BY c.relname, a.attnum`,
    )
  ).rows;
  const byTable = new Map<string, string[]>();
  for (const c of cols) byTable.set(c.table, [...(byTable.get(c.table) ?? []), ident(c.column)]);
  let rows = 0;
  await to.transaction(async (tx) => {
    // Foreign keys and triggers are not checked while the rows arrive in table order: they held in the old cluster.
    await tx.query('SET LOCAL session_replication_role = replica');
    await tx.query(`TRUNCATE ${[...byTable.keys()].map(ident).join(', ')}`);
    for (const [table, list] of byTable) {
      const size = (
        await from.query<{ pages: number; bytes: string }>(
          `SELECT pg_relation_size(c.oid) / current_setting('block_size')::int AS pages, pg_total_relation_size(c.oid)::text AS bytes
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = $1`,
          [table],
        )
      ).rows[0];
      const pages = Number(size?.pages ?? 0);
      // Slices by heap pages (a TID range scan), sized so a slice's rows with their TOAST are ~SLICE_BYTES.
      const step = Math.max(1, Math.floor((pages * SLICE_BYTES) / Math.max(1, Number(size?.bytes ?? 1))));
      const columns = list.join(', ');
      for (let p = 0; p <= pages; p += step) {
        const range = `ctid >= '(${p},0)'::tid AND ctid < '(${p + step},0)'::tid`;
        const out = await from.query(`COPY (SELECT ${columns} FROM ${ident(table)} WHERE ${range}) TO '/dev/blob' WITH (FORMAT binary)`);
        if (!out.blob || out.blob.size <= 21) continue; // the binary header and trailer alone: no rows
        const res = await tx.query(`COPY ${ident(table)} (${columns}) FROM '/dev/blob' WITH (FORMAT binary)`, [], { blob: out.blob });
        rows += res.affectedRows ?? 0;
      }
      onProgress?.(`copied ${table}`);
    }
    // Sequences (serial ids): where the old cluster's stood, so new rows do not reuse an id.
    const seqs = (await tx.query<{ name: string }>(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'S'`)).rows;
    for (const { name } of seqs) {
      const s = (await from.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${ident(name)}`)).rows[0];
      if (s) await tx.query(`SELECT setval($1, $2::bigint, $3)`, [ident(name), s.last_value, s.is_called]);
    }
  });
  return { tables: byTable.size, rows };
}
