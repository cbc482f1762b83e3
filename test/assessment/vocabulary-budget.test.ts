// A coding-engine worker keeps its built vocabularies within the byte budget each task names
// (its part of MEMORY_BUDGET_MB's engine share): the least recently used goes first, the newest
// stays whatever its size, and the bytes it reports (memory_cache_bytes `engineVocabularies`,
// summed over the workers by the pool) are the estimates of what it keeps.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/import.ts';
import { vocabularySourceFromModel } from '../../tools/eval/vocabularyFromModel.ts';
import { projectRoot } from '../../src/paths.ts';
import { encodeSource, vocabularyBytes } from '../../src/assessment/vocabularySource.ts';
import { vocabularyKeeper } from '../../src/assessment/nlpWorker.ts';
import { memoryShares } from '../../src/config.ts';

const VERSIONS = ['4.03', '5.0', '5.0.1'];
let sources: SharedArrayBuffer[];
const est = (i: number) => vocabularyBytes(sources[i]!.byteLength);

beforeAll(() => {
  sources = VERSIONS.map((v) => encodeSource(vocabularySourceFromModel(loadRelease(path.join(projectRoot, 'data', 'demo', v)))));
});

describe('worker vocabularies within a byte budget', () => {
  it('the engine shares of the default budget: 128 MB of vocabularies for all workers, 32 MB of sources', () => {
    expect(memoryShares(1024).engineVocabularies).toBe(128 * 1024 * 1024);
    expect(memoryShares(1024).engineSources).toBe(32 * 1024 * 1024);
    // A full-size vocabulary (a ~4.2 MB source) is counted at ~50 MB: two workers keep one each.
    expect(vocabularyBytes(4_188_731) / 2 ** 20).toBeGreaterThan(45);
  });

  it('keeps what fits, drops the least recently used, and reports the bytes it keeps', () => {
    const keeper = vocabularyKeeper();
    const budget = est(0) + est(1) + 1;
    const first = keeper.get(1, sources[0]!, budget);
    keeper.get(2, sources[1]!, budget);
    expect(keeper.releases().sort()).toEqual([1, 2]);
    expect(keeper.bytes()).toBe(est(0) + est(1));
    // Used again: found, not rebuilt.
    expect(keeper.get(1, sources[0]!, budget)).toBe(first);
    // A third does not fit beside both: release 2, the least recently used, goes.
    keeper.get(3, sources[2]!, budget);
    expect(keeper.releases()).not.toContain(2);
    expect(keeper.releases()).toContain(3);
    expect(keeper.bytes()).toBeLessThanOrEqual(budget);
    expect(keeper.bytes()).toBe(keeper.releases().reduce((n, id) => n + est(id - 1), 0));
  });

  it('keeps the newest even when it alone is over the budget', () => {
    const keeper = vocabularyKeeper();
    keeper.get(1, sources[0]!, 1);
    const second = keeper.get(2, sources[1]!, 1);
    expect(keeper.releases()).toEqual([2]);
    expect(keeper.bytes()).toBe(est(1));
    expect(keeper.get(2, sources[1]!, 1)).toBe(second);
  });
});
