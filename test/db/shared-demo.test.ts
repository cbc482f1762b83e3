// The worker's shared demo store (test/helpers/db.ts sharedDemoDatabase), which the files that only
// read the demo releases take instead of a store each: a file that writes to it fails at cleanup,
// and the next file gets a clean copy. PGlite only: on PostgreSQL each file has a database of its own.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedDemoDatabase, usingPostgres } from '../helpers/db.ts';

const releases = async (db: Awaited<ReturnType<typeof sharedDemoDatabase>>) => (await db.prisma.release.findMany({ select: { version: true }, orderBy: { version: 'asc' } })).map((r) => r.version);

describe.skipIf(usingPostgres)('the shared demo store', () => {
  // Its start (a PGlite from the template) in a hook, outside the tests' timeouts.
  beforeAll(async () => {
    await (await sharedDemoDatabase()).cleanup();
  });

  it('serves reads, counts the holder\'s statements, and is one store for the worker', async () => {
    const statements: string[] = [];
    const a = await sharedDemoDatabase({ onQuery: (sql) => statements.push(sql) });
    expect(await releases(a)).toEqual(['4.03', '5.0', '5.0.1']);
    expect(statements.some((s) => /FROM "public"\."release"/.test(s))).toBe(true);
    await expect(sharedDemoDatabase()).rejects.toThrow(/held/);
    await expect(a.close()).rejects.toThrow(/stays open/);
    await a.cleanup();
    const b = await sharedDemoDatabase();
    expect(b.prisma).toBe(a.prisma);
    const seen = statements.length;
    await releases(b);
    expect(statements).toHaveLength(seen); // the first holder's listener is gone
    await b.cleanup();
  });

  it('fails the file that wrote, even a write rolled back, and gives the next one a clean copy', async () => {
    const a = await sharedDemoDatabase();
    await a.prisma.$executeRawUnsafe(`UPDATE release SET version = 'written' WHERE version = '5.0'`);
    await expect(a.cleanup()).rejects.toThrow(/wrote to the worker's shared demo store/);
    const b = await sharedDemoDatabase();
    expect(b.prisma).not.toBe(a.prisma);
    expect(await releases(b)).toEqual(['4.03', '5.0', '5.0.1']);
    await expect(
      b.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE release SET version = 'written' WHERE version = '5.0'`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await releases(b)).toEqual(['4.03', '5.0', '5.0.1']);
    await expect(b.cleanup()).rejects.toThrow(/wrote/);
    const c = await sharedDemoDatabase();
    await releases(c);
    await c.cleanup();
  });

  it('left held by an earlier file (its hook timed out while taking it), the next file gets a clean copy, not a failure', async () => {
    const a = await sharedDemoDatabase(); // never cleaned up, as by a file whose beforeAll timed out
    const spy = vi.spyOn(expect, 'getState').mockReturnValue({ ...expect.getState(), testPath: '/the/next/file.test.ts' });
    try {
      const b = await sharedDemoDatabase();
      expect(b.prisma).not.toBe(a.prisma);
      expect(await releases(b)).toEqual(['4.03', '5.0', '5.0.1']);
      await b.cleanup();
    } finally {
      spy.mockRestore();
    }
  });
});
