// Seriousness and severity calibration on the project's narrative set (data/eval/narratives.json,
// in the repository): held-out quality floors, and the shipped parameters are what the fitter
// produces from the dev split (regenerate with `npm run eval -- --fit --write-params`).
import { describe, expect, it } from 'vitest';
import { CALIBRATION, CRITERIA, identifyEvents } from '../../src/nlp/index.ts';
import { calibrateIdentify } from '../../src/nlp/calibration.ts';
import { identifyEventDetails } from '../../src/nlp/identify.ts';
import {
  collectNarratives,
  demoVocabulary,
  fitNarrativeCalibration,
  narrativeMetrics,
  narrativeSplit,
  readNarratives,
} from '../../src/nlp/eval/narratives.ts';
import { demoVocabulary as testVocabulary } from './demo.ts';

// Held-out (test split, 125 narratives) when the floors were set: criteria pooled accuracy 0.967 /
// ECE 0.020; serious 0.928 / 0.044; CTCAE grade 0.730 / 0.139; mild/moderate/severe 0.780 / 0.074
// (docs/nlp.md). Floors sit a little below (ECE ceilings a little above).
const FLOORS = {
  criterionAccuracy: 0.95,
  perCriterionAccuracy: 0.93,
  maxCriterionEce: 0.035,
  seriousAccuracy: 0.9,
  maxSeriousEce: 0.06,
  ctcaeAccuracy: 0.7,
  maxCtcaeEce: 0.16,
  simpleAccuracy: 0.75,
  maxSimpleEce: 0.09,
};

describe('narrative-set calibration (seriousness, severity)', () => {
  const items = readNarratives();
  const vocab = demoVocabulary();
  const dev = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'dev'), vocab);
  const test = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'test'), vocab);

  it('the set is well-formed and both splits are sizeable', () => {
    expect(items.length).toBeGreaterThanOrEqual(150);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    for (const it of items) {
      expect(Object.keys(it.seriousness).sort()).toEqual([...CRITERIA].sort());
      expect(it.ctcae === null || (Number.isInteger(it.ctcae) && it.ctcae >= 1 && it.ctcae <= 5)).toBe(true);
      expect([null, 'mild', 'moderate', 'severe']).toContain(it.simple);
    }
    expect(dev.items.length).toBeGreaterThan(100);
    expect(test.items.length).toBeGreaterThan(100);
    for (const c of CRITERIA) expect(items.filter((i) => i.seriousness[c]).length, c).toBeGreaterThanOrEqual(5);
  });

  it('stays above the held-out floors', () => {
    const m = narrativeMetrics('test', test);
    expect(m.criteriaPooled.accuracy).toBeGreaterThanOrEqual(FLOORS.criterionAccuracy);
    expect(m.criteriaPooled.ece).toBeLessThanOrEqual(FLOORS.maxCriterionEce);
    for (const c of CRITERIA) expect(m.criteria[c].accuracy, c).toBeGreaterThanOrEqual(FLOORS.perCriterionAccuracy);
    expect(m.serious.accuracy).toBeGreaterThanOrEqual(FLOORS.seriousAccuracy);
    expect(m.serious.ece).toBeLessThanOrEqual(FLOORS.maxSeriousEce);
    expect(m.ctcae.accuracy).toBeGreaterThanOrEqual(FLOORS.ctcaeAccuracy);
    expect(m.ctcae.ece).toBeLessThanOrEqual(FLOORS.maxCtcaeEce);
    expect(m.simple.accuracy).toBeGreaterThanOrEqual(FLOORS.simpleAccuracy);
    expect(m.simple.ece).toBeLessThanOrEqual(FLOORS.maxSimpleEce);
  });

  it('the shipped parameters are the ones fitted on the dev split, and reproduce the recorded held-out ECE', () => {
    const fitted = fitNarrativeCalibration(dev);
    expect(CALIBRATION.criterion).toEqual(fitted.criterion);
    expect(CALIBRATION.serious).toEqual(fitted.serious);
    expect(CALIBRATION.ctcae).toEqual(fitted.ctcae);
    expect(CALIBRATION.simple).toEqual(fitted.simple);
    expect(CALIBRATION.narrativesFittedOn).toBe(fitted.narrativesFittedOn);
    const m = narrativeMetrics('test', test);
    expect(m.criteriaPooled.ece).toBeCloseTo(CALIBRATION.heldOut.criterionEce!, 4);
    expect(m.serious.ece).toBeCloseTo(CALIBRATION.heldOut.seriousEce!, 4);
    expect(m.ctcae.ece).toBeCloseTo(CALIBRATION.heldOut.ctcaeEce!, 4);
    expect(m.simple.ece).toBeCloseTo(CALIBRATION.heldOut.simpleEce!, 4);
  });
});

describe('identifyEvents calibration', () => {
  it('confidence is the shipped logistic model applied to the rule evidence', () => {
    const vocab = testVocabulary();
    const text = 'After the vaccine she developed nausea, vomiting and diarrhoea. Possible seizure. The nausea returned. She developed a strange metallic aftertaste.';
    const events = identifyEvents(text, vocab);
    const details = identifyEventDetails(text, vocab);
    expect(events.map((e) => e.description)).toEqual(details.map((d) => d.event.description));
    events.forEach((e, i) => expect(e.confidence).toBeCloseTo(calibrateIdentify(details[i]!.features), 4));
    const nausea = details.find((d) => d.event.description.includes('nausea'))!;
    expect(nausea.features.mentions).toBe(2);
    expect(nausea.mentions).toHaveLength(2);
  });
});
