// Pathological inputs cost time in proportion to their size: each test takes the CPU time of an input and
// one ten times larger in the same run (best of a few runs) and bounds the ratio. Linear
// work gives about 10, the quadratic steps these tests guard against gave 50–100+.
import { describe, expect, it } from 'vitest';
import {
  assessSeriousness,
  classifyLabel,
  classifyText,
  cuesCovering,
  findContextCues,
  identifyEvents,
  matchTerms,
  tokenize,
  wordForms,
} from '../../src/nlp/index.ts';
import { MAX_STEM_LENGTH } from '../../src/nlp/text.ts';
import { demoVocabulary } from './demo.ts';

const vocab = demoVocabulary();

/**
 * The process's CPU time of f in ms, best of a few runs. CPU, not wall time: on a loaded machine
 * the wall time of the larger input also holds the time this process waited for a core, which
 * pushed linear work past the bound (ratios of 30–33 at load 20–25).
 */
function best(f: () => unknown, runs = 5): number {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = process.cpuUsage();
    f();
    const used = process.cpuUsage(t);
    min = Math.min(min, (used.user + used.system) / 1000);
  }
  return min;
}

/** Time of the 10× input over the 1× input (with a floor on the small one so noise cannot inflate it). */
function growth(make: (n: number) => string, run: (text: string) => unknown, n: number): number {
  const small = make(n);
  const large = make(n * 10);
  run(small); // warm the caches and the JIT
  return best(() => run(large)) / Math.max(best(() => run(small)), 5);
}

const LINEAR = 30;

describe('work bounds on pathological input', () => {
  it('a word longer than the stemming cap passes through unstemmed (no quadratic Porter2 run)', () => {
    const long = `${'ab'.repeat(MAX_STEM_LENGTH / 2)}ations`;
    expect(wordForms(long).stem).toBe(long);
    expect(wordForms('vomiting').stem).toBe(wordForms('vomited').stem);
    // A 20k-letter word costs no more than 20k characters of ordinary words.
    const word = 'a'.repeat(20_000);
    const prose = 'nausea and headache '.repeat(1_000);
    classifyText(prose, vocab);
    expect(best(() => classifyText(word, vocab), 3)).toBeLessThan(Math.max(best(() => classifyText(prose, vocab)) * 2, 20));
  });

  it('context cues over a long unpunctuated unit: cuesCovering per match stays linear', () => {
    // Tokens and cues prepared outside the timing: only the lookups are measured.
    const prepared = (n: number) => {
      const text = 'no rash '.repeat(n);
      const tokens = tokenize(text);
      return { tokens, cues: findContextCues(text, tokens) };
    };
    const small = prepared(3_000);
    const large = prepared(30_000);
    const cover = ({ tokens, cues }: ReturnType<typeof prepared>) => {
      let covered = 0;
      for (let i = 0; i < tokens.length; i++) covered += cuesCovering(cues, i, i + 1).length;
      return covered;
    };
    cover(small);
    expect(best(() => cover(large)) / Math.max(best(() => cover(small)), 5)).toBeLessThan(LINEAR);
    // Unit-wide cues ("in rats") are reported once per kind, not once per mention.
    const text = 'rats rash '.repeat(100);
    const tokens = tokenize(text);
    expect(cuesCovering(findContextCues(text, tokens), 1, 2).map((c) => c.kind)).toEqual(['animal']);
  });

  it('coordinated lists with conjunctions: splitting candidates stays linear', () => {
    const match = (text: string) => matchTerms(text, tokenize(text), vocab, { splitConjunctions: true });
    // "Numbness and tingling" is a term: every window over an "and" is a candidate to split.
    expect(growth((n) => 'numbness and tingling and '.repeat(n), match, 400)).toBeLessThan(LINEAR);
  });

  it('a cue repeated in one long sentence: seriousness stays linear', () => {
    expect(growth((n) => 'hospitalized '.repeat(n), assessSeriousness, 1_000)).toBeLessThan(LINEAR);
  });

  it('a long blank run between findings: identify and label coding stay linear', () => {
    const make = (n: number) => `nausea${' '.repeat(n)}x vomiting`;
    expect(growth(make, (t) => identifyEvents(t, vocab), 10_000)).toBeLessThan(LINEAR);
    expect(growth((n) => `viral infections${' '.repeat(n)}, fungal`, (t) => classifyLabel(t, vocab), 10_000)).toBeLessThan(LINEAR);
  });
});
