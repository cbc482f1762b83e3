// The context layer of classifyLabel: every mention carries the clause-level context it was found
// in (adverse event of the drug, indication, population/history, animal, negated, hypothetical,
// overdose); only adverse-event mentions are coded unless asked; a cue bounds its own sentence,
// never the section; the section type comes from the request, the heading or the text.
import { describe, expect, it } from 'vitest';
import { buildVocabulary, classifyLabelDetailed, confidentSectionType, detectSectionType, type LabelClassification } from '../../src/nlp/index.ts';
import { demoVocabulary, PT } from './demo.ts';

const vocab = demoVocabulary();
const ptByName = (name: string) => vocab.terms.find((t) => t.level === 'PT' && t.name.toLowerCase() === name.toLowerCase())!.ptCode;
const HYPERTENSION = ptByName('Hypertension');
const PANCREATITIS = ptByName('Pancreatitis');

const codes = (r: LabelClassification) => r.codes.map((c) => c.ptCode);
const excludedAs = (r: LabelClassification, pt: number) => r.excluded.find((e) => e.ptCode === pt)?.context;

/** A release of just these PTs (codes 1…n in order) and LLTs [name, its PT's name] (codes 101…): its vocabulary, and a PT's code by name. */
function namedVocabulary(names: readonly string[], llts: readonly (readonly [string, string])[] = []) {
  const pt = (name: string) => names.indexOf(name) + 1;
  const tiny = buildVocabulary([
    ...names.map((name, i) => ({ code: i + 1, name, level: 'PT' as const, ptCode: i + 1, current: true })),
    ...llts.map(([name, ptName], i) => ({ code: 101 + i, name, level: 'LLT' as const, ptCode: pt(ptName), current: true })),
  ]);
  return { tiny, pt };
}

describe('classifyLabel context layer', () => {
  it('an animal paragraph bounds its own sentences: the human reactions of the section are still coded', () => {
    const text = [
      'In pediatric patients, the most common adverse reactions were nausea, headache and dizziness.',
      'In a juvenile rat study, seizures and myocardial infarction were observed at 10 times the human dose.',
    ].join('\n');
    const r = classifyLabelDetailed(text, vocab, { includeExcluded: true, minConfidence: 0.25 });
    for (const pt of [PT.nausea, PT.headache, PT.dizziness]) expect(codes(r), `PT ${pt}`).toContain(pt);
    expect(codes(r)).not.toContain(PT.seizure);
    expect(excludedAs(r, PT.seizure)).toBe('animal');
    expect(excludedAs(r, PT.myocardialInfarction)).toBe('animal');
  });

  it('the treated condition is an indication, not an adverse event; asking for indications returns it', () => {
    const text = 'EXAMPLAR is indicated for the treatment of hypertension in children 6 to 16 years of age. Nausea occurred in 5% of patients.';
    const r = classifyLabelDetailed(text, vocab, { includeExcluded: true, minConfidence: 0 });
    expect(codes(r)).toContain(PT.nausea);
    expect(codes(r)).not.toContain(HYPERTENSION);
    const ex = r.excluded.find((e) => e.ptCode === HYPERTENSION)!;
    expect(ex.context).toBe('indication');
    expect(text.slice(ex.mention.start, ex.mention.end)).toBe(ex.mention.text);
    expect(text.slice(ex.snippet.start, ex.snippet.end)).toBe(ex.snippet.text);
    const asked = classifyLabelDetailed(text, vocab, { contexts: ['adverse_event', 'indication'], minConfidence: 0 });
    const h = asked.codes.find((c) => c.ptCode === HYPERTENSION)!;
    expect(h.supportingSnippets[0]!.context).toBe('indication');
  });

  it('negated and overdose mentions are dropped and listed with their context', () => {
    const r = classifyLabelDetailed('No cases of pancreatitis were reported. Seizures occurred in 2% of patients.', vocab, { includeExcluded: true, minConfidence: 0 });
    expect(codes(r)).toContain(PT.seizure);
    expect(excludedAs(r, PANCREATITIS)).toBe('negated');
    const o = classifyLabelDetailed('Overdosage with EXAMPLAR may cause dizziness and vomiting.', vocab, { includeExcluded: true, minConfidence: 0 });
    expect(codes(o)).toEqual([]);
    expect(excludedAs(o, PT.dizziness)).toBe('overdose');
    expect(o.sectionType).toBe('overdosage');
  });

  it('without includeExcluded nothing dropped is listed', () => {
    const r = classifyLabelDetailed('No cases of pancreatitis were reported.', vocab, { minConfidence: 0 });
    expect(r.excluded).toEqual([]);
    expect(r.codes).toEqual([]);
  });

  it('each supporting snippet shows its context and the evidence span, exact slices of the text', () => {
    const text = 'ADVERSE REACTIONS\nThe most common adverse reactions were nausea and headache.';
    const r = classifyLabelDetailed(text, vocab, { minConfidence: 0 });
    const nausea = r.codes.find((c) => c.ptCode === PT.nausea)!;
    const s = nausea.supportingSnippets[0]!;
    expect(s.context).toBe('adverse_event');
    expect(s.mention.text.toLowerCase()).toBe('nausea');
    expect(text.slice(s.mention.start, s.mention.end)).toBe(s.mention.text);
    expect(s.start).toBeLessThanOrEqual(s.mention.start);
    expect(s.end).toBeGreaterThanOrEqual(s.mention.end);
    expect(s.explanations).toContain('context: adverse_event');
  });
});

describe('section type', () => {
  it('comes from the request, else the first heading, else the wording, else none', () => {
    expect(classifyLabelDetailed('Nausea occurred.', vocab, { sectionType: 'warnings_precautions' })).toMatchObject({ sectionType: 'warnings_precautions', sectionTypeSource: 'request' });
    expect(classifyLabelDetailed('10 OVERDOSAGE\nNo data.', vocab)).toMatchObject({ sectionType: 'overdosage', sectionTypeSource: 'heading' });
    expect(classifyLabelDetailed('6 ADVERSE REACTIONS\nNausea.', vocab)).toMatchObject({ sectionType: 'adverse_reactions', sectionTypeSource: 'heading' });
    expect(classifyLabelDetailed('EXAMPLAR is indicated for the treatment of hypertension.', vocab)).toMatchObject({ sectionType: 'indications', sectionTypeSource: 'text' });
    expect(classifyLabelDetailed('Nausea.', vocab)).toMatchObject({ sectionType: null, sectionTypeSource: 'none' });
  });

  it('is detected from typical wording', () => {
    expect(detectSectionType('Safety and effectiveness in pediatric patients have not been established.')).toBe('specific_populations');
    expect(detectSectionType('In a randomized, double-blind, placebo-controlled trial, the primary endpoint was met.')).toBe('clinical_studies');
    expect(detectSectionType('The most common adverse reactions were nausea and vomiting.')).toBe('adverse_reactions');
  });

  it('an explicit type weighs text without headings as that section (clinical studies speak less for reactions)', () => {
    const text = 'Nausea occurred in 5% of patients.';
    const plain = classifyLabelDetailed(text, vocab, { minConfidence: 0 }).codes.find((c) => c.ptCode === PT.nausea)!;
    const studies = classifyLabelDetailed(text, vocab, { minConfidence: 0, sectionType: 'clinical_studies' }).codes.find((c) => c.ptCode === PT.nausea)!;
    expect(studies.confidence).toBeLessThan(plain.confidence);
    expect(studies.supportingSnippets[0]!.section).toBe('CLINICAL STUDIES');
  });
});

