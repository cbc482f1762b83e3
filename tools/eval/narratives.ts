// Evaluation and calibration of the seriousness and severity confidences on the project's
// labelled narrative set (invented case narratives, labelled by hand). Three splits:
//   - dev  (data/eval/narratives.json, id FNV-1a even): rule development — the rules were fixed
//     from its errors, so its accuracy is optimistic;
//   - test (data/eval/narratives.json, id FNV-1a odd): held out, never used to tune anything;
//   - calibration (data/eval/narratives-calibration.json, the whole file): written after the
//     rules and labelled before the engine was run on it; no rule was changed after seeing its
//     output. The logistic calibrators are fitted on it only (feature set and L2 strength chosen
//     by cross-validation within it).
// Severity is assessed as the service does it: with the top classifyText PT of the narrative in
// the demo release (CTCAE-derived, in the repository), so its grade definitions are consulted.
// Needs no external data.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadRelease } from '../../src/importer/import.ts';
import { projectRoot } from '../../src/paths.ts';
import {
  applyLogistic,
  calibrateCriterion,
  calibrateCtcae,
  calibrateSerious,
  calibrateSimple,
  CRITERION_FEATURES,
  criterionFeatures,
  CTCAE_FEATURES,
  ctcaeFeatures,
  expectedCalibrationError,
  fitLogistic,
  round,
  SERIOUS_FEATURES,
  seriousFeatures,
  SIMPLE_FEATURES,
  simpleFeatures,
  type CalibrationParams,
  type CriterionFeatureInput,
  type CtcaeFeatureInput,
  type SeriousFeatureInput,
  type SimpleFeatureInput,
} from '../../src/nlp/calibration.ts';
import { CALIBRATION } from '../../src/nlp/calibration-params.ts';
import { classifyText } from '../../src/nlp/classify.ts';
import { vocabularySourceFromModel } from './vocabularyFromModel.ts';
import { CRITERIA, seriousnessEvidence, type Criterion } from '../../src/nlp/seriousness.ts';
import { severityEvidence, type SimpleGrade } from '../../src/nlp/severity.ts';
import { buildVocabulary, type Vocabulary } from '../../src/nlp/vocabulary.ts';
import { fnv1a, type Split } from './tac.ts';

export interface NarrativeItem {
  id: string;
  text: string;
  /** Gold ICH E2A criteria. */
  seriousness: Record<Criterion, boolean>;
  /** Gold CTCAE grade of the worst event; null when the text does not allow one. */
  ctcae: number | null;
  /** Gold mild/moderate/severe; null when undeterminable. */
  simple: SimpleGrade | null;
}

export const NARRATIVES_PATH = path.join(projectRoot, 'data', 'eval', 'narratives.json');
/** The calibration split: a separate file, used whole (no hash). */
export const CALIBRATION_NARRATIVES_PATH = path.join(projectRoot, 'data', 'eval', 'narratives-calibration.json');

/** dev / test (narratives.json, by id hash) or calibration (narratives-calibration.json). */
export type NarrativeSplit = Split | 'calibration';

export function readNarratives(file = NARRATIVES_PATH): NarrativeItem[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { items?: NarrativeItem[] };
  if (!Array.isArray(data.items)) throw new Error(`${file}: expected { items: [...] }`);
  return data.items;
}

/** Deterministic split by id: even FNV-1a hash → dev, odd → held-out test. */
export function narrativeSplit(id: string): Split {
  return fnv1a(id) % 2 === 0 ? 'dev' : 'test';
}

/** The demo release (data/demo/5.0.1) as an engine vocabulary (its PTs carry CTCAE grade definitions). */
export function demoVocabulary(): Vocabulary {
  const src = vocabularySourceFromModel(loadRelease(path.join(projectRoot, 'data', 'demo', '5.0.1')));
  return buildVocabulary(src.terms, { grades: src.grades });
}

interface Row<F> {
  id: string;
  f: F;
  features: Record<string, number>;
  y: number;
  /** The uncalibrated rule-strength confidence. */
  raw: number;
}

export interface NarrativeRows {
  items: NarrativeItem[];
  criterion: (Row<CriterionFeatureInput> & { criterion: Criterion; predicted: boolean; gold: boolean })[];
  serious: (Row<SeriousFeatureInput> & { predicted: boolean; gold: boolean })[];
  ctcae: (Row<CtcaeFeatureInput> & { predicted: number; gold: number })[];
  simple: (Row<SimpleFeatureInput> & { predicted: SimpleGrade; gold: SimpleGrade })[];
}

