// A fresh, migrated database per test file: in-memory PGlite, or (TEST_DB=postgres)
// a new database on the TEST_DATABASE_URL server, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { QueryListener } from '../../src/db/instrument.ts';

export const usingPostgres = process.env.TEST_DB === 'postgres';

export interface TestDatabase extends Database {
  /** postgres:// URL of the fresh database (server mode only). */
  url?: string;
  /** Open another connection to the same database (server mode only). */
  cleanup(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createFreshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `te_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return {
    url: withDatabase(admin, name),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestDatabase(opts: { onQuery?: QueryListener; migrate?: boolean } = {}): Promise<TestDatabase> {
  let url: string | undefined;
  let drop = async () => {};
  if (usingPostgres) {
    const fresh = await createFreshPostgres();
    url = fresh.url;
    drop = fresh.drop;
  }
  const db = await openDatabase({ databaseUrl: url, dataDir: 'memory://', onQuery: opts.onQuery, poolSize: 4 });
  if (opts.migrate !== false) await migrate(db);
  return Object.assign(db, {
    url,
    async cleanup() {
      await db.close();
      await drop();
    },
  });
}
