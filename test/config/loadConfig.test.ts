// The environment becomes one typed Config (src/config.ts): defaults, the nested shape,
// and the checks between variables, each reported as `  VARIABLE: problem`.
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, HEAP_RESERVE_MB, loadConfig, memoryShares } from '../../src/config.ts';
// @ts-expect-error: a plain .mjs of the launcher, without types
import { heapLimitMb } from '../../bin/heap-limit.mjs';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('loadConfig', () => {
  it('builds the nested shape, empty strings counting as unset', () => {
    const c = loadConfig({ PORT: '', CORS_ORIGINS: 'http://a, http://b,', DATABASE_URL: 'postgres://p', DATABASE_REPLICA_URLS: 'postgres://r1, postgresql://r2', NLP_WORKERS: '2' });
    expect(c.port).toBe(4000);
    expect(c.corsOrigins).toEqual(['http://a', 'http://b']);
    expect(c.replicaUrls).toEqual(['postgres://r1', 'postgresql://r2']);
    expect(c.trustProxy).toEqual({ kind: 'none' });
    expect(c.openai).toBeUndefined();
    expect(c.nlp).toEqual({ workers: 2, timeoutMs: 5_000, maxQueue: 16 });
    expect(c.graphql).toEqual({ maxDepth: 14, maxComplexity: 25_000, introspection: true, persistedOperations: undefined });
    expect(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).openai).toEqual({ apiKey: undefined, baseURL: 'http://127.0.0.1:1/v1', model: 'gpt-4o-mini', timeoutMs: 15_000 });
    expect(CONFIG_VARIABLES).toContain('TRUST_PROXY');
  });

  it('shares MEMORY_BUDGET_MB out among the caches and coded-data classes (README › Configuration)', () => {
    const MB = 1024 * 1024;
    const c = loadConfig({});
    // Off the heap: fractions of the budget. On it: V8's limit (half the budget) less the
    // server's own 64 MB, seven eighths of that (392 MB), split in 64ths.
    const pool = 392 * MB;
    expect(c.memory).toEqual({
      budget: 1024 * MB,
      heap: 512 * MB,
      onHeap: pool,
      warmAnswers: 64 * MB,
      engineVocabularies: 128 * MB,
      engineSources: 32 * MB,
      releaseIndexes: 147 * MB,
      codedUploads: 128.625 * MB,
      graphqlResults: 36.75 * MB,
      changeSets: 36.75 * MB,
      graphqlDocuments: 18.375 * MB,
      codedLists: 12.25 * MB,
      apiKeys: 6.125 * MB,
    });
    expect(c.codedWork.uploads.bytes).toBe(128.625 * MB);
    // The default body limit of POST /impact (32 MB, counted 4×) fits the keyed uploads' share.
    expect(4 * c.maxImpactBodyBytes).toBeLessThanOrEqual(c.codedWork.uploads.bytes);
    expect(c.codedWork.lists.bytes).toBe(12.25 * MB);
    const half = loadConfig({ MEMORY_BUDGET_MB: '512', RESPONSE_CACHE_MB: '0' });
    expect(half.memory).toMatchObject({ warmAnswers: 0, onHeap: 168 * MB, releaseIndexes: 63 * MB, codedUploads: 55.125 * MB, engineVocabularies: 64 * MB, apiKeys: 2.625 * MB });
  });

  it('keeps the on-heap shares within V8 heap limit beside the server own reserve, at every budget', () => {
    const MB = 1024 * 1024;
    for (const budget of [256, 300, 512, 1024, 4096, 65_536]) {
      const m = memoryShares(budget);
      // What the on-heap caches and coded-data classes may hold together (GraphQL documents' errors get a tenth more).
      const onHeap = m.graphqlResults + m.graphqlDocuments * 1.1 + m.releaseIndexes + m.changeSets + m.codedUploads + m.codedLists + m.apiKeys;
      expect(onHeap, `budget ${budget}`).toBeLessThanOrEqual(m.onHeap);
      expect(onHeap + HEAP_RESERVE_MB * MB, `budget ${budget}`).toBeLessThan(m.heap);
      expect(m.heap).toBe(heapLimitMb({ MEMORY_BUDGET_MB: String(budget) })! * MB);
    }
    expect(refused({ MEMORY_BUDGET_MB: '100' })).toMatch(/MEMORY_BUDGET_MB: Too small/);
  });

  it('reports every bad variable on its own line', () => {
    expect(refused({ PORT: '-1', DATABASE_URL: 'mysql://x' })).toBe(
      'Invalid configuration:\n  PORT: Too small: expected number to be >=0\n  DATABASE_URL: must be a postgres:// or postgresql:// URL',
    );
  });

  it('checks TRUST_PROXY and the replica list once the variables themselves are valid', () => {
    expect(refused({ TRUST_PROXY: 'proxy.example' })).toBe("Invalid configuration:\n  TRUST_PROXY: 'proxy.example' is not an IP address or CIDR range");
    expect(refused({ TRUST_PROXY: '10.0.0.0/40' })).toBe("Invalid configuration:\n  TRUST_PROXY: bad prefix in '10.0.0.0/40'");
    expect(refused({ TRUST_PROXY: 'x', PORT: 'y' })).toBe('Invalid configuration:\n  PORT: Invalid input: expected number, received NaN');
    expect(refused({ DATABASE_URL: 'postgres://p', DATABASE_REPLICA_URLS: 'postgres://a, mysql://b' })).toBe(
      'Invalid configuration:\n  DATABASE_REPLICA_URLS: every entry must be a postgres:// URL',
    );
    expect(refused({ DATABASE_REPLICA_URLS: 'postgres://a' })).toBe('Invalid configuration:\n  DATABASE_REPLICA_URLS: needs DATABASE_URL (the primary)');
  });
});
