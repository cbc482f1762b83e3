// DATABASE_QUERY_TIMEOUT_MS in server mode: a slow statement ends in the database-unavailable
// error (503) after the limit, while sessions (migrations, advisory-lock waits) are exempt
// and hand their connection back with the limit restored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshPostgres } from '../helpers/db.ts';
import { openMigrated } from '../../src/db/open.ts';
import type { Database } from '../../src/db/client.ts';
import { isDatabaseUnavailable } from '../../src/db/errors.ts';
import { postgresBlobs } from '../../src/db/blobs.ts';
import { firstField } from '../../src/domain/releaseIndex/snapshotStore.ts';
import pg from 'pg';

let pgdb: Awaited<ReturnType<typeof createFreshPostgres>>;
let db: Database;

beforeAll(async () => {
  pgdb = await createFreshPostgres();
  db = await openMigrated({ databaseUrl: pgdb.url, dataDir: 'memory://', poolSize: 1 }, { queryTimeoutMs: 300 });
});
afterAll(async () => {
  await db?.close();
  await pgdb?.drop();
});

describe('statement limit', () => {
  it('cancels a statement over the limit with an error that answers 503', async () => {
    const started = Date.now();
    const err = await db.prisma.$queryRawUnsafe('SELECT pg_sleep(2)').then(() => null, (e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('does not apply to sessions, and is back in force after one (one pooled connection)', async () => {
    await db.withConnection((c) => c.query('SELECT pg_sleep(0.5)'));
    const [row] = await db.prisma.$queryRawUnsafe<{ statement_timeout: string }[]>('SHOW statement_timeout');
    expect(row!.statement_timeout).toBe('300ms');
  });

  it('a session whose backend is terminated between two statements fails that session, not the process', async () => {
    const err = await db
      .withConnection(async (c) => {
        const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
        const admin = new pg.Client({ connectionString: pgdb.url });
        await admin.connect();
        try {
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        } finally {
          await admin.end();
        }
        // The 57P01 arrives while the session holds no statement (a checked-out, idle client).
        await new Promise((r) => setTimeout(r, 200));
        await c.query('SELECT 1');
      })
      .then(() => null, (e: unknown) => e);
    expect(String(err)).toMatch(/terminat|not queryable/i);
    // The broken connection was discarded: the pool of one serves the next statement.
    expect(await db.prisma.$queryRawUnsafe('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('cancels a binary COPY over the limit too, and the pool is usable after it (one pooled connection)', async () => {
    const started = Date.now();
    await expect(db.blobs.copyOut(`SELECT convert_to(pg_sleep(2)::text, 'UTF8')`)).rejects.toThrow(/statement timeout/);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(Buffer.from(firstField(await db.blobs.copyOut(`SELECT convert_to('ok', 'UTF8')`))!).toString()).toBe('ok');
  });

  it('ends a binary COPY on its own deadline when the server does not cancel it (no statement_timeout)', async () => {
    const pool = new pg.Pool({ connectionString: pgdb.url, max: 1 });
    try {
      const blobs = postgresBlobs(pool, () => pool, 300);
      const started = Date.now();
      await expect(blobs.copyOut(`SELECT convert_to(pg_sleep(3)::text, 'UTF8')`)).rejects.toThrow(/took over 300 ms/);
      expect(Date.now() - started).toBeLessThan(1_500);
      // The connection it was on is discarded, not handed out mid-COPY: the next COPY works.
      expect(Buffer.from(firstField(await blobs.copyOut(`SELECT convert_to('ok', 'UTF8')`))!).toString()).toBe('ok');
    } finally {
      await pool.end();
    }
  });
});