/** Runs the rules on the items and collects one calibration row per output. */
export function collectNarratives(items: readonly NarrativeItem[], vocab?: Vocabulary): NarrativeRows {
  const rows: NarrativeRows = { items: [...items], criterion: [], serious: [], ctcae: [], simple: [] };
  for (const it of items) {
    const s = seriousnessEvidence(it.text);
    for (const c of CRITERIA) {
      const predicted = s.raw.criteria[c].met;
      const gold = it.seriousness[c];
      const f = s.criteria[c];
      rows.criterion.push({ id: it.id, criterion: c, f, features: criterionFeatures(f), y: predicted === gold ? 1 : 0, raw: s.raw.criteria[c].confidence, predicted, gold });
    }
    const goldSerious = CRITERIA.some((c) => it.seriousness[c]);
    rows.serious.push({ id: it.id, f: s.serious, features: seriousFeatures(s.serious), y: s.raw.serious === goldSerious ? 1 : 0, raw: s.raw.confidence, predicted: s.raw.serious, gold: goldSerious });
    const ptCode = vocab ? classifyText(it.text, vocab, { limit: 1 })[0]?.ptCode : undefined;
    const sev = severityEvidence(it.text, ptCode !== undefined ? { ptCode, vocab } : {});
    if (it.ctcae !== null) {
      rows.ctcae.push({ id: it.id, f: sev.ctcae, features: ctcaeFeatures(sev.ctcae), y: sev.ctcae.grade === it.ctcae ? 1 : 0, raw: sev.ctcae.rawConfidence, predicted: sev.ctcae.grade, gold: it.ctcae });
    }
    if (it.simple !== null) {
      rows.simple.push({ id: it.id, f: sev.simple, features: simpleFeatures(sev.simple), y: sev.simple.grade === it.simple ? 1 : 0, raw: sev.simple.rawConfidence, predicted: sev.simple.grade, gold: it.simple });
    }
  }
  return rows;
}

export type NarrativeParams = Pick<CalibrationParams, 'criterion' | 'serious' | 'ctcae' | 'simple' | 'narrativesFittedOn'>;

/**
 * Candidate feature sets per calibrator, simplest first: plain Platt scaling on the rule strength,
 * a middle set, and every feature. The fitter picks one (and the L2 strength) by cross-validation.
 */
export const NARRATIVE_FEATURE_SETS: Record<'criterion' | 'serious' | 'ctcae' | 'simple', readonly (readonly string[])[]> = {
  criterion: [['metLogit', 'notMet'], ['metLogit', 'metHits', 'notCounted', 'notMet'], CRITERION_FEATURES],
  serious: [['logitRaw'], ['serious', 'logitRaw', 'notCounted'], SERIOUS_FEATURES],
  ctcae: [['logitRaw'], ['logitRaw', 'default', 'grade'], CTCAE_FEATURES],
  simple: [['logitRaw'], ['logitRaw', 'stated', 'default'], SIMPLE_FEATURES],
};

/** L2 strengths tried (penalty on the summed log-loss; the bias is not penalised). */
export const NARRATIVE_L2_GRID = [0.1, 0.3, 1, 3, 10, 30] as const;

/** Folds of the cross-validation; items are assigned by FNV-1a of the id, so a narrative's rows stay together. */
export const CV_FOLDS = 5;

export interface ModelChoice {
  features: readonly string[];
  l2: number;
  /** Mean cross-validated log-loss of the choice. */
  cvLogLoss: number;
}

/**
 * Chooses a feature set and L2 strength by k-fold cross-validation (log-loss) within `rows`;
 * the simplest candidate wins ties (within 1e-9). Deterministic.
 */
export function chooseModel(sets: readonly (readonly string[])[], rows: readonly { id: string; features: Record<string, number>; y: number }[]): ModelChoice {
  const fold = rows.map((r) => fnv1a(r.id) % CV_FOLDS);
  let best: ModelChoice | undefined;
  let bestLoss = Infinity;
  for (const features of sets) {
    for (const l2 of NARRATIVE_L2_GRID) {
      let loss = 0;
      for (let k = 0; k < CV_FOLDS; k++) {
        const train = rows.filter((_, i) => fold[i] !== k);
        const m = fitLogistic(features, train.map((r) => r.features), train.map((r) => r.y), l2);
        rows.forEach((r, i) => {
          if (fold[i] !== k) return;
          const p = Math.min(1 - 1e-6, Math.max(1e-6, applyLogistic(m, r.features)));
          loss -= r.y ? Math.log(p) : Math.log(1 - p);
        });
      }
      const cvLogLoss = loss / Math.max(1, rows.length);
      if (cvLogLoss < bestLoss - 1e-9) {
        bestLoss = cvLogLoss;
        best = { features, l2, cvLogLoss: round(cvLogLoss, 6) };
      }
    }
  }
  return best!;
}

