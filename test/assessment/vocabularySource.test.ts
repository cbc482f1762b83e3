import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/import.ts';
import { vocabularySourceFromModel } from '../../tools/eval/vocabularyFromModel.ts';
import { projectRoot } from '../../src/paths.ts';
import { decodeSource, encodeSource, encodeSourceInSlices } from '../../src/assessment/vocabularySource.ts';

describe('vocabulary source in shared memory', () => {
  it('round-trips a release: every term (code, name, level, PT, currency) and the grade definitions', () => {
    const src = vocabularySourceFromModel(loadRelease(path.join(projectRoot, 'data', 'demo', '5.0.1')));
    expect(src.terms.some((t) => !t.current)).toBe(true);
    expect(src.grades.size).toBeGreaterThan(0);
    const shared = encodeSource(src);
    expect(shared).toBeInstanceOf(SharedArrayBuffer);
    const back = decodeSource(shared);
    expect(back.terms).toEqual(src.terms);
    expect(back.grades).toEqual(src.grades);
  });

  it('round-trips an empty release', () => {
    expect(decodeSource(encodeSource({ terms: [], grades: new Map() }))).toEqual({ terms: [], grades: new Map() });
  });

  it('encodes in slices (the serving thread yields between them) to the very same bytes', async () => {
    const demo = vocabularySourceFromModel(loadRelease(path.join(projectRoot, 'data', 'demo', '5.0.1')));
    // Several slices of 10,000 terms, with names of several UTF-8 widths and a line break in one.
    const terms = Array.from({ length: 25_003 }, (_, i) => ({ ...demo.terms[i % demo.terms.length]!, code: 90_000_000 + i, name: `${demo.terms[i % demo.terms.length]!.name} ${i % 7 === 0 ? 'Übelkeit 吐き気' : ''}${i === 12_345 ? '\nsecond line' : ''}` }));
    for (const src of [demo, { terms, grades: demo.grades }, { terms: [], grades: new Map() }]) {
      const whole = Buffer.from(new Uint8Array(encodeSource(src)));
      const sliced = Buffer.from(new Uint8Array(await encodeSourceInSlices(src)));
      expect(sliced.equals(whole)).toBe(true);
    }
    expect(decodeSource(await encodeSourceInSlices({ terms, grades: demo.grades })).terms[12_345]!.name).toContain(' second line');
  });
});
