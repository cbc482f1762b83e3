// Evaluation harness for the coding engine on the TAC 2017 ADR benchmark:
//   1. builds throw-away MedAscii releases (temp dirs) — one per fold that does not leak the fold
//      (tac.ts foldRelease: other labels' gold PTs/LLTs, every gold PT name, CTCAE distractors)
//      and the former one of every label's gold terms — imports them with the real importer into
//      one in-memory PGlite store and loads each vocabulary back from the store, as the service does;
//   2. labels: classifyLabel on every label (all its sections, headings kept) →
//      label-level PT micro precision/recall/F1 (TAC 2017 task 4 measure);
//   3. mentions: classifyText on every gold mention text → top-1 PT accuracy;
//   4. identification: identifyEvents on every label section; an event is right when one of
//      its mentions overlaps a gold (human) adverse-reaction mention of the section;
//   5. calibration: expected calibration error of the confidences.
// Validation is cross-validation BY LABEL (drug): the labels are dealt into FOLDS folds
// (tac.ts assignFolds), every section of a label in one fold. Honest (headline): each label is
// run against its own fold's release; gold-only (former, leaky): against the release of every
// label's gold. For each fold the calibrators are fitted on the other folds' runs and the fold is
// scored with them; the held-out predictions of all folds are pooled, with a bootstrap-over-labels
// 95% interval. "Full fit" = calibrators fitted on every label and scored on them (in-sample);
// the shipped calibrators are the honest full fit. The gap reported is the full training fit
// (gold-only release, in-sample) − honest cross-validated.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { importRelease } from '../../src/importer/import.ts';
import { projectRoot } from '../../src/paths.ts';
import { CALIBRATION } from '../../src/nlp/calibration-params.ts';
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
} from '../../src/nlp/calibration.ts';
import { identifyEventDetails } from '../../src/nlp/identify.ts';
import { textCandidates } from '../../src/nlp/classify.ts';
import { byContext, labelCandidates, labelFeatureInput } from '../../src/nlp/label.ts';
import { loadVocabularySource } from '../../src/assessment/loadVocabulary.ts';
import { buildVocabulary, type Vocabulary } from '../../src/nlp/vocabulary.ts';
import { FOLDS, foldRelease, goldRelease, groupLabels, readCtcaeTerms, readTac, writeEvalRelease, type EvalLabel, type ReleaseContent } from './tac.ts';
import { mulberry32 } from '../random.ts';

const ADVERSE_ONLY: ReadonlySet<'adverse_event'> = new Set(['adverse_event'] as const);

/** Label decision threshold on calibrated confidence used for the reported P/R/F1. */
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
  /** "fold 0" … "fold 4", "cross-validated" (pooled held-out folds), "full fit" or "shipped". */
  split: string;
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

/** 95% bootstrap intervals (labels resampled with replacement) of the pooled cross-validated figures. */
export interface Intervals {
  replicates: number;
  precision: [number, number];
  recall: [number, number];
  f1: [number, number];
  mentionAccuracy: [number, number];
  /** Spread of the per-fold figures (mean ± standard deviation). */
  foldF1: { mean: number; sd: number };
  foldMentionAccuracy: { mean: number; sd: number };
}

/** One evaluation release as imported: counts and times. */
export interface ReleaseSummary {
  pts: number;
  llts: number;
  /** PTs from outside the benchmark (CTCAE terms) that no label's gold uses. */
  distractors: number;
  terms: number;
  importMs: number;
  buildMs: number;
}

