import { describe, expect, it } from 'vitest';
import {
  bagKey,
  boundedEditDistance,
  findContextCues,
  normalizeSpelling,
  segmentLabel,
  splitClauses,
  splitSentences,
  tokenize,
  wordForms,
} from '../../src/nlp/index.ts';

describe('tokenize', () => {
  it('keeps exact offsets, folds case and accents, drops possessives', () => {
    const text = 'Ménière’s disease;  ALT elevations (23%)';
    const toks = tokenize(text);
    expect(toks.map((t) => t.text)).toEqual(['Ménière’s', 'disease', 'ALT', 'elevations', '23']);
    for (const t of toks) expect(text.slice(t.start, t.end)).toBe(t.text);
    expect(toks[0]!.lower).toBe('meniere');
    expect(toks[2]!.upper).toBe(true);
    expect(toks[2]!.breakBefore).toBe(true); // after ";"
    expect(toks[4]!.numeric).toBe(true);
  });

  it('stems inflections together (Porter2) and maps synonym stems to one canon', () => {
    expect(wordForms('vomited').stem).toBe(wordForms('vomiting').stem);
    expect(wordForms('reactions').stem).toBe(wordForms('reaction').stem);
    expect(wordForms('elevated').canon).toBe(wordForms('increased').canon);
    expect(wordForms('metastases').stem).toBe(wordForms('metastasis').stem);
    // "-itis" names and "-ability" nouns are not conflated with their neighbours.
    expect(wordForms('hepatitis').canon).not.toBe(wordForms('hepatic').canon);
    expect(wordForms('irritability').canon).not.toBe(wordForms('irritation').canon);
    expect(wordForms('generally').canon).not.toBe(wordForms('generalized').canon);
  });

  it('normalises British spellings and frequent misspellings', () => {
    expect(normalizeSpelling('diarrhoea')).toBe('diarrhea');
    expect(normalizeSpelling('oedema')).toBe('edema');
    expect(normalizeSpelling('haemorrhage')).toBe('hemorrhage');
    expect(normalizeSpelling('hospitalised')).toBe('hospitalized');
    expect(normalizeSpelling('tumour')).toBe('tumor');
    expect(normalizeSpelling('diarhea')).toBe('diarrhea');
  });

  it('treats wide gaps as columns only when asked (table rows)', () => {
    const row = 'Upper      respiratory tract infection      12%';
    expect(tokenize(row)[1]!.breakBefore).toBe(false);
    expect(tokenize(row, 0, row.length, { columns: true })[1]!.breakBefore).toBe(true);
  });

  it('reads "low/high X" as decreased/increased, but not in fixed phrases', () => {
    const [low] = tokenize('low platelet count');
    expect(low!.canon).toBe(wordForms('decreased').canon);
    const [high] = tokenize('high density lipoprotein');
    expect(high!.canon).not.toBe(wordForms('increased').canon);
  });

  it('bagKey is order-free and boundedEditDistance counts transpositions as one edit', () => {
    expect(bagKey(['pain', 'abdomin'])).toBe(bagKey(['abdomin', 'pain']));
    expect(boundedEditDistance('diarhea', 'diarrhea', 2)).toBe(1);
    expect(boundedEditDistance('nasuea', 'nausea', 2)).toBe(1);
    expect(boundedEditDistance('headache', 'backache', 1)).toBe(2);
  });
});

describe('sentences and clauses', () => {
  it('splits sentences at full stops but not at abbreviations or decimals', () => {
    const text = 'Dose was 1.8 mg/kg, e.g. in Study 1. Nausea occurred. Vomiting (i.e. emesis) followed!';
    const s = splitSentences(text).map((x) => x.text);
    expect(s).toEqual(['Dose was 1.8 mg/kg, e.g. in Study 1.', 'Nausea occurred.', 'Vomiting (i.e. emesis) followed!']);
  });

  it('splits clauses at semicolons and "but", with exact offsets', () => {
    const text = 'He vomited twice; no rash, but reports headache';
    const [sentence] = splitSentences(text);
    const clauses = splitClauses(text, sentence!);
    expect(clauses.map((c) => c.text)).toEqual(['He vomited twice', 'no rash', 'but reports headache']);
    for (const c of clauses) expect(text.slice(c.start, c.end)).toBe(c.text);
  });
});

