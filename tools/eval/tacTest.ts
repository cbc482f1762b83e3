// Scores the TAC 2017 ADR *test half* once, for whoever holds it (this project only has the
// training half): `npm run eval -- --tac-test FILE` (or $TAC2017_TEST_PATH). The file is in
// train.json's record format ({label_id, section_name, section_text, adverse_events}; TAC
// distributes the test half as XML, which must be converted to that format first).
//
// Nothing is fitted: the shipped calibrators (src/nlp/calibration-params.ts, fitted on the
// training half) and the REST default minConfidence decide. The release is built the way a
// cross-validation fold's is (tac.ts foldRelease with the test labels as the held-out fold): the
// training half's gold PTs and LLTs, every gold PT name of both halves, the CTCAE distractors —
// none of the test labels' own LLT names. Nothing is written into the repository (the release goes
// to a temp dir, the store is in memory).
import { existsSync, readFileSync } from 'node:fs';
import { CALIBRATION } from '../../src/nlp/calibration-params.ts';
import { round } from '../../src/nlp/calibration.ts';
import type { Database } from '../../src/db/client.ts';
import type { Vocabulary } from '../../src/nlp/vocabulary.ts';
import { LABEL_MIN_CONFIDENCE } from '../../src/services/limits.ts';
import {
  aggregate,
  bootstrapIntervals,
  collectLabel,
  defaultCtcaeDir,
  defaultTacPath,
  LABEL_THRESHOLD,
  loadEvaluationVocabularies,
  prf,
  scoreLabel,
  type PRF,
  type ReleaseSummary,
  type SplitMetrics,
} from './run.ts';
import { foldRelease, groupLabels, readCtcaeTerms, readTac, type TacRecord } from './tac.ts';

/** Issue 29's targets on the test half. */
export const TEST_TARGETS = { labelF1: 0.875, mentionAccuracy: 0.9 } as const;

/** A test file the command will not score (exit 2 in the CLI): not records of train.json's format, or not held out. */
export class TacTestRefusal extends Error {
  override name = 'TacTestRefusal';
}

export interface TacTestOptions {
  /** The test half, train.json's record format. */
  testPath: string;
  /** The training half the release is built from; default as `npm run eval` (defaultTacPath). */
  trainPath?: string;
  ctcaeDir?: string;
  /** Label decision threshold; default the REST default minConfidence (0.25). */
  threshold?: number;
  mentions?: boolean;
  identify?: boolean;
  /** Bootstrap replicates (default 1000, seed 17 as the cross-validation's). */
  replicates?: number;
  log?: (line: string) => void;
  openStore?: () => Promise<Database>;
  /** Receives the vocabulary scored against (for checks of the release; nothing else uses it). */
  onVocabulary?: (vocab: Vocabulary) => void;
}

type Interval = [number, number];

/** Figures of one section name: classifyLabel on each such section alone, against that section's gold PTs. */
export interface SectionFigures {
  section: string;
  sections: number;
  labels: number;
  goldPts: number;
  label: PRF & { f1Interval: Interval };
  mention: { n: number; correct: number; accuracy: number; interval: Interval };
}

export interface TacTestReport {
  testPath: string;
  trainPath: string;
  ctcaeDir: string;
  testLabels: number;
  testSections: number;
  trainLabels: number;
  /** The one release scored against (training gold + every gold PT name + CTCAE distractors). */
  release: ReleaseSummary;
  /** What the shipped calibrators were fitted on (no fitting here). */
  calibrators: string;
  threshold: number;
  /** Label-level PT micro P/R/F1 pooled over the test labels, 95% bootstrap over labels. */
  label: PRF & { threshold: number; interval: { replicates: number; precision: Interval; recall: Interval; f1: Interval } };
  /** The same at the cross-validated headline's threshold (LABEL_THRESHOLD), for comparison. */
  labelAtCvThreshold: PRF & { threshold: number };
  /** classifyText top-1 on the distinct gold mentions of each test label. */
  mention: { n: number; correct: number; accuracy: number; top5: number; interval: Interval };
  targets: { labelF1: number; mentionAccuracy: number; labelF1Met: boolean; mentionAccuracyMet: boolean };
  /** Everything the cross-validation reports per split (ECE, identification, timing), on the test labels. */
  metrics: SplitMetrics;
  perSection: SectionFigures[];
  perLabel: { labelId: string; sections: number; goldPts: number; tp: number; fp: number; fn: number; mentions: number; mentionCorrect: number }[];
}

