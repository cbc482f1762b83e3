// Confidence calibration: logistic (Platt-style) models over a raw score and a few
// features, fitted offline (`npm run eval -- --fit`) — the TAC-based models on the TAC dev
// split, the seriousness/severity models on the narrative calibration split — and shipped in
// calibration-params.ts. Nothing is trained at run time.
import { CALIBRATION } from './calibration-params.ts';
import type { CalibrationParams, LogisticModel } from './calibration-model.ts';

export type { CalibrationParams, LogisticModel } from './calibration-model.ts';

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export const logit = (p: number): number => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p));
  return Math.log(q / (1 - q));
};

/** Applies a logistic model to named features (missing features count as 0). */
export function applyLogistic(model: LogisticModel, x: Readonly<Record<string, number>>): number {
  let z = model.bias;
  for (let i = 0; i < model.features.length; i++) z += (model.weights[i] ?? 0) * (x[model.features[i]!] ?? 0);
  return sigmoid(z);
}

/** 1 for true, 0 for false: a binary feature. */
const flag = (b: boolean): number => (b ? 1 : 0);

/** One binary feature per listed value, 1 for the value `v` (a value not listed is the reference category). */
function oneHot<T extends string>(v: T, values: readonly T[]): Record<string, number> {
  return Object.fromEntries(values.map((x) => [x, flag(v === x)]));
}

/** Rounds a probability for output (stable, readable numbers). */
export const round = (p: number, digits = 4): number => Math.round(p * 10 ** digits) / 10 ** digits;

export interface LabelFeatureInput {
  rawScore: number;
  /** Snippets with likelihood ≥ 0.3. */
  snippets: number;
  maxLikelihood: number;
  exact: boolean;
  /** Content words of the longest strong match (1 = a one-word term such as "Pain"). */
  words?: number;
  /** Distinct label sections with strong evidence. */
  sections?: number;
}

/** Above the most snippets one finding has in any fitting label. */
const MAX_SNIPPETS_FEATURE = 64;

export function labelFeatures(f: LabelFeatureInput): Record<string, number> {
  return {
    logitRaw: logit(f.rawScore),
    // Capped: beyond the labels the model was fitted on, more snippets would extrapolate its
    // negative weight until a finding repeated throughout a long label scored nothing.
    logSnippets: Math.log1p(Math.min(f.snippets, MAX_SNIPPETS_FEATURE)),
    maxLikelihood: f.maxLikelihood,
    exact: flag(f.exact),
    single: flag((f.words ?? 2) <= 1),
    sections: Math.min(3, f.sections ?? 1),
  };
}

export function textFeatures(f: { rawScore: number; rank: number; margin: number; phrase: boolean }): Record<string, number> {
  return {
    rawScore: f.rawScore,
    top: flag(f.rank === 0),
    margin: f.margin,
    phrase: flag(f.phrase),
  };
}

export function calibrateLabel(f: LabelFeatureInput, params: CalibrationParams = CALIBRATION): number {
  return applyLogistic(params.label, labelFeatures(f));
}

export function calibrateText(f: Parameters<typeof textFeatures>[0], params: CalibrationParams = CALIBRATION): number {
  return applyLogistic(params.text, textFeatures(f));
}

/** Rule evidence of one identified event (see identify.ts). */
export interface IdentifyFeatureInput {
  /** Match kind of the strongest mention; 'verb' = an unknown object of a reporting verb. */
  kind: 'exact' | 'reordered' | 'variant' | 'lay' | 'coordination' | 'verb';
  /** The strongest mention needed typo correction. */
  typo: boolean;
  /** Context factor of the strongest mention: 1, or lower under "possible" / "may" cues. */
  factor: number;
  /** Content words of the matched term (1 = a one-word term such as "Pain"). */
  words: number;
  /** A population, indication or animal cue covers the mention ("in patients with …", "to treat …", "in rats"). */
  otherContext: boolean;
  /** A built-in abbreviation was expanded. */
  abbreviation: boolean;
  /** Mentions of the same finding merged into the event. */
  mentions: number;
}

