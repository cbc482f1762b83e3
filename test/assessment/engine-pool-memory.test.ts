// The engine pool's memory on worker threads, as memory_cache_bytes shows it: each worker keeps
// its built vocabularies within its part of the engine share (MEMORY_BUDGET_MB), and the gauge
// `engineVocabularies` is the sum of what the live workers say they keep; `engineSources` is the
// encoded sources on the serving thread. Real workers (the sources through tsx), the demo store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDemoDatabase, type TestDatabase } from '../helpers/db.ts';
import { EnginePool } from '../../src/assessment/enginePool.ts';
import { loadVocabularySource } from '../../src/assessment/loadVocabulary.ts';
import { encodeSource, vocabularyBytes } from '../../src/assessment/vocabularySource.ts';
import { memoryGauges, type MemoryGauge } from '../../src/observability/signals.ts';

let db: TestDatabase;
let ids: number[];
let sourceBytes: Map<number, number>;
const gauges = memoryGauges as Record<string, MemoryGauge | undefined>;

beforeAll(async () => {
  db = await sharedDemoDatabase();
  ids = (await db.prisma.release.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((r) => r.id);
  sourceBytes = new Map(await Promise.all(ids.map(async (id) => [id, encodeSource(await loadVocabularySource(db.prisma, id)).byteLength] as const)));
}, 300_000);
afterAll(async () => {
  await db?.cleanup();
});

/**
 * Codes one narrative against each release in turn, then waits until the workers' warm-ups (the
 * other worker builds each release's vocabulary too, when the pool hands it the warm-up) have
 * reported: the held bytes unchanged for a second.
 */
async function codeEach(pool: EnginePool): Promise<number> {
  for (const id of ids) expect((await pool.run(id, { op: 'identify', text: 'The patient had nausea and a headache.' })).length).toBeGreaterThan(0);
  let held = -1;
  for (let stable = 0, until = Date.now() + 30_000; stable < 10 && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 100));
    const now = pool.vocabularyBytesHeld();
    stable = now === held ? stable + 1 : 0;
    held = now;
  }
  return held;
}

describe('engine pool memory', () => {
  it('with room for every release, each worker keeps each one, and the gauges say so', async () => {
    const all = [...sourceBytes.values()].reduce((n, b) => n + vocabularyBytes(b), 0);
    const pool = new EnginePool(db.prisma, { workers: 2, timeoutMs: 60_000, maxQueue: 8, vocabularyBytes: 4 * all, sourceBytes: 64 * 2 ** 20 });
    try {
      expect(gauges.engineVocabularies?.budget).toBe(4 * all);
      // Every release is built by the worker that coded it, and by the other one when it ran the warm-up.
      const held = await codeEach(pool);
      expect(held).toBeGreaterThanOrEqual(all);
      expect(held).toBeLessThanOrEqual(2 * all);
      expect(gauges.engineVocabularies?.bytes()).toBe(held);
      expect(gauges.engineSources?.bytes()).toBe([...sourceBytes.values()].reduce((n, b) => n + b, 0));
    } finally {
      await pool.close();
    }
  }, 180_000);

  it('over their budgets, a worker keeps only the newest vocabulary and the serving thread only the newest source', async () => {
    const each = ids.map((id) => vocabularyBytes(sourceBytes.get(id)!));
    const last = each.at(-1)!;
    // Room for one encoded source: the older ones are dropped on the serving thread too.
    const oneSource = Math.max(...sourceBytes.values());
    const pool = new EnginePool(db.prisma, { workers: 2, timeoutMs: 60_000, maxQueue: 8, vocabularyBytes: 2, sourceBytes: oneSource });
    try {
      const held = await codeEach(pool);
      // The worker that coded the last release keeps it alone; the other keeps one vocabulary at most.
      expect(held).toBeGreaterThanOrEqual(last);
      expect(held).toBeLessThanOrEqual(last + Math.max(...each));
      expect(held).toBeLessThan(each.reduce((n, b) => n + b, 0));
      expect(gauges.engineSources?.bytes()).toBe(sourceBytes.get(ids.at(-1)!));
      expect(gauges.engineVocabularies?.bytes()).toBe(held);
    } finally {
      await pool.close();
    }
  }, 180_000);
});