/** Cross-validation by label of the engine's output against one way of building the release. */
export interface Validation {
  /** One release per fold (honest) or one for every fold (gold-only). */
  releases: ReleaseSummary[];
  folds: number;
  /** Each fold scored with calibrators fitted on the other folds. */
  perFold: SplitMetrics[];
  /** All folds' held-out predictions pooled. */
  cv: SplitMetrics;
  /**
   * The same pooled held-out predictions restricted to the labels of the former test half
   * (label_id FNV-1a odd), which earlier rounds never looked at for rule development.
   */
  cvRuleUnseen: SplitMetrics;
  intervals: Intervals;
  /** Calibrators fitted on every label, scored on every label (in-sample). */
  full: SplitMetrics;
  /** The shipped calibration-params.ts scored on every label. */
  shipped: SplitMetrics;
  /** Calibration parameters fitted on every label's runs. */
  fitted: Pick<CalibrationParams, 'label' | 'text' | 'identify' | 'fittedOn'>;
}

export interface EvaluationReport {
  dataPath: string;
  folds: number;
  /**
   * The headline: each fold scored against a release that does not leak it (tac.ts foldRelease:
   * the other labels' gold PTs/LLTs, every gold PT name, CTCAE distractors), calibrators fitted
   * on the other folds' honest runs. The issue's targets apply to honest.cv.
   */
  honest: Validation;
  /** The former figures: one release of every label's gold PTs and LLTs (held-out folds' LLT names included). */
  leaky: Validation;
  /**
   * Full training fit − honest cross-validated: the gold-only release (every label's own gold
   * terms in it) with calibrators fitted on every label, against the honest held-out figures.
   */
  gap: { f1: number; mentionAccuracy: number };
  /** What --write-params writes: the calibrators fitted on every label's honest run. */
  fitted: Validation['fitted'];
}

export interface EvaluationOptions {
  /** TAC 2017 train.json; default: $TAC2017_PATH, else shared/data beside the checkout. */
  dataPath?: string;
  threshold?: number;
  /** Evaluate classifyText on the gold mentions (default true). */
  mentions?: boolean;
  /** Evaluate identifyEvents on the label sections (default true). */
  identify?: boolean;
  /** Directory of the CTCAE CSVs (distractors); default: $CTCAE_DIR, else shared/data beside the checkout. */
  ctcaeDir?: string;
  /** Bootstrap replicates for the intervals (default 1000). */
  replicates?: number;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** The scratch store the releases are imported into, migrated; default a new in-memory PGlite. */
  openStore?: () => Promise<Database>;
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

/** Where the CTCAE CSVs (distractor vocabulary of the honest releases) are looked for. */
export function defaultCtcaeDir(): string {
  const candidates = [
    process.env.CTCAE_DIR,
    path.resolve(projectRoot, '..', 'shared', 'data', 'ctcae'),
    '/work/shared/data/ctcae',
  ].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(path.join(p, 'CTCAE_v5.0.csv'))) ?? candidates[0]!;
}

export interface LoadedVocabulary {
  vocab: Vocabulary;
  pts: number;
  llts: number;
  distractors: number;
  importMs: number;
  buildMs: number;
}

/**
 * Writes each release (temp dir), imports them all with the real importer into one in-memory
 * PGlite store (one migration) and loads each vocabulary back from the store, as the service does.
 */
