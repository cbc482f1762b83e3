// Opens the configured database and brings its schema up to date. In server mode the
// database is first reached with bounded attempts (each retry reported), so a PostgreSQL
// that is down, refusing or silent ends start-up with a clear message instead of a hang.
import type { Config } from '../config.ts';
import { openDatabase, type Database } from './client.ts';
import { migrate } from './migrate.ts';
import { loadSeed, type SeedOption } from './seedStore.ts';
import { upgradeStoreIfNeeded } from './storeUpgrade.ts';
import type { QueryListener } from './instrument.ts';

export type DatabaseStartConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'poolSize'> &
  Partial<Pick<Config, 'databaseConnectTimeoutMs' | 'databaseStartTimeoutMs'>> & {
    replicaUrls?: string[];
  };

export interface RetryEvent {
  attempt: number;
  /** Where to (host:port/database: never the credentials). */
  target: string;
  error: string;
  retryInMs: number;
}

export class DatabaseUnreachableError extends Error {}

/** host:port/database of a postgres:// URL, for messages (user and password left out). */
export function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the configured database';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tries SELECT 1 until it answers or the start budget is spent; backoff 0.5 s doubling to 5 s. */
async function reach(db: Database, target: string, connectMs: number, budgetMs: number, onRetry?: (e: RetryEvent) => void): Promise<void> {
  const deadline = Date.now() + budgetMs;
  for (let attempt = 1, wait = 500; ; attempt++, wait = Math.min(wait * 2, 5_000)) {
    try {
      await db.ping(connectMs);
      return;
    } catch (e) {
      const error = (e as Error).message || String(e);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new DatabaseUnreachableError(
          `Cannot reach the database at ${target}: no answer within ${Math.round(budgetMs / 1000)} s (${attempt} attempts; last: ${error}). ` +
            'Check DATABASE_URL and that PostgreSQL is up; DATABASE_START_TIMEOUT_MS sets how long to keep trying.',
        );
      }
      const retryInMs = Math.min(wait, left);
      onRetry?.({ attempt, target, error, retryInMs });
      await sleep(retryInMs);
    }
  }
}

export async function openMigrated(
  config: DatabaseStartConfig,
  opts: {
    onQuery?: QueryListener;
    onReplicaQuery?: QueryListener;
    onRetry?: (e: RetryEvent) => void;
    /** Statement limit for this process's queries (serving: DATABASE_QUERY_TIMEOUT_MS); unset for batch jobs. */
    queryTimeoutMs?: number;
    /** A new embedded store starts from this empty cluster; default the shipped one (src/db/seedStore.ts), false: initdb. */
    seed?: SeedOption;
    /** Embedded: what an upgrade of a store written by an older PGlite is doing (src/db/storeUpgrade.ts). */
    onUpgradeProgress?: (message: string) => void;
  } = {},
): Promise<Database> {
  const connectMs = config.databaseConnectTimeoutMs ?? 5_000;
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    replicaUrls: config.replicaUrls,
    dataDir: config.dataDir,
    poolSize: config.poolSize,
    connectTimeoutMs: connectMs,
    queryTimeoutMs: opts.queryTimeoutMs,
    onQuery: opts.onQuery,
    onReplicaQuery: opts.onReplicaQuery,
    newStore: () => loadSeed(opts.seed),
    upgrade: (dir) => upgradeStoreIfNeeded(dir, opts.onUpgradeProgress),
  });
  try {
    if (db.mode === 'server') await reach(db, describeTarget(config.databaseUrl!), connectMs, config.databaseStartTimeoutMs ?? 60_000, opts.onRetry);
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
