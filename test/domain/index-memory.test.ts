// Release indexes are bounded in bytes as well as in count (issue 27 defect 6): the cache keeps
// built indexes within its share of MEMORY_BUDGET_MB, dropping the least recently used first,
// and always keeps the one just built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { counts, memoryGauges } from '../../src/observability/signals.ts';

let db: TestDatabase;
let ids: number[];

beforeAll(async () => {
  db = await sharedDemoDatabase();
  ids = (await db.prisma.release.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((r) => r.id);
}, 300_000);
afterAll(async () => {
  await db?.cleanup();
});

describe('release index memory', () => {
  it('estimates an index at least at its arrays and names', async () => {
    const ix = await new SearchIndexCache().get(ids[0]!, db.prisma);
    const names = ix.name.reduce((n, s) => n + 2 * s.length, 0);
    expect(ix.approximateBytes()).toBeGreaterThan(names + ix.size * 40);
    expect(ix.approximateBytes()).toBe(ix.approximateBytes()); // computed once
  });

  it('drops the least recently used index when the built ones exceed the byte bound, whatever the count allows', async () => {
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const one = (await new SearchIndexCache().get(ids[0]!, db.prisma)).approximateBytes();
    const bound = Math.floor(one * 2.5);
    const cache = new SearchIndexCache(10, undefined, undefined, {}, bound);
    expect(memoryGauges.releaseIndexes?.budget).toBe(bound);
    const evictions = counts.indexEvictions;
    for (const id of ids.slice(0, 3)) await cache.get(id, db.prisma);
    await new Promise((r) => setImmediate(r));
    expect(cache.bytes()).toBeLessThanOrEqual(bound);
    expect(memoryGauges.releaseIndexes?.bytes()).toBe(cache.bytes());
    expect(cache.peek(ids[0]!), 'the least recently used is gone').toBeUndefined();
    expect(cache.peek(ids[2]!)).toBeDefined();
    expect(counts.indexEvictions).toBeGreaterThan(evictions);
  });

  it('keeps the index just built even when it alone is over the bound', async () => {
    const cache = new SearchIndexCache(10, undefined, undefined, {}, 1);
    await cache.get(ids[0]!, db.prisma);
    await cache.get(ids[1]!, db.prisma);
    await new Promise((r) => setImmediate(r));
    expect(cache.peek(ids[1]!)).toBeDefined();
    expect(cache.peek(ids[0]!)).toBeUndefined();
  });
});