export async function loadEvaluationVocabularies(contents: readonly ReleaseContent[], openStore?: () => Promise<Database>): Promise<LoadedVocabulary[]> {
  const db = openStore ? await openStore() : await openDatabase({ dataDir: 'memory://' });
  try {
    await migrate(db);
    const out: LoadedVocabulary[] = [];
    for (const [i, content] of contents.entries()) {
      const dir = mkdtempSync(path.join(tmpdir(), 'nlp-eval-release-'));
      try {
        const counts = writeEvalRelease(content, dir, `tac2017-eval-${i}`);
        const t0 = performance.now();
        const summary = await importRelease(db, dir, { source: 'nlp-evaluation' });
        const source = await loadVocabularySource(db.prisma, summary.releaseId);
        const importMs = performance.now() - t0;
        const t1 = performance.now();
        const vocab = buildVocabulary(source.terms, { grades: source.grades });
        out.push({ vocab, ...counts, distractors: content.distractors, importMs, buildMs: performance.now() - t1 });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return out;
  } finally {
    await db.close();
  }
}

interface LabelRow {
  features: Record<string, number>;
  y: number;
  f: Parameters<typeof calibrateLabel>[0];
}
export interface TextRow {
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

/** The engine's output on one label, independent of any fitted parameter. */
export interface LabelRun {
  label: EvalLabel;
  labelRows: { ptCode: number; row: LabelRow }[];
  /** Per gold mention: its top-5 candidates as calibration rows (rank order). */
  mentions: { ptCode: number; rows: TextRow[] }[];
  identifyRows: IdentifyRow[];
  identify: { gold: number; covered: number };
  timing: { labelMs: number; labelKb: number; mentionMs: number[] };
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

/** Runs the engine on one label (classifyLabel candidates, classifyText per gold mention, identifyEvents per section). */
export function collectLabel(vocab: Vocabulary, l: EvalLabel, withMentions = true, withIdentify = true): LabelRun {
  const run: LabelRun = { label: l, labelRows: [], mentions: [], identifyRows: [], identify: { gold: 0, covered: 0 }, timing: { labelMs: 0, labelKb: l.text.length / 1024, mentionMs: [] } };
  if (withIdentify) {
    const id = collectIdentify([l], vocab);
    run.identifyRows = id.rows;
    run.identify = { gold: id.gold, covered: id.covered };
  }
  const t0 = performance.now();
  // The shipped answer keeps adverse-event mentions only (label.ts byContext); score what ships.
  const cands = labelCandidates(l.text, vocab).flatMap((c) => byContext(c, ADVERSE_ONLY).candidate ?? []);
  run.timing.labelMs = performance.now() - t0;
  for (const c of cands) {
    const f = labelFeatureInput(c);
    run.labelRows.push({ ptCode: c.ptCode, row: { features: labelFeatures(f), y: l.gold.has(c.ptCode) ? 1 : 0, f } });
  }
  if (!withMentions) return run;
  for (const m of l.mentions) {
    const t1 = performance.now();
    const cands2 = textCandidates(m.text, vocab, 5);
    run.timing.mentionMs.push(performance.now() - t1);
    const top = cands2[0]?.rawScore ?? 0;
    const second = cands2[1]?.rawScore ?? 0;
    const rows = cands2.slice(0, 5).map((c, rank) => {
      const f = { rawScore: c.rawScore, rank, margin: rank === 0 ? top - second : c.rawScore - top, phrase: c.phrase };
      return { features: textFeatures(f), y: c.ptCode === m.ptCode ? 1 : 0, f, rank };
    });
    run.mentions.push({ ptCode: m.ptCode, rows });
  }
  return run;
}

export type TacParams = Pick<CalibrationParams, 'label' | 'text' | 'identify'>;

/** One label's outcomes under given parameters (what the metrics and the bootstrap add up). */
export interface Scored {
  gold: number;
  tp: number;
  fp: number;
  tp25: number;
  fp25: number;
  labelConf: number[];
  labelY: number[];
  mentionN: number;
  mentionCorrect: number;
  mentionTop5: number;
  textConf: number[];
  textY: number[];
  idConf: number[];
  idRaw: number[];
  idY: number[];
  idGold: number;
  idCovered: number;
  run: LabelRun;
}

export function scoreLabel(run: LabelRun, params: CalibrationParams, threshold: number): Scored {
  const s: Scored = {
    gold: run.label.gold.size, tp: 0, fp: 0, tp25: 0, fp25: 0, labelConf: [], labelY: [],
    mentionN: 0, mentionCorrect: 0, mentionTop5: 0, textConf: [], textY: [],
    idConf: [], idRaw: [], idY: [], idGold: run.identify.gold, idCovered: run.identify.covered, run,
  };
  for (const r of run.labelRows) {
    const c = calibrateLabel(r.row.f, params);
    s.labelConf.push(c);
    s.labelY.push(r.row.y);
    if (c >= threshold) r.row.y ? s.tp++ : s.fp++;
    if (c >= 0.25) r.row.y ? s.tp25++ : s.fp25++;
  }
  for (const m of run.mentions) {
    s.mentionN++;
    const top = m.rows[0];
    if (top?.y) s.mentionCorrect++;
    if (m.rows.some((r) => r.y)) s.mentionTop5++;
    if (top) {
      s.textConf.push(calibrateText(top.f, params));
      s.textY.push(top.y);
    }
  }
  for (const r of run.identifyRows) {
    s.idConf.push(calibrateIdentify(r.f, params));
    s.idRaw.push(r.raw);
    s.idY.push(r.y);
  }
  return s;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]) => (xs.length ? sum(xs) / xs.length : 0);

export function aggregate(name: string, scored: readonly Scored[], threshold: number): SplitMetrics {
  const goldTotal = sum(scored.map((s) => s.gold));
  const tp = sum(scored.map((s) => s.tp));
  const fp = sum(scored.map((s) => s.fp));
  const tp25 = sum(scored.map((s) => s.tp25));
  const fp25 = sum(scored.map((s) => s.fp25));
  const labelConf = scored.flatMap((s) => s.labelConf);
  const labelY = scored.flatMap((s) => s.labelY);
  const returned = labelConf.map((c, i) => [c, labelY[i]!] as const).filter(([c]) => c >= 0.25);
  const idConf = scored.flatMap((s) => s.idConf);
  const idY = scored.flatMap((s) => s.idY);
  const at05 = idConf.map((c, i) => [c, idY[i]!] as const).filter(([c]) => c >= 0.5);
  const mentionN = sum(scored.map((s) => s.mentionN));
  const idGold = sum(scored.map((s) => s.idGold));
  const labelMs = scored.map((s) => s.run.timing.labelMs);
  return {
    split: name,
    labels: scored.length,
    goldPts: goldTotal,
    label: { ...prf(tp, fp, goldTotal - tp), threshold },
    labelAtDefault: { ...prf(tp25, fp25, goldTotal - tp25), threshold: 0.25 },
    mention: {
      n: mentionN,
      accuracy: round(mentionN ? sum(scored.map((s) => s.mentionCorrect)) / mentionN : 0),
      top5: round(mentionN ? sum(scored.map((s) => s.mentionTop5)) / mentionN : 0),
    },
    calibration: {
      labelEce: round(expectedCalibrationError(labelConf, labelY)),
      labelEceReturned: round(expectedCalibrationError(returned.map((r) => r[0]), returned.map((r) => r[1]))),
      textEce: round(expectedCalibrationError(scored.flatMap((s) => s.textConf), scored.flatMap((s) => s.textY))),
      labelPredictions: labelConf.length,
      textPredictions: sum(scored.map((s) => s.textConf.length)),
      identifyEce: round(expectedCalibrationError(idConf, idY)),
      identifyEceRaw: round(expectedCalibrationError(scored.flatMap((s) => s.idRaw), idY)),
    },
    identify: {
      events: idY.length,
      precision: round(idY.length ? sum(idY) / idY.length : 0),
      mentionRecall: round(idGold ? sum(scored.map((s) => s.idCovered)) / idGold : 0),
      goldMentions: idGold,
      precisionAt05: round(at05.length ? at05.filter(([, y]) => y).length / at05.length : 0),
      eventsAt05: at05.length,
    },
    timing: {
      labelMsMean: round(mean(labelMs), 2),
      labelMsMax: round(Math.max(0, ...labelMs), 2),
      labelKbMean: round(mean(scored.map((s) => s.run.timing.labelKb)), 1),
      mentionMsMean: round(mean(scored.flatMap((s) => s.run.timing.mentionMs)), 3),
    },
  };
}

/** Fits the identifyEvents calibrator on identified events. */
export function fitIdentify(rows: readonly IdentifyRow[]): LogisticModel {
  return fitLogistic(IDENTIFY_FEATURES, rows.map((r) => r.features), rows.map((r) => r.y));
}

export const LABEL_CAL_FEATURES = ['logitRaw', 'logSnippets', 'maxLikelihood', 'exact', 'single', 'sections'] as const;
export const TEXT_CAL_FEATURES = ['rawScore', 'top', 'margin', 'phrase'] as const;

/** Fits the TAC-based calibrators (logistic regression, L2-regularised) on some labels' engine output. */
export function fitCalibration(runs: readonly LabelRun[], note: string): Validation['fitted'] {
  const labelRows = runs.flatMap((r) => r.labelRows.map((x) => x.row));
  const textRows = runs.flatMap((r) => r.mentions.flatMap((m) => m.rows));
  const identifyRows = runs.flatMap((r) => r.identifyRows);
  return {
    label: fitLogistic(LABEL_CAL_FEATURES, labelRows.map((r) => r.features), labelRows.map((r) => r.y)),
    text: fitLogistic(TEXT_CAL_FEATURES, textRows.map((r) => r.features), textRows.map((r) => r.y)),
    identify: fitIdentify(identifyRows),
    fittedOn: note,
  };
}

/** The note recorded with parameters fitted on every label. */
export function fullFitNote(runs: readonly LabelRun[], how = ''): string {
  const lc = sum(runs.map((r) => r.labelRows.length));
  const tc = sum(runs.map((r) => sum(r.mentions.map((m) => m.rows.length))));
  const ic = sum(runs.map((r) => r.identifyRows.length));
  return `TAC 2017 ADR train.json, all ${runs.length} labels${how} (figures cross-validated by label, ${FOLDS} folds), ${lc} label candidates, ${tc} text candidates, ${ic} identified events`;
}


const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return xs.length > 1 ? Math.sqrt(sum(xs.map((x) => (x - m) ** 2)) / (xs.length - 1)) : 0;
};

/** Percentile bootstrap over labels of the pooled held-out outcomes. */
export function bootstrapIntervals(scored: readonly Pick<Scored, 'tp' | 'fp' | 'gold' | 'mentionN' | 'mentionCorrect'>[], perFold: readonly SplitMetrics[], replicates = 1000, seed = 17): Intervals {
  const rnd = mulberry32(seed);
  const p: number[] = [];
  const r: number[] = [];
  const f: number[] = [];
  const acc: number[] = [];
  const n = scored.length;
  for (let b = 0; b < replicates; b++) {
    let tp = 0;
    let fp = 0;
    let gold = 0;
    let mn = 0;
    let mc = 0;
    for (let i = 0; i < n; i++) {
      const s = scored[Math.floor(rnd() * n)]!;
      tp += s.tp;
      fp += s.fp;
      gold += s.gold;
      mn += s.mentionN;
      mc += s.mentionCorrect;
    }
    const x = prf(tp, fp, gold - tp);
    p.push(x.precision);
    r.push(x.recall);
    f.push(x.f1);
    acc.push(mn ? mc / mn : 0);
  }
  const ci = (xs: number[]): [number, number] => {
    const s = [...xs].sort((a, b) => a - b);
    return [round(quantile(s, 0.025)), round(quantile(s, 0.975))];
  };
  const f1s = perFold.map((m) => m.label.f1);
  const accs = perFold.map((m) => m.mention.accuracy);
  return {
    replicates,
    precision: ci(p),
    recall: ci(r),
    f1: ci(f),
    mentionAccuracy: ci(acc),
    foldF1: { mean: round(mean(f1s)), sd: round(sd(f1s)) },
    foldMentionAccuracy: { mean: round(mean(accs)), sd: round(sd(accs)) },
  };
}

/** Cross-validation by label over engine runs already collected (cheap: fitting and scoring only). */
export function crossValidate(
  runs: readonly LabelRun[],
  opts: { threshold?: number; replicates?: number; folds?: number; how?: string } = {},
): Omit<Validation, 'releases'> {
  const threshold = opts.threshold ?? LABEL_THRESHOLD;
  const folds = opts.folds ?? FOLDS;
  const perFold: SplitMetrics[] = [];
  const pooled: Scored[] = [];
  for (let k = 0; k < folds; k++) {
    const train = runs.filter((r) => r.label.fold !== k);
    const held = runs.filter((r) => r.label.fold === k);
    if (held.length === 0) continue;
    const params = { ...CALIBRATION, ...fitCalibration(train, `folds ≠ ${k}`) } as CalibrationParams;
    const scored = held.map((r) => scoreLabel(r, params, threshold));
    pooled.push(...scored);
    perFold.push(aggregate(`fold ${k}`, scored, threshold));
  }
  const fitted = fitCalibration(runs, fullFitNote(runs, opts.how));
  const fullParams = { ...CALIBRATION, ...fitted } as CalibrationParams;
  return {
    folds,
    perFold,
    cv: aggregate('cross-validated', pooled, threshold),
    cvRuleUnseen: aggregate('cv, rule-unseen', pooled.filter((s) => s.run.label.split === 'test'), threshold),
    intervals: bootstrapIntervals(pooled, perFold, opts.replicates ?? 1000),
    full: aggregate('full fit', runs.map((r) => scoreLabel(r, fullParams, threshold)), threshold),
    shipped: aggregate('shipped', runs.map((r) => scoreLabel(r, CALIBRATION, threshold)), threshold),
    fitted,
  };
}

const summary = (v: LoadedVocabulary): ReleaseSummary => ({
  pts: v.pts,
  llts: v.llts,
  distractors: v.distractors,
  terms: v.vocab.size,
  importMs: Math.round(v.importMs),
  buildMs: Math.round(v.buildMs),
});

/** Runs the whole evaluation; see the file header. */
export async function runEvaluation(opts: EvaluationOptions = {}): Promise<EvaluationReport> {
  const log = opts.log ?? (() => {});
  const dataPath = opts.dataPath ?? defaultTacPath();
  if (!existsSync(dataPath)) {
    throw new Error(`TAC 2017 ADR data not found at ${dataPath} (set TAC2017_PATH or pass dataPath)`);
  }
  const ctcaeDir = opts.ctcaeDir ?? defaultCtcaeDir();
  const outside = readCtcaeTerms(ctcaeDir);
  if (outside.length === 0) throw new Error(`CTCAE terms not found in ${ctcaeDir} (set CTCAE_DIR): the honest evaluation releases need them as distractors`);
  const records = readTac(dataPath);
  const labels = groupLabels(records);
  log(`read ${records.length} sections of ${labels.length} labels from ${dataPath}; ${outside.length} CTCAE terms from ${ctcaeDir}`);
  const contents: ReleaseContent[] = [goldRelease(records)];
  for (let k = 0; k < FOLDS; k++) {
    contents.push(foldRelease(records, new Set(labels.filter((l) => l.fold === k).map((l) => l.labelId)), outside));
  }
  const [gold, ...perFold] = await loadEvaluationVocabularies(contents, opts.openStore);
  for (const [i, v] of [gold!, ...perFold].entries()) {
    log(`${i === 0 ? 'gold-only release' : `fold ${i - 1} release`}: ${v.pts} PTs (${v.distractors} distractors), ${v.llts} LLTs imported in ${Math.round(v.importMs)} ms; vocabulary built in ${Math.round(v.buildMs)} ms`);
  }
  const cvOpts = { ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}), ...(opts.replicates !== undefined ? { replicates: opts.replicates } : {}) };
  const t0 = performance.now();
  const leakyRuns = labels.map((l) => collectLabel(gold!.vocab, l, opts.mentions ?? true, opts.identify ?? true));
  const honestRuns = labels.map((l) => collectLabel(perFold[l.fold]!.vocab, l, opts.mentions ?? true, opts.identify ?? true));
  log(`${labels.length} labels analysed twice (gold-only and honest releases) in ${Math.round(performance.now() - t0)} ms`);
  const t1 = performance.now();
  const leaky: Validation = { releases: [summary(gold!)], ...crossValidate(leakyRuns, cvOpts) };
  const honest: Validation = { releases: perFold.map(summary), ...crossValidate(honestRuns, { ...cvOpts, how: ", each run against its fold's honest release" }) };
  log(`${FOLDS}-fold cross-validation by label (fit + score, both releases) in ${Math.round(performance.now() - t1)} ms`);
  return {
    dataPath,
    folds: FOLDS,
    honest,
    leaky,
    gap: {
      f1: round(leaky.full.label.f1 - honest.cv.label.f1),
      mentionAccuracy: round(leaky.full.mention.accuracy - honest.cv.mention.accuracy),
    },
    fitted: honest.fitted,
  };
}

