import { describe, expect, it } from 'vitest';
import { classifyLabel, labelCandidates, type LabelPrediction } from '../../src/nlp/index.ts';
import { demoVocabulary, PT } from './demo.ts';

const vocab = demoVocabulary();

const LABEL = [
  'HIGHLIGHTS OF PRESCRIBING INFORMATION',
  '',
  'BOXED WARNING: WARNING: HEPATIC FAILURE',
  'Cases of hepatic failure, some fatal, have occurred.',
  '',
  '1 INDICATIONS AND USAGE',
  'EXAMPLAR is indicated for the treatment of hypertension.',
  '',
  '5 WARNINGS AND PRECAUTIONS',
  '5.1 Seizures',
  'Seizures occurred in 2% of patients. No cases of pancreatitis were reported.',
  'Use with caution in patients with a history of stroke.',
  '',
  '6 ADVERSE REACTIONS',
  'The most common adverse reactions (>=10%) were nausea, vomiting, diarrhea and headache.',
  ' *  Pruritus (3%) and urticaria',
  'Table 1: Adverse Reactions in >=2% of Patients',
  '   Gastrointestinal disorders',
  '     Abdominal pain                12%         3%',
  '     Constipation                  4%          2%',
  '   Nervous system disorders',
  '     Dizziness                     5%          1%',
  '',
  '13 NONCLINICAL TOXICOLOGY',
  'Myocardial infarction was seen in rats at 10 times the human dose.',
].join('\r\n');

const byPt = (preds: LabelPrediction[]) => new Map(preds.map((p) => [p.ptCode, p]));