describe('scope and formatting (issue 29, classes 1 and 4)', () => {
  it('a cue inside parentheses ends at the closing parenthesis: the rest of the list is not negated', () => {
    const r = classifyLabelDetailed('Musculoskeletal: fatigue (not severe), nausea, headache', vocab, { includeExcluded: true, minConfidence: 0 });
    expect(codes(r)).toEqual(expect.arrayContaining([PT.nausea, PT.headache]));
    expect(excludedAs(r, PT.nausea)).toBeUndefined();
  });

  it('"System: items" lines list reactions even when the last item ends in "disorder"', () => {
    const text = 'Nervous System: dizziness, headache, sleep disorder';
    const r = classifyLabelDetailed(text, vocab, { minConfidence: 0.5 });
    expect(codes(r)).toEqual(expect.arrayContaining([PT.dizziness, PT.headache]));
  });

  it('all lower-case text is split into sentences, so a rat sentence does not reach the human reactions', () => {
    const text =
      'congenital anomalies were seen. seizures were observed in rats at high doses. nausea occurred in 5% of patients.';
    const r = classifyLabelDetailed(text, vocab, { includeExcluded: true, minConfidence: 0 });
    expect(codes(r)).toContain(PT.nausea);
    expect(excludedAs(r, PT.seizure)).toBe('animal');
    const same = classifyLabelDetailed(text.replace(/(^|\. )(\w)/g, (_m, p: string, c: string) => p + c.toUpperCase()), vocab, { minConfidence: 0 });
    expect(codes(r).sort()).toEqual(codes(same).sort());
  });

  it('list markers, HTML remnants and upper case code the same as the plain text', () => {
    const plain = 'The most common adverse reactions were nausea and headache.\nDizziness occurred in 2% of patients.';
    const variants = [
      plain.split('\n').map((l) => `• ${l}`).join('\n'),
      `<div><p>${plain.split('\n').join('</p>\n<p>')}</p></div>`,
      plain.toUpperCase(),
      plain.toLowerCase(),
    ];
    const base = codes(classifyLabelDetailed(plain, vocab, { minConfidence: 0.5 })).sort();
    expect(base).toEqual([PT.nausea, PT.headache, PT.dizziness].sort());
    for (const v of variants) expect(codes(classifyLabelDetailed(v, vocab, { minConfidence: 0.5 })).sort(), v.slice(0, 30)).toEqual(base);
  });
});

describe('therapies are not events', () => {
  const tiny = buildVocabulary([
    { code: 1, name: 'Immunosuppression', level: 'PT', ptCode: 1, current: true },
    { code: 2, name: 'Nausea', level: 'PT', ptCode: 2, current: true },
  ]);
  it('an agent noun or a finding before a therapy noun names a therapy (context indication)', () => {
    for (const text of [
      'Most patients who developed these infections were taking concomitant immunosuppressants. Nausea occurred.',
      'Nausea was more common with concomitant immunosuppressive therapy.',
    ]) {
      const r = classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0 });
      expect(r.codes.map((c) => c.ptCode), text).toEqual([2]);
      expect(r.excluded.find((e) => e.ptCode === 1)?.context, text).toBe('indication');
    }
    expect(classifyLabelDetailed('Immunosuppression occurred in 2% of patients.', tiny, { minConfidence: 0 }).codes.map((c) => c.ptCode)).toEqual([1]);
  });
});

describe('round 3 context rules (issue 29, classes 1–3)', () => {
  const tiny = buildVocabulary([
    { code: 1, name: 'Urticaria', level: 'PT', ptCode: 1, current: true },
    { code: 2, name: 'Angioedema', level: 'PT', ptCode: 2, current: true },
    { code: 3, name: 'Hypertriglyceridaemia', level: 'PT', ptCode: 3, current: true },
    { code: 4, name: 'Hypertriglyceridemia', level: 'LLT', ptCode: 3, current: true },
    { code: 5, name: 'Rheumatoid arthritis', level: 'PT', ptCode: 5, current: true },
    { code: 6, name: 'Liver disorder', level: 'PT', ptCode: 6, current: true },
    { code: 7, name: 'Liver disease', level: 'LLT', ptCode: 6, current: true },
  ]);
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0 });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode).sort();

  it('"signs and symptoms have included X, Y" reports what was seen; "monitor for signs and symptoms of X" does not', () => {
    expect(coded('Signs and symptoms have included urticaria and angioedema of the tongue.')).toEqual([1, 2]);
    expect(coded('Signs and symptoms may include urticaria and angioedema.')).toEqual([1, 2]);
    const watched = run('Monitor patients for signs and symptoms of urticaria.');
    expect(watched.codes).toEqual([]);
    expect(watched.excluded.find((e) => e.ptCode === 1)?.context).toBe('hypothetical');
  });

  it('"the proportion of patients with X" counts patients who had an event; "patients with X" is a population', () => {
    expect(coded('The proportion of patients with hypertriglyceridemia was 13% on EXAMPLAR versus 10% on placebo.')).toEqual([3]);
    const pop = run('Use with caution in patients with hypertriglyceridemia.');
    expect(pop.codes).toEqual([]);
    expect(pop.excluded.find((e) => e.ptCode === 3)?.context).toBe('population');
  });

  it('a disease called active is the patient\'s condition, not a reaction, and the cue ends with its clause', () => {
    const r = run('Patients had moderately to severely active rheumatoid arthritis. Liver disease occurred in 1%.');
    expect(r.codes.map((c) => c.ptCode)).toEqual([6]);
    expect(r.excluded.find((e) => e.ptCode === 5)?.context).toBe('population');
    expect(coded('Active liver disease is a contraindication.')).toEqual([]);
  });
});