/** A fixed-width summary table of one validation. */
function formatValidation(title: string, v: Validation): string[] {
  const f = (x: number) => x.toFixed(4);
  const rows = [...v.perFold, v.cv, v.cvRuleUnseen, v.full, v.shipped];
  const rel = v.releases
    .map((x) => `${x.pts} PTs (${x.distractors} distractors) / ${x.llts} LLTs`)
    .filter((x, i, all) => all.indexOf(x) === i || v.releases.length <= 1);
  const lines = [
    `${title} — release${v.releases.length > 1 ? 's per fold' : ''}: ${rel.join('; ')}`,
    '',
    'split            labels  thr   P       R       F1      (P/R/F1 @0.25)          mention acc  top5    ECE label  ECE ≥0.25  ECE text  ms/label',
  ];
  for (const m of rows) {
    lines.push(
      [
        m.split.padEnd(16),
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
  const i = v.intervals;
  const iv = (x: [number, number]) => `[${f(x[0])}, ${f(x[1])}]`;
  lines.push(
    '',
    `cross-validated, 95% bootstrap interval over labels (${i.replicates} replicates): P ${f(v.cv.label.precision)} ${iv(i.precision)}, R ${f(v.cv.label.recall)} ${iv(i.recall)}, F1 ${f(v.cv.label.f1)} ${iv(i.f1)}, mention accuracy ${f(v.cv.mention.accuracy)} ${iv(i.mentionAccuracy)}`,
    `per fold: F1 ${f(i.foldF1.mean)} ± ${f(i.foldF1.sd)} (sd), mention accuracy ${f(i.foldMentionAccuracy.mean)} ± ${f(i.foldMentionAccuracy.sd)}; calibrators full fit − cross-validated: F1 ${(v.full.label.f1 - v.cv.label.f1).toFixed(4)}, mention accuracy ${(v.full.mention.accuracy - v.cv.mention.accuracy).toFixed(4)}`,
  );
  lines.push('', 'identifyEvents on label sections (right = a mention overlaps a gold mention)', 'split            events  precision  mention recall  ≥0.5: events  precision   ECE     ECE uncalibrated');
  for (const m of rows) {
    if (m.identify.events === 0) continue;
    lines.push(
      [
        m.split.padEnd(16),
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
  return lines;
}

/** A fixed-width summary of a report: the honest validation (headline), then the former gold-only one. */
export function formatReport(r: EvaluationReport): string {
  return [
    `TAC 2017 ADR evaluation, ${r.folds}-fold cross-validation by label (calibrators fitted on the other folds); "cv, rule-unseen" = pooled held-out figures on the former test half (never used for rule development before this round); "full fit" = calibrators fitted and scored on every label (in-sample)`,
    '',
    ...formatValidation('HONEST (headline): each fold against a release without its own LLTs, with every gold PT name and CTCAE distractors', r.honest),
    '',
    ...formatValidation('GOLD-ONLY (former, leaky): one release of every label\'s gold PTs and LLTs', r.leaky),
    '',
    `full training fit (gold-only release, calibrators fitted on every label) − honest cross-validated: F1 ${r.gap.f1.toFixed(4)}, mention accuracy ${r.gap.mentionAccuracy.toFixed(4)}`,
  ].join('\n');
}
