// The release list is read again ahead of its expiry, in the background, while it is in use: a list in
// steady use never expires on a request's path (on PostgreSQL, every 5 s one request waited for that read,
// behind whatever held the pool), and it is never older than the TTL. A list nobody uses still expires; invalidate() wins over a read begun before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { ReleaseCatalog } from '../../src/domain/catalog.ts';

let db: TestDatabase;
let statements = 0;
const reads = () => statements;
/** The store's client, counting the statements the catalog issues (its only one reads the release list). */
const counted = () => ({ $queryRawUnsafe: ((...args: Parameters<TestDatabase['prisma']['$queryRawUnsafe']>) => (statements++, db.prisma.$queryRawUnsafe(...args))) }) as unknown as TestDatabase['prisma'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  db = await sharedDemoDatabase();
}, 120_000);

afterAll(async () => {
  await db?.cleanup();
});

describe('the release list', () => {
  it('in use past three quarters of its TTL is read again in the background, and is then still fresh past the first TTL', async () => {
    const catalog = new ReleaseCatalog(counted(), 600);
    const first = await catalog.releases();
    expect(first.length).toBeGreaterThan(0);
    const before = reads();
    expect(before).toBeGreaterThan(0);
    await sleep(480);
    // Answered at once from the list it has, the read going on behind.
    expect(catalog.releasesNow()).toBe(first);
    await expect.poll(() => reads(), { timeout: 5_000 }).toBe(before + 1);
    await sleep(200); // past the first read's TTL
    const now = catalog.releasesNow();
    expect(now).toEqual(first);
    expect(now).not.toBe(first);
    expect(reads()).toBe(before + 1);
  });

  it('not used, expires: the next use reads it on its own path', async () => {
    const catalog = new ReleaseCatalog(counted(), 300);
    await catalog.releases();
    await sleep(350);
    expect(catalog.releasesNow()).toBeUndefined();
    const before = reads();
    await catalog.releases();
    expect(reads()).toBe(before + 1);
  });

  it('invalidated while a read ahead is in flight: that read does not store its list', async () => {
    const catalog = new ReleaseCatalog(counted(), 400);
    await catalog.releases();
    await sleep(320);
    const before = reads();
    expect(catalog.releasesNow()).toBeDefined(); // starts the read ahead
    catalog.invalidate();
    await expect.poll(() => reads(), { timeout: 5_000 }).toBe(before + 1);
    await sleep(50);
    expect(catalog.releasesNow()).toBeUndefined();
  });
});
