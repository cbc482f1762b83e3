// Evaluation harness for the coding engine on the TAC 2017 ADR benchmark:
//   1. builds a throw-away MedAscii release from the benchmark's gold PT/LLT vocabulary
//      (temp dir), imports it with the real importer into an in-memory PGlite store and
//      loads the vocabulary back from the store, as the service does;
//   2. labels: classifyLabel on every label (all its sections, headings kept) →
//      label-level PT micro precision/recall/F1 (TAC 2017 task 4 measure);
//   3. mentions: classifyText on every gold mention text → top-1 PT accuracy;
//   4. calibration: expected calibration error of the confidences.
// Labels are split deterministically by label_id hash into dev (tuning and calibration
// fitting) and held-out test.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { importRelease } from '../../importer/import.ts';
import { projectRoot } from '../../paths.ts';
import {
  calibrateLabel,
  calibrateText,
  expectedCalibrationError,
  fitLogistic,
  labelFeatures,
  round,
  textFeatures,
  type CalibrationParams,
} from '../calibration.ts';
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
  };
  timing: { labelMsMean: number; labelMsMax: number; labelKbMean: number; mentionMsMean: number };
}

export interface EvaluationReport {
  dataPath: string;
  release: { pts: number; llts: number; terms: number; importMs: number; buildMs: number };
  dev?: SplitMetrics;
  test?: SplitMetrics;
  /** With `fit`: calibration parameters fitted on the dev split. */
  fitted?: CalibrationParams;
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

interface SplitRun {
  labels: EvalLabel[];
  labelRows: { label: string; ptCode: number; row: LabelRow }[];
  textRows: TextRow[];
  mention: { n: number; correct: number; top5: number };
  timing: { labelMs: number[]; labelKb: number[]; mentionMs: number[] };
}

function collect(vocab: Vocabulary, labels: EvalLabel[], withMentions: boolean): SplitRun {
  const run: SplitRun = { labels, labelRows: [], textRows: [], mention: { n: 0, correct: 0, top5: 0 }, timing: { labelMs: [], labelKb: [], mentionMs: [] } };
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

function metrics(split: Split, run: SplitRun, threshold: number, params: CalibrationParams | undefined): SplitMetrics {
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
    },
    timing: {
      labelMsMean: round(mean(run.timing.labelMs), 2),
      labelMsMax: round(Math.max(0, ...run.timing.labelMs), 2),
      labelKbMean: round(mean(run.timing.labelKb), 1),
      mentionMsMean: round(mean(run.timing.mentionMs), 3),
    },
  };
}

/** Fits both calibrators on a split's candidates (logistic regression, L2-regularised). */
export function fitCalibration(run: Pick<SplitRun, 'labelRows' | 'textRows'>, note: string): CalibrationParams {
  const lf = ['logitRaw', 'logSnippets', 'maxLikelihood', 'exact', 'single', 'sections'];
  const tf = ['rawScore', 'top', 'margin', 'phrase'];
  return {
    label: fitLogistic(lf, run.labelRows.map((r) => r.row.features), run.labelRows.map((r) => r.row.y)),
    text: fitLogistic(tf, run.textRows.map((r) => r.features), run.textRows.map((r) => r.y)),
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
  let params: CalibrationParams | undefined;
  const runs = new Map<Split, SplitRun>();
  const runSplit = (s: Split) => {
    let r = runs.get(s);
    if (!r) {
      const t0 = performance.now();
      r = collect(vocab, labels.filter((l) => l.split === s), withMentions || !!opts.fit);
      log(`${s}: ${r.labels.length} labels analysed in ${Math.round(performance.now() - t0)} ms`);
      runs.set(s, r);
    }
    return r;
  };
  if (opts.fit) {
    const dev = runSplit('dev');
    params = fitCalibration(dev, `TAC 2017 ADR train.json, dev split (${dev.labels.length} labels, label_id FNV-1a even), ${dev.labelRows.length} label candidates, ${dev.textRows.length} text candidates`);
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
  return lines.join('\n');
}
