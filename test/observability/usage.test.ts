// Per-key usage (src/domain/apiKeyUsage.ts): counted per key and endpoint family, written in
// batches (no statement per request), shared by replicas through the database, and shown by
// `terminology keys list` — on the shipped server, on both databases.
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys } from '../../src/domain/apiKeys.ts';
import { KeyUsageRecorder } from '../../src/domain/apiKeyUsage.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { freshStore, runHere, withStoreDb } from '../helpers/cli.ts';
import { startServerProcess } from '../helpers/server.ts';

describe('per-key usage', () => {
  it('is counted in memory and added in one upsert per flush; two replicas add up', async () => {
    const statements: string[] = [];
    const db = await createTestDatabase({ onQuery: (sql) => statements.push(sql) });
    try {
      const a = await createApiKey(db.prisma, 'a');
      const b = await createApiKey(db.prisma, 'b');
      const replica1 = new KeyUsageRecorder(db.prisma, { flushMs: 60_000 });
      const replica2 = new KeyUsageRecorder(db.prisma, { flushMs: 60_000 });
      statements.length = 0;
      for (let i = 0; i < 500; i++) {
        replica1.record(a.info.id, 'narrative');
        replica2.record(a.info.id, 'narrative');
      }
      replica1.record(a.info.id, 'impact');
      replica2.record(b.info.id, 'smq');
      expect(statements).toEqual([]); // nothing written per use
      await replica1.flush();
      await replica2.flush();
      const writes = statements.filter((s) => /api_key_usage|UPDATE api_key/.test(s));
      expect(writes).toHaveLength(4); // per flush: the usage upsert and the keys' last use
      await replica1.flush(); // nothing pending: no statement
      expect(statements.filter((s) => /api_key_usage|UPDATE api_key/.test(s))).toHaveLength(4);

      const listed = await listApiKeys(db.prisma);
      const byName = Object.fromEntries(listed.map((k) => [k.name, k]));
      expect(byName.a!.usage.map(({ family, count }) => ({ family, count }))).toEqual([
        { family: 'impact', count: 1 },
        { family: 'narrative', count: 1000 },
      ]);
      expect(byName.b!.usage.map(({ family, count }) => ({ family, count }))).toEqual([{ family: 'smq', count: 1 }]);
      expect(byName.a!.lastUsedAt).toBeInstanceOf(Date);
      expect(byName.a!.usage[0]!.lastUsedAt.getTime()).toBeLessThanOrEqual(Date.now());

      // Another flush adds to the stored counts.
      replica2.record(a.info.id, 'impact');
      await replica2.close();
      const again = (await listApiKeys(db.prisma)).find((k) => k.name === 'a')!;
      expect(again.usage.find((u) => u.family === 'impact')!.count).toBe(2);
    } finally {
      await db.cleanup();
    }
  });

  describe('on the shipped server', () => {
    let cleanup = async () => {};
    afterAll(() => cleanup());

    it('counts each request once per family and `keys list` shows it after the server stops', async () => {
      const store = await freshStore('demo');
      cleanup = () => store.cleanup();
      // The key and `keys list` in this process (test/cli/keys.test.ts runs the commands as processes).
      const { key } = await withStoreDb(store, (db) => createApiKey(db.prisma, 'usage'));
      const server = await startServerProcess({ ...store.env, LOG_LEVEL: 'info', NLP_WORKERS: '1', RATE_LIMIT_PER_MINUTE: '0' }, 120_000);
      try {
        const post = async (p: string, body: unknown) => {
          const r = await fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
          await r.arrayBuffer();
          return r.status;
        };
        expect(await post('/identify', { description: 'vomiting' })).toBe(200);
        expect(await post('/identify', { description: 'nausea and vomiting' })).toBe(200);
        // One GraphQL request using two narrative fields: one use of the family.
        expect(await post('/graphql', { query: '{ a: classify(input: { description: "vomiting" }) { terminologyCodes { code { code } } } b: classify(input: { description: "rash" }) { terminologyCodes { code { code } } } }' })).toBe(200);
        expect(await post('/impact', { from: '5.0', to: '5.0.1', rows: [{ rowId: 'r1', code: '10047700' }] })).toBe(200);
        // Refused requests are not uses.
        const refused = await fetch(`${server.url}/identify`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-notakeynotakeynotakey' }, body: '{"description":"x"}' });
        expect(refused.status).toBe(401);
      } finally {
        expect(await server.stop()).toBe(0); // SIGTERM: what was counted is written before the store closes
      }
      const json = await runHere(['keys', 'list', '--json'], store.env);
      expect(json.code, json.stderr).toBe(0);
      const [listed] = JSON.parse(json.stdout) as { usage: { family: string; count: number; lastUsedAt: string }[]; lastUsedAt: string }[];
      expect(listed!.usage.map(({ family, count }) => ({ family, count }))).toEqual([
        { family: 'impact', count: 1 },
        { family: 'narrative', count: 3 },
      ]);
      expect(Date.parse(listed!.lastUsedAt)).toBeGreaterThan(Date.now() - 300_000);
      const text = await runHere(['keys', 'list'], store.env);
      expect(text.stdout).toMatch(/\tactive\t\d{4}-\d\d-\d\dT[^\t]+\timpact=1,narrative=3\n$/);
      expect(text.stdout).not.toContain(key);
    }, 240_000);
  });
});
