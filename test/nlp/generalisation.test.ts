// General clinical language the engine must read on labels it has never seen (issue 17):
// values compared with thresholds, abbreviations, anatomical composition, spelling variants.
// Small invented vocabularies (CTCAE-style names), no external data.
import { describe, expect, it } from 'vitest';
import { buildVocabulary, classifyText, type VocabularyTerm } from '../../src/nlp/index.ts';
import { comparisonDirection, findComparisons } from '../../src/nlp/values.ts';

function vocabOf(names: string[]) {
  const terms: VocabularyTerm[] = names.map((name, i) => ({ code: i + 1, name, level: 'PT', ptCode: i + 1, current: true }));
  return { vocab: buildVocabulary(terms), code: (name: string) => names.indexOf(name) + 1 };
}
const topName = (v: ReturnType<typeof vocabOf>, text: string) => v.vocab.ptName(classifyText(text, v.vocab, { limit: 5 })[0]?.ptCode ?? -1);

describe('values compared with a threshold', () => {
  it.each([
    ['platelets below 80,000/mm3', '+dec'],
    ['Hb < 9 g/dL', '+dec'],
    ['ALT > 5 × ULN', '+inc'],
    ['ANC ≤ 1.0 × 10⁹/L', '+dec'],
    ['creatinine clearance under 30 mL/min', '+dec'],
    ['total bilirubin greater than or equal to 1.5 x ULN', '+inc'],
    ['alkaline phosphatase less than 2*ULN', '+inc'],
    ['haematocrit below the lower limit of normal', '+dec'],
    ['haemoglobin above the upper limit of normal', '+inc'],
    ['eGFR 30% lower than baseline', '+dec'],
    ['heart rate of less than 50 beats per minute', '+dec'],
    ['systolic blood pressure >150 mmHg', '+inc'],
  ])('%s → %s', (text, dir) => {
    expect(comparisonDirection(text)).toBe(dir);
  });

  it.each(['occurred in more than 10% of patients', 'under treatment', 'over time', 'platelets < 50 or > 400'])('no direction: %s', (text) => {
    expect(findComparisons(text)).toEqual([]);
  });

  const v = vocabOf([
    'Platelet count decreased', 'Platelet count increased', 'Haemoglobin decreased', 'Haemoglobin increased',
    'Alanine aminotransferase increased', 'Alanine aminotransferase decreased', 'Neutrophil count decreased',
    'Neutrophil count increased', 'Creatinine renal clearance decreased', 'Creatinine renal clearance increased',
    'Heart rate decreased', 'Heart rate increased', 'Blood glucose decreased', 'Blood glucose increased',
  ]);
  it.each([
    ['platelets below 80,000/mm3', 'Platelet count decreased'],
    ['platelet count < 50 x 10^9/L', 'Platelet count decreased'],
    ['Hb < 9 g/dL', 'Haemoglobin decreased'],
    ['hemoglobin values less than 10 g per dl', 'Haemoglobin decreased'],
    ['ALT > 5 × ULN', 'Alanine aminotransferase increased'],
    ['alt greater than 5.0*uln', 'Alanine aminotransferase increased'],
    ['ANC ≤ 1.0 × 10⁹/L', 'Neutrophil count decreased'],
    ['neutrophil count less than 0.5 x 10^9/L', 'Neutrophil count decreased'],
    ['creatinine clearance under 30 mL/min', 'Creatinine renal clearance decreased'],
    ['heart rate of less than 50 beats per minute', 'Heart rate decreased'],
    ['plasma glucose <= 70 mg/dL', 'Blood glucose decreased'],
  ])('codes "%s" to %s, never the opposite', (text, pt) => {
    expect(topName(v, text)).toBe(pt);
  });

  it('a stated direction is not overridden by the comparison', () => {
    expect(topName(v, 'platelet count increased to more than 600 x 10^9/L')).toBe('Platelet count increased');
  });
});