const isNullable = (x: unknown, type: 'string' | 'number') => x === null || typeof x === type;

/** Why the value is not a list of train.json records (first problems), or null. */
export function recordProblems(data: unknown): string | null {
  if (!Array.isArray(data)) return 'expected a JSON array of label sections ({label_id, section_name, section_text, adverse_events})';
  if (data.length === 0) return 'no records';
  const problems: string[] = [];
  for (const [i, r] of data.entries()) {
    if (problems.length >= 3) break;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      problems.push(`record ${i}: not an object`);
      continue;
    }
    const o = r as Record<string, unknown>;
    const bad = (['label_id', 'section_name', 'section_text'] as const).filter((k) => typeof o[k] !== 'string' || (k === 'label_id' && o[k] === ''));
    if (bad.length) problems.push(`record ${i}: ${bad.join(', ')} must be ${bad.includes('label_id') ? 'a non-empty string' : 'strings'}`);
    if (!Array.isArray(o.adverse_events)) {
      problems.push(`record ${i}: adverse_events must be an array`);
      continue;
    }
    const j = o.adverse_events.findIndex(
      (e: unknown) =>
        !Array.isArray(e) ||
        e.length !== 8 ||
        typeof e[0] !== 'string' ||
        !isNullable(e[1], 'string') ||
        !isNullable(e[2], 'number') ||
        !isNullable(e[3], 'string') ||
        !isNullable(e[4], 'number') ||
        !(isNullable(e[5], 'string') || typeof e[5] === 'number') ||
        !(isNullable(e[6], 'string') || typeof e[6] === 'number') ||
        typeof e[7] !== 'string',
    );
    if (j >= 0) problems.push(`record ${i}: adverse_events[${j}] must be [mention, pt_name, pt_code, llt_name, llt_code, start, length, kind]`);
  }
  return problems.length ? problems.join('; ') : null;
}

/** Reads a test file, refusing (TacTestRefusal) anything that is not train.json's record format. */
export function readTestRecords(file: string): TacRecord[] {
  if (!existsSync(file)) throw new TacTestRefusal(`${file}: TAC test file not found`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new TacTestRefusal(`${file}: not JSON (${err instanceof Error ? err.message : String(err)}); expected train.json's record format`);
  }
  const problem = recordProblems(data);
  if (problem) throw new TacTestRefusal(`${file}: not TAC 2017 records in train.json's format: ${problem}`);
  return data as TacRecord[];
}