/**
 * Fits the four calibrators on (calibration-split) rows: L2-regularised logistic regression, with
 * the feature set and L2 strength of each chosen by cross-validation within the rows. Deterministic.
 */
export function fitNarrativeCalibration(rows: NarrativeRows, source = 'data/eval/narratives-calibration.json (calibration split, whole file)'): NarrativeParams & { choices: Record<'criterion' | 'serious' | 'ctcae' | 'simple', ModelChoice> } {
  const pick = (name: keyof typeof NARRATIVE_FEATURE_SETS, rs: readonly Row<unknown>[]) => {
    const choice = chooseModel(NARRATIVE_FEATURE_SETS[name], rs);
    return { choice, model: fitLogistic(choice.features, rs.map((r) => r.features), rs.map((r) => r.y), choice.l2) };
  };
  const criterion = pick('criterion', rows.criterion);
  const serious = pick('serious', rows.serious);
  const ctcae = pick('ctcae', rows.ctcae);
  const simple = pick('simple', rows.simple);
  const l2s = `L2 by ${CV_FOLDS}-fold CV: criterion ${criterion.choice.l2}, serious ${serious.choice.l2}, CTCAE ${ctcae.choice.l2}, 3-level ${simple.choice.l2}`;
  return {
    criterion: criterion.model,
    serious: serious.model,
    ctcae: ctcae.model,
    simple: simple.model,
    narrativesFittedOn: `${source}: ${rows.items.length} narratives, ${rows.criterion.length} criterion decisions, ${rows.ctcae.length} CTCAE and ${rows.simple.length} 3-level gradings; ${l2s}`,
    choices: { criterion: criterion.choice, serious: serious.choice, ctcae: ctcae.choice, simple: simple.choice },
  };
}

export interface OutputMetrics {
  n: number;
  accuracy: number;
  /** ECE of the calibrated confidences. */
  ece: number;
  /** ECE of the uncalibrated rule strengths, for comparison. */
  eceRaw: number;
  /** Mean calibrated confidence (≈ accuracy when calibrated). */
  meanConfidence: number;
}

export interface NarrativeMetrics {
  split: NarrativeSplit;
  narratives: number;
  /** Per criterion: met/not-met accuracy and ECE; tp/fp/fn of "met". */
  criteria: Record<Criterion, OutputMetrics & { tp: number; fp: number; fn: number }>;
  /** All criterion decisions pooled. */
  criteriaPooled: OutputMetrics;
  serious: OutputMetrics & { tp: number; fp: number; fn: number };
  ctcae: OutputMetrics & { withinOne: number };
  simple: OutputMetrics;
}

function output(conf: readonly number[], raw: readonly number[], y: readonly number[]): OutputMetrics {
  const n = y.length;
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    n,
    accuracy: round(n ? sum(y) / n : 0),
    ece: round(expectedCalibrationError(conf, y)),
    eceRaw: round(expectedCalibrationError(raw, y)),
    meanConfidence: round(n ? sum(conf) / n : 0),
  };
}

function counts(rows: readonly { predicted: boolean; gold: boolean }[]): { tp: number; fp: number; fn: number } {
  return {
    tp: rows.filter((r) => r.predicted && r.gold).length,
    fp: rows.filter((r) => r.predicted && !r.gold).length,
    fn: rows.filter((r) => !r.predicted && r.gold).length,
  };
}

export function narrativeMetrics(split: NarrativeSplit, rows: NarrativeRows, params: CalibrationParams = CALIBRATION): NarrativeMetrics {
  const criteria = {} as NarrativeMetrics['criteria'];
  for (const c of CRITERIA) {
    const rs = rows.criterion.filter((r) => r.criterion === c);
    criteria[c] = { ...output(rs.map((r) => calibrateCriterion(r.f, params)), rs.map((r) => r.raw), rs.map((r) => r.y)), ...counts(rs) };
  }
  return {
    split,
    narratives: rows.items.length,
    criteria,
    criteriaPooled: output(rows.criterion.map((r) => calibrateCriterion(r.f, params)), rows.criterion.map((r) => r.raw), rows.criterion.map((r) => r.y)),
    serious: { ...output(rows.serious.map((r) => calibrateSerious(r.f, params)), rows.serious.map((r) => r.raw), rows.serious.map((r) => r.y)), ...counts(rows.serious) },
    ctcae: {
      ...output(rows.ctcae.map((r) => calibrateCtcae(r.f, params)), rows.ctcae.map((r) => r.raw), rows.ctcae.map((r) => r.y)),
      withinOne: round(rows.ctcae.length ? rows.ctcae.filter((r) => Math.abs(r.predicted - r.gold) <= 1).length / rows.ctcae.length : 0),
    },
    simple: output(rows.simple.map((r) => calibrateSimple(r.f, params)), rows.simple.map((r) => r.raw), rows.simple.map((r) => r.y)),
  };
}

