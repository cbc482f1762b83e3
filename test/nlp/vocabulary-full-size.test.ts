// buildVocabulary at full size (a generated release of ~111,000 PTs and LLTs), timed: seconds of
// CPU, so it runs in `npm run test:bench` (vitest.config.ts, BENCH); test/nlp/vocabulary.test.ts
// builds a tenth of it in `npm test`.
import { describe, expect, it } from 'vitest';
import { buildVocabulary, classifyText, type VocabularyTerm } from '../../src/nlp/index.ts';
import { generateRelease } from '../../tools/synthetic/generate.ts';

describe('buildVocabulary at full size', () => {
  it('builds a full-size release (~111k terms) fast', () => {
    const r = generateRelease({ seed: 7, version: '90.0', withSmq: false });
    const terms: VocabularyTerm[] = [
      ...r.pts.map((p) => ({ code: p.code, name: p.name, level: 'PT' as const, ptCode: p.code, current: true })),
      ...r.llts.map((l) => ({ code: l.code, name: l.name, level: 'LLT' as const, ptCode: l.ptCode, current: l.current })),
    ];
    expect(terms.length).toBeGreaterThan(100_000);
    const t0 = performance.now();
    const v = buildVocabulary(terms);
    const ms = performance.now() - t0;
    console.log(`buildVocabulary: ${terms.length} terms in ${ms.toFixed(0)} ms`);
    expect(v.size).toBe(terms.length);
    // Every PT name codes to itself.
    for (const p of r.pts.slice(0, 200)) expect(classifyText(p.name, v, { limit: 1 })[0]?.ptCode).toBe(p.code);
  });
});