/** Scores the test half once (see the file header). */
export async function runTacTest(opts: TacTestOptions): Promise<TacTestReport> {
  const log = opts.log ?? (() => {});
  const test = readTestRecords(opts.testPath);
  const trainPath = opts.trainPath ?? defaultTacPath();
  if (!existsSync(trainPath)) throw new Error(`TAC 2017 ADR training half not found at ${trainPath} (set TAC2017_PATH or pass --data): the release is built from it`);
  const train = readTac(trainPath);
  const testIds = new Set(test.map((r) => r.label_id));
  const trainIds = new Set(train.map((r) => r.label_id));
  const shared = [...testIds].filter((id) => trainIds.has(id));
  if (shared.length) {
    throw new TacTestRefusal(
      `${opts.testPath}: ${shared.length} of its ${testIds.size} label ids are in the training half ${trainPath} (${shared.slice(0, 5).join(', ')}${shared.length > 5 ? ', …' : ''}): not held out, refused`,
    );
  }
  const ctcaeDir = opts.ctcaeDir ?? defaultCtcaeDir();
  const outside = readCtcaeTerms(ctcaeDir);
  if (outside.length === 0) throw new Error(`CTCAE terms not found in ${ctcaeDir} (set CTCAE_DIR): the release needs them as distractors`);
  // The test labels are the held-out fold: their LLT names stay out, their PT names go in.
  const content = foldRelease([...train, ...test], testIds, outside);
  const [v] = await loadEvaluationVocabularies([content], opts.openStore);
  const vocab = v!.vocab;
  opts.onVocabulary?.(vocab);
  log(`release: ${v!.pts} PTs (${v!.distractors} CTCAE distractors), ${v!.llts} LLTs from ${trainIds.size} training labels; imported in ${Math.round(v!.importMs)} ms`);

  const threshold = opts.threshold ?? LABEL_MIN_CONFIDENCE.default;
  const withMentions = opts.mentions ?? true;
  const labels = groupLabels(test);
  const t0 = performance.now();
  const runs = labels.map((l) => collectLabel(vocab, l, withMentions, opts.identify ?? true));
  log(`${labels.length} test labels (${test.length} sections) analysed in ${Math.round(performance.now() - t0)} ms`);
  const scored = runs.map((r) => scoreLabel(r, CALIBRATION, threshold));
  const metrics = aggregate('test half', scored, threshold);
  const atCv = aggregate('test half', runs.map((r) => scoreLabel(r, CALIBRATION, LABEL_THRESHOLD)), LABEL_THRESHOLD);
  const replicates = opts.replicates ?? 1000;
  const iv = bootstrapIntervals(scored, [], replicates);
  const mentionCorrect = scored.reduce((a, s) => a + s.mentionCorrect, 0);

  // Per section name: each section alone as a label of its own (its text, its gold, its distinct
  // mentions), scored as the whole labels are.
  const units = new Map<string, Map<string, { tp: number; fp: number; gold: number; mentionN: number; mentionCorrect: number; sections: number }>>();
  for (const r of test) {
    const s = scoreLabel(collectLabel(vocab, groupLabels([r])[0]!, withMentions, false), CALIBRATION, threshold);
    const byLabel = units.get(r.section_name) ?? new Map();
    units.set(r.section_name, byLabel);
    const u = byLabel.get(r.label_id) ?? { tp: 0, fp: 0, gold: 0, mentionN: 0, mentionCorrect: 0, sections: 0 };
    byLabel.set(r.label_id, { tp: u.tp + s.tp, fp: u.fp + s.fp, gold: u.gold + s.gold, mentionN: u.mentionN + s.mentionN, mentionCorrect: u.mentionCorrect + s.mentionCorrect, sections: u.sections + 1 });
  }
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const perSection: SectionFigures[] = [...units.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([section, byLabel]) => {
      const us = [...byLabel.values()];
      const tp = sum(us.map((u) => u.tp));
      const gold = sum(us.map((u) => u.gold));
      const n = sum(us.map((u) => u.mentionN));
      const correct = sum(us.map((u) => u.mentionCorrect));
      const si = bootstrapIntervals(us, [], replicates);
      return {
        section,
        sections: sum(us.map((u) => u.sections)),
        labels: us.length,
        goldPts: gold,
        label: { ...prf(tp, sum(us.map((u) => u.fp)), gold - tp), f1Interval: si.f1 },
        mention: { n, correct, accuracy: round(n ? correct / n : 0), interval: si.mentionAccuracy },
      };
    });

  return {
    testPath: opts.testPath,
    trainPath,
    ctcaeDir,
    testLabels: labels.length,
    testSections: test.length,
    trainLabels: trainIds.size,
    release: { pts: v!.pts, llts: v!.llts, distractors: v!.distractors, terms: vocab.size, importMs: Math.round(v!.importMs), buildMs: Math.round(v!.buildMs) },
    calibrators: CALIBRATION.fittedOn,
    threshold,
    label: { ...metrics.label, interval: { replicates, precision: iv.precision, recall: iv.recall, f1: iv.f1 } },
    labelAtCvThreshold: atCv.label,
    mention: { n: metrics.mention.n, correct: mentionCorrect, accuracy: metrics.mention.accuracy, top5: metrics.mention.top5, interval: iv.mentionAccuracy },
    targets: {
      ...TEST_TARGETS,
      labelF1Met: metrics.label.f1 >= TEST_TARGETS.labelF1,
      mentionAccuracyMet: metrics.mention.accuracy >= TEST_TARGETS.mentionAccuracy,
    },
    metrics,
    perSection,
    perLabel: scored.map((s) => ({
      labelId: s.run.label.labelId,
      sections: s.run.label.sections.length,
      goldPts: s.gold,
      tp: s.tp,
      fp: s.fp,
      fn: s.gold - s.tp,
      mentions: s.mentionN,
      mentionCorrect: s.mentionCorrect,
    })),
  };
}