export interface NarrativeReport {
  dataPath: string;
  calibrationPath: string;
  dev: NarrativeMetrics;
  /** In-sample when the parameters were fitted on it. */
  calibration: NarrativeMetrics;
  test: NarrativeMetrics;
  /** With `fit`: parameters fitted on the calibration split (the evaluation then uses them). */
  fitted?: NarrativeParams;
  /** With `fit`: the feature set and L2 strength chosen for each calibrator. */
  choices?: ReturnType<typeof fitNarrativeCalibration>['choices'];
}

/** Reads the calibration split: the whole calibration file, which must say `"split": "calibration"`. */
export function readCalibrationNarratives(file = CALIBRATION_NARRATIVES_PATH): NarrativeItem[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { split?: string };
  if (data.split !== 'calibration') throw new Error(`${file}: expected "split": "calibration"`);
  return readNarratives(file);
}

/**
 * Runs the narrative-set evaluation (dev, calibration and test splits); with `fit`, fits on the
 * calibration split first and evaluates with the fitted parameters.
 */
export function runNarrativeEvaluation(opts: { dataPath?: string; calibrationPath?: string; fit?: boolean; vocab?: Vocabulary } = {}): NarrativeReport {
  const dataPath = opts.dataPath ?? NARRATIVES_PATH;
  const calibrationPath = opts.calibrationPath ?? CALIBRATION_NARRATIVES_PATH;
  const items = readNarratives(dataPath);
  const vocab = opts.vocab ?? demoVocabulary();
  const dev = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'dev'), vocab);
  const test = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'test'), vocab);
  const cal = collectNarratives(readCalibrationNarratives(calibrationPath), vocab);
  const fit = opts.fit ? fitNarrativeCalibration(cal) : undefined;
  const fitted: NarrativeParams | undefined = fit
    ? { criterion: fit.criterion, serious: fit.serious, ctcae: fit.ctcae, simple: fit.simple, narrativesFittedOn: fit.narrativesFittedOn }
    : undefined;
  const params = fitted ? { ...CALIBRATION, ...fitted } : CALIBRATION;
  const rel = (p: string) => path.relative(projectRoot, p) || p;
  return {
    dataPath: rel(dataPath),
    calibrationPath: rel(calibrationPath),
    dev: narrativeMetrics('dev', dev, params),
    calibration: narrativeMetrics('calibration', cal, params),
    test: narrativeMetrics('test', test, params),
    ...(fitted ? { fitted, choices: fit!.choices } : {}),
  };
}

/** A fixed-width summary table of a narrative report. */
export function formatNarrativeReport(r: NarrativeReport): string {
  const f = (x: number) => x.toFixed(3);
  const lines = [
    `Narrative set ${r.dataPath} + ${r.calibrationPath} — seriousness (ICH E2A) and severity; dev ${r.dev.narratives} / calibration ${r.calibration.narratives} / test ${r.test.narratives} narratives`,
    '(dev: rule development; calibration: calibrators fitted here, so its ECE is in-sample; test: held out)',
    '',
    'output                 split  n     accuracy  ECE    ECE uncalibrated  mean conf  met tp/fp/fn',
  ];
  const row = (name: string, m: NarrativeMetrics, o: OutputMetrics & { tp?: number; fp?: number; fn?: number }) =>
    [
      name.padEnd(22),
      (m.split === 'calibration' ? 'calib' : m.split).padEnd(6),
      String(o.n).padEnd(5),
      f(o.accuracy).padEnd(9),
      f(o.ece).padEnd(6),
      f(o.eceRaw).padEnd(17),
      f(o.meanConfidence).padEnd(10),
      o.tp !== undefined ? `${o.tp}/${o.fp}/${o.fn}` : '',
    ].join(' ');
  for (const m of [r.dev, r.calibration, r.test]) {
    for (const c of CRITERIA) lines.push(row(c, m, m.criteria[c]));
    lines.push(row('criteria (pooled)', m, m.criteriaPooled));
    lines.push(row('serious', m, m.serious));
    lines.push(`${row('CTCAE grade', m, m.ctcae)}within ±1: ${f(m.ctcae.withinOne)}`);
    lines.push(row('mild/moderate/severe', m, m.simple));
    lines.push('');
  }
  if (r.choices) {
    lines.push('chosen by cross-validation on the calibration split:');
    for (const [k, c] of Object.entries(r.choices)) lines.push(`  ${k.padEnd(10)} L2 ${String(c.l2).padEnd(4)} CV log-loss ${c.cvLogLoss.toFixed(4)}  features ${c.features.join(', ')}`);
  }
  return lines.join('\n').trimEnd();
}