describe('round 4: pasted sections without a heading or type (issue 29)', () => {
  const names = [
    'Respiratory depression', 'Hypotension', 'Coma', 'Psoriasis', 'Myocardial infarction', 'Stroke', 'Arrhythmia',
    'Infection', 'Pyrexia', 'Contusion', 'Neoplasm', 'Toxic epidermal necrolysis', 'Rheumatoid arthritis',
  ];
  const tiny = buildVocabulary([
    ...names.map((name, i) => ({ code: i + 1, name, level: 'PT' as const, ptCode: i + 1, current: true })),
    { code: 101, name: 'Fever', level: 'LLT', ptCode: 9, current: true },
    { code: 102, name: 'Bruising', level: 'LLT', ptCode: 10, current: true },
    { code: 103, name: 'TEN', level: 'LLT', ptCode: 12, current: true },
    { code: 104, name: 'Cerebrovascular accident', level: 'LLT', ptCode: 6, current: true },
  ]);
  const pt = (name: string) => names.indexOf(name) + 1;
  const run = (text: string, opts: Parameters<typeof classifyLabelDetailed>[2] = {}) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5, ...opts });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode).sort((a, b) => a - b);

  it('an overdose text is read as one, whether or not every sentence says "overdose"', () => {
    const manifest = run('In general, the symptoms of overdosage would be hypotension and sedation. The patient would appear comatose with respiratory depression and hypotension.');
    expect(manifest).toMatchObject({ sectionType: 'overdosage', sectionTypeSource: 'text', codes: [] });
    expect(excludedAs(manifest, pt('Respiratory depression'))).toBe('overdose');
    // Poisoning care names no overdose at all.
    const care = run('Gastric lavage or induction of emesis should be carried out, followed by activated charcoal. Respiratory depression may be counteracted by artificial respiration.');
    expect(care).toMatchObject({ sectionType: 'overdosage', codes: [] });
  });

  it('an overdose sentence inside a warnings text bounds only itself (no section-wide scope)', () => {
    const r = run('Hypotension occurred in 2% of patients. In case of overdose, respiratory depression may occur.');
    expect(r.codes.map((c) => c.ptCode)).toEqual([pt('Hypotension')]);
    expect(excludedAs(r, pt('Respiratory depression'))).toBe('overdose');
  });

  it('a study report is read as clinical studies; a trial sentence that reports reactions is not', () => {
    const study = run('In Study PS-I, PASI 75 responses at Week 16 were achieved by 71% of patients with psoriasis on EXAMPLAR versus 7% on placebo (p<0.001).');
    expect(study).toMatchObject({ sectionType: 'clinical_studies', sectionTypeSource: 'text', codes: [] });
    expect(coded('In placebo-controlled trials, hypotension was reported in 2% of patients at Week 12 (placebo 1%).')).toEqual([pt('Hypotension')]);
  });

  it('an indication text is read as one even when it names risk factors; reduce the risk of is an efficacy claim', () => {
    const r = run('EXAMPLAR is indicated to reduce the risk of myocardial infarction and stroke in adults with multiple risk factors for coronary heart disease, such as hypertension.');
    expect(r).toMatchObject({ sectionType: 'indications', sectionTypeSource: 'text', codes: [] });
  });

  it('a unit that opens with its population describes it up to its first verb', () => {
    const r = run('Patients who have suffered a myocardial infarction, stroke, or life-threatening arrhythmia within the last 6 months;');
    expect(r.codes).toEqual([]);
    for (const name of ['Myocardial infarction', 'Stroke', 'Arrhythmia']) expect(excludedAs(r, pt(name)), name).toBe('population');
    expect(coded('Patients with rheumatoid arthritis had more serious infection than patients on placebo.')).toEqual([pt('Infection')]);
  });

  it('an everyday word that is also an acronym is the word unless written in capitals', () => {
    expect(coded('Drug levels were measured in ten women.')).toEqual([]);
    expect(coded('TEN occurred in one patient.')).toEqual([pt('Toxic epidermal necrolysis')]);
    // A text all in capitals says nothing by its case.
    expect(coded('DRUG LEVELS WERE MEASURED IN TEN WOMEN.')).toEqual([]);
  });

  it('numbering, list markers, joined lines and HTML remnants read like the plain section', () => {
    const overdose = 'In general, the symptoms of overdosage would be hypotension and sedation.\nThe patient would appear comatose with respiratory depression and hypotension.';
    for (const variant of [overdose, overdose.split('\n').map((l, i) => `${i + 1}. ${l}`).join('\n'), overdose.split('\n').map((l) => `• ${l}`).join('\n')])
      expect(run(variant), variant).toMatchObject({ sectionType: 'overdosage', codes: [] });
    const population = 'There are no data in the following groups.\nPatients who have suffered a myocardial infarction, stroke, or life-threatening arrhythmia within the last 6 months;';
    for (const variant of [population, population.replace('\n', ' '), `<div><p>${population.split('\n').join('</p>\n<p>')}</p></div>`])
      expect(run(variant).codes, variant).toEqual([]);
  });

  it('"e.g." does not close a cue: the examples are what to watch for', () => {
    const r = run('Advise patients to seek medical attention if they develop signs of infection (e.g., persistent fever, bruising).');
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, pt('Pyrexia'))).toBe('hypothetical');
    expect(excludedAs(r, pt('Contusion'))).toBe('hypothetical');
  });

  it('rodents and pups are animals', () => {
    expect(excludedAs(run('An increase in mammary neoplasms has been found in rodents.'), pt('Neoplasm'))).toBe('animal');
    expect(excludedAs(run('Hypotension was seen in pups of treated mothers.'), pt('Hypotension'))).toBe('animal');
  });

  it('a population section still codes a sentence that reports an event of the product', () => {
    const opts = { sectionType: 'specific_populations' as const };
    const reported = run('The frequency of serious infection among EXAMPLAR-treated subjects over 65 years of age was higher than for those under 65.', opts);
    expect(reported.codes.map((c) => c.ptCode)).toEqual([pt('Infection')]);
    // A sentence that only names the population keeps the section's low weight.
    expect(run('Dose selection in elderly patients with infection should be cautious.', opts).codes).toEqual([]);
  });
});

describe('round 5: context decisions that carry over to labels of other kinds (issue 29)', () => {
  const names = ['Asthma', 'Dermatitis contact', 'Serum sickness', 'Leukaemia', 'Lymphoma', 'Nephrotic syndrome', 'Hypertension', 'Hypothyroidism', 'Diverticulitis', 'Peptic ulcer', 'Hyperammonaemia', 'Brain injury', 'Death', 'Nausea'];
  const { tiny, pt } = namedVocabulary(names);
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5 });

  it('an old-format indications list is read as one without the word "indicated" (verbless purpose wording)', () => {
    const list = [
      'Allergic states',
      'Control of severe allergic conditions intractable to adequate trials of conventional treatment in asthma, contact dermatitis and serum sickness.',
      'Neoplastic diseases',
      'For the palliative management of leukemias and lymphomas.',
      'Renal diseases',
      'To induce a remission of proteinuria in nephrotic syndrome.',
    ].join('\n');
    const r = run(list);
    expect(r).toMatchObject({ sectionType: 'indications', sectionTypeSource: 'text', codes: [] });
    for (const variant of [list.split('\n').map((l) => `• ${l}`).join('\n'), `<div>${list.split('\n').map((l) => `<p>${l}</p>`).join('\n')}</div>`])
      expect(run(variant), variant).toMatchObject({ sectionType: 'indications', codes: [] });
    // One kind of purpose wording is not enough, and reported reactions speak against an indication.
    expect(run('Control of severe allergic conditions in asthma.').sectionType).not.toBe('indications');
    expect(run(`${list}\nNausea has been reported.`).codes.map((c) => c.ptCode)).toContain(pt('Nausea'));
  });

  it('advice about a treatment (a sentence with a verb) is not purpose wording: a warnings text keeps its codes', () => {
    const warning = [
      'Treatment of hyperammonaemia may require dialysis.',
      'Uncontrolled hyperammonaemia can rapidly result in brain injury or death.',
      'In the initial treatment of the deficiency, protein restriction is recommended.',
    ].join(' ');
    const r = run(warning);
    expect(r.sectionType).not.toBe('indications');
    expect(r.codes.map((c) => c.ptCode)).toEqual(expect.arrayContaining([pt('Brain injury'), pt('Death')]));
  });

  it('a condition written as a modifier of people describes the population ("in hypertensive patients")', () => {
    const r = run('Clearance is decreased in hypothyroid patients and increased in hypertensive subjects.');
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, pt('Hypothyroidism'))).toBe('population');
    expect(excludedAs(r, pt('Hypertension'))).toBe('population');
    expect(run('Hypertension occurred in 3% of patients.').codes.map((c) => c.ptCode)).toEqual([pt('Hypertension')]);
  });

  it('a cross-reference names a section, not an event; a therapy named by its dose is not the finding', () => {
    const xref = run('Vaccines should be deferred until therapy is discontinued (see WARNINGS, Serum sickness).');
    expect(xref.codes).toEqual([]);
    expect(excludedAs(xref, pt('Serum sickness'))).toBe('hypothetical');
    expect(run('Serum sickness occurred (see below).').codes.map((c) => c.ptCode)).toEqual([pt('Serum sickness')]);
    const tinyWithImmuno = buildVocabulary([{ code: 1, name: 'Immunosuppression', level: 'PT', ptCode: 1, current: true }]);
    const dose = classifyLabelDetailed('Live vaccines are contraindicated in patients receiving immunosuppressive doses of corticosteroids.', tinyWithImmuno, { includeExcluded: true, minConfidence: 0.5 });
    expect(dose.codes).toEqual([]);
  });

  it('an exposure is not a reaction ("avoid exposure to measles")', () => {
    const r = run('Patients should be warned to avoid exposure to serum sickness or asthma triggers.');
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, pt('Serum sickness'))).toBe('population');
  });

  it('"with caution in" names conditions that call for care, up to the end of its clause', () => {
    const r = run('Use with caution in active peptic ulcer or diverticulitis, since nausea may occur.');
    expect(excludedAs(r, pt('Diverticulitis'))).toBe('population');
    expect(r.codes.map((c) => c.ptCode)).not.toContain(pt('Diverticulitis'));
  });
});

