// DATABASE_QUERY_TIMEOUT_MS in server mode: a slow statement ends in the database-unavailable
// error (503) after the limit, while sessions (migrations, advisory-lock waits) are exempt
// and hand their connection back with the limit restored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFreshPostgres } from '../helpers/db.ts';
import { openMigrated } from '../../src/db/open.ts';
import type { Database } from '../../src/db/client.ts';
import { isDatabaseUnavailable } from '../../src/db/errors.ts';

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
});