describe('abbreviations', () => {
  const v = vocabOf([
    'Pneumocystis jirovecii pneumonia', 'Pneumonia', 'Nephrogenic systemic fibrosis', 'Fibrosis', 'Portal vein thrombosis',
    'Thrombosis', 'Intracranial haemorrhage', 'Haemorrhage', 'Heparin-induced thrombocytopenia', 'Thrombocytopenia', 'Injury',
  ]);
  it.each([
    ['PJP', 'Pneumocystis jirovecii pneumonia'],
    ['pjp', 'Pneumocystis jirovecii pneumonia'],
    ['NSF', 'Nephrogenic systemic fibrosis'],
    ['PVT on day 10', 'Portal vein thrombosis'],
    ['fatal ICH', 'Intracranial haemorrhage'],
    ['HIT after heparin', 'Heparin-induced thrombocytopenia'],
  ])('%s → %s', (text, pt) => {
    expect(topName(v, text)).toBe(pt);
  });

  it('an abbreviation that is also an English word needs its capitals in lower-case text', () => {
    const preds = classifyText('he was hit by a car and suffered an injury of the arm', v.vocab, { limit: 5 }).map((p) => v.vocab.ptName(p.ptCode));
    expect(preds).not.toContain('Heparin-induced thrombocytopenia');
  });

  it('expansions are checked against the release: words the release never writes leave the abbreviation unexpanded', () => {
    expect(v.vocab.abbreviations.has('pjp')).toBe(true);
    expect(v.vocab.abbreviations.has('crps')).toBe(false);
    expect(v.vocab.unresolvedAbbreviations).toContain('crps');
  });
});

describe('morphology: adjective ↔ noun, site prefixes, words run together', () => {
  const v = vocabOf([
    'Cerebral haemorrhage', 'Haemorrhage', 'Conjunctival haemorrhage', 'Post procedural haematoma', 'Haematoma',
    'Alanine aminotransferase increased', 'Transaminases increased', 'Thrombosis', 'Thrombotic stroke', 'Venous thrombosis',
    'Skin necrosis', 'Skin lesion', 'Anaphylactic shock', 'Shock', 'Peripheral sensory neuropathy', 'Oedema peripheral',
    'Hepatitis cholestatic', 'Hepatitis', 'Muscle haemorrhage', 'Eye inflammation', 'Inflammation', 'Herpes keratitis', 'Keratitis',
  ]);
  it.each([
    ['intracerebral bleeding', 'Cerebral haemorrhage'],
    ['subconjunctival haemorrhage', 'Conjunctival haemorrhage'],
    ['sub-conjunctival bleeding', 'Conjunctival haemorrhage'],
    ['postprocedural hematoma', 'Post procedural haematoma'],
    ['intramuscular bleeding', 'Muscle haemorrhage'],
    ['alanine transaminase increased', 'Alanine aminotransferase increased'],
    ['thrombotic events', 'Thrombosis'],
    ['venous thrombotic events', 'Venous thrombosis'],
    ['necrotic skin', 'Skin necrosis'],
    ['anaphylacticshock', 'Anaphylactic shock'],
    ['peripheral sensoryneuropathy', 'Peripheral sensory neuropathy'],
    ['hepatitis with cholestasis', 'Hepatitis cholestatic'],
    ['herpetic keratitis', 'Herpes keratitis'],
  ])('%s → %s', (text, pt) => {
    expect(topName(v, text)).toBe(pt);
  });
});

describe('values compared with a threshold in labels', () => {
  const names = ['Haemoglobin decreased', 'Haemoglobin increased', 'Haemoglobin', 'Aspartate aminotransferase increased', 'Platelet count decreased', 'Platelet count increased', 'Blood glucose decreased', 'Blood glucose increased'];
  const v = vocabOf(names);
  it('codes table rows and sentences that state a value against a threshold', async () => {
    const { classifyLabel } = await import('../../src/nlp/index.ts');
    const label = [
      '6 ADVERSE REACTIONS',
      '',
      'Table 3: Laboratory abnormalities',
      'Hemoglobin (g/dL) <8.5      12%      3%',
      'AST >5.0 x ULN     4%    1%',
      'Platelets below 50,000/mm3 occurred in 3% of patients.',
      'Hypoglycemia, defined as plasma glucose <= 70 mg/dL, was reported.',
      '',
    ].join('\n');
    const got = classifyLabel(label, v.vocab, { minConfidence: 0 }).map((p) => v.vocab.ptName(p.ptCode));
    expect(got).toEqual(expect.arrayContaining(['Haemoglobin decreased', 'Aspartate aminotransferase increased', 'Platelet count decreased', 'Blood glucose decreased']));
    expect(got).not.toContain('Haemoglobin increased');
    expect(got).not.toContain('Platelet count increased');
    expect(got).not.toContain('Blood glucose increased');
  });
});