describe('round 5: history wording', () => {
  const names = ['Mania', 'Asthma', 'Myocardial infarction', 'Cardiac failure'];
  const tiny = buildVocabulary(names.map((name, i) => ({ code: i + 1, name, level: 'PT' as const, ptCode: i + 1, current: true })));
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5 });

  it('"after a recent myocardial infarction" is the patient\'s history', () => {
    const r = run('Use with great care after a recent myocardial infarction.');
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, 3)).toBe('population');
  });
});

describe('round 6: wording of other section kinds, judged on eight labels (issue 29)', () => {
  const names = ['Sedation', 'Depressed level of consciousness', 'Sleep apnoea syndrome', 'Hypertension', 'Renal impairment', 'Foetal damage', 'Psychiatric disorder', 'Hypotension', 'Coronary artery disease', 'Cardiomyopathy', 'Weight decreased', 'Asthma', 'Death'];
  const llts = [['CNS depression', 'Depressed level of consciousness'], ['Sleep apnea', 'Sleep apnoea syndrome'], ['Fetal harm', 'Foetal damage'], ['Weight loss', 'Weight decreased']] as const;
  const { tiny, pt } = namedVocabulary(names, llts);
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5 });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode);

  it('a drug class written as joined adjectives is a therapy, not the finding; an agent noun before "effects" is the effect', () => {
    const r = run('Zolpidem, like other sedative/hypnotic drugs, has CNS-depressant effects.');
    expect(excludedAs(r, pt('Sedation'))).toBe('indication');
    expect(r.codes.map((c) => c.ptCode)).toEqual([pt('Depressed level of consciousness')]);
    expect(coded('Complex behaviors have been reported with sedative-hypnotics, including zolpidem, and after ingestion of a sedative-hypnotic.')).toEqual([]);
    expect(coded('Sedation occurred in 5% of patients.')).toEqual([pt('Sedation')]);
  });

  it('a population list runs to the end of its clause; a comma before a capital starts a new clause', () => {
    const list = 'Avoid use in patients with known structural cardiac abnormalities, cardiomyopathy, serious heart arrhythmia, or coronary artery disease.';
    const r = run(list);
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, pt('Coronary artery disease'))).toBe('population');
    // Case does not change the reading (every word of an all-caps paste is capitalised).
    expect(run(list.toUpperCase()).codes).toEqual([]);
    expect(coded('In patients with permanent atrial fibrillation, DRUGX doubles the risk of death, stroke and hypertension.')).toEqual(expect.arrayContaining([pt('Death'), pt('Hypertension')]));
  });

  it('a bracketed section reference followed by a capital ends a clause (flattened Highlights bullets)', () => {
    expect(coded('Avoid use in patients with asthma (5) Hypertension: reported in 3% of patients (6)')).toEqual([pt('Hypertension')]);
    const r = run('Use lower dose (2) Patients with hepatic impairment, impaired drug metabolism or hemodynamic responses, mild to moderate sleep apnea: Use with caution. (5)');
    expect(excludedAs(r, pt('Sleep apnoea syndrome'))).toBe('population');
  });

  it('an organ impairment in a dosing or pharmacokinetic statement is the population, elsewhere an event', () => {
    const r = run('8.6 Renal Impairment Due to reduced clearance in patients with severe renal impairment, the maximum dose should not exceed 50 mg/day.');
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, pt('Renal impairment'))).toBe('population');
    expect(coded('Renal impairment occurred in 2% of patients.')).toEqual([pt('Renal impairment')]);
  });

  it('"based on animal data" bounds its own phrase: the human risk of the main clause stays an adverse event', () => {
    const r = run('Based on animal data, zolpidem may cause fetal harm.');
    expect(r.codes.map((c) => c.ptCode)).toEqual([pt('Foetal damage')]);
    expect(r.codes[0]!.supportingSnippets[0]!.context).toBe('adverse_event');
    expect(excludedAs(run('In rats, fetal harm was observed.'), pt('Foetal damage'))).toBe('animal');
  });

  it('supportive care and lavage make an overdose text; what a class of drugs is for and unrecognised conditions are not events', () => {
    const overdose = run('General symptomatic and supportive measures should be used along with immediate gastric lavage where appropriate. Hypotension should be monitored and treated.');
    expect(overdose).toMatchObject({ sectionType: 'overdosage', codes: [] });
    expect(excludedAs(run('Use of other sympathomimetic drugs for weight loss has been associated with serious cardiovascular adverse events.'), pt('Weight decreased'))).toBe('indication');
    // Singular "treatment for" reports what an event needed.
    expect(coded('Hypotension required treatment for several days.')).toEqual([pt('Hypotension')]);
    expect(excludedAs(run('Worsening may be the consequence of an unrecognized psychiatric disorder.'), pt('Psychiatric disorder'))).toBe('population');
  });
});

describe('round 7: wording of other section kinds, judged on fifteen labels (issue 29)', () => {
  const names = ['Hypertension', 'Nausea', 'Coma', 'Suicidal ideation', 'Completed suicide', 'Congenital anomaly', 'Myocardial infarction', 'Death', 'Premature delivery', 'Low birth weight baby', 'Diabetes mellitus', 'Hypothyroidism', 'Embolism', 'Infertility'];
  const llts = [['Suicide', 'Completed suicide'], ['Birth defect', 'Congenital anomaly'], ['Embolization', 'Embolism'], ['Low birth weight', 'Low birth weight baby']] as const;
  const { tiny, pt } = namedVocabulary(names, llts);
  const run = (text: string, sectionType?: 'specific_populations') => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5, ...(sectionType ? { sectionType } : {}) });
  const coded = (text: string, sectionType?: 'specific_populations') => run(text, sectionType).codes.map((c) => c.ptCode);

  it('"overdosages" (plural) opens an overdose text like "overdose" does', () => {
    const r = run('Symptoms following acute NSAID overdosages have been typically limited to lethargy, nausea and vomiting. Hypertension and coma have occurred, but were rare.');
    expect(r.sectionType).toBe('overdosage');
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, pt('Hypertension'))).toBe('overdose');
  });

  it('an indication sentence with the product class between the verb and "indicated" is an indication text; "not indicated" is not', () => {
    const warfarin = run('Warfarin sodium tablets are vitamin K antagonist indicated for: Prophylaxis and treatment of pulmonary embolism. Reduction in the risk of death, recurrent myocardial infarction, and systemic embolization after myocardial infarction.');
    expect(warfarin).toMatchObject({ sectionType: 'indications', codes: [] });
    expect(run('Levothyroxine sodium tablets are a L-thyroxine (T4) indicated in adult and pediatric patients for: Hypothyroidism: As replacement therapy in congenital or acquired hypothyroidism.')).toMatchObject({ sectionType: 'indications', codes: [] });
    // Warnings say what a product is not indicated for.
    expect(run('DRUGX is not indicated for use in elderly patients. Coma occurred in 2 of them.').sectionType).not.toBe('indications');
    // A reported reaction still speaks against an indications text.
    expect(coded('DRUGX is a beta blocker indicated for angina. Hypertension has been reported in 3% of patients.')).toContain(pt('Hypertension'));
  });

  it('suicidal thoughts and thinking are suicidal ideation, not a completed suicide', () => {
    // One lay mention in a two-term release scores below 0.5: read at 0.25.
    const low = (text: string) => classifyLabelDetailed(text, tiny, { minConfidence: 0.25 }).codes.map((c) => c.ptCode);
    expect(low('The incidence of suicidal thoughts was greater in drug-treated patients than in placebo-treated patients.')).toEqual([pt('Suicidal ideation')]);
    expect(low('Suicidal thinking was reported in 2 patients.')).toEqual([pt('Suicidal ideation')]);
    expect(low('Suicide was reported in 1 patient.')).toEqual([pt('Completed suicide')]);
  });

  it('in a population section, an increased risk or an association of the product with an outcome reports an event', () => {
    expect(coded('Infants born to amphetamine-dependent mothers have an increased risk of premature delivery and low birth weight.', 'specific_populations')).toEqual(expect.arrayContaining([pt('Premature delivery'), pt('Low birth weight baby')]));
    expect(coded('The use of NSAIDs has been associated with reversible infertility in some women.', 'specific_populations')).toEqual([pt('Infertility')]);
    expect(coded('Adverse pregnancy outcomes, including premature delivery, have been seen in infants born to mothers dependent on amphetamines.', 'specific_populations')).toContain(pt('Premature delivery'));
    expect(coded('In rare reports, a birth defect was observed following intrauterine exposure.', 'specific_populations')).toEqual([pt('Congenital anomaly')]);
    // A population sentence without reporting wording is still weighed down.
    expect(coded('Diabetes mellitus is common in elderly patients.', 'specific_populations')).toEqual([]);
  });

  it('"studied" is study wording: an efficacy paragraph is read as a study text', () => {
    const r = run('DRUGX has been studied in adults with hypertension. Improvement was shown by a favourable response and a reduction in nausea within 24 hours.');
    expect(r).toMatchObject({ sectionType: 'clinical_studies', codes: [] });
  });

  it('the background risk of a population is not an event of the product', () => {
    const r = run('All pregnancies have a background risk of birth defect, loss, or other adverse outcomes.');
    expect(r.codes).toEqual([]);
    expect(excludedAs(r, pt('Congenital anomaly'))).toBe('population');
  });
});