describe('NegEx-style context', () => {
  const kindsAt = (text: string, word: string) => {
    const toks = tokenize(text);
    const i = toks.findIndex((t) => t.lower === word);
    return findContextCues(text, toks)
      .filter((c) => c.scopeFrom <= i && i < c.scopeTo)
      .map((c) => c.kind);
  };

  it.each([
    ['Patient denies chest pain.', 'chest', 'negated'],
    ['No rash was seen.', 'rash', 'negated'],
    ['Cultures were negative for pneumonia.', 'pneumonia', 'negated'],
    ['There was no evidence of hepatotoxicity.', 'hepatotoxicity', 'negated'],
    ['She recovered without sequelae or seizures.', 'seizures', 'negated'],
    ['Myocardial infarction was ruled out.', 'infarction', 'negated'],
    ['Admitted to rule out MI.', 'mi', 'uncertain'],
    ['History of migraine.', 'migraine', 'historical'],
    ['Prior stroke in 2010.', 'stroke', 'historical'],
    ['A rash that had resolved before the first dose.', 'rash', 'historical'],
    ['Family history of diabetes.', 'diabetes', 'family'],
    ['If a rash develops, stop the drug.', 'rash', 'hypothetical'],
    ['Use in patients with renal impairment.', 'renal', 'population'],
    ['Indicated for the treatment of hypertension.', 'hypertension', 'indication'],
    ['Tumours were seen in rats.', 'tumours', 'animal'],
  ])('%s → %s is %s', (text, word, kind) => {
    expect(kindsAt(text, word)).toContain(kind);
  });

  it('closes scopes at contrastive words and sentence ends; pseudo-triggers open none', () => {
    expect(kindsAt('Denies chest pain but reports nausea.', 'nausea')).not.toContain('negated');
    expect(kindsAt('No fever. Vomiting since noon.', 'vomiting')).not.toContain('negated');
    expect(kindsAt('There was no increase in nausea.', 'nausea')).not.toContain('negated');
    expect(kindsAt('Reactions include, but are not limited to, rash.', 'rash')).not.toContain('negated');
    // Lists stay in scope: "no nausea, vomiting or diarrhoea".
    expect(kindsAt('No nausea, vomiting or diarrhoea.', 'diarrhoea')).toContain('negated');
  });
});

describe('label segmentation', () => {
  const label = [
    'BOXED WARNING: WARNING: LACTIC ACIDOSIS',
    '',
    '5 WARNINGS AND PRECAUTIONS',
    '5.1 Hepatotoxicity',
    'Cases of hepatitis occurred. Monitor liver tests.',
    '',
    '6 ADVERSE REACTIONS',
    ' *  Nausea and vomiting (6.1)',
    'Table 1: Adverse Reactions',
    '   Gastrointestinal disorders',
    '     Diarrhea                 12%         3%',
  ].join('\r\n');

  it('keeps headings as sections, and units carry exact offsets', () => {
    const units = segmentLabel(label);
    for (const u of units) expect(label.slice(u.start, u.end)).toBe(u.text);
    const find = (s: string) => units.find((u) => u.text.includes(s))!;
    expect(find('LACTIC ACIDOSIS')).toMatchObject({ section: 'BOXED WARNING', kind: 'heading', text: 'LACTIC ACIDOSIS' });
    expect(find('Hepatotoxicity')).toMatchObject({ section: 'WARNINGS AND PRECAUTIONS', kind: 'heading' });
    expect(find('Cases of hepatitis')).toMatchObject({ kind: 'sentence', subsection: '5.1 Hepatotoxicity', text: 'Cases of hepatitis occurred.' });
    expect(find('Nausea and vomiting')).toMatchObject({ section: 'ADVERSE REACTIONS', kind: 'bullet' });
    expect(find('Gastrointestinal disorders')).toMatchObject({ kind: 'category' });
    expect(find('Diarrhea')).toMatchObject({ kind: 'table-row' });
    // Section names themselves are not content.
    expect(units.some((u) => u.text === 'ADVERSE REACTIONS' || u.text.startsWith('6 ADVERSE'))).toBe(false);
  });

  it('does not take a cross-reference or a numbered subsection for a section heading', () => {
    const units = segmentLabel('6 ADVERSE REACTIONS\n6.1 Clinical Studies Experience\nNausea occurred.\nClinical Studies (14.1)] showed rash.');
    expect(units.every((u) => u.section === 'ADVERSE REACTIONS')).toBe(true);
  });
});
