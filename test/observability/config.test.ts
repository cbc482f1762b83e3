// The metrics settings through the config loader (src/config.ts) and what they switch on:
// off unless METRICS_PORT or METRICS_TOKEN is set (src/observability/setup.ts).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createObservability } from '../../src/observability/setup.ts';
import { bearerMatches } from '../../src/observability/httpMetrics.ts';
import { timings } from '../../src/observability/signals.ts';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('metrics configuration', () => {
  it('is off by default: no registry, no timing hooks', () => {
    const c = loadConfig({});
    expect(c.metrics).toEqual({ port: undefined, token: undefined });
    expect(createObservability(c, () => [])).toBeUndefined();
    expect(timings.dbQuery).toBeUndefined();
  });

  it('is on with METRICS_PORT or METRICS_TOKEN, and its hooks go with close()', async () => {
    for (const env of [{ METRICS_PORT: '9464' }, { METRICS_TOKEN: 'a'.repeat(16) }]) {
      const o = createObservability(loadConfig(env), () => ['English'])!;
      expect(o).toBeDefined();
      expect(timings.dbQuery).toBeTypeOf('function');
      await o.close();
      expect(timings.dbQuery).toBeUndefined();
    }
  });

  it('refuses a short or spaced token and METRICS_PORT equal to PORT', () => {
    expect(refused({ METRICS_TOKEN: 'short' })).toBe('Invalid configuration:\n  METRICS_TOKEN: must be at least 16 characters');
    expect(refused({ METRICS_TOKEN: 'with a space in it!!' })).toBe('Invalid configuration:\n  METRICS_TOKEN: must be printable ASCII without spaces');
    expect(refused({ METRICS_PORT: '4000' })).toBe('Invalid configuration:\n  METRICS_PORT: must differ from PORT (use METRICS_TOKEN for /metrics on the main port)');
    expect(refused({ METRICS_PORT: '70000' })).toMatch(/METRICS_PORT: Too big/);
  });

  it('compares the bearer token exactly', () => {
    const token = 'abcdefghijklmnop';
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token.slice(1)}`, token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
  });
});
