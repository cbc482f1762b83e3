// Evaluation and calibration of the seriousness and severity confidences on the project's
// labelled narrative set (data/eval/narratives.json: invented case narratives, labelled by
// hand). Items are split by FNV-1a hash of their id (even → dev, odd → held-out test); the
// logistic calibrators are fitted on dev only. Severity is assessed as the service does it:
// with the top classifyText PT of the narrative in the demo release (CTCAE-derived, in the
// repository), so its grade definitions are consulted. Needs no external data.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadRelease } from '../../importer/import.ts';
import { projectRoot } from '../../paths.ts';
import {
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
} from '../calibration.ts';
import { CALIBRATION } from '../calibration-params.ts';
import { classifyText } from '../classify.ts';
import { vocabularySourceFromModel } from '../load.ts';
import { CRITERIA, seriousnessEvidence, type Criterion } from '../seriousness.ts';
import { severityEvidence, type SimpleGrade } from '../severity.ts';
import { buildVocabulary, type Vocabulary } from '../vocabulary.ts';
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

/** Fits the four calibrators on (dev) rows: L2-regularised logistic regression, deterministic. */
export function fitNarrativeCalibration(rows: NarrativeRows): NarrativeParams {
  const fit = <F>(features: readonly string[], rs: readonly Row<F>[]) => fitLogistic(features, rs.map((r) => r.features), rs.map((r) => r.y), 0.1);
  return {
    criterion: fit(CRITERION_FEATURES, rows.criterion),
    serious: fit(SERIOUS_FEATURES, rows.serious),
    ctcae: fit(CTCAE_FEATURES, rows.ctcae),
    simple: fit(SIMPLE_FEATURES, rows.simple),
    narrativesFittedOn: `data/eval/narratives.json, dev split (${rows.items.length} narratives, id FNV-1a even): ${rows.criterion.length} criterion decisions, ${rows.ctcae.length} CTCAE and ${rows.simple.length} 3-level gradings`,
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
  split: Split;
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

export function narrativeMetrics(split: Split, rows: NarrativeRows, params: CalibrationParams = CALIBRATION): NarrativeMetrics {
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
  dev: NarrativeMetrics;
  test: NarrativeMetrics;
  /** With `fit`: parameters fitted on the dev split (the evaluation then uses them). */
  fitted?: NarrativeParams;
}

/** Runs the narrative-set evaluation (both splits); with `fit`, fits on dev first and evaluates with the fitted parameters. */
export function runNarrativeEvaluation(opts: { dataPath?: string; fit?: boolean; vocab?: Vocabulary } = {}): NarrativeReport {
  const dataPath = opts.dataPath ?? NARRATIVES_PATH;
  const items = readNarratives(dataPath);
  const vocab = opts.vocab ?? demoVocabulary();
  const dev = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'dev'), vocab);
  const test = collectNarratives(items.filter((i) => narrativeSplit(i.id) === 'test'), vocab);
  const fitted = opts.fit ? fitNarrativeCalibration(dev) : undefined;
  const params = fitted ? { ...CALIBRATION, ...fitted } : CALIBRATION;
  return {
    dataPath: path.relative(projectRoot, dataPath) || dataPath,
    dev: narrativeMetrics('dev', dev, params),
    test: narrativeMetrics('test', test, params),
    ...(fitted ? { fitted } : {}),
  };
}

/** A fixed-width summary table of a narrative report. */
export function formatNarrativeReport(r: NarrativeReport): string {
  const f = (x: number) => x.toFixed(3);
  const lines = [
    `Narrative set ${r.dataPath} — seriousness (ICH E2A) and severity; dev ${r.dev.narratives} / test ${r.test.narratives} narratives`,
    '',
    'output                 split  n     accuracy  ECE    ECE uncalibrated  mean conf  met tp/fp/fn',
  ];
  const row = (name: string, m: NarrativeMetrics, o: OutputMetrics & { tp?: number; fp?: number; fn?: number }) =>
    [
      name.padEnd(22),
      m.split.padEnd(6),
      String(o.n).padEnd(5),
      f(o.accuracy).padEnd(9),
      f(o.ece).padEnd(6),
      f(o.eceRaw).padEnd(17),
      f(o.meanConfidence).padEnd(10),
      o.tp !== undefined ? `${o.tp}/${o.fp}/${o.fn}` : '',
    ].join(' ');
  for (const m of [r.dev, r.test]) {
    for (const c of CRITERIA) lines.push(row(c, m, m.criteria[c]));
    lines.push(row('criteria (pooled)', m, m.criteriaPooled));
    lines.push(row('serious', m, m.serious));
    lines.push(`${row('CTCAE grade', m, m.ctcae)}within ±1: ${f(m.ctcae.withinOne)}`);
    lines.push(row('mild/moderate/severe', m, m.simple));
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}