describe('classifyLabel (demo release)', () => {
  const preds = classifyLabel(LABEL, vocab, { maxResults: 100, minConfidence: 0 });
  const m = byPt(preds);

  it('finds the reactions listed in prose, bullets, table rows and headings', () => {
    for (const pt of [PT.nausea, PT.vomiting, PT.diarrhea, PT.headache, PT.pruritus, PT.abdominalPain, PT.dizziness, PT.seizure]) {
      expect(m.get(pt)?.confidence ?? 0, `PT ${pt}`).toBeGreaterThan(0.5);
    }
    const hepaticFailure = preds.find((p) => p.supportingSnippets.some((s) => s.section === 'BOXED WARNING'));
    expect(hepaticFailure).toBeDefined();
    expect(vocab.ptName(hepaticFailure!.ptCode)).toMatch(/hepatic failure/i);
  });

  it('every snippet is an exact slice of the label, with its section', () => {
    for (const p of preds) {
      expect(p.supportingSnippets.length).toBeGreaterThan(0);
      for (const s of p.supportingSnippets) {
        expect(LABEL.slice(s.start, s.end)).toBe(s.text);
        expect(s.id).toMatch(/^u\d+$/);
        expect(s.likelihood).toBeGreaterThanOrEqual(0);
        expect(s.likelihood).toBeLessThanOrEqual(1);
        expect(s.explanations.length).toBeGreaterThan(0);
      }
      expect(p.reasons.length).toBeGreaterThan(0);
    }
    const table = m.get(PT.abdominalPain)!.supportingSnippets[0]!;
    expect(table).toMatchObject({ section: 'ADVERSE REACTIONS', text: 'Abdominal pain                12%         3%' });
    expect(table.explanations.join(' ')).toMatch(/table-row/);
    const seizure = m.get(PT.seizure)!.supportingSnippets.map((s) => s.section);
    expect(seizure).toContain('WARNINGS AND PRECAUTIONS');
  });

  it('excludes negated mentions, indications, populations, history and animal findings', () => {
    const low = (name: RegExp) => preds.filter((p) => name.test(vocab.ptName(p.ptCode) ?? '')).every((p) => p.confidence < 0.25);
    expect(low(/pancreatitis/i)).toBe(true); // "No cases of pancreatitis were reported"
    expect(low(/^hypertension$/i)).toBe(true); // indication
    expect(low(/stroke/i)).toBe(true); // "patients with a history of stroke"
    expect(m.get(PT.myocardialInfarction)?.confidence ?? 0).toBeLessThan(0.25); // in rats, nonclinical section
    // SOC-like category rows of the table are not reactions.
    expect(preds.some((p) => /^(gastrointestinal|nervous system) disorder/i.test(vocab.ptName(p.ptCode) ?? '') && p.confidence >= 0.25)).toBe(false);
  });

  it('explains why a discounted mention is discounted', () => {
    const cands = labelCandidates(LABEL, vocab);
    const mi = cands.find((c) => c.ptCode === PT.myocardialInfarction)!;
    expect(mi.snippets[0]!.evidence.explanations.join(' ')).toMatch(/animal: "rats"/);
  });

  it('honours maxResults and minConfidence (defaults 25 and 0.25), best first', () => {
    const all = classifyLabel(LABEL, vocab, { maxResults: 100, minConfidence: 0 });
    const top3 = classifyLabel(LABEL, vocab, { maxResults: 3, minConfidence: 0 });
    expect(top3).toEqual(all.slice(0, 3));
    const strict = classifyLabel(LABEL, vocab, { maxResults: 100, minConfidence: 0.8 });
    expect(strict.length).toBeGreaterThan(0);
    expect(strict.every((p) => p.confidence >= 0.8)).toBe(true);
    expect(strict.length).toBeLessThan(all.length);
    const dflt = classifyLabel(LABEL, vocab);
    expect(dflt.length).toBeLessThanOrEqual(25);
    expect(dflt.every((p) => p.confidence >= 0.25)).toBe(true);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.confidence).toBeGreaterThanOrEqual(all[i]!.confidence);
  });

  it('aggregates several snippets per PT and the snippet count is capped', () => {
    const text = 'Nausea (12%).\nNausea was mild.\nNausea led to discontinuation.\nNausea resolved.\n* Nausea\n* nausea\n';
    const p = classifyLabel(text, vocab, { minConfidence: 0, maxSnippets: 3 }).find((x) => x.ptCode === PT.nausea)!;
    expect(p.supportingSnippets).toHaveLength(3);
    expect(p.reasons.join(' ')).toMatch(/6 supporting snippets/);
    const single = classifyLabel('Nausea (12%).', vocab, { minConfidence: 0 }).find((x) => x.ptCode === PT.nausea)!;
    expect(p.rawScore).toBeGreaterThan(single.rawScore);
  });

  it('a finding repeated throughout a very long label keeps its confidence (no extrapolation past the fitted range)', () => {
    const unit = 'ADVERSE REACTIONS\nThe most common adverse reactions were nausea, vomiting and headache.\n\n';
    const once = classifyLabel(unit, vocab).find((x) => x.ptCode === PT.nausea)!;
    const many = classifyLabel(unit.repeat(2_000), vocab).find((x) => x.ptCode === PT.nausea);
    expect(many, 'nausea is still reported').toBeDefined();
    expect(many!.confidence).toBeGreaterThanOrEqual(once.confidence * 0.8);
  });

  it('codes a 100 KB label quickly and deterministically', () => {
    let big = '';
    while (big.length < 100 * 1024) big += `${LABEL}\r\n\r\n`;
    const t0 = performance.now();
    const a = classifyLabel(big, vocab, { maxResults: 100, minConfidence: 0 });
    const ms = performance.now() - t0;
    console.log(`classifyLabel: ${(big.length / 1024).toFixed(0)} KB label in ${ms.toFixed(0)} ms`);
    expect(a).toEqual(classifyLabel(big, vocab, { maxResults: 100, minConfidence: 0 }));
    for (const p of a) for (const s of p.supportingSnippets) expect(big.slice(s.start, s.end)).toBe(s.text);
  });
});
