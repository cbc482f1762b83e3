// Each in-memory store of a worker is a copy of the run's template written from one parsed archive
// (test/helpers/pgliteTree.ts): a store's writes, flushed into its files in place, must reach
// neither the worker's later stores (the next test file's) nor its shared demo store. PGlite only:
// on PostgreSQL each store is a database the server copies WITH TEMPLATE.
import { describe, expect, it } from 'vitest';
import { createTestDatabase, sharedDemoDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';

const count = async (db: TestDatabase, sql: string) => Number((await db.prisma.$queryRawUnsafe<{ n: bigint }[]>(sql))[0]!.n);
const names = (db: TestDatabase) => count(db, 'SELECT count(*) AS n FROM concept_name');
const releases = async (db: TestDatabase) => (await db.prisma.release.findMany({ select: { version: true }, orderBy: { version: 'asc' } })).map((r) => r.version);

describe.skipIf(usingPostgres)('stores copied from a worker\'s template', () => {
  it('start pristine after an earlier store of the worker rewrote its files in place', async () => {
    const first = await createTestDatabase({ template: 'demo' });
    const pristine = await names(first);
    expect(pristine).toBeGreaterThan(1_000);
    // Every page of the table rewritten (each row's xmax), then written into the store's files.
    await first.prisma.$executeRawUnsafe('DELETE FROM concept_name');
    await first.prisma.$executeRawUnsafe(`UPDATE release SET version = 'written' WHERE version = '5.0'`);
    await first.prisma.$executeRawUnsafe('CHECKPOINT');
    expect(await names(first)).toBe(0);
    await first.cleanup();

    const second = await createTestDatabase({ template: 'demo' });
    expect(await names(second)).toBe(pristine);
    expect(await releases(second)).toEqual(['4.03', '5.0', '5.0.1']);
    await second.cleanup();

    const shared = await sharedDemoDatabase();
    expect(await names(shared)).toBe(pristine);
    await shared.cleanup();
  });

  it('start pristine from the migrated template too, and each is a store of its own', async () => {
    const [a, b] = [await createTestDatabase(), await createTestDatabase()];
    await a.prisma.apiKey.create({ data: { id: 'written', name: 'written', hash: 'x'.repeat(64), prefix: 'te_written' } });
    await a.prisma.$executeRawUnsafe('CHECKPOINT');
    expect(await count(a, 'SELECT count(*) AS n FROM api_key')).toBe(1);
    expect(await count(b, 'SELECT count(*) AS n FROM api_key')).toBe(0);
    await a.cleanup();
    const c = await createTestDatabase();
    expect(await count(c, 'SELECT count(*) AS n FROM api_key')).toBe(0);
    expect(await count(c, 'SELECT count(*) AS n FROM release')).toBe(0);
    await Promise.all([b.cleanup(), c.cleanup()]);
  });
});