describe('round 8: contraindication and drug-interaction text, judged on twenty-nine labels (issue 29)', () => {
  const names = ['Bradycardia', 'Shock', 'Cardiac failure', 'Hypersensitivity', 'Foetal damage', 'Congenital anomaly', 'Anaphylactoid reaction', 'Asthma', 'Hypertension', 'Myocardial infarction', 'Cerebrovascular accident', 'Toxicity to various agents', 'Renal impairment', 'Hypotension'];
  const llts = [['Heart failure', 'Cardiac failure'], ['High blood pressure', 'Hypertension'], ['Stroke', 'Cerebrovascular accident'], ['Congenital malformation', 'Congenital anomaly']] as const;
  const { tiny, pt } = namedVocabulary(names, llts);
  type Typed = 'other' | 'warnings_precautions';
  const run = (text: string, sectionType?: Typed) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5, ...(sectionType ? { sectionType } : {}) });
  const coded = (text: string, sectionType?: Typed) => run(text, sectionType).codes.map((c) => c.ptCode);

  it('a pasted contraindications text names the patients excluded, not events', () => {
    const text = 'DRUGX tablets are contraindicated in severe bradycardia, cardiogenic shock, decompensated heart failure. Hypersensitivity to any ingredient.';
    for (const r of [run(text), run(text, 'other'), run(text.toLowerCase())]) {
      expect(r.codes).toEqual([]);
      for (const name of ['Bradycardia', 'Shock', 'Cardiac failure', 'Hypersensitivity']) expect(excludedAs(r, pt(name))).toBe('population');
    }
    // The same conditions reported, or a contraindication inside a typed warnings section, are not read that way.
    expect(coded('Severe bradycardia, cardiogenic shock and heart failure have occurred.')).toEqual(expect.arrayContaining([pt('Bradycardia'), pt('Shock'), pt('Cardiac failure')]));
    expect(coded('DRUGX is contraindicated in severe bradycardia.', 'warnings_precautions')).toContain(pt('Bradycardia'));
    // Only the first sentence makes a contraindications text, also when the text has lost its capitals.
    expect(coded('bradycardia has been reported in 3 patients. drugx is contraindicated in shock.')).toContain(pt('Bradycardia'));
  });

  it('a contraindications text still codes what the product causes or what was reported', () => {
    const fetal = coded('DRUGX is contraindicated in women who are pregnant. DRUGX exposure during pregnancy causes congenital malformations.');
    expect(fetal).toContain(pt('Congenital anomaly'));
    const nsaid = run('DRUGX is contraindicated in patients with known hypersensitivity to DRUGX. DRUGX should not be given to patients who have experienced asthma after taking aspirin. Severe, rarely fatal, anaphylactic-like reactions to NSAIDs have been reported in such patients.');
    expect(nsaid.codes.map((c) => c.ptCode)).toEqual([pt('Anaphylactoid reaction')]);
    expect(excludedAs(nsaid, pt('Asthma'))).toBe('population');
  });

  it('controlling blood pressure and lowering the risk of strokes are what a product is for', () => {
    const r = run('Lowering blood pressure lowers the risk of fatal and nonfatal cardiovascular events, primarily strokes and myocardial infarctions. Control of high blood pressure should be part of comprehensive cardiovascular risk management.');
    expect(r.codes).toEqual([]);
    for (const name of ['Cerebrovascular accident', 'Myocardial infarction', 'Hypertension']) expect(excludedAs(r, pt(name))).toBe('indication');
  });

  it('under a DRUG INTERACTIONS or CONTRAINDICATIONS heading, a sentence stating a risk, a cause or a report of the combination weighs fully', () => {
    expect(coded('7 DRUG INTERACTIONS\nDiuretics: the combination may result in severe hypotension.\nLithium: risk of lithium toxicity.')).toEqual(expect.arrayContaining([pt('Hypotension'), pt('Toxicity to various agents')]));
    // Without such wording the section weight still holds: a plain list of conditions is not coded.
    expect(coded('7 DRUG INTERACTIONS\nUse with caution in bradycardia and hypotension.')).toEqual([]);
    expect(coded('4 CONTRAINDICATIONS\nSevere bradycardia, cardiogenic shock, decompensated heart failure.')).toEqual([]);
  });

  it('interaction wording: a drug toxicity and a deterioration of renal function are coded as firmly as the release\'s own names', () => {
    expect(coded('Diuretic agents reduce the renal clearance of lithium and add a high risk of lithium toxicity.')).toEqual([pt('Toxicity to various agents')]);
    expect(coded('DRUGX combined with ACE inhibitors may lead to severe hypotension and deterioration in renal function.')).toEqual(expect.arrayContaining([pt('Hypotension'), pt('Renal impairment')]));
  });
});

