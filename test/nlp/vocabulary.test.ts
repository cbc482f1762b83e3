import { describe, expect, it } from 'vitest';
import { buildVocabulary, classifyText, matchTerms, tokenize, type VocabularyTerm } from '../../src/nlp/index.ts';
import { generateRelease } from '../../tools/synthetic/generate.ts';
import { demoVocabulary, PT } from './demo.ts';

const t = (code: number, name: string, ptCode = code, level: 'PT' | 'LLT' = code === ptCode ? 'PT' : 'LLT', current = true): VocabularyTerm => ({
  code, name, level, ptCode, current,
});

const match = (terms: VocabularyTerm[], text: string, typos = false) => {
  const v = buildVocabulary(terms);
  return matchTerms(text, tokenize(text), v, { typos }).map((m) => ({ text: m.text, name: v.terms[m.term]!.name, kind: m.kind }));
};

describe('buildVocabulary', () => {
  it('indexes PTs and LLTs (others ignored) and exposes PT names and grades', () => {
    const v = buildVocabulary(
      [t(1, 'Vomiting'), t(2, 'Throwing up', 1), { code: 9, name: 'Gastrointestinal disorders', level: 'SOC' as 'PT', ptCode: 9, current: true }].filter(
        (x) => x.level !== ('SOC' as string),
      ),
      { grades: new Map([[1, { 1: 'Intervention not indicated', 3: 'Hospitalization indicated' }]]) },
    );
    expect(v.size).toBe(2);
    expect(v.ptName(1)).toBe('Vomiting');
    expect(v.grades.get(1)?.[3]).toBe('Hospitalization indicated');
    const demo = demoVocabulary();
    expect(demo.grades.get(PT.vomiting)?.[3]).toMatch(/hospitalization/i);
  });

  it('matches word order, plurals, British spellings and "X of Y" forms', () => {
    const terms = [t(1, 'Abdominal pain'), t(2, 'Oedema peripheral'), t(3, 'Bilirubin elevated', 4), t(4, 'Blood bilirubin increased'), t(5, 'Ear infection')];
    expect(match(terms, 'pain, abdominal')).toEqual([]); // a comma is a boundary
    expect(match(terms, 'peripheral edema')).toEqual([{ text: 'peripheral edema', name: 'Oedema peripheral', kind: 'reordered' }]);
    expect(match(terms, 'elevations of bilirubin')[0]).toMatchObject({ name: 'Bilirubin elevated' });
    expect(match(terms, 'infections of the ear')[0]).toMatchObject({ name: 'Ear infection' });
  });

  it('prefers the longest (most specific) match', () => {
    const terms = [t(1, 'Neuropathy'), t(2, 'Peripheral sensory neuropathy'), t(3, 'Sensory loss')];
    expect(match(terms, 'grade 2 peripheral sensory neuropathy')).toEqual([{ text: 'peripheral sensory neuropathy', name: 'Peripheral sensory neuropathy', kind: 'exact' }]);
  });

  it('distributes list words: "ALT and AST elevations", "bacterial or fungal infections", "rash (macular, papular)"', () => {
    const terms = [
      t(1, 'Alanine aminotransferase increased'), t(2, 'Aspartate aminotransferase increased'),
      t(3, 'Bacterial infection'), t(4, 'Fungal infection'), t(5, 'Infection'),
      t(6, 'Rash'), t(7, 'Rash macular'), t(8, 'Rash papular'),
    ];
    expect(match(terms, 'ALT and AST elevations').map((m) => m.name).sort()).toEqual(['Alanine aminotransferase increased', 'Aspartate aminotransferase increased']);
    expect(match(terms, 'bacterial or fungal infections').map((m) => m.name).sort()).toEqual(['Bacterial infection', 'Fungal infection']);
    expect(match(terms, 'rash (including macular, papular)').map((m) => m.name)).toEqual(['Rash', 'Rash macular', 'Rash papular']);
  });

  it('uses the release’s own abbreviation and lay LLTs before the built-in lists', () => {
    // The release says what "ARDS" is: its own LLT wins over the built-in expansion.
    const own = [t(1, 'Acute respiratory distress syndrome'), t(2, 'Adult respiratory distress'), t(3, 'ARDS', 2)];
    expect(match(own, 'ARDS')[0]).toMatchObject({ name: 'ARDS' });
    // Without such an LLT the built-in expansion applies.
    expect(match([t(1, 'Acute respiratory distress syndrome')], 'ARDS')[0]).toMatchObject({ name: 'Acute respiratory distress syndrome' });
    // Case-sensitive abbreviations need capitals in running text.
    expect(match([t(1, 'Myocardial infarction')], 'an MI')[0]).toMatchObject({ name: 'Myocardial infarction' });
    expect(match([t(1, 'Myocardial infarction')], 'mi casa')).toEqual([]);
    // Built-in lay phrases resolve to whatever the release calls the finding.
    expect(match([t(1, 'Dyspnoea')], 'short of breath')[0]).toMatchObject({ name: 'Dyspnoea', kind: 'lay' });
  });

  it('corrects typos on longer unknown words only, and never common words', () => {
    const terms = [t(1, 'Diarrhoea'), t(2, 'Pyrexia'), t(3, 'Fever', 2), t(4, 'Mouth ulceration')];
    expect(match(terms, 'diarrhoae', true)[0]).toMatchObject({ name: 'Diarrhoea' });
    expect(match(terms, 'fewer patients', true)).toEqual([]);
    expect(match(terms, 'for months', true)).toEqual([]);
    expect(match(terms, 'diarrhoae', false)).toEqual([]);
  });

  it('non-current LLTs still match but a current synonym is preferred', () => {
    const v = buildVocabulary([t(1, 'Vomiting'), t(2, 'Emesis', 1, 'LLT', false), t(3, 'Emesis NOS', 1, 'LLT', true)]);
    expect(classifyText('emesis', v)[0]!.matchedLlt?.name).toBe('Emesis NOS');
  });

  // At a tenth of full size here; the full size (111,000 terms, seconds of CPU) and its time are
  // test/nlp/vocabulary-full-size.test.ts's, in `npm run test:bench`.
  it('builds a generated release (a tenth of full size): every term indexed, every PT name codes to itself', () => {
    const r = generateRelease({ seed: 7, version: '90.0', withSmq: false, scale: 0.1 });
    const terms: VocabularyTerm[] = [
      ...r.pts.map((p) => t(p.code, p.name)),
      ...r.llts.map((l) => t(l.code, l.name, l.ptCode, 'LLT', l.current)),
    ];
    expect(terms.length).toBeGreaterThan(10_000);
    const v = buildVocabulary(terms);
    expect(v.size).toBe(terms.length);
    for (const p of r.pts.slice(0, 200)) expect(classifyText(p.name, v, { limit: 1 })[0]?.ptCode).toBe(p.code);
  });
});