export const IDENTIFY_FEATURES = ['reordered', 'variant', 'lay', 'coordination', 'verb', 'typo', 'logFactor', 'single', 'otherContext', 'abbreviation', 'logMentions'] as const;

export function identifyFeatures(f: IdentifyFeatureInput): Record<string, number> {
  return {
    ...oneHot(f.kind, ['reordered', 'variant', 'lay', 'coordination', 'verb']),
    typo: flag(f.typo),
    logFactor: Math.log(Math.max(1e-3, f.factor)),
    single: flag(f.kind !== 'verb' && f.words <= 1),
    otherContext: flag(f.otherContext),
    abbreviation: flag(f.abbreviation),
    logMentions: Math.log(Math.max(1, f.mentions)),
  };
}

export function calibrateIdentify(f: IdentifyFeatureInput, params: CalibrationParams = CALIBRATION): number {
  return applyLogistic(params.identify, identifyFeatures(f));
}

/** Rule evidence of one seriousness criterion (see seriousness.ts). */
export interface CriterionFeatureInput {
  criterion: string;
  met: boolean;
  /** Strongest affirmed rule strength (0 when not met). */
  strength: number;
  /** Affirmed cue hits. */
  hits: number;
  /** A negated, hypothetical or historical cue of this criterion was seen and did not count. */
  notCounted: boolean;
}

export const CRITERION_NAMES = ['death', 'life_threatening', 'hospitalization', 'disability', 'congenital_anomaly', 'medically_important'] as const;
export const CRITERION_FEATURES = ['metLogit', 'metHits', 'notCounted', ...CRITERION_NAMES.map((c) => `notMet_${c}`)] as const;

export function criterionFeatures(f: CriterionFeatureInput): Record<string, number> {
  const x: Record<string, number> = {
    metLogit: f.met ? logit(f.strength) : 0,
    metHits: f.met ? Math.log(Math.max(1, f.hits)) : 0,
    notCounted: flag(f.notCounted),
    notMet: flag(!f.met),
  };
  if (!f.met) x[`notMet_${f.criterion}`] = 1;
  return x;
}

export function calibrateCriterion(f: CriterionFeatureInput, params: CalibrationParams = CALIBRATION): number {
  return applyLogistic(params.criterion, criterionFeatures(f));
}

export interface SeriousFeatureInput {
  serious: boolean;
  /** Rule-strength confidence in `serious` (noisy-or of the criteria met; else the weakest "not met"). */
  rawConfidence: number;
  criteriaMet: number;
  /** Some cue was seen and did not count (negated, hypothetical, historical). */
  notCounted: boolean;
  /** Only medically_important (the judgement criterion) is met. */
  onlyMedicallyImportant: boolean;
}

export const SERIOUS_FEATURES = ['serious', 'logitRaw', 'criteriaMet', 'notCounted', 'onlyMedicallyImportant'] as const;

export function seriousFeatures(f: SeriousFeatureInput): Record<string, number> {
  return {
    serious: flag(f.serious),
    logitRaw: logit(f.rawConfidence),
    criteriaMet: Math.min(3, f.criteriaMet),
    notCounted: flag(f.notCounted),
    onlyMedicallyImportant: flag(f.onlyMedicallyImportant),
  };
}

export function calibrateSerious(f: SeriousFeatureInput, params: CalibrationParams = CALIBRATION): number {
  return applyLogistic(params.serious, seriousFeatures(f));
}

/** What decided a CTCAE grade (see severity.ts). */
export type GradeSource = 'explicit' | 'cue' | 'definition' | 'agree' | 'conflict' | 'default';

export interface CtcaeFeatureInput {
  grade: number;
  source: GradeSource;
  rawConfidence: number;
}

