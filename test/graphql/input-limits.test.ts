// The bound on how deep a request's variables nest (src/graphql/inputLimits.ts): checked before
// anything walks them recursively without bound, by a walk that goes over every value once.
import { describe, expect, it } from 'vitest';
import { MAX_NESTING, tooDeep } from '../../src/graphql/inputLimits.ts';

/** `inner` wrapped in `levels` arrays or objects, alternately. */
function nested(levels: number, inner: unknown = 'x'): unknown {
  let v = inner;
  for (let k = 0; k < levels; k++) v = k % 2 ? [v] : { v };
  return v;
}

describe('tooDeep', () => {
  it('refuses objects and arrays nested MAX_NESTING deep, not one fewer', () => {
    expect(tooDeep(nested(MAX_NESTING))).toBe(false);
    expect(tooDeep(nested(MAX_NESTING + 1))).toBe(true);
    // Scalars do not count as a level.
    expect(tooDeep(nested(MAX_NESTING, null))).toBe(false);
    expect(tooDeep(nested(MAX_NESTING, {}))).toBe(true);
  });

  it('finds the one deep branch among wide shallow ones, and stops at the bound in values nested 100,000 deep', () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => ({ code: String(i), term: i % 2 ? null : 't' }));
    expect(tooDeep({ c: wide })).toBe(false);
    expect(tooDeep({ c: [...wide, nested(MAX_NESTING)] })).toBe(true);
    expect(tooDeep(nested(100_000))).toBe(true);
  });

  it('takes scalars and empty values as shallow', () => {
    for (const v of [undefined, null, 1, 'x', true, {}, []]) expect(tooDeep(v)).toBe(false);
  });
});
