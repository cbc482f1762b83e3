// Opens the configured database and brings its schema up to date.
import type { Config } from '../config.ts';
import { openDatabase, type Database } from './client.ts';
import { migrate } from './migrate.ts';
import type { QueryListener } from './instrument.ts';

export async function openMigrated(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'poolSize'> & { replicaUrls?: string[] },
  opts: { onQuery?: QueryListener; onReplicaQuery?: QueryListener } = {},
): Promise<Database> {
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    replicaUrls: config.replicaUrls,
    dataDir: config.dataDir,
    poolSize: config.poolSize,
    ...opts,
  });
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