describe('round 9: population prose, judged on forty-five labels (issue 29)', () => {
  const names = ['Congenital anomaly', 'Abortion spontaneous', 'Diabetes mellitus', 'Diabetic ketoacidosis', 'Chronic kidney disease', 'Liver disorder', 'Renal impairment', 'Lactic acidosis', 'Myopathy', 'Confusional state', 'Nausea'];
  const llts = [['Birth defect', 'Congenital anomaly'], ['Miscarriage', 'Abortion spontaneous'], ['Hepatic impairment', 'Liver disorder'], ['Confusion', 'Confusional state']] as const;
  const { tiny, pt } = namedVocabulary(names, llts);
  const run = (text: string, sectionType?: 'specific_populations') => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5, ...(sectionType ? { sectionType } : {}) });
  const coded = (text: string, sectionType?: 'specific_populations') => run(text, sectionType).codes.map((c) => c.ptCode);

  it('a background risk is the population\'s, also written in the plural or with "U.S." inside its clause', () => {
    for (const text of [
      'The background risks in the U.S. general population of major birth defects and miscarriage are 2 to 4% and 15 to 20%.',
      'The background risks of major birth defects and miscarriage for the indicated population are unknown.',
    ]) {
      const r = run(text);
      expect(r.codes).toEqual([]);
      expect(excludedAs(r, pt('Congenital anomaly'))).toBe('population');
    }
    // The cue bounds its own sentence: a reaction reported in the next one is coded.
    expect(coded('The background risks in the U.S. general population of major birth defects are 2 to 4%. In trials, nausea was reported in 12% of pregnant women treated with DRUGX.')).toEqual([pt('Nausea')]);
  });

  it('"insufficient to identify a drug-associated risk" and "no clear association" report no event', () => {
    for (const text of [
      'The available data with DRUGX in pregnant women are insufficient to identify a drug-associated risk for major birth defects, miscarriage or adverse maternal or fetal outcomes.',
      'Published studies with DRUGX use during pregnancy have not reported a clear association with DRUGX and major birth defects or miscarriage risk.',
    ]) expect(coded(text)).toEqual([]);
  });

  it('the risks of the treated disease in pregnancy are the disease\'s, not the product\'s', () => {
    const r = run('There are risks to the mother and fetus associated with poorly controlled diabetes mellitus in pregnancy. Poorly controlled diabetes mellitus in pregnancy increases the maternal risk for diabetic ketoacidosis and miscarriage. There are risks to the mother and fetus associated with chronic kidney disease in pregnancy.');
    expect(r.codes).toEqual([]);
    for (const name of ['Diabetes mellitus', 'Diabetic ketoacidosis', 'Abortion spontaneous', 'Chronic kidney disease']) expect(excludedAs(r, pt(name))).toBe('population');
  });

  it('the title of a section-8 subsection names the population; the event its sentence reports is coded', () => {
    const r = run('8.7 Hepatic Impairment Use of DRUGX in patients with hepatic impairment has been associated with some cases of lactic acidosis.');
    expect(r.codes.map((c) => c.ptCode)).toEqual([pt('Lactic acidosis')]);
    expect(excludedAs(r, pt('Liver disorder'))).toBe('population');
    // A number that is not a section-8 subsection leaves the finding alone ("5.3 Hepatic impairment" in warnings).
    expect(coded('5.3 Hepatic Impairment Hepatic impairment has been reported in patients treated with DRUGX.')).toContain(pt('Liver disorder'));
  });

  it('typed as a population section, a sentence stating a risk, a predisposition or what treated patients reported weighs fully', () => {
    const sp = 'specific_populations' as const;
    expect(coded('Since advanced age is a predisposing factor for myopathy, DRUGX should be prescribed with caution in the elderly.', sp)).toEqual([pt('Myopathy')]);
    expect(coded('A total of 24 patients receiving DRUGX reported confusion, including 18 who were 70 years of age or older.', sp)).toEqual([pt('Confusional state')]);
    expect(coded('DRUGX use in the third trimester may result in lactic acidosis in the newborn.', sp)).toEqual([pt('Lactic acidosis')]);
    // Without such wording the section weight still holds: the population dosed is not coded.
    expect(coded('In patients with renal impairment, reduce the dose of DRUGX by half.', sp)).toEqual([]);
  });
});

describe('round 10: population prose, judged on sixty-five labels (issue 29)', () => {
  const names = ['Foetal death', 'Foetal malformation', 'Weight increased', 'Blood cholesterol increased', 'Heart rate increased', 'Cardiac disorder', 'Nausea', 'Hepatotoxicity', 'Death'];
  const llts = [['Fetal death', 'Foetal death'], ['Fetal malformation', 'Foetal malformation'], ['Weight gain', 'Weight increased'], ['Heart disease', 'Cardiac disorder'], ['Serum cholesterol increased', 'Blood cholesterol increased']] as const;
  const { tiny, pt } = namedVocabulary(names, llts);
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5 });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode);

  it('a study dose stated against the human dose or exposure reports an animal study, even with no species named', () => {
    for (const [text, name] of [
      ['DRUGX caused embryo-fetal death at doses ≥0.015 mg/kg/day (approximately 0.24 times the AUC in patients at the recommended dose).', 'Foetal death'],
      ['Maternal toxicity (reduced gestational body weight gain) was evident at doses of 100 mg/kg and above (about 0.3 times the clinical dose based on AUC comparisons).', 'Weight increased'],
      ['An oral dose of 450 mg/kg/day given from Gestation Day (GD) 6–16 correlated with increased fetal malformations.', 'Foetal malformation'],
      ['Fetal death was seen at 6.5 times the estimated human exposure.', 'Foetal death'],
    ] as const) {
      const r = run(text);
      expect(r.codes, text).toEqual([]);
      expect(excludedAs(r, pt(name)), text).toBe('animal');
    }
    // The sentence bounds it: a human finding in the next sentence is coded, and a dose multiple without "human",
    // "AUC" or "exposure" (a human QT study's "3 times the recommended dose") is not animal wording.
    expect(coded('Fetal death occurred at 2 times the human exposure. In patients, hepatotoxicity was reported.')).toEqual([pt('Hepatotoxicity')]);
    expect(coded('At 3 times the recommended dose, nausea was reported in 10% of healthy volunteers.')).toEqual([pt('Nausea')]);
  });

  it('what pregnancy itself does is the population\'s, not the product\'s', () => {
    for (const [text, name] of [
      ['Serum cholesterol increases during normal pregnancy.', 'Blood cholesterol increased'],
      ['Stroke volume and heart rate increase during pregnancy, increasing cardiac output.', 'Heart rate increased'],
      ['Clinical classification of heart disease may worsen with pregnancy and lead to maternal death.', 'Cardiac disorder'],
    ] as const) {
      const r = run(text);
      expect(excludedAs(r, pt(name)), text).toBe('population');
      expect(r.codes.map((c) => c.ptCode), text).not.toContain(pt(name));
    }
    // A reaction of the product in pregnant women is still coded.
    expect(coded('Nausea was reported in pregnant women treated with DRUGX.')).toEqual([pt('Nausea')]);
  });
});

