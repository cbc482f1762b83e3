// The category rule of algorithmic SMQs: parsing (no eval) and evaluation per case.
import { describe, expect, it } from 'vitest';
import { AlgorithmSyntaxError, evaluateAlgorithm, isAlgorithmic, parseAlgorithm } from '../../src/domain/smqAlgorithm.ts';

const has = (...cats: (string | [string, number])[]) => new Map(cats.map((c) => (typeof c === 'string' ? [c, 0] : c)));
const run = (rule: string, cats: Map<string, number>) => evaluateAlgorithm(parseAlgorithm(rule), cats);

describe('SMQ algorithms', () => {
  it('N and empty are not algorithmic', () => {
    expect(isAlgorithmic('N')).toBe(false);
    expect(isAlgorithmic(' n ')).toBe(false);
    expect(isAlgorithmic('')).toBe(false);
    expect(isAlgorithmic('A or B')).toBe(true);
  });

  it('and binds tighter than or; not tighter than and; parentheses group', () => {
    const rule = 'A or (B and C) or (D and (B or C))';
    expect(run(rule, has('A'))).toBe(true);
    expect(run(rule, has('B'))).toBe(false);
    expect(run(rule, has('B', 'C'))).toBe(true);
    expect(run(rule, has('D'))).toBe(false);
    expect(run(rule, has('D', 'C'))).toBe(true);
    expect(run('A or B and C', has('B'))).toBe(false);
    expect(run('A or B and C', has('A'))).toBe(true);
    expect(run('(A or B) and C', has('A'))).toBe(false);
    expect(run('A and not B', has('A'))).toBe(true);
    expect(run('A and not B', has('A', 'B'))).toBe(false);
    expect(run('a & (b | c)', has('A', 'C'))).toBe(true);
    expect(run('A*B', has('A', 'B'))).toBe(true);
    expect(run('A AND B OR C', has('C'))).toBe(true);
  });

  it('weight thresholds sum the categories present', () => {
    expect(run('WEIGHT >= 6', has(['A', 3], ['B', 3]))).toBe(true);
    expect(run('weight>=6', has(['A', 3], ['B', 2]))).toBe(false);
    expect(run('A or SUM > 4', has(['B', 5]))).toBe(true);
    expect(run('W = 2', has(['B', 2]))).toBe(true);
    expect(run('W < 2', has(['B', 2]))).toBe(false);
    expect(run('W <= 2 and B', has(['B', 2]))).toBe(true);
  });

  it('refuses what it cannot read, without evaluating anything', () => {
    for (const bad of ['A or', '(A', 'A B', 'AB', 'process.exit()', 'A; B', 'WEIGHT >= ', 'A)', '', '((((((((((((((((((((((((((((((((((((((((((((((((((((((A))))))))))))))))))))))))))))))))))))))))))))))))))))))', 'not '.repeat(60) + 'A', 'A or '.repeat(500) + 'A']) {
      expect(() => parseAlgorithm(bad), bad.slice(0, 30)).toThrow(AlgorithmSyntaxError);
    }
  });
});
