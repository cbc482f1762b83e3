import { describe, expect, it } from 'vitest';
import { assessSeriousness, assessSeverity, classifyText, CRITERIA, type Criterion } from '../../src/nlp/index.ts';
import { demoVocabulary, PT } from './demo.ts';

const vocab = demoVocabulary();

describe('assessSeriousness (ICH E2A)', () => {
  it('the brief example meets the hospitalisation criterion only', () => {
    const s = assessSeriousness('Two days after the second dose the patient vomited repeatedly and was admitted overnight; no rash');
    expect(s.serious).toBe(true);
    expect(s.criteria.hospitalization.met).toBe(true);
    expect(s.criteria.hospitalization.reasons.join(' ')).toMatch(/admitted/);
    expect(CRITERIA.filter((c) => s.criteria[c].met)).toEqual(['hospitalization']);
  });

  it.each<[Criterion, string]>([
    ['death', 'The patient died three days after the infusion.'],
    ['death', 'Fatal outcome despite treatment.'],
    ['life_threatening', 'She had a life-threatening anaphylactic reaction.'],
    ['life_threatening', 'He suffered a cardiac arrest and was resuscitated.'],
    ['hospitalization', 'He was hospitalised for dehydration.'],
    ['hospitalization', 'Hospital stay was prolonged by a week; admitted to ICU.'],
    ['disability', 'The event left him with permanent disability.'],
    ['disability', 'She has persistent weakness and is unable to work.'],
    ['congenital_anomaly', 'The baby was born with a cleft palate.'],
    ['congenital_anomaly', 'A congenital heart defect was found after in utero exposure.'],
    ['medically_important', 'Considered a medically important event.'],
    ['medically_important', 'She had a seizure and was seen in the emergency room.'],
  ])('%s: %s', (criterion, text) => {
    const s = assessSeriousness(text);
    expect(s.criteria[criterion].met).toBe(true);
    expect(s.criteria[criterion].confidence).toBeGreaterThan(0.5);
    expect(s.criteria[criterion].reasons.length).toBeGreaterThan(0);
    expect(s.serious).toBe(true);
  });

  it.each<[Criterion, string]>([
    ['death', 'No deaths were reported.'],
    ['death', 'Risk of death was discussed.'],
    ['hospitalization', 'The patient did not require hospitalisation.'],
    ['life_threatening', 'The reaction was not life-threatening.'],
    ['disability', 'History of disability from a prior stroke.'],
    ['congenital_anomaly', 'No birth defects were observed.'],
  ])('does not count negated, hypothetical or historical cues — %s: %s', (criterion, text) => {
    const s = assessSeriousness(text);
    expect(s.criteria[criterion].met).toBe(false);
    expect(s.criteria[criterion].reasons.join(' ')).toMatch(/does not count/);
  });

  it('a non-serious narrative is not serious, with a confidence', () => {
    const s = assessSeriousness('Mild headache for an hour after the injection; resolved without treatment.');
    expect(s.serious).toBe(false);
    expect(s.confidence).toBeGreaterThan(0.5);
    for (const c of CRITERIA) expect(s.criteria[c].met).toBe(false);
  });
});

describe('assessSeverity', () => {
  const both = { systems: ['5-level', '3-level'] as ('5-level' | '3-level')[] };

  it.each([
    ['CTCAE grade 2 nausea', 2, 'Moderate', 'moderate'],
    ['Grade III neutropenia', 3, 'Severe', 'severe'],
    ['Mild rash on the arms', 1, 'Mild', 'mild'],
    ['Moderate headache needing analgesics', 2, 'Moderate', 'moderate'],
    ['Severe abdominal pain', 3, 'Severe', 'severe'],
    // CTCAE: outpatient IV hydration is grade 2 for vomiting (grade 3: tube feeding, TPN or hospitalisation).
    ['Vomiting; required IV fluids', 2, 'Moderate', 'moderate'],
    ['Anaemia requiring blood transfusion', 3, 'Severe', 'severe'],
    ['She was hospitalised with diarrhoea', 3, 'Severe', 'severe'],
    ['A life-threatening bleed', 4, 'Life-threatening', 'severe'],
    ['The patient died of sepsis', 5, 'Death', 'severe'],
  ])('%s → grade %i (%s), %s', (text, grade, label, simple) => {
    const s = assessSeverity(text, both);
    expect(s.ctcae?.value).toEqual({ grade, label });
    expect(s.simple?.value.grade).toBe(simple);
    expect(s.ctcae!.reasons.length).toBeGreaterThan(0);
    expect(s.ctcae!.confidence).toBeGreaterThan(0.5);
  });

  it('an explicit grade wins over words; a worse outcome wins over "mild"', () => {
    expect(assessSeverity('severe but grade 2 fatigue', both).ctcae?.value.grade).toBe(2);
    const s = assessSeverity('Mild vomiting at first, later hospitalized', both);
    expect(s.ctcae?.value.grade).toBe(3);
    expect(s.simple?.value.grade).toBe('severe');
  });

  it('negated cues do not raise the grade', () => {
    expect(assessSeverity('Headache, no hospitalization needed, not severe', both).ctcae?.value.grade).toBeLessThan(3);
  });

  it('matches the narrative against the PT grade definitions of the release', () => {
    // Diarrhea, CTCAE: grade 2 "Increase of 4 - 6 stools per day", grade 3 ">=7 stools per day".
    const pt = classifyText('diarrhoea with 8 stools per day', vocab)[0]!.ptCode;
    expect(pt).toBe(PT.diarrhea);
    const s = assessSeverity('diarrhoea with 8 stools per day', { systems: ['5-level'], ptCode: pt, vocab });
    expect(s.ctcae?.value.grade).toBe(3);
    expect(s.ctcae?.reasons.join(' ')).toMatch(/count 8 falls in grade 3 definition/);
    const s2 = assessSeverity('diarrhoea, 5 stools per day', { systems: ['5-level'], ptCode: pt, vocab });
    expect(s2.ctcae?.value.grade).toBe(2);
    // Pruritus grade 3: "Widespread and constant; limiting self care ADL or sleep".
    const s3 = assessSeverity('itching that is widespread and constant, limiting sleep', { systems: ['5-level'], ptCode: PT.pruritus, vocab });
    expect(s3.ctcae?.value.grade).toBe(3);
  });

  it('returns only the systems asked for, and a low-confidence default without cues', () => {
    const s = assessSeverity('rash on the arm', { systems: ['3-level'] });
    expect(s.ctcae).toBeUndefined();
    expect(s.simple?.value.grade).toBe('mild');
    expect(s.simple!.confidence).toBeLessThan(0.5);
  });
});
