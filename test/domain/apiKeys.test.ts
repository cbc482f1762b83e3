// API-key verification remembers valid keys briefly (no database read per request), forgets
// a key the moment it is revoked through the same module, and never remembers a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { API_KEY_CACHE_TTL_MS, boundApiKeyCache, createApiKey, rememberedApiKeys, revokeApiKey, VERIFIED_KEY_BYTES, verifyApiKey } from '../../src/domain/apiKeys.ts';
import { memoryGauges } from '../../src/observability/signals.ts';
import { memoryShares } from '../../src/config.ts';

let db: TestDatabase;
const queries: string[] = [];
const keyReads = () => queries.filter((q) => /api_?key/i.test(q) && /select/i.test(q)).length;

beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => queries.push(sql), template: 'migrated' });
});
afterAll(async () => {
  await db?.cleanup();
});

describe('verifyApiKey cache', () => {
  it('reads the database once for repeated requests with one key', async () => {
    const { key, info } = await createApiKey(db.prisma, 'cached');
    queries.length = 0;
    for (let i = 0; i < 20; i++) expect(await verifyApiKey(db.prisma, key)).toBe(info.id);
    expect(keyReads()).toBe(1);
    expect(API_KEY_CACHE_TTL_MS).toBeLessThanOrEqual(10_000);
  });

  it('a revoked key is refused at once, even when it was just verified', async () => {
    const { key, info } = await createApiKey(db.prisma, 'to revoke');
    expect(await verifyApiKey(db.prisma, key)).toBe(info.id);
    expect(await revokeApiKey(db.prisma, info.id)).toBe(true);
    expect(await verifyApiKey(db.prisma, key)).toBeNull();
  });

  it('a verification in flight while the key is revoked is not remembered', async () => {
    const { key, info } = await createApiKey(db.prisma, 'raced');
    const inFlight = verifyApiKey(db.prisma, key);
    await revokeApiKey(db.prisma, info.id);
    await inFlight; // whatever it saw, it must not be kept
    expect(await verifyApiKey(db.prisma, key)).toBeNull();
  });

  it('unknown keys are not remembered: each is looked up, and a key created later works at once', async () => {
    const unknown = `sk-${'x'.repeat(43)}`;
    queries.length = 0;
    expect(await verifyApiKey(db.prisma, unknown)).toBeNull();
    expect(await verifyApiKey(db.prisma, unknown)).toBeNull();
    expect(keyReads()).toBe(2);
    const { key, info } = await createApiKey(db.prisma, 'new');
    expect(await verifyApiKey(db.prisma, key)).toBe(info.id);
  });

  it('remembers keys within its byte share (memory_cache_bytes `apiKeys`), the least recently used dropped first', async () => {
    // MEMORY_BUDGET_MB's share: 6.125 MB of the default budget (1/64 of the on-heap pool), ~8,300 keys.
    expect(memoryShares(1024).apiKeys).toBe(6.125 * 1024 * 1024);
    boundApiKeyCache(db.prisma, 3 * VERIFIED_KEY_BYTES);
    const gauge = (memoryGauges as Record<string, { bytes(): number; budget: number } | undefined>).apiKeys!;
    expect(gauge.budget).toBe(3 * VERIFIED_KEY_BYTES);
    const keys = await Promise.all([1, 2, 3, 4, 5].map((i) => createApiKey(db.prisma, `bounded ${i}`)));
    for (const { key, info } of keys) expect(await verifyApiKey(db.prisma, key)).toBe(info.id);
    expect(rememberedApiKeys(db.prisma)).toBe(3);
    expect(gauge.bytes()).toBe(3 * VERIFIED_KEY_BYTES);
    // The three most recent are remembered (no read); the first was dropped (read again).
    queries.length = 0;
    for (const { key } of keys.slice(2)) await verifyApiKey(db.prisma, key);
    expect(keyReads()).toBe(0);
    expect(await verifyApiKey(db.prisma, keys[0]!.key)).toBe(keys[0]!.info.id);
    expect(keyReads()).toBe(1);
    expect(gauge.bytes()).toBeLessThanOrEqual(gauge.budget);
  });
});
