// The environment becomes one typed Config (src/config.ts): defaults, the nested shape,
// and the checks between variables, each reported as `  VARIABLE: problem`.
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config.ts';

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
    expect(c.memory).toEqual({ budget: 1024 * MB, warmAnswers: 64 * MB, graphqlResults: 64 * MB, graphqlDocuments: 32 * MB, releaseIndexes: 192 * MB, changeSets: 64 * MB, codedUploads: 128 * MB, codedLists: 16 * MB, engineVocabularies: 128 * MB, engineSources: 32 * MB, apiKeys: 4 * MB });
    expect(c.codedWork.uploads.bytes).toBe(128 * MB);
    expect(c.codedWork.lists.bytes).toBe(16 * MB);
    const half = loadConfig({ MEMORY_BUDGET_MB: '512', RESPONSE_CACHE_MB: '0' });
    expect(half.memory).toMatchObject({ warmAnswers: 0, releaseIndexes: 96 * MB, codedUploads: 64 * MB, engineVocabularies: 64 * MB, apiKeys: 2 * MB });
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
