/**
 * Label sections of other kinds (data/label-sections; docs/nlp.md "Other section types"):
 *
 *   npx tsx scripts/eval-sections.ts [--split dev|heldout|fresh|seen|fresh2|all|fresh3|fresh4|dev7|fresh5|dev8|fresh6|dev9|fresh7|dev10|fresh8|dev11|fresh9|dev12|fresh10|dev13|fresh11|dev14|fresh12|dev15] [--mode text|heading|typed] [--threshold 0.5] [--errors]
 *
 * Scores the development part by default. The held-out parts are scored once, at the end of a round
 * (--split heldout: round 2's; --split fresh: data/label-sections-fresh, round 3's — both scored, so now
 * development data, together --split seen with dev; --split fresh2: data/label-sections-fresh2, round 4's;
 * --split fresh3: data/label-sections-fresh3, round 5's, scored at its end; --split all: every set, the eight
 * development labels of round 6; --split fresh4: data/label-sections-fresh4, round 6's held-out set, annotated blind,
 * scored once at round 6's end — its gold names enter the release only for that run; --split dev7: every set, fresh4
 * included, the fifteen development labels of round 7, one release with all their gold names; --split fresh5:
 * data/label-sections-fresh5, round 7's held-out set, annotated blind, scored once at round 7's end — its gold names
 * enter the release only for that run; --split dev8: dev7 and fresh5, the twenty-nine development labels of round 8,
 * one release with all their gold names — dev7's and fresh5's own figures do not move, as fresh5's names were already
 * in fresh5's run and dev7's in dev7's); --split fresh6: data/label-sections-fresh6, round 8's held-out set, annotated
 * blind, scored once at round 8's end — its gold names enter the release only for that run; --split dev9: dev8 and
 * fresh6, the forty-five development labels of round 9, one release with every set's gold names; --split fresh7: data/label-sections-fresh7,
 * round 9's held-out set, annotated blind to a fixed mix of section kinds, scored once at round 9's end; --split dev10: dev9 and fresh7, the
 * sixty-five development labels of round 10, one release with every set's gold names — fresh7's names were already in
 * fresh7's run and dev9's in dev9's, so neither part's own figures move); --split fresh8: data/label-sections-fresh8,
 * round 10's held-out set, annotated blind to fresh7's mix, scored once at round 10's end; --split dev11: dev10 and fresh8,
 * the eighty-four development labels of round 11, one release with every set's gold names — fresh8's run already had
 * them all); --split fresh9: data/label-sections-fresh9, round 11's held-out set, annotated blind to fresh7 and fresh8's
 * mix, scored once at round 11's end; --split dev12: dev11 and fresh9, the hundred and five development labels of round 12,
 * one release with every set's gold names — fresh9's run already had them all); --split fresh10: data/label-sections-fresh10,
 * round 12's held-out set, annotated blind to the engine and to fresh9's mix, scored once at round 12's end; --split dev13:
 * dev12 and fresh10, the hundred and twenty-five development labels of round 13, one release with every set's gold
 * names — fresh10's run already had them all); --split fresh11: data/label-sections-fresh11, round 13's held-out set,
 * annotated blind to the engine and to fresh10's mix, scored once at round 13's end; --split dev14: dev13 and fresh11,
 * the hundred and forty-six development labels of round 14, one release with every set's gold names — fresh11's run
 * already had them all); --split fresh12: data/label-sections-fresh12, round 14's held-out set, annotated blind, scored
 * once at round 14's end; --split dev15: dev14 and fresh12, the development labels of round 15. Every table
 * also gives P and F1 intervals with whole labels resampled, the interval to compare two sets of different labels by.
 */
