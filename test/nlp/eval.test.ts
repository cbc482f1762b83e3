// Quality floors on the held-out split of the TAC 2017 ADR benchmark (see src/nlp/eval/run.ts).
// The benchmark file is on every machine of this project (shared/data beside the checkout):
// when it is missing this test fails instead of passing silently.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALIBRATION } from '../../src/nlp/calibration-params.ts';
import { defaultTacPath, formatReport, runEvaluation } from '../../src/nlp/eval/run.ts';

// Held-out figures when the floors were set: P 0.897, R 0.891, F1 0.894, mention accuracy 0.941,
// label ECE 0.018, text ECE 0.007; identifyEvents on the label sections: precision 0.775, gold-mention
// recall 0.909, ECE 0.016 (docs/nlp.md). Floors sit a little below.
const FLOORS = {
  precision: 0.88,
  recall: 0.87,
  f1: 0.875,
  mentionAccuracy: 0.93,
  maxLabelEce: 0.03,
  maxTextEce: 0.03,
  identifyPrecision: 0.76,
  identifyMentionRecall: 0.89,
  maxIdentifyEce: 0.03,
};

// The PostgreSQL project re-runs every test file; the evaluation imports into PGlite either
// way, so one run (the PGlite project) is enough.
describe.skipIf(process.env.TEST_DB === 'postgres')('TAC 2017 ADR evaluation (held-out split)', () => {
  it('stays above the quality floors', { timeout: 120_000 }, async () => {
    const dataPath = defaultTacPath();
    if (!existsSync(dataPath)) {
      throw new Error(`TAC 2017 ADR benchmark not found at ${dataPath}: it is expected on every machine (shared/data/tac2017-adr/train.json); set TAC2017_PATH to point at it.`);
    }
    const report = await runEvaluation({ dataPath, split: 'test' });
    console.log(formatReport(report));
    const m = report.test!;
    expect(m.labels).toBeGreaterThan(40);
    expect(m.label.precision).toBeGreaterThanOrEqual(FLOORS.precision);
    expect(m.label.recall).toBeGreaterThanOrEqual(FLOORS.recall);
    expect(m.label.f1).toBeGreaterThanOrEqual(FLOORS.f1);
    expect(m.mention.accuracy).toBeGreaterThanOrEqual(FLOORS.mentionAccuracy);
    expect(m.calibration.labelEce).toBeLessThanOrEqual(FLOORS.maxLabelEce);
    expect(m.calibration.textEce).toBeLessThanOrEqual(FLOORS.maxTextEce);
    expect(m.identify.events).toBeGreaterThan(3000);
    expect(m.identify.precision).toBeGreaterThanOrEqual(FLOORS.identifyPrecision);
    expect(m.identify.mentionRecall).toBeGreaterThanOrEqual(FLOORS.identifyMentionRecall);
    expect(m.calibration.identifyEce).toBeLessThanOrEqual(FLOORS.maxIdentifyEce);
    // The shipped parameters are the ones `npm run eval -- --fit --write-params` wrote: they reproduce
    // the held-out figures recorded with them (a stale file after an engine change fails here).
    expect(m.calibration.labelEce).toBeCloseTo(CALIBRATION.heldOut.labelEce!, 4);
    expect(m.calibration.textEce).toBeCloseTo(CALIBRATION.heldOut.textEce!, 4);
    expect(m.calibration.identifyEce).toBeCloseTo(CALIBRATION.heldOut.identifyEce!, 4);
  });

  it('fails loudly when the benchmark file is missing', async () => {
    await expect(runEvaluation({ dataPath: '/nonexistent/tac2017-adr/train.json' })).rejects.toThrow(/TAC 2017 ADR data not found/);
  });
});