describe('round 11: PLLR epidemiology, symptoms to watch, overdose lists, fetal harm (issue 29)', () => {
  const names = ['Congenital anomaly', 'Nausea', 'Thyroid neoplasm', 'Dysphagia', 'Hoarseness', 'Hypoglycaemia', 'Tremor', 'Ataxia', 'Mydriasis', 'Foetal damage', 'Torsade de pointes'];
  const llts = [['Birth defects', 'Congenital anomaly'], ['Birth defect', 'Congenital anomaly'], ['Hypoglycemia', 'Hypoglycaemia']] as const;
  const { tiny, pt } = namedVocabulary(names, llts);
  const run = (text: string, sectionType?: Parameters<typeof classifyLabelDetailed>[2] extends infer O ? O extends { sectionType?: infer S } ? S : never : never) =>
    classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5, ...(sectionType ? { sectionType } : {}) });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode);

  it('the background risk of every pregnancy and an estimated rate among the treated population are the population\'s', () => {
    for (const text of [
      'All pregnancies carry some risk of birth defects, loss, or other adverse outcomes.',
      'All pregnancies have a risk of birth defect, loss, or other adverse outcomes.',
      'The estimated rate of major birth defects (2.2 to 2.9%) and miscarriage (17%) among deliveries to women with migraine are similar to rates reported in women without migraine.',
    ]) {
      const r = run(text);
      expect(r.codes, text).toEqual([]);
      expect(excludedAs(r, pt('Congenital anomaly')), text).toBe('population');
    }
    // The product's own risk, and a reaction in the next sentence, are still coded.
    expect(coded('All pregnancies carry some risk of loss. Nausea was reported in pregnant women treated with DRUGX.')).toEqual([pt('Nausea')]);
    expect(coded('DRUGX caused birth defects in 3 of 40 exposed pregnancies.')).toEqual([pt('Congenital anomaly')]);
  });

  it('the symptoms of a disease patients are told about are a watch list, not reactions; a risk they are told of stays coded', () => {
    const r = run('Counsel patients regarding the potential risk for MTC and inform them of symptoms of thyroid tumors (e.g., a mass in the neck, dysphagia, persistent hoarseness).');
    expect(r.codes).toEqual([]);
    for (const name of ['Thyroid neoplasm', 'Dysphagia', 'Hoarseness']) expect(excludedAs(r, pt(name)), name).toBe('hypothetical');
    expect(coded('Inform patients using insulin of the risk of hypoglycemia.')).toEqual([pt('Hypoglycaemia')]);
  });

  it('a pasted overdose text is one when it says overdose anywhere and reports no reaction, even as a bare symptom list', () => {
    const list = run('Nervous System: Impairment of consciousness. Tremor, ataxia, mydriasis. Laboratory Findings: Isolated instances of overdosage have included leukocytosis.');
    expect(list).toMatchObject({ sectionType: 'overdosage', sectionTypeSource: 'text', codes: [] });
    expect(excludedAs(list, pt('Ataxia'))).toBe('overdose');
    // "cases of overdose" counts overdoses, not reactions.
    expect(run('Magnesium may terminate torsade de pointes. There were two reported cases of DRUGX overdose in the clinical program.').codes).toEqual([]);
    // A text that reports reactions of the product stays what it says it is: its reactions are coded.
    const warning = run('Tremor and ataxia have been reported with DRUGX. Overdose may be fatal.');
    expect(warning.codes.map((c) => c.ptCode).sort()).toEqual([pt('Tremor'), pt('Ataxia')].sort());
  });

  it('"fetal harm" is coded as foetal damage in pasted text and population sections, not yet under a warnings heading (TAC\'s calibrators)', () => {
    const sentence = 'Based on its mechanism of action, DRUGX can cause fetal harm when administered to a pregnant woman.';
    expect(coded(sentence)).toEqual([pt('Foetal damage')]);
    expect(run(sentence, 'specific_populations').codes.map((c) => c.ptCode)).toEqual([pt('Foetal damage')]);
    expect(coded(`8.1 Pregnancy\n${sentence}`)).toEqual([pt('Foetal damage')]);
    expect(coded(`5 WARNINGS AND PRECAUTIONS\n${sentence}`)).toEqual([]);
  });
});

describe('round 12: evidence phrases with cross-references, drug exposure, overdose as an outcome, contraindication effects (issue 29)', () => {
  const names = ['Foetal damage', 'Haemorrhage', 'Overdose', 'Death', 'Hypotension', 'Nausea', 'Embolism', 'Pulmonary arterial hypertension', 'Bone growth'];
  const { tiny, pt } = namedVocabulary(names, [['Bleeding', 'Haemorrhage'], ['Thromboembolic events', 'Embolism']]);
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5 });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode).sort((a, b) => a - b);

  it('"based on … findings from animal studies [see …]," bounds the animal evidence even with a cross-reference inside it', () => {
    for (const text of [
      'Based on findings from animal studies and its mechanism of action [see Clinical Pharmacology (12.1)], DRUGX can cause fetal harm when administered to a pregnant woman.',
      'Based on its mechanism of action and findings from animal studies [see Clinical Pharmacology (12.1), Nonclinical Toxicology (13.1)], DRUGX can cause fetal harm when administered to a pregnant woman.',
      'Based on its mechanism of action and findings in animal embryo-fetal developmental toxicity studies, DRUGX can cause fetal harm.',
    ]) expect(coded(text), text).toEqual([pt('Foetal damage')]);
    // The animal finding itself, and a sentence that is all animal study, stay animal.
    expect(excludedAs(run('In animal studies, DRUGX caused fetal harm at 3 times the human dose.'), pt('Foetal damage'))).toBe('animal');
    expect(excludedAs(run('Fetal harm was seen in rats [see Nonclinical Toxicology (13.1)].'), pt('Foetal damage'))).toBe('animal');
  });

  it('a rise of drug exposure is pharmacokinetics, not a population; a fall still bounds what follows', () => {
    expect(coded('Strong CYP3A inhibitors increase exposure to DRUGX and may increase the risk of bleeding.')).toEqual([pt('Haemorrhage')]);
    expect(coded('Such inhibitors could increase systemic exposure to DRUGX and may increase the risk for bleeding.')).toEqual([pt('Haemorrhage')]);
    expect(excludedAs(run('Inducers decrease exposure to DRUGX and may increase the risk of thromboembolic events.'), pt('Embolism'))).toBe('population');
    expect(excludedAs(run('Avoid exposure to bleeding patients.'), pt('Haemorrhage'))).toBe('population');
  });

  it('an overdose as the outcome of misuse is an event; an overdose text stays one', () => {
    // (A boxed warning's bullet: the text reports what the product may result in, so it is not read as an overdose text.)
    const r = run('Concomitant use with opioids may result in profound sedation. The use of benzodiazepines, including DRUGX, exposes users to risks of abuse, misuse, and addiction, which can lead to overdose or death.');
    expect(r.codes.map((c) => c.ptCode).sort((a, b) => a - b)).toEqual([pt('Overdose'), pt('Death')].sort((a, b) => a - b));
    expect(excludedAs(run('Hypotension was reported. In overdose, hypotension and death may occur.'), pt('Death'))).toBe('overdose');
  });

  it('in a pasted contraindications text, what the product or combination does in the same clause is coded; the listed patients are not', () => {
    expect(coded('DRUGX is contraindicated with nitrates. DRUGX was shown to potentiate the hypotensive effect of nitrates.')).toEqual([pt('Hypotension')]);
    expect(coded('DRUGX is contraindicated with alcohol. Use of DRUGX is associated with a reaction to alcohol, including nausea.')).toEqual([pt('Nausea')]);
    // Wording of an effect earlier in the unit does not reach a list item after ":" or ";".
    const list = run('DRUGX is contraindicated with drugs for which elevated concentrations are associated with serious reactions: Sedatives: triazolam; PDE5 inhibitor: sildenafil when used for pulmonary arterial hypertension');
    expect(list.codes).toEqual([]);
  });
});

