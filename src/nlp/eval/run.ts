// Evaluation harness for the coding engine on the TAC 2017 ADR benchmark:
//   1. builds a throw-away MedAscii release from the benchmark's gold PT/LLT vocabulary
//      (temp dir), imports it with the real importer into an in-memory PGlite store and
//      loads the vocabulary back from the store, as the service does;
//   2. labels: classifyLabel on every label (all its sections, headings kept) →
//      label-level PT micro precision/recall/F1 (TAC 2017 task 4 measure);
//   3. mentions: classifyText on every gold mention text → top-1 PT accuracy;
//   4. identification: identifyEvents on every label section; an event is right when one of
//      its mentions overlaps a gold (human) adverse-reaction mention of the section;
//   5. calibration: expected calibration error of the confidences.
// Labels are split deterministically by label_id hash into dev (tuning and calibration
// fitting) and held-out test.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { importRelease } from '../../importer/import.ts';
import { projectRoot } from '../../paths.ts';
import { CALIBRATION } from '../calibration-params.ts';
import {
  calibrateIdentify,
  calibrateLabel,
  calibrateText,
  expectedCalibrationError,
  fitLogistic,
  IDENTIFY_FEATURES,
  identifyFeatures,
  labelFeatures,
  round,
  textFeatures,
  type CalibrationParams,
  type IdentifyFeatureInput,
  type LogisticModel,
} from '../calibration.ts';
import { identifyEventDetails } from '../identify.ts';
import { textCandidates } from '../classify.ts';
import { labelCandidates, labelFeatureInput } from '../label.ts';
import { loadVocabularySource } from '../load.ts';
import { buildVocabulary, type Vocabulary } from '../vocabulary.ts';
import { groupLabels, readTac, writeEvalRelease, type EvalLabel, type Split } from './tac.ts';

/** Label decision threshold on calibrated confidence used for the reported P/R/F1 (chosen on dev). */
export const LABEL_THRESHOLD = 0.5;

export interface PRF {
  precision: number;
  recall: number;
  f1: number;
  tp: number;
  fp: number;
  fn: number;
}

export interface SplitMetrics {
  split: Split;
  labels: number;
  goldPts: number;
  /** Label-level PT micro P/R/F1 at LABEL_THRESHOLD (or the threshold asked for). */
  label: PRF & { threshold: number };
  /** The same at the REST default minConfidence (0.25). */
  labelAtDefault: PRF & { threshold: number };
  mention: { n: number; accuracy: number; top5: number };
  calibration: {
    /** ECE of every label-level PT candidate (confidence vs PT in gold). */
    labelEce: number;
    /** ECE of the label-level PTs at or above the REST default minConfidence 0.25. */
    labelEceReturned: number;
    /** ECE of classifyText's top-1 confidences. */
    textEce: number;
    labelPredictions: number;
    textPredictions: number;
    /** ECE of identifyEvents' confidences (event right = a mention overlaps a gold mention). */
    identifyEce: number;
    /** The same with the uncalibrated rule strengths (for comparison). */
    identifyEceRaw: number;
  };
  /** identifyEvents on each label section. */
  identify: {
    events: number;
    /** Share of identified events with a mention overlapping a gold mention. */
    precision: number;
    /** Share of gold mentions overlapped by an identified event's mention. */
    mentionRecall: number;
    goldMentions: number;
    /** Precision of the events with confidence ≥ 0.5. */
    precisionAt05: number;
    eventsAt05: number;
  };
  timing: { labelMsMean: number; labelMsMax: number; labelKbMean: number; mentionMsMean: number };
}

export interface EvaluationReport {
  dataPath: string;
  release: { pts: number; llts: number; terms: number; importMs: number; buildMs: number };
  dev?: SplitMetrics;
  test?: SplitMetrics;
  /** With `fit`: calibration parameters fitted on the dev split. */
  fitted?: Pick<CalibrationParams, 'label' | 'text' | 'identify' | 'fittedOn'>;
}

export interface EvaluationOptions {
  /** TAC 2017 train.json; default: $TAC2017_PATH, else shared/data beside the checkout. */
  dataPath?: string;
  split?: Split | 'both';
  threshold?: number;
  /** Evaluate classifyText on the gold mentions (default true). */
  mentions?: boolean;
  /** Fit the calibrators on dev first and evaluate with them (for `npm run eval -- --fit`). */
  fit?: boolean;
  /** Evaluate identifyEvents on the label sections (default true). */
  identify?: boolean;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
}

