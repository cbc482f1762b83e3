/**
 * Label sections of other kinds (data/label-sections; docs/nlp.md "Other section types"):
 *
 *   npx tsx scripts/eval-sections.ts [--split dev|heldout|fresh|seen|fresh2|all|fresh3|fresh4|dev7|fresh5|dev8|fresh6] [--mode text|heading|typed] [--threshold 0.5] [--errors]
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
 * blind, scored once at round 8's end — its gold names enter the release only for that run).
 */
import { parseArgs } from 'node:util';
import { readTac } from '../tools/eval/tac.ts';
import { defaultCtcaeDir, defaultTacPath, LABEL_THRESHOLD, loadEvaluationVocabularies } from '../tools/eval/run.ts';
import type { LabelOptions } from '../src/nlp/index.ts';
import { ALL_CONTEXTS, DRUGS, formatLabelRows, scoreByLabel, withoutCodes, FRESH2_DIR, FRESH3_DIR, FRESH4_DIR, FRESH4_LABELS, FRESH5_DIR, FRESH5_LABELS, FRESH6_DIR, FRESH6_LABELS, FRESH_DIR, formatRobustness, formatTypeRows, readSections, runSections, scoreByType, sectionsRelease, type InputMode } from '../tools/eval/sections.ts';

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
const sets = { base: readSections(), fresh: readSections(FRESH_DIR), fresh2: readSections(FRESH2_DIR), fresh3: readSections(FRESH3_DIR), fresh4: readSections(FRESH4_DIR), fresh5: readSections(FRESH5_DIR), fresh6: readSections(FRESH6_DIR) };
const split = values.split!;
const part =
  split === 'dev8'
    ? [...sets.base.sections, ...sets.fresh.sections, ...sets.fresh2.sections, ...sets.fresh3.sections, ...sets.fresh4.sections, ...sets.fresh5.sections]
    : split === 'dev7'
    ? [...sets.base.sections, ...sets.fresh.sections, ...sets.fresh2.sections, ...sets.fresh3.sections, ...sets.fresh4.sections]
    : split === 'all'
    ? [...sets.base.sections, ...sets.fresh.sections, ...sets.fresh2.sections, ...sets.fresh3.sections]
    : split === 'seen'
    ? [...sets.base.sections, ...sets.fresh.sections]
    : (split === 'fresh' ? sets.fresh : split === 'fresh2' ? sets.fresh2 : split === 'fresh3' ? sets.fresh3 : split === 'fresh4' ? sets.fresh4 : split === 'fresh5' ? sets.fresh5 : split === 'fresh6' ? sets.fresh6 : sets.base).sections.filter((s) => s.split === split);
const developmentGold = { ...sets.base.gold, ...sets.fresh.gold, ...sets.fresh2.gold, ...sets.fresh3.gold };
const gold =
  split === 'fresh6' ? { ...developmentGold, ...sets.fresh4.gold, ...sets.fresh5.gold, ...sets.fresh6.gold }
  : split === 'fresh5' || split === 'dev8' ? { ...developmentGold, ...sets.fresh4.gold, ...sets.fresh5.gold } : split === 'fresh4' || split === 'dev7' ? { ...developmentGold, ...sets.fresh4.gold } : developmentGold;
// One release for the development runs: it adds the gold names of the sets already seen, so their figures do not
// move; fresh2's names are added only when fresh2 itself is scored, fresh3's only when fresh3 is (their terms stay
// out of development, and fresh3's out of every other run).
// Round 6 (--split all): every set, fresh3 included (scored at round 5's end), is development data: one release
// with all their gold names.
const seenGold = { ...sets.base.gold, ...sets.fresh.gold, ...sets.fresh2.gold };
const names = split === 'fresh3' || split === 'all' || split === 'fresh4' || split === 'dev7' || split === 'fresh5' || split === 'dev8' || split === 'fresh6' ? gold : split === 'fresh2' ? seenGold : { ...sets.base.gold, ...sets.fresh.gold };
const { content, codeOf, added, addedCodes } = sectionsRelease(readTac(defaultTacPath()), defaultCtcaeDir(), names);
const [{ vocab }] = (await loadEvaluationVocabularies([content])) as unknown as [{ vocab: import('../src/nlp/vocabulary.ts').Vocabulary }];
console.log(`${part.length} sections (${split}); release ${content.pts.size} PTs, ${added} gold names added as PTs; threshold ${threshold}`);
for (const mode of (values.mode ?? ['text', 'heading', 'typed']) as InputMode[]) {
  const runs = runSections(part, gold, codeOf, vocab, mode, VARIANTS[values.variant!] ?? {});
  console.log(`\n### input: ${mode}\n`);
  console.log(formatTypeRows(scoreByType(runs, threshold)));
  // Per drug (the folds of this data: a change inspired by one drug's errors must help the others).
  const labels = split === 'all' ? DRUGS : split === 'dev7' ? [...DRUGS, ...FRESH4_LABELS] : split === 'dev8' ? [...DRUGS, ...FRESH4_LABELS, ...FRESH5_LABELS] : split === 'fresh3' ? ['vyvanse', 'ambien'] : split === 'fresh4' ? FRESH4_LABELS : split === 'fresh5' ? FRESH5_LABELS : split === 'fresh6' ? FRESH6_LABELS : undefined;
  if (labels) {
    // Per label (round 5's leave-one-label-out view), and the same without the gold names the
    // release lacked (added as bare PTs only for this run: an artefact of the evaluation release, not of the engine).
    console.log(formatLabelRows(scoreByLabel(runs, threshold, labels)));
    console.log('\nwithout the gold names the release lacked (added as bare PTs):\n');
    console.log(formatLabelRows(scoreByLabel(withoutCodes(runs, addedCodes), threshold, labels)));
  }
  for (const drug of split === 'all' || split === 'dev7' || split === 'dev8' || split === 'fresh4' || split === 'fresh5' || split === 'fresh6' ? [] : split === 'fresh3' ? ['vyvanse', 'ambien'] : split === 'fresh2' ? ['dexamethasone'] : split === 'fresh' ? ['viagra', 'haloperidol'] : split === 'seen' ? ['humira', 'lipitor', 'veklury', 'viagra', 'haloperidol'] : ['humira', 'lipitor', 'veklury']) {
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