describe('round 13: overdose asides, trial design, label wording, "depends on", fronted population phrases (issue 29)', () => {
  const names = ['Serotonin syndrome', 'Myocardial ischaemia', 'Respiratory depression', 'Overdose', 'Breast cancer', 'Disease progression', 'Somnolence', 'Hyperhidrosis', 'Suicidal ideation', 'Dependence', 'Azotaemia', 'Renal disorder'];
  const { tiny, pt } = namedVocabulary(names, [['Myocardial ischemia', 'Myocardial ischaemia'], ['Azotemia', 'Azotaemia'], ['Renal disease', 'Renal disorder']]);
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5 });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode).sort((a, b) => a - b);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

  it('an overdose named in a cross-reference or as the reversal agent does not make an overdose text', () => {
    const refs = 'Patients should be informed of the increased risk of serotonin syndrome, especially if DRUGX is used with other serotonergic drugs [see Drug Interactions (7.1), Overdosage (10)]. Myocardial ischemia has been reported in patients treated with DRUGX.';
    expect(confidentSectionType(refs)).toBeNull();
    expect(coded(refs)).toEqual(sorted([pt('Serotonin syndrome'), pt('Myocardial ischaemia')]));
    // The reversal agent names the antidote: neither the text nor the word "overdose" is an overdose.
    const agent = 'Due to the risk of respiratory depression with concomitant use of opioids, consider prescribing an opioid overdose reversal agent [see Dosage and Administration (2.2)].';
    expect(confidentSectionType(agent)).toBeNull();
    expect(coded(agent)).toEqual([pt('Respiratory depression')]);
    // An overdose text stays one, and so does a unit that describes an overdose.
    expect(confidentSectionType('Overdosage of DRUGX is characterized by somnolence and respiratory depression.')).toBe('overdosage');
    expect(excludedAs(run('Respiratory depression was reported. In overdose, respiratory depression may occur (see OVERDOSAGE).'), pt('Respiratory depression'))).toBe(undefined);
    expect(excludedAs(run('Somnolence was reported. In overdose, respiratory depression may occur.'), pt('Respiratory depression'))).toBe('overdose');
  });

  it('trial design wording types a pasted study; the stopping rule "until disease progression or unacceptable toxicity" is not a toxicity statement', () => {
    const study = 'EMBRACA (NCT01945775) was an open-label study in which patients (N=431) with metastatic breast cancer were randomized (2:1) to receive DRUGX or chemotherapy until disease progression or unacceptable toxicity.';
    expect(confidentSectionType(study)).toBe('clinical_studies');
    expect(coded(study)).toEqual([]);
    // A toxicity the study reports is still an adverse-event statement: not typed, coded as before.
    expect(confidentSectionType('In an open-label study (N=300), fatal toxicity occurred in 2 patients with breast cancer.')).toBeNull();
  });

  it('"drowsiness" and "sweating" are label wording (coded under any heading); "suicidal thoughts" only in text without a heading', () => {
    expect(coded('WARNINGS AND PRECAUTIONS\nDrowsiness and sweating have been reported with DRUGX.')).toEqual(sorted([pt('Somnolence'), pt('Hyperhidrosis')]));
    const suicidal = 'Antidepressants increased the risk of suicidal thoughts and behaviors in pediatric and young adult patients.';
    expect(coded(suicidal)).toEqual([pt('Suicidal ideation')]);
    // Under a heading TAC's labels have, the lay weight stays (the TAC calibrators lose a fold otherwise).
    expect(coded(`WARNINGS AND PRECAUTIONS\n${suicidal}`)).toEqual([]);
  });

  it('"depends on" and "depending on" are not Dependence; dependence itself is', () => {
    expect(run('Effectiveness of DRUGX depends on conversion to an active metabolite. Depending on the clinical context, consider evaluating the patient.').codes).toEqual([]);
    expect(coded('Physical dependence has been reported with DRUGX.')).toEqual([pt('Dependence')]);
  });

  it('a population phrase ends at a comma that a subject and its verb follow; a list after it stays the population', () => {
    expect(coded('In patients with renal disease, thiazides may precipitate azotemia.')).toEqual([pt('Azotaemia')]);
    expect(excludedAs(run('Monitor in patients with dehydration, renal disease, or azotemia during use of DRUGX.'), pt('Azotaemia'))).toBe('population');
    expect(excludedAs(run('Those with adrenal, renal disease, or azotemia are particularly susceptible.'), pt('Azotaemia'))).toBe('population');
  });
});

describe('round 14: contraindication titles, warned signs, overdose as a warned risk, drug classes, the elderly, growth and neonatal wording (issue 29)', () => {
  const names = ['Hypersensitivity', 'Hyperthyroidism', 'Sudden death', 'Respiratory depression', 'Apnoea', 'Hepatitis', 'Overdose', 'Death', 'Sedation', 'Hypovolaemia', 'Renal impairment', 'Growth retardation', 'Ductus arteriosus premature closure', 'Drug withdrawal syndrome neonatal', 'Drug withdrawal syndrome', 'Nausea'];
  const { tiny, pt } = namedVocabulary(names, [['Apnea', 'Apnoea'], ['Volume depleted', 'Hypovolaemia']]);
  const run = (text: string) => classifyLabelDetailed(text, tiny, { includeExcluded: true, minConfidence: 0.5 });
  const coded = (text: string) => run(text).codes.map((c) => c.ptCode).sort((a, b) => a - b);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

  it('a pasted text that opens with its own CONTRAINDICATIONS title reads as contraindications; the reason it gives is still coded', () => {
    const text = 'CONTRAINDICATIONS Hypersensitivity to any component of this product. Hyperthyroidism. Patients with severe obesity due to the risk of sudden death.';
    expect(coded(text)).toEqual([pt('Sudden death')]);
    expect(excludedAs(run(text), pt('Hypersensitivity'))).toBe('population');
    expect(excludedAs(run(text), pt('Hyperthyroidism'))).toBe('population');
    // Without the title (and no "contraindicated"), the same lines are read as before: findings.
    expect(coded('Hypersensitivity to any component of this product. Hyperthyroidism.')).toEqual(sorted([pt('Hypersensitivity'), pt('Hyperthyroidism')]));
  });

  it('"if signs and symptoms of X occur, discontinue" codes X; an instruction to watch for them does not', () => {
    expect(coded('If signs and symptoms of respiratory depression or apnea occur, discontinue DRUGX.')).toEqual(sorted([pt('Respiratory depression'), pt('Apnoea')]));
    expect(coded('Discontinue DRUGX immediately if signs and symptoms of hepatitis occur.')).toEqual([pt('Hepatitis')]);
    expect(excludedAs(run('Inform patients of the signs and symptoms of hepatitis and to discontinue DRUGX.'), pt('Hepatitis'))).toBe('hypothetical');
    expect(excludedAs(run('Monitor patients for signs and symptoms of respiratory depression.'), pt('Respiratory depression'))).toBe('hypothetical');
  });

  it('an overdose stated as a warned risk is coded; "to reduce the risk of overdose" and an overdose text are not', () => {
    expect(coded('DRUGX delivers the opioid over an extended period, so there is a greater risk for overdose and death.')).toEqual(sorted([pt('Overdose'), pt('Death')]));
    expect(confidentSectionType('There is a greater risk for overdose and death with DRUGX.')).toBeNull();
    expect(excludedAs(run('Prescribe the smallest quantity of tablets in order to reduce the risk of overdose.'), pt('Overdose'))).toBe('overdose');
    expect(confidentSectionType('Overdosage with DRUGX can cause respiratory depression and death.')).toBe('overdosage');
  });

  it('a plural drug class ("sedatives", "sedative hypnotics") is not Sedation; sedation is', () => {
    expect(coded('Avoid use with benzodiazepines and other sedatives/hypnotics, anxiolytics, and tranquilizers.')).toEqual([]);
    expect(coded('No dose adjustment is needed when DRUGX is co-administered with sedative hypnotics.')).toEqual([]);
    expect(coded('Profound sedation has been reported with DRUGX.')).toEqual([pt('Sedation')]);
  });

  it('"patients who are elderly, volume-depleted, or with compromised renal function" is the population', () => {
    const text = 'In patients who are elderly, volume-depleted (including those on diuretic therapy), or with compromised renal function, coadministration of NSAIDs may result in deterioration of renal function.';
    expect(excludedAs(run(text), pt('Hypovolaemia'))).toBe('population');
    expect(coded('Patients became volume-depleted on DRUGX.')).toEqual([pt('Hypovolaemia')]);
  });

  it('growth, ductus and neonatal withdrawal wording of labels is coded to its PT', () => {
    expect(coded('DRUGX may cause reversible inhibition of bone growth when administered during the second and third trimesters of pregnancy.')).toEqual([pt('Growth retardation')]);
    expect(coded('Use of NSAIDs at about 30 weeks gestation and later in pregnancy increases the risk of premature closure of the fetal ductus arteriosus.')).toEqual([pt('Ductus arteriosus premature closure')]);
    expect(coded('Prolonged use of DRUGX during pregnancy can result in neonatal opioid withdrawal syndrome, which may be life-threatening.')).toEqual([pt('Drug withdrawal syndrome neonatal')]);
  });
});