/** A fixed-width summary of a test-half report. */
export function formatTacTestReport(r: TacTestReport): string {
  const f = (x: number) => x.toFixed(4);
  const iv = (x: Interval) => `[${f(x[0])}, ${f(x[1])}]`;
  const l = r.label;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines = [
    `TAC 2017 ADR TEST HALF, scored once (no fitting): ${r.testLabels} labels, ${r.testSections} sections from ${r.testPath}`,
    `release: ${r.release.pts} PTs (${r.release.distractors} CTCAE distractors) / ${r.release.llts} LLTs — the gold of the ${r.trainLabels} training labels (${r.trainPath}), every gold PT name of both halves, CTCAE terms; none of the test labels' own LLT names`,
    `calibrators: shipped (src/nlp/calibration-params.ts; ${r.calibrators}); threshold ${r.threshold.toFixed(2)} (REST default minConfidence unless --threshold)`,
    '',
    `label micro (pooled over test labels, 95% bootstrap over labels, ${l.interval.replicates} replicates): P ${f(l.precision)} ${iv(l.interval.precision)}, R ${f(l.recall)} ${iv(l.interval.recall)}, F1 ${f(l.f1)} ${iv(l.interval.f1)} (TP ${l.tp}, FP ${l.fp}, FN ${l.fn}) — target F1 ≥ ${r.targets.labelF1}: ${met(r.targets.labelF1Met)}`,
    `  at ${r.labelAtCvThreshold.threshold.toFixed(2)} (the cross-validated headline's threshold): P ${f(r.labelAtCvThreshold.precision)}, R ${f(r.labelAtCvThreshold.recall)}, F1 ${f(r.labelAtCvThreshold.f1)}`,
    `mention → PT top-1 accuracy: ${f(r.mention.accuracy)} ${iv(r.mention.interval)} (${r.mention.correct} / ${r.mention.n} distinct gold mentions; top-5 ${f(r.mention.top5)}) — target ≥ ${r.targets.mentionAccuracy}: ${met(r.targets.mentionAccuracyMet)}`,
    `ECE label ${f(r.metrics.calibration.labelEce)}, text ${f(r.metrics.calibration.textEce)}, identify ${f(r.metrics.calibration.identifyEce)}; identifyEvents precision ${f(r.metrics.identify.precision)}, gold-mention recall ${f(r.metrics.identify.mentionRecall)} (${r.metrics.identify.events} events)`,
    '',
    'per section name (each section classified alone, against its own gold PTs; mentions of those sections)',
    'section                    sections  labels  gold PTs  P       R       F1      [95% interval]     mentions  accuracy [95% interval]',
  ];
  for (const s of r.perSection) {
    lines.push(
      [
        s.section.padEnd(26),
        String(s.sections).padEnd(9),
        String(s.labels).padEnd(7),
        String(s.goldPts).padEnd(9),
        f(s.label.precision).padEnd(7),
        f(s.label.recall).padEnd(7),
        f(s.label.f1).padEnd(7),
        iv(s.label.f1Interval).padEnd(18),
        String(s.mention.n).padEnd(9),
        `${f(s.mention.accuracy)} ${iv(s.mention.interval)}`,
      ].join(' '),
    );
  }
  return lines.join('\n');
}
