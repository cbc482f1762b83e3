// `npm run eval -- --tac-test FILE` (tools/eval/tacTest.ts) on a tiny stand-in for the TAC 2017 test
// half: the three shortest training labels renamed, scored against a release built from the other 98
// (so their own LLTs are not in it), checked against a count made through the public engine API; and
// the two refusals, through the command as README › Evaluation writes it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { classifyLabel, classifyText } from '../../src/nlp/index.ts';
import type { Vocabulary } from '../../src/nlp/vocabulary.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { defaultCtcaeDir, defaultTacPath } from '../../tools/eval/run.ts';
import { goldRelease, isGoldEvent, readCtcaeTerms, readTac, type TacRecord } from '../../tools/eval/tac.ts';
import { runTacTest, type TacTestReport } from '../../tools/eval/tacTest.ts';

let dir: string;
let trainPath: string;
let testPath: string;
let train: TacRecord[];
let test: TacRecord[];

/** The command as README › Evaluation writes it, with its exit code and output. */
const evalCommand = (...args: string[]) => spawnSync('npm', ['run', '--silent', 'eval', '--', ...args], { cwd: projectRoot, encoding: 'utf8', timeout: 120_000 });

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Micro counts through the public API (classifyLabel at a threshold, classifyText top-1), the definitions the command states. */
function handCount(units: { text: string; events: TacRecord['adverse_events'] }[], vocab: Vocabulary, minConfidence: number) {
  let tp = 0;
  let fp = 0;
  let gold = 0;
  let mentions = 0;
  let correct = 0;
  for (const u of units) {
    const pts = new Set(u.events.filter(isGoldEvent).map((e) => e[2]!));
    gold += pts.size;
    for (const p of classifyLabel(u.text, vocab, { minConfidence, maxResults: 10_000 })) pts.has(p.ptCode) ? tp++ : fp++;
    const seen = new Set<string>();
    for (const e of u.events.filter(isGoldEvent)) {
      const k = `${e[0].toLowerCase()}|${e[2]}`;
      if (seen.has(k)) continue;
      seen.add(k);
      mentions++;
      if (classifyText(e[0], vocab, { limit: 5 })[0]?.ptCode === e[2]) correct++;
    }
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = gold ? tp / gold : 0;
  return { tp, fp, fn: gold - tp, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, mentions, correct };
}

describe.skipIf(process.env.TEST_DB === 'postgres')('TAC 2017 test half: npm run eval -- --tac-test', () => {
  beforeAll(() => {
    const full = defaultTacPath();
    if (!existsSync(full)) throw new Error(`TAC 2017 ADR benchmark not found at ${full}: expected on every machine (set TAC2017_PATH)`);
    const records = readTac(full);
    const size = new Map<string, number>();
    for (const r of records) size.set(r.label_id, (size.get(r.label_id) ?? 0) + r.section_text.length);
    // The three shortest labels keep the engine's share of the test small.
    const picked = new Set([...size].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3).map(([id]) => id));
    train = records.filter((r) => !picked.has(r.label_id));
    test = records.filter((r) => picked.has(r.label_id)).map((r) => ({ ...r, label_id: `TAC-TEST-${r.label_id}` }));
    dir = mkdtempSync(path.join(tmpdir(), 'tac-test-'));
    trainPath = path.join(dir, 'train-reduced.json');
    testPath = path.join(dir, 'test.json');
    writeFileSync(trainPath, JSON.stringify(train));
    writeFileSync(testPath, JSON.stringify(test));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scores the held-out labels once against a release without their LLTs; the figures equal a hand count', { timeout: 300_000 }, async () => {
    let vocab: Vocabulary | undefined;
    const report: TacTestReport = await runTacTest({
      testPath,
      trainPath,
      replicates: 200,
      openStore: () => createTestDatabase({ template: 'migrated' }),
      onVocabulary: (v) => (vocab = v),
    });
    const v = vocab!;
    expect(report.testLabels).toBe(3);
    expect(report.testSections).toBe(test.length);
    expect(report.trainLabels).toBe(98);
    expect(report.threshold).toBe(0.25);
    expect(report.release.distractors).toBeGreaterThan(300);

    // The release: no LLT only the test labels' gold has; every test gold PT.
    const trainGold = goldRelease(train);
    const testGold = goldRelease(test);
    const ctcae = new Set(readCtcaeTerms(defaultCtcaeDir()).map((t) => t.code));
    const testOnly = [...testGold.llts.keys()].filter((c) => !trainGold.llts.has(c) && !testGold.pts.has(c) && !trainGold.pts.has(c) && !ctcae.has(c));
    expect(testOnly.length).toBeGreaterThan(0);
    const codes = new Set(v.terms.map((t) => t.code));
    for (const c of testOnly) expect(codes.has(c), `test-only LLT ${c} in the release`).toBe(false);
    for (const c of testGold.pts.keys()) expect(codes.has(c)).toBe(true);

    // Label level: each label's sections joined, the public classifyLabel at the REST default.
    const byLabel = new Map<string, TacRecord[]>();
    for (const r of test) byLabel.set(r.label_id, [...(byLabel.get(r.label_id) ?? []), r]);
    const labels = [...byLabel.values()].map((rs) => ({ text: rs.map((r) => r.section_text).join('\n\n'), events: rs.flatMap((r) => r.adverse_events) }));
    const hand = handCount(labels, v, 0.25);
    expect(hand.tp + hand.fn).toBeGreaterThan(10);
    expect({ tp: report.label.tp, fp: report.label.fp, fn: report.label.fn }).toEqual({ tp: hand.tp, fp: hand.fp, fn: hand.fn });
    expect(report.label.precision).toBe(round4(hand.precision));
    expect(report.label.recall).toBe(round4(hand.recall));
    expect(report.label.f1).toBe(round4(hand.f1));
    expect({ n: report.mention.n, correct: report.mention.correct }).toEqual({ n: hand.mentions, correct: hand.correct });
    expect(report.mention.accuracy).toBe(round4(hand.correct / hand.mentions));
    const at05 = handCount(labels, v, 0.5);
    expect(report.labelAtCvThreshold).toMatchObject({ threshold: 0.5, tp: at05.tp, fp: at05.fp, fn: at05.fn, f1: round4(at05.f1) });
    expect(report.targets).toEqual({ labelF1: 0.875, mentionAccuracy: 0.9, labelF1Met: hand.f1 >= 0.875, mentionAccuracyMet: hand.correct / hand.mentions >= 0.9 });
    expect(report.perLabel.map((l) => l.tp + l.fn).reduce((a, b) => a + b)).toBe(hand.tp + hand.fn);

    // Intervals: label bootstrap, around the pooled figures.
    expect(report.label.interval.replicates).toBe(200);
    for (const [k, [lo, hi]] of [['f1', report.label.interval.f1], ['precision', report.label.interval.precision], ['recall', report.label.interval.recall]] as const) {
      expect(lo, k).toBeLessThanOrEqual(report.label[k]);
      expect(hi, k).toBeGreaterThanOrEqual(report.label[k]);
    }
    expect(report.mention.interval[0]).toBeLessThanOrEqual(report.mention.accuracy);
    expect(report.mention.interval[1]).toBeGreaterThanOrEqual(report.mention.accuracy);

    // Per section name: each section alone.
    const names = [...new Set(test.map((r) => r.section_name))].sort();
    expect(report.perSection.map((s) => s.section)).toEqual(names);
    for (const s of report.perSection) {
      const rs = test.filter((r) => r.section_name === s.section);
      const h = handCount(rs.map((r) => ({ text: r.section_text, events: r.adverse_events })), v, 0.25);
      expect({ sections: s.sections, tp: s.label.tp, fp: s.label.fp, fn: s.label.fn, n: s.mention.n, correct: s.mention.correct }, s.section).toEqual({
        sections: rs.length,
        tp: h.tp,
        fp: h.fp,
        fn: h.fn,
        n: h.mentions,
        correct: h.correct,
      });
      expect(s.label.f1).toBe(round4(h.f1));
    }

    // README › Evaluation shows the command.
    const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
    const evaluation = readme.slice(readme.indexOf('\n## Evaluation\n'), readme.indexOf('\n## ', readme.indexOf('\n## Evaluation\n') + 1));
    expect(evaluation).toMatch(/```sh\n[^`]*npm run eval -- --tac-test /);
  });

  it('refuses (exit 2) a file that is not train.json records, and one whose labels are in the training half', { timeout: 300_000 }, () => {
    const notRecords = path.join(dir, 'not-records.json');
    writeFileSync(notRecords, JSON.stringify([{ label_id: 'X', section_name: 'adverse reactions', section_text: 'Nausea.', adverse_events: [['nausea', 'Nausea']] }]));
    const a = evalCommand('--tac-test', notRecords, '--data', trainPath, '--out', path.join(dir, 'a.json'));
    expect(a.status, a.stderr).toBe(2);
    expect(a.stderr).toMatch(/not TAC 2017 records in train\.json's format: record 0: adverse_events\[0\]/);
    expect(existsSync(path.join(dir, 'a.json'))).toBe(false);

    const overlapping = path.join(dir, 'overlap.json');
    writeFileSync(overlapping, JSON.stringify([...test, train[0]!]));
    const b = evalCommand('--tac-test', overlapping, '--data', trainPath);
    expect(b.status, b.stderr).toBe(2);
    expect(b.stderr).toContain(`1 of its 4 label ids are in the training half ${trainPath} (${train[0]!.label_id}): not held out, refused`);
  });
});