describe('spelling variants and site context', () => {
  const v = vocabOf([
    'Hypertension', 'Prehypertension', 'Hyperhidrosis', 'Pneumonia', 'Diarrhoea', 'Injection site swelling', 'Peripheral swelling',
    'Swelling', 'Application site pain', 'Pain', 'Infusion site erythema', 'Erythema', 'Tension',
  ]);
  it.each([
    ['hyper tension', 'Hypertension'],
    ['pre-hypertension', 'Prehypertension'],
    ['hyperhydrosis', 'Hyperhidrosis'],
    ['pnemonia', 'Pneumonia'],
    ['diarhea', 'Diarrhoea'],
    ['application-associated pain', 'Application site pain'],
    ['pain at the site of application', 'Application site pain'],
    ['erythema along the infused arm', 'Infusion site erythema'],
  ])('%s → %s', (text, pt) => {
    expect(topName(v, text)).toBe(pt);
  });

  it('a prefix is joined only to make a word the release writes', () => {
    expect(topName(v, 'muscle tension')).toBe('Tension');
  });
});

describe('not findings: units after numbers, risk factors', () => {
  const terms: VocabularyTerm[] = [
    { code: 1, name: 'Multiple sclerosis', level: 'PT', ptCode: 1, current: true },
    { code: 11, name: 'MS', level: 'LLT', ptCode: 1, current: true },
    { code: 2, name: 'Diabetes mellitus', level: 'PT', ptCode: 2, current: true },
    { code: 3, name: 'Electrocardiogram QT prolonged', level: 'PT', ptCode: 3, current: true },
    { code: 4, name: 'Lactic acidosis', level: 'PT', ptCode: 4, current: true },
  ];
  const vocab = buildVocabulary(terms);
  it('"500 ms" is milliseconds, and risk factors are conditions of the patient', async () => {
    const { classifyLabel } = await import('../../src/nlp/index.ts');
    const label = [
      '5 WARNINGS AND PRECAUTIONS',
      '',
      'QT prolongation: a QTcF interval of greater than 500 ms was seen in 2% of patients.',
      'Risk factors for lactic acidosis include diabetes mellitus and renal impairment.',
      'Lactic acidosis has been reported.',
      '',
    ].join('\n');
    const got = classifyLabel(label, vocab, { minConfidence: 0.25 }).map((p) => vocab.ptName(p.ptCode));
    expect(got).not.toContain('Multiple sclerosis');
    expect(got).not.toContain('Diabetes mellitus');
    expect(got).toContain('Lactic acidosis');
  });
});

describe('site qualifiers inherited from the sentence', () => {
  const names = ['Injection site pruritus', 'Injection site erythema', 'Injection site pain', 'Injection site bruising', 'Infusion site phlebitis',
    'Injection site phlebitis', 'Infusion site swelling', 'Pruritus', 'Erythema', 'Pain', 'Phlebitis', 'Swelling', 'Injection site reaction'];
  const v = vocabOf(names);
  it('items of a site reaction list are the site findings, not the bare ones', async () => {
    const { classifyLabel } = await import('../../src/nlp/index.ts');
    const label = [
      '6 ADVERSE REACTIONS',
      '',
      'Injection site reactions were characterized by local pruritus, erythema, pain, irritation, urticaria, and/or bruising.',
      'Other: injection or infusion site reactions including phlebitis, pruritus, irritation, pain, and swelling.',
      '',
    ].join('\n');
    const got = classifyLabel(label, v.vocab, { minConfidence: 0.25 }).map((p) => v.vocab.ptName(p.ptCode));
    expect(got).toEqual(expect.arrayContaining(['Injection site pruritus', 'Injection site erythema', 'Injection site pain', 'Injection site bruising', 'Infusion site phlebitis', 'Infusion site swelling']));
    expect(got).not.toContain('Pruritus');
    expect(got).not.toContain('Pain');
  });
});

describe('generic heads and organ damage (coding conventions of general clinical language)', () => {
  const v = vocabOf([
    'Liver disorder', 'Hepatic infection', 'Gastrointestinal disorder', 'Gastrointestinal infection', 'Eye symptom',
    'Eye infection', 'Cardiovascular symptom', 'Cardiovascular disorder', 'Optic nerve injury', 'Optic nerve disorder',
  ]);
  it.each([
    ['liver disease', 'Liver disorder'],
    ['gastrointestinal disease', 'Gastrointestinal disorder'],
    ['ocular manifestations', 'Eye symptom'],
    ['cardiovascular manifestations', 'Cardiovascular symptom'],
    ['optic nerve damage', 'Optic nerve injury'],
    ['damage to the optic nerve', 'Optic nerve injury'],
  ])('codes "%s" to %s', (text, pt) => {
    expect(topName(v, text)).toBe(pt);
  });
});
