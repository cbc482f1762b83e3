// Seriousness and severity calibration on the project's narrative set (in the repository):
// data/eval/narratives.json (dev split: rule development; test split: held out) and
// data/eval/narratives-calibration.json (calibration split: the calibrators are fitted on it only).
// Held-out quality floors, and the shipped parameters are what the fitter (feature set and L2 by
// cross-validation within the calibration split) produces (regenerate with
// `npm run eval -- --fit --write-params`).
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
  NARRATIVE_FEATURE_SETS,
  NARRATIVE_L2_GRID,
  readCalibrationNarratives,
  readNarratives,
} from '../../tools/eval/narratives.ts';
import { demoVocabulary as testVocabulary } from './demo.ts';

// Held-out (test split, 125 narratives) with the calibration-split fit, when the floors were set:
// criteria pooled accuracy 0.967 / ECE 0.018; serious 0.928 / 0.040; CTCAE grade 0.730 / 0.094;
// mild/moderate/severe 0.780 / 0.081 (docs/nlp.md). Floors sit a little below (ECE ceilings a little
// above). The CTCAE-grade ECE is still above the uncalibrated rule strengths' 0.068 (docs/nlp.md).
const FLOORS = {
  criterionAccuracy: 0.95,
  perCriterionAccuracy: 0.93,
  maxCriterionEce: 0.025,
  seriousAccuracy: 0.9,
  maxSeriousEce: 0.05,
  ctcaeAccuracy: 0.7,
  maxCtcaeEce: 0.11,
  simpleAccuracy: 0.75,
  maxSimpleEce: 0.095,
};

describe('narrative-set calibration (seriousness, severity)', () => {
  const items = readNarratives();
  const vocab = demoVocabulary();
  const dev = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'dev'), vocab);
  const test = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'test'), vocab);
  const calItems = readCalibrationNarratives();
  const cal = collectNarratives(calItems, vocab);

  it('the set is well-formed and the three splits are sizeable and disjoint', () => {
    expect(items.length).toBeGreaterThanOrEqual(150);
    expect(calItems.length).toBeGreaterThanOrEqual(150);
    const all = [...items, ...calItems];
    expect(new Set(all.map((i) => i.id)).size).toBe(all.length);
    expect(new Set(all.map((i) => i.text)).size).toBe(all.length);
    for (const it of all) {
      expect(Object.keys(it.seriousness).sort()).toEqual([...CRITERIA].sort());
      expect(it.ctcae === null || (Number.isInteger(it.ctcae) && it.ctcae >= 1 && it.ctcae <= 5)).toBe(true);
      expect([null, 'mild', 'moderate', 'severe']).toContain(it.simple);
    }
    for (const it of calItems) expect(it.id).toMatch(/^c\d{3}$/);
    expect(dev.items.length).toBeGreaterThan(100);
    expect(test.items.length).toBeGreaterThan(100);
    for (const c of CRITERIA) {
      expect(items.filter((i) => i.seriousness[c]).length, c).toBeGreaterThanOrEqual(5);
      expect(calItems.filter((i) => i.seriousness[c]).length, `calibration ${c}`).toBeGreaterThanOrEqual(5);
    }
    expect(calItems.filter((i) => !CRITERIA.some((c) => i.seriousness[c])).length).toBeGreaterThanOrEqual(50);
    for (const g of [1, 2, 3, 4, 5]) expect(calItems.filter((i) => i.ctcae === g).length, `grade ${g}`).toBeGreaterThanOrEqual(5);
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

  it('the shipped parameters are the ones fitted on the calibration split, and reproduce the recorded held-out ECE', () => {
    const fitted = fitNarrativeCalibration(cal);
    for (const k of ['criterion', 'serious', 'ctcae', 'simple'] as const) {
      expect(NARRATIVE_FEATURE_SETS[k].map((f) => [...f])).toContainEqual([...fitted.choices[k].features]);
      expect(NARRATIVE_L2_GRID).toContain(fitted.choices[k].l2);
    }
    expect(CALIBRATION.criterion).toEqual(fitted.criterion);
    expect(CALIBRATION.serious).toEqual(fitted.serious);
    expect(CALIBRATION.ctcae).toEqual(fitted.ctcae);
    expect(CALIBRATION.simple).toEqual(fitted.simple);
    expect(CALIBRATION.narrativesFittedOn).toBe(fitted.narrativesFittedOn);
    expect(CALIBRATION.narrativesFittedOn).toMatch(/narratives-calibration\.json/);
    // Fitted on the calibration split, not on dev: a refit on dev gives other weights.
    expect(fitNarrativeCalibration(dev).ctcae).not.toEqual(CALIBRATION.ctcae);
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