import { parseArgs } from 'node:util';
import { readTac } from '../tools/eval/tac.ts';
import { defaultCtcaeDir, defaultTacPath, LABEL_THRESHOLD, loadEvaluationVocabularies } from '../tools/eval/run.ts';
import type { LabelOptions } from '../src/nlp/index.ts';
import { ALL_CONTEXTS, DRUGS, formatLabelRows, scoreByLabel, withoutCodes, FRESH2_DIR, FRESH3_DIR, FRESH4_DIR, FRESH4_LABELS, FRESH5_DIR, FRESH5_LABELS, FRESH6_DIR, FRESH6_LABELS, FRESH7_DIR, FRESH7_LABELS, FRESH8_DIR, FRESH8_LABELS, FRESH9_DIR, FRESH9_LABELS, FRESH10_DIR, FRESH10_LABELS, FRESH11_DIR, FRESH11_LABELS, FRESH12_DIR, FRESH12_LABELS, DEV10_LABELS, DEV11_LABELS, DEV12_LABELS, DEV13_LABELS, DEV14_LABELS, DEV15_LABELS, FRESH_DIR, formatRobustness, formatTypeRows, readSections, runSections, scoreByType, sectionsRelease, type InputMode } from '../tools/eval/sections.ts';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'dev' },
    mode: { type: 'string', multiple: true },
    threshold: { type: 'string' },
    errors: { type: 'boolean', default: false },
    variant: { type: 'string', default: 'shipped' },
    robustness: { type: 'boolean', default: false },
  },
});
/** Engine variants for the per-fold comparison (docs/nlp.md): the round-2 behaviour and each change alone. */
const VARIANTS: Record<string, LabelOptions> = {
  shipped: {},
  'no-confident': { weighConfident: false },
  'round2-like': { contexts: [...ALL_CONTEXTS], weighDetected: false },
  'contexts-only': {},
  'detected-only': { contexts: [...ALL_CONTEXTS], weighDetected: true },
  'contexts+detected': { weighDetected: true },
  'no-hypothetical': { contexts: ['adverse_event'] },
  'with-hypothetical': { contexts: ['adverse_event', 'hypothetical'] },
};
const threshold = values.threshold ? Number(values.threshold) : LABEL_THRESHOLD;
type SetName = 'base' | 'fresh' | 'fresh2' | 'fresh3' | 'fresh4' | 'fresh5' | 'fresh6' | 'fresh7' | 'fresh8' | 'fresh9' | 'fresh10' | 'fresh11' | 'fresh12';
const sets: Record<SetName, ReturnType<typeof readSections>> = { base: readSections(), fresh: readSections(FRESH_DIR), fresh2: readSections(FRESH2_DIR), fresh3: readSections(FRESH3_DIR), fresh4: readSections(FRESH4_DIR), fresh5: readSections(FRESH5_DIR), fresh6: readSections(FRESH6_DIR), fresh7: readSections(FRESH7_DIR), fresh8: readSections(FRESH8_DIR), fresh9: readSections(FRESH9_DIR), fresh10: readSections(FRESH10_DIR), fresh11: readSections(FRESH11_DIR), fresh12: readSections(FRESH12_DIR) };
/**
 * One row per split: which sets it scores (`only`: just the chunks whose own `split` field is the split's name),
 * whose gold it scores against, whose gold names enter the release (a set's names enter only from the round its set
 * was scored: a held-out set's terms stay out of development until then), the labels of the per-label table, and the
 * drugs of the older per-drug fold lines.
 */
