// Applies prisma/migrations/*/migration.sql in order and records each in
// _prisma_migrations exactly as `prisma migrate deploy` does, so Prisma's own
// tooling recognises the database later. (Prisma's schema engine cannot be
// downloaded on our machines, hence this small runner.)
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Database, RawConnection } from './client.ts';
import { migrationsDir as defaultDir } from '../paths.ts';

// Same key as Prisma's migrate advisory lock, so our runner and Prisma exclude each other.
const ADVISORY_LOCK_KEY = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
  /** Applied migrations whose file changed since (Prisma warns about these too). */
  modified: string[];
}

export class MigrationError extends Error {}

export function readMigrations(dir = defaultDir): Migration[] {
  // An installation without its migrations would otherwise "succeed" on an empty schema.
  if (!existsSync(dir)) throw new Error(`The migrations folder ${dir} is missing: the installation is incomplete.`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** A PGlite instance as the runner's session (the build's empty store, a store upgrade's two clusters; whichever PGlite version). */
export function pgliteSession(client: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>; exec(script: string): Promise<unknown> }): RawConnection {
  return {
    query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
    exec: async (script) => {
      await client.exec(script);
    },
  };
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Applies what is not yet applied on one session (embedded: the store; the build's empty store too: src/db/seedStore.ts). */
export async function applyMigrations(conn: RawConnection, migrations: Migration[]): Promise<MigrateResult> {
  await conn.exec(CREATE_TABLE);
  const rows = await conn.query<AppliedRow>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
  );
  const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      `Migration ${failed.migration_name} started but did not finish. Inspect the database, then mark it rolled back ` +
        '(UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = …) before retrying.',
    );
  }
  const done = new Map(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]));
  const result: MigrateResult = { applied: [], alreadyApplied: [], modified: [] };
  for (const m of migrations) {
    const prior = done.get(m.name);
    if (prior) {
      result.alreadyApplied.push(m.name);
      if (prior.checksum !== m.checksum) result.modified.push(m.name);
      continue;
    }
    const id = randomUUID();
    // Unlike Prisma, each migration runs in a transaction: a failure leaves no half-applied schema.
    await conn.exec('BEGIN');
    try {
      await conn.query(
        'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
        [id, m.checksum, m.name],
      );
      await conn.exec(m.sql);
      await conn.query(
        'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
        [id],
      );
      await conn.exec('COMMIT');
    } catch (err) {
      await conn.exec('ROLLBACK');
      throw new MigrationError(`Migration ${m.name} failed: ${(err as Error).message}`);
    }
    result.applied.push(m.name);
  }
  return result;
}

export async function migrate(db: Database, dir = defaultDir): Promise<MigrateResult> {
  const migrations = readMigrations(dir);
  return db.withConnection(async (conn) => {
    if (db.mode === 'embedded') return applyMigrations(conn, migrations);
    // Several replicas may start at once against one PostgreSQL: one migrates, the others wait.
    await conn.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      return await applyMigrations(conn, migrations);
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  });
}