/** Where the benchmark file is looked for when no path is given. */
export function defaultTacPath(): string {
  const candidates = [
    process.env.TAC2017_PATH,
    path.resolve(projectRoot, '..', 'shared', 'data', 'tac2017-adr', 'train.json'),
    '/work/shared/data/tac2017-adr/train.json',
  ].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(p)) ?? candidates[0]!;
}

export function prf(tp: number, fp: number, fn: number): PRF {
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision: round(precision), recall: round(recall), f1: round(f1), tp, fp, fn };
}

/** Builds, imports (PGlite, real importer) and loads the evaluation vocabulary. */
export async function loadEvaluationVocabulary(
  labels: Parameters<typeof writeEvalRelease>[0],
): Promise<{ vocab: Vocabulary; pts: number; llts: number; importMs: number; buildMs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nlp-eval-release-'));
  try {
    const counts = writeEvalRelease(labels, dir);
    const t0 = performance.now();
    const db = await openDatabase({ dataDir: 'memory://' });
    try {
      await migrate(db);
      const summary = await importRelease(db, dir, { source: 'nlp-evaluation' });
      const source = await loadVocabularySource(db.prisma, summary.releaseId);
      const importMs = performance.now() - t0;
      const t1 = performance.now();
      const vocab = buildVocabulary(source.terms, { grades: source.grades });
      return { vocab, ...counts, importMs, buildMs: performance.now() - t1 };
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface LabelRow {
  features: Record<string, number>;
  y: number;
  f: Parameters<typeof calibrateLabel>[0];
}
interface TextRow {
  features: Record<string, number>;
  y: number;
  f: Parameters<typeof calibrateText>[0];
  rank: number;
}

export interface IdentifyRow {
  features: Record<string, number>;
  y: number;
  f: IdentifyFeatureInput;
  /** The uncalibrated rule strength. */
  raw: number;
}

interface SplitRun {
  labels: EvalLabel[];
  labelRows: { label: string; ptCode: number; row: LabelRow }[];
  textRows: TextRow[];
  identifyRows: IdentifyRow[];
  identify: { gold: number; covered: number };
  mention: { n: number; correct: number; top5: number };
  timing: { labelMs: number[]; labelKb: number[]; mentionMs: number[] };
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/** identifyEvents over each section of the labels: one calibration row per event, and gold-mention coverage. */
export function collectIdentify(labels: readonly EvalLabel[], vocab: Vocabulary): { rows: IdentifyRow[]; gold: number; covered: number } {
  const rows: IdentifyRow[] = [];
  let gold = 0;
  let covered = 0;
  for (const l of labels) {
    for (const s of l.sections) {
      const details = identifyEventDetails(s.text, vocab);
      gold += s.spans.length;
      covered += s.spans.filter((g) => details.some((d) => d.mentions.some((m) => overlaps(m, g)))).length;
      for (const d of details) {
        const y = d.mentions.some((m) => s.spans.some((g) => overlaps(m, g))) ? 1 : 0;
        rows.push({ features: identifyFeatures(d.features), y, f: d.features, raw: d.event.confidence });
      }
    }
  }
  return { rows, gold, covered };
}

function collect(vocab: Vocabulary, labels: EvalLabel[], withMentions: boolean, withIdentify: boolean): SplitRun {
  const run: SplitRun = {
    labels,
    labelRows: [],
    textRows: [],
    identifyRows: [],
    identify: { gold: 0, covered: 0 },
    mention: { n: 0, correct: 0, top5: 0 },
    timing: { labelMs: [], labelKb: [], mentionMs: [] },
  };
  if (withIdentify) {
    const id = collectIdentify(labels, vocab);
    run.identifyRows = id.rows;
    run.identify = { gold: id.gold, covered: id.covered };
  }
  for (const l of labels) {
    const t0 = performance.now();
    const cands = labelCandidates(l.text, vocab);
    run.timing.labelMs.push(performance.now() - t0);
    run.timing.labelKb.push(l.text.length / 1024);
    for (const c of cands) {
      const f = labelFeatureInput(c);
      run.labelRows.push({ label: l.labelId, ptCode: c.ptCode, row: { features: labelFeatures(f), y: l.gold.has(c.ptCode) ? 1 : 0, f } });
    }
    if (!withMentions) continue;
    for (const m of l.mentions) {
      const t1 = performance.now();
      const cands2 = textCandidates(m.text, vocab, 5);
      run.timing.mentionMs.push(performance.now() - t1);
      run.mention.n++;
      if (cands2[0]?.ptCode === m.ptCode) run.mention.correct++;
      if (cands2.slice(0, 5).some((c) => c.ptCode === m.ptCode)) run.mention.top5++;
      const top = cands2[0]?.rawScore ?? 0;
      const second = cands2[1]?.rawScore ?? 0;
      cands2.slice(0, 5).forEach((c, rank) => {
        const f = { rawScore: c.rawScore, rank, margin: rank === 0 ? top - second : c.rawScore - top, phrase: c.phrase };
        run.textRows.push({ features: textFeatures(f), y: c.ptCode === m.ptCode ? 1 : 0, f, rank });
      });
    }
  }
  return run;
}

type TacParams = Pick<CalibrationParams, 'label' | 'text' | 'identify'>;

function metrics(split: Split, run: SplitRun, threshold: number, fitted: TacParams | undefined): SplitMetrics {
  const params = fitted ? ({ ...CALIBRATION, ...fitted } as CalibrationParams) : undefined;
  const goldTotal = run.labels.reduce((s, l) => s + l.gold.size, 0);
  const score = (t: number) => {
    let tp = 0;
    let fp = 0;
    for (const r of run.labelRows) {
      if (calibrateLabel(r.row.f, params) < t) continue;
      if (r.row.y) tp++;
      else fp++;
    }
    return { ...prf(tp, fp, goldTotal - tp), threshold: t };
  };
  const labelConf = run.labelRows.map((r) => calibrateLabel(r.row.f, params));
  const labelY = run.labelRows.map((r) => r.row.y);
  const returned = labelConf.map((c, i) => [c, labelY[i]!] as const).filter(([c]) => c >= 0.25);
  const top1 = run.textRows.filter((r) => r.rank === 0);
  const idConf = run.identifyRows.map((r) => calibrateIdentify(r.f, params));
  const idY = run.identifyRows.map((r) => r.y);
  const idRight = idY.reduce((a, b) => a + b, 0);
  const at05 = idConf.map((c, i) => [c, idY[i]!] as const).filter(([c]) => c >= 0.5);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    split,
    labels: run.labels.length,
    goldPts: goldTotal,
    label: score(threshold),
    labelAtDefault: score(0.25),
    mention: {
      n: run.mention.n,
      accuracy: round(run.mention.n ? run.mention.correct / run.mention.n : 0),
      top5: round(run.mention.n ? run.mention.top5 / run.mention.n : 0),
    },
    calibration: {
      labelEce: round(expectedCalibrationError(labelConf, labelY)),
      labelEceReturned: round(expectedCalibrationError(returned.map((r) => r[0]), returned.map((r) => r[1]))),
      textEce: round(expectedCalibrationError(top1.map((r) => calibrateText(r.f, params)), top1.map((r) => r.y))),
      labelPredictions: labelConf.length,
      textPredictions: top1.length,
      identifyEce: round(expectedCalibrationError(idConf, idY)),
      identifyEceRaw: round(expectedCalibrationError(run.identifyRows.map((r) => r.raw), idY)),
    },
    identify: {
      events: idY.length,
      precision: round(idY.length ? idRight / idY.length : 0),
      mentionRecall: round(run.identify.gold ? run.identify.covered / run.identify.gold : 0),
      goldMentions: run.identify.gold,
      precisionAt05: round(at05.length ? at05.filter(([, y]) => y).length / at05.length : 0),
      eventsAt05: at05.length,
    },
    timing: {
      labelMsMean: round(mean(run.timing.labelMs), 2),
      labelMsMax: round(Math.max(0, ...run.timing.labelMs), 2),
      labelKbMean: round(mean(run.timing.labelKb), 1),
      mentionMsMean: round(mean(run.timing.mentionMs), 3),
    },
  };
}

/** Fits the identifyEvents calibrator on a split's identified events. */
export function fitIdentify(rows: readonly IdentifyRow[]): LogisticModel {
  return fitLogistic(IDENTIFY_FEATURES, rows.map((r) => r.features), rows.map((r) => r.y));
}

/** Fits the TAC-based calibrators on a split's candidates (logistic regression, L2-regularised). */
export function fitCalibration(run: Pick<SplitRun, 'labelRows' | 'textRows' | 'identifyRows'>, note: string): NonNullable<EvaluationReport['fitted']> {
  const lf = ['logitRaw', 'logSnippets', 'maxLikelihood', 'exact', 'single', 'sections'];
  const tf = ['rawScore', 'top', 'margin', 'phrase'];
  return {
    label: fitLogistic(lf, run.labelRows.map((r) => r.row.features), run.labelRows.map((r) => r.row.y)),
    text: fitLogistic(tf, run.textRows.map((r) => r.features), run.textRows.map((r) => r.y)),
    identify: fitIdentify(run.identifyRows),
    fittedOn: note,
  };
}

/** Runs the whole evaluation; see the file header. */
export async function runEvaluation(opts: EvaluationOptions = {}): Promise<EvaluationReport> {
  const log = opts.log ?? (() => {});
  const dataPath = opts.dataPath ?? defaultTacPath();
  if (!existsSync(dataPath)) {
    throw new Error(`TAC 2017 ADR data not found at ${dataPath} (set TAC2017_PATH or pass dataPath)`);
  }
  const records = readTac(dataPath);
  const labels = groupLabels(records);
  log(`read ${records.length} sections of ${labels.length} labels from ${dataPath}`);
  const { vocab, pts, llts, importMs, buildMs } = await loadEvaluationVocabulary(records);
  log(`evaluation release: ${pts} PTs, ${llts} LLTs imported in ${Math.round(importMs)} ms; vocabulary built in ${Math.round(buildMs)} ms`);
  const withMentions = opts.mentions ?? true;
  const want = opts.split ?? 'both';
  const report: EvaluationReport = { dataPath, release: { pts, llts, terms: vocab.size, importMs: Math.round(importMs), buildMs: Math.round(buildMs) } };
  let params: EvaluationReport['fitted'];
  const runs = new Map<Split, SplitRun>();
  const runSplit = (s: Split) => {
    let r = runs.get(s);
    if (!r) {
      const t0 = performance.now();
      r = collect(vocab, labels.filter((l) => l.split === s), withMentions || !!opts.fit, (opts.identify ?? true) || !!opts.fit);
      log(`${s}: ${r.labels.length} labels analysed in ${Math.round(performance.now() - t0)} ms`);
      runs.set(s, r);
    }
    return r;
  };
  if (opts.fit) {
    const dev = runSplit('dev');
    params = fitCalibration(
      dev,
      `TAC 2017 ADR train.json, dev split (${dev.labels.length} labels, label_id FNV-1a even), ${dev.labelRows.length} label candidates, ${dev.textRows.length} text candidates, ${dev.identifyRows.length} identified events`,
    );
    report.fitted = params;
  }
  const threshold = opts.threshold ?? LABEL_THRESHOLD;
  for (const s of ['dev', 'test'] as const) {
    if (want !== 'both' && want !== s) continue;
    report[s] = metrics(s, runSplit(s), threshold, params);
  }
  return report;
}

/** A fixed-width summary table of a report. */
export function formatReport(r: EvaluationReport): string {
  const lines = [
    `TAC 2017 ADR evaluation — release ${r.release.pts} PTs / ${r.release.llts} LLTs (import ${r.release.importMs} ms, vocabulary ${r.release.buildMs} ms)`,
    '',
    'split  labels  thr   P       R       F1      (P/R/F1 @0.25)          mention acc  top5    ECE label  ECE ≥0.25  ECE text  ms/label',
  ];
  for (const m of [r.dev, r.test]) {
    if (!m) continue;
    const f = (x: number) => x.toFixed(4);
    lines.push(
      [
        m.split.padEnd(6),
        String(m.labels).padEnd(7),
        m.label.threshold.toFixed(2).padEnd(5),
        f(m.label.precision).padEnd(7),
        f(m.label.recall).padEnd(7),
        f(m.label.f1).padEnd(7),
        `(${f(m.labelAtDefault.precision)}/${f(m.labelAtDefault.recall)}/${f(m.labelAtDefault.f1)})`.padEnd(23),
        f(m.mention.accuracy).padEnd(12),
        f(m.mention.top5).padEnd(7),
        f(m.calibration.labelEce).padEnd(10),
        f(m.calibration.labelEceReturned).padEnd(10),
        f(m.calibration.textEce).padEnd(9),
        m.timing.labelMsMean.toFixed(1),
      ].join(' '),
    );
  }
  lines.push('', 'identifyEvents on label sections (right = a mention overlaps a gold mention)', 'split  events  precision  mention recall  ≥0.5: events  precision   ECE     ECE uncalibrated');
  for (const m of [r.dev, r.test]) {
    if (!m || m.identify.events === 0) continue;
    const f = (x: number) => x.toFixed(4);
    lines.push(
      [
        m.split.padEnd(6),
        String(m.identify.events).padEnd(7),
        f(m.identify.precision).padEnd(10),
        f(m.identify.mentionRecall).padEnd(15),
        String(m.identify.eventsAt05).padEnd(12),
        f(m.identify.precisionAt05).padEnd(11),
        f(m.calibration.identifyEce).padEnd(7),
        f(m.calibration.identifyEceRaw),
      ].join(' '),
    );
  }
  return lines.join('\n');
}
