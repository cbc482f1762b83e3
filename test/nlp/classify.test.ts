import { describe, expect, it } from 'vitest';
import { buildVocabulary, classifyText, identifyEvents, type VocabularyTerm } from '../../src/nlp/index.ts';
import { demoVocabulary, PT } from './demo.ts';

const vocab = demoVocabulary();
const top = (text: string) => classifyText(text, vocab, { limit: 5 })[0];

describe('classifyText (demo release)', () => {
  it('codes the brief example to Vomiting via the LLT "Vomited", with grounded evidence', () => {
    const text = 'Two days after the second dose the patient vomited repeatedly and was admitted overnight; no rash';
    const preds = classifyText(text, vocab);
    expect(preds[0]).toMatchObject({ ptCode: PT.vomiting, matchedLlt: { name: 'Vomited' } });
    expect(preds[0]!.confidence).toBeGreaterThan(0.8);
    for (const e of preds[0]!.evidence) expect(text.slice(e.start, e.end)).toBe(e.text);
    // The negated rash is no evidence for any rash term.
    expect(preds.some((p) => p.ptCode === PT.rashMaculoPapular)).toBe(false);
  });

  it.each([
    ['throwing up all night', PT.vomiting, 'Throwing up'],
    ['tummy ache since lunch', PT.abdominalPain, 'Tummy ache'],
    ['feeling sick after the injection', PT.nausea, 'Feeling sick'],
    ['she was puking', PT.vomiting, 'Puking'],
    ['very tired and dizzy', PT.fatigue, undefined],
  ])('lay language: %s', (text, pt, llt) => {
    const p = top(text)!;
    expect(p.ptCode).toBe(pt);
    if (llt) expect(p.matchedLlt?.name).toBe(llt);
  });

  it.each([
    ['diarhea', PT.diarrhea],
    ['severe diarrhoea', PT.diarrhea],
    ['headahce', PT.headache],
    ['pruritis on both arms', PT.pruritus],
  ])('typos and spelling variants: %s', (text, pt) => {
    expect(classifyText(text, vocab, { limit: 3 }).map((p) => p.ptCode)).toContain(pt);
    expect(top(text)!.ptCode).toBe(pt);
  });

  it('finds both findings of a misspelt pair', () => {
    const preds = classifyText('nasuea and vomitting', vocab, { limit: 2 }).map((p) => p.ptCode);
    expect(preds.sort()).toEqual([PT.nausea, PT.vomiting].sort());
  });

  it('reports the corrected spelling among the reasons', () => {
    const p = top('headahce')!;
    expect(p.reasons.join(' ')).toMatch(/spelling corrected: headahce → headache/);
  });

  it('expands abbreviations the release itself names (MI, ALT)', () => {
    expect(top('acute MI')!.ptCode).toBe(PT.myocardialInfarction);
    expect(top('ALT elevation to 5 x ULN')!.ptCode).toBe(PT.alt);
    expect(top('elevated alanine aminotransferase')!.ptCode).toBe(PT.alt);
  });

  it('prefers the most specific term the text fully covers', () => {
    const terms: VocabularyTerm[] = [
      { code: 1, name: 'Neuropathy', level: 'PT', ptCode: 1, current: true },
      { code: 2, name: 'Peripheral sensory neuropathy', level: 'PT', ptCode: 2, current: true },
      { code: 3, name: 'Sensory neuropathy peripheral', level: 'LLT', ptCode: 2, current: true },
    ];
    const v = buildVocabulary(terms);
    const preds = classifyText('worsening peripheral sensory neuropathy in both feet', v);
    expect(preds[0]!.ptCode).toBe(2);
    expect(preds[0]!.rawScore).toBeGreaterThan(preds.find((p) => p.ptCode === 1)?.rawScore ?? 0);
  });

  it('ranks partial matches below whole-term matches and calibrates them lower', () => {
    const preds = classifyText('vomiting', vocab);
    expect(preds[0]!.ptCode).toBe(PT.vomiting);
    for (const p of preds.slice(1)) {
      expect(p.rawScore).toBeLessThan(preds[0]!.rawScore);
      expect(p.confidence).toBeLessThan(preds[0]!.confidence);
    }
  });

  it('returns nothing for text without findings and honours limit', () => {
    expect(classifyText('', vocab)).toEqual([]);
    expect(classifyText('no rash', vocab).some((p) => p.ptCode === PT.rashMaculoPapular)).toBe(false);
    expect(classifyText('nausea', vocab, { limit: 2 }).length).toBeLessThanOrEqual(2);
  });

  it('is deterministic', () => {
    const text = 'Patient developed hives, itching and throwing up after dose 2';
    expect(classifyText(text, vocab)).toEqual(classifyText(text, vocab));
    expect(identifyEvents(text, vocab)).toEqual(identifyEvents(text, vocab));
  });
});