interface Split { sets: SetName[]; only?: boolean; gold: SetName[]; names: SetName[]; labels?: readonly string[]; folds: readonly string[] }
const DEV: SetName[] = ['base', 'fresh', 'fresh2', 'fresh3'];
const SEEN: SetName[] = ['base', 'fresh'];
const DEV10: SetName[] = [...DEV, 'fresh4', 'fresh5', 'fresh6', 'fresh7'];
const DEV11: SetName[] = [...DEV10, 'fresh8'];
const DEV12: SetName[] = [...DEV11, 'fresh9'];
const DEV13: SetName[] = [...DEV12, 'fresh10'];
const DEV14: SetName[] = [...DEV13, 'fresh11'];
const DEV15: SetName[] = [...DEV14, 'fresh12'];
const SPLITS: Record<string, Split> = {
  dev: { sets: ['base'], only: true, gold: DEV, names: SEEN, folds: ['humira', 'lipitor', 'veklury'] },
  heldout: { sets: ['base'], only: true, gold: DEV, names: SEEN, folds: ['humira', 'lipitor', 'veklury'] },
  fresh: { sets: ['fresh'], only: true, gold: DEV, names: SEEN, folds: ['viagra', 'haloperidol'] },
  seen: { sets: SEEN, gold: DEV, names: SEEN, folds: ['humira', 'lipitor', 'veklury', 'viagra', 'haloperidol'] },
  fresh2: { sets: ['fresh2'], only: true, gold: DEV, names: ['base', 'fresh', 'fresh2'], folds: ['dexamethasone'] },
  fresh3: { sets: ['fresh3'], only: true, gold: DEV, names: DEV, labels: ['vyvanse', 'ambien'], folds: ['vyvanse', 'ambien'] },
  all: { sets: DEV, gold: DEV, names: DEV, labels: DRUGS, folds: [] },
  fresh4: { sets: ['fresh4'], only: true, gold: [...DEV, 'fresh4'], names: [...DEV, 'fresh4'], labels: FRESH4_LABELS, folds: [] },
  dev7: { sets: [...DEV, 'fresh4'], gold: [...DEV, 'fresh4'], names: [...DEV, 'fresh4'], labels: [...DRUGS, ...FRESH4_LABELS], folds: [] },
  fresh5: { sets: ['fresh5'], only: true, gold: [...DEV, 'fresh4', 'fresh5'], names: [...DEV, 'fresh4', 'fresh5'], labels: FRESH5_LABELS, folds: [] },
  dev8: { sets: [...DEV, 'fresh4', 'fresh5'], gold: [...DEV, 'fresh4', 'fresh5'], names: [...DEV, 'fresh4', 'fresh5'], labels: [...DRUGS, ...FRESH4_LABELS, ...FRESH5_LABELS], folds: [] },
  fresh6: { sets: ['fresh6'], only: true, gold: [...DEV, 'fresh4', 'fresh5', 'fresh6'], names: [...DEV, 'fresh4', 'fresh5', 'fresh6'], labels: FRESH6_LABELS, folds: [] },
  // Round 9: fresh6 (scored once at round 8's end) is development data: dev8 and fresh6, forty-five labels.
  dev9: { sets: [...DEV, 'fresh4', 'fresh5', 'fresh6'], gold: [...DEV, 'fresh4', 'fresh5', 'fresh6'], names: [...DEV, 'fresh4', 'fresh5', 'fresh6'], labels: [...DRUGS, ...FRESH4_LABELS, ...FRESH5_LABELS, ...FRESH6_LABELS], folds: [] },
  // Round 9's held-out set, annotated blind to a fixed mix of section kinds: scored once at round 9's end; its gold
  // names enter the release only for that run.
  fresh7: { sets: ['fresh7'], only: true, gold: [...DEV, 'fresh4', 'fresh5', 'fresh6', 'fresh7'], names: [...DEV, 'fresh4', 'fresh5', 'fresh6', 'fresh7'], labels: FRESH7_LABELS, folds: [] },
  // Round 10: fresh7 (scored once at round 9's end) is development data: dev9 and fresh7, sixty-five labels.
  dev10: { sets: DEV10, gold: DEV10, names: DEV10, labels: DEV10_LABELS, folds: [] },
  // Round 10's held-out set, annotated blind to fresh7's mix: scored once at round 10's end; its gold names enter the
  // release only for that run.
  fresh8: { sets: ['fresh8'], only: true, gold: [...DEV10, 'fresh8'], names: [...DEV10, 'fresh8'], labels: FRESH8_LABELS, folds: [] },
  // Round 11: fresh8 (scored once at round 10's end) is development data: dev10 and fresh8, eighty-four labels.
  dev11: { sets: DEV11, gold: DEV11, names: DEV11, labels: DEV11_LABELS, folds: [] },
  // Round 11's held-out set, annotated blind to fresh7 and fresh8's mix: scored once at round 11's end; its gold names
  // enter the release only for that run.
  fresh9: { sets: ['fresh9'], only: true, gold: [...DEV11, 'fresh9'], names: [...DEV11, 'fresh9'], labels: FRESH9_LABELS, folds: [] },
  // Round 12: fresh9 (scored once at round 11's end) is development data: dev11 and fresh9, a hundred and five labels.
  dev12: { sets: DEV12, gold: DEV12, names: DEV12, labels: DEV12_LABELS, folds: [] },
  // Round 12's held-out set: its own chunks, in a release with every set's gold names (as fresh9's run).
  fresh10: { sets: ['fresh10'], only: true, gold: [...DEV12, 'fresh10'], names: [...DEV12, 'fresh10'], labels: FRESH10_LABELS, folds: [] },
  // Round 13: fresh10 (scored once at round 12's end) is development data: dev12 and fresh10, a hundred and twenty-five labels.
  dev13: { sets: DEV13, gold: DEV13, names: DEV13, labels: DEV13_LABELS, folds: [] },
  // Round 13's held-out set, annotated blind to fresh10's mix: scored once at round 13's end; its gold names enter the
  // release only for that run (as fresh10's).
  fresh11: { sets: ['fresh11'], only: true, gold: [...DEV13, 'fresh11'], names: [...DEV13, 'fresh11'], labels: FRESH11_LABELS, folds: [] },
  // Round 14: fresh11 (scored once at round 13's end) is development data: dev13 and fresh11, a hundred and forty-six labels.
  dev14: { sets: DEV14, gold: DEV14, names: DEV14, labels: DEV14_LABELS, folds: [] },
  // Round 14's held-out set, annotated blind to the engine and to round 14's work: scored once at round 14's end; its
  // gold names enter the release only for that run (as fresh11's).
  fresh12: { sets: ['fresh12'], only: true, gold: [...DEV14, 'fresh12'], names: [...DEV14, 'fresh12'], labels: FRESH12_LABELS, folds: [] },
  // Round 15: fresh12 (scored once at round 14's end) is development data: dev14 and fresh12, a hundred and sixty-five labels.
  dev15: { sets: DEV15, gold: DEV15, names: DEV15, labels: DEV15_LABELS, folds: [] },
};
const split = values.split!;
const chosen = SPLITS[split];
if (!chosen) {
  console.error(`unknown --split ${split}; one of ${Object.keys(SPLITS).join(', ')}`);
  process.exit(2);
}
const part = chosen.sets.flatMap((n) => sets[n].sections).filter((s) => !chosen.only || s.split === split);
const goldOf = (names: SetName[]) => Object.assign({}, ...names.map((n) => sets[n].gold)) as Record<string, string[]>;
const gold = goldOf(chosen.gold);
const names = goldOf(chosen.names);
const { content, codeOf, added, addedCodes } = sectionsRelease(readTac(defaultTacPath()), defaultCtcaeDir(), names);
const [{ vocab }] = (await loadEvaluationVocabularies([content])) as unknown as [{ vocab: import('../src/nlp/vocabulary.ts').Vocabulary }];
console.log(`${part.length} sections (${split}); release ${content.pts.size} PTs, ${added} gold names added as PTs; threshold ${threshold}`);
for (const mode of (values.mode ?? ['text', 'heading', 'typed']) as InputMode[]) {
  const runs = runSections(part, gold, codeOf, vocab, mode, VARIANTS[values.variant!] ?? {});
  console.log(`\n### input: ${mode}\n`);
  console.log(formatTypeRows(scoreByType(runs, threshold)));
  // Per drug (the folds of this data: a change inspired by one drug's errors must help the others).
  const labels = chosen.labels;
  if (labels) {
    // Per label (round 5's leave-one-label-out view), and the same without the gold names the
    // release lacked (added as bare PTs only for this run: an artefact of the evaluation release, not of the engine).
    console.log(formatLabelRows(scoreByLabel(runs, threshold, labels)));
    console.log('\nwithout the gold names the release lacked (added as bare PTs):\n');
    console.log(formatLabelRows(scoreByLabel(withoutCodes(runs, addedCodes), threshold, labels)));
  }
  for (const drug of chosen.folds) {
    const rows = scoreByType(runs.filter((r) => r.id.startsWith(`${drug}-`)), threshold).filter((x) => x.type === 'all');
    for (const x of rows) console.log(`fold ${drug}: tp ${x.counts.tp} fp ${x.counts.fp} fn ${x.counts.fn} P ${x.p.toFixed(3)} R ${x.r.toFixed(3)} F1 ${x.f1.toFixed(3)} lost-all ${x.lostAll}`);
  }
  if (values.errors) {
    for (const r of runs) {
      const fp = [...r.predicted].filter(([p, c]) => c >= threshold && !r.gold.has(p)).map(([p]) => vocab.ptName(p));
      const fn = [...r.gold].filter((g) => (r.predicted.get(g) ?? 0) < threshold).map((g) => vocab.ptName(g) ?? String(g));
      if (fp.length || fn.length) console.log(`${r.id} [${r.sectionType}→${r.detected}] FP: ${fp.join('; ')} | FN: ${fn.join('; ')}`);
    }
  }
}

if (values.robustness) {
  console.log('\n### formatting robustness (code set equal to the original at the threshold)\n');
  for (const r of formatRobustness(part, gold, codeOf, vocab, threshold)) console.log(`${r.variant.padEnd(16)} same ${r.same}/${r.total}  F1 ${r.f1.toFixed(3)}`);
}
