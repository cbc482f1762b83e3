import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/import.ts';
import { vocabularySourceFromModel } from '../../tools/eval/vocabularyFromModel.ts';
import { projectRoot } from '../../src/paths.ts';
import { decodeSource, encodeSource } from '../../src/assessment/vocabularySource.ts';

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
});