export const CTCAE_FEATURES = ['logitRaw', 'explicit', 'definition', 'agree', 'conflict', 'default', 'grade'] as const;

export function ctcaeFeatures(f: CtcaeFeatureInput): Record<string, number> {
  return {
    logitRaw: logit(f.rawConfidence),
    ...oneHot(f.source, ['explicit', 'definition', 'agree', 'conflict', 'default']),
    grade: f.grade / 5,
  };
}

export function calibrateCtcae(f: CtcaeFeatureInput, params: CalibrationParams = CALIBRATION): number {
  return applyLogistic(params.ctcae, ctcaeFeatures(f));
}

export interface SimpleFeatureInput {
  grade: 'mild' | 'moderate' | 'severe';
  /** The grade word is stated in the narrative ("moderate pain"), not derived from the CTCAE grade. */
  stated: boolean;
  rawConfidence: number;
  /** The CTCAE grade it was derived from had no cue (the "mild assumed" default). */
  default: boolean;
}

export const SIMPLE_FEATURES = ['logitRaw', 'stated', 'default', 'moderate', 'severe'] as const;

export function simpleFeatures(f: SimpleFeatureInput): Record<string, number> {
  return {
    logitRaw: logit(f.rawConfidence),
    stated: flag(f.stated),
    default: flag(f.default),
    ...oneHot(f.grade, ['moderate', 'severe']),
  };
}

export function calibrateSimple(f: SimpleFeatureInput, params: CalibrationParams = CALIBRATION): number {
  return applyLogistic(params.simple, simpleFeatures(f));
}

/**
 * Fits a logistic model by L2-regularised Newton–Raphson (IRLS). Deterministic.
 * `rows` are feature records; `y` the 0/1 outcomes.
 */
export function fitLogistic(features: readonly string[], rows: readonly Record<string, number>[], y: readonly number[], l2 = 1e-2): LogisticModel {
  const d = features.length + 1;
  const w = new Array<number>(d).fill(0);
  const xs = rows.map((r) => [1, ...features.map((f) => r[f] ?? 0)]);
  for (let iter = 0; iter < 50; iter++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      let z = 0;
      for (let a = 0; a < d; a++) z += w[a]! * x[a]!;
      const p = sigmoid(z);
      const r = p - y[i]!;
      const s = Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a < d; a++) {
        g[a]! += r * x[a]!;
        for (let b = 0; b < d; b++) h[a]![b]! += s * x[a]! * x[b]!;
      }
    }
    for (let a = 1; a < d; a++) {
      g[a]! += l2 * w[a]!;
      h[a]![a]! += l2;
    }
    const step = solve(h, g);
    let max = 0;
    for (let a = 0; a < d; a++) {
      w[a]! -= step[a]!;
      max = Math.max(max, Math.abs(step[a]!));
    }
    if (max < 1e-8) break;
  }
  return { features: [...features], weights: w.slice(1).map((v) => round(v, 6)), bias: round(w[0]!, 6) };
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const piv = m[c]![c]!;
    if (Math.abs(piv) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / piv;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

/** Expected calibration error over equal-width bins (default 10): Σ (n_b/N)·|acc_b − conf_b|. */
export function expectedCalibrationError(conf: readonly number[], correct: readonly (boolean | number)[], bins = 10): number {
  if (conf.length === 0) return 0;
  const n = new Array<number>(bins).fill(0);
  const c = new Array<number>(bins).fill(0);
  const a = new Array<number>(bins).fill(0);
  for (let i = 0; i < conf.length; i++) {
    const b = Math.min(bins - 1, Math.floor(conf[i]! * bins));
    n[b]!++;
    c[b]! += conf[i]!;
    a[b]! += correct[i] ? 1 : 0;
  }
  let e = 0;
  for (let b = 0; b < bins; b++) if (n[b]! > 0) e += (n[b]! / conf.length) * Math.abs(a[b]! / n[b]! - c[b]! / n[b]!);
  return e;
}
