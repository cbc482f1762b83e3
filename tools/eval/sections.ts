// Label sections of other kinds (data/label-sections): classifyLabel on each section, section-level
// micro P/R/F1 per section type against the annotated PT names, with Wilson intervals (P, R) and a
// seeded bootstrap over sections (F1). The release is every TAC training label's gold vocabulary
// plus the CTCAE terms (these sections come from labels outside TAC); a gold name the release lacks
// is added as a PT of its own (a real release has every PT; see docs/nlp.md).
import { lcg } from '../random.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { classifyLabelDetailed, LABEL_CONTEXTS, type LabelContext, type LabelOptions, type SectionType } from '../../src/nlp/index.ts';
export const ALL_CONTEXTS = LABEL_CONTEXTS;
import type { Vocabulary } from '../../src/nlp/vocabulary.ts';
import { foldRelease, readCtcaeTerms, type ReleaseContent, type TacRecord } from './tac.ts';

export interface LabelSection {
  id: string;
  split: 'dev' | 'heldout' | 'fresh' | 'fresh2' | 'fresh3' | 'fresh4' | 'fresh5' | 'fresh6' | 'fresh7' | 'fresh8' | 'fresh9' | 'fresh10' | 'fresh11' | 'fresh12';
  sectionType: SectionType;
  heading: string;
  text: string;
  source: Record<string, unknown>;
}

export const SECTIONS_FILE = path.join(projectRoot, 'data', 'label-sections', 'sections.json');
export const GOLD_FILE = path.join(projectRoot, 'data', 'label-sections', 'gold.json');

/** Round 3's fresh held-out set: two labels not used before, annotated before the engine saw them. */
export const FRESH_DIR = path.join(projectRoot, 'data', 'label-sections-fresh');
/** Round 4's held-out set: one label not used before, annotated and committed before the engine saw it. */
export const FRESH2_DIR = path.join(projectRoot, 'data', 'label-sections-fresh2');
/** Round 5's held-out set: two labels not used before, annotated and committed before the engine saw it. */
export const FRESH3_DIR = path.join(projectRoot, 'data', 'label-sections-fresh3');
/** Round 6's held-out set, annotated blind (data/label-sections-fresh4/README.md): scored once, at round 6's end. */
export const FRESH4_DIR = path.join(projectRoot, 'data', 'label-sections-fresh4');
/** fresh4's labels (chunk ids start with them). */
export const FRESH4_LABELS = ['naproxen', 'ofloxacin', 'levothyroxine', 'warfarin', 'metoprolol', 'sertraline', 'gabapentin'] as const;
/** Round 7's held-out set, annotated blind (data/label-sections-fresh5/README.md): scored once, at round 7's end. */
export const FRESH5_DIR = path.join(projectRoot, 'data', 'label-sections-fresh5');
/** fresh5's labels (chunk ids start with them). */
export const FRESH5_LABELS = ['metformin', 'omeprazole', 'furosemide', 'azithromycin', 'lisinopril', 'amoxicillin', 'amlodipine', 'losartan', 'prednisone', 'albuterol', 'hydrochlorothiazide', 'ibuprofen', 'ciprofloxacin', 'aspirin'] as const;
/** Round 8's held-out set, annotated blind (data/label-sections-fresh6/README.md): scored once, at round 8's end. */
export const FRESH6_DIR = path.join(projectRoot, 'data', 'label-sections-fresh6');
/** fresh6's labels (chunk ids start with them). */
export const FRESH6_LABELS = ['solosec', 'clopidogrel', 'montelukast', 'rivaroxaban', 'liraglutide', 'clindamycin', 'hydroxychloroquine', 'allopurinol', 'sacubitril', 'trazodone', 'tofacitinib', 'varenicline', 'palbociclib', 'doxercalciferol', 'pregabalin', 'celecoxib'] as const;

/** Round 9's held-out set, annotated blind to a fixed mix of section kinds (data/label-sections-fresh7/README.md): scored once, at round 9's end. */
export const FRESH7_DIR = path.join(projectRoot, 'data', 'label-sections-fresh7');
/** fresh7's labels (chunk ids start with them). */
export const FRESH7_LABELS = ['alprazolam', 'dalteparin', 'dofetilide', 'duloxetine', 'eletriptan', 'encorafenib', 'eplerenone', 'glasdegib', 'glipizide', 'linezolid', 'lorlatinib', 'medroxyprogesterone', 'nirmatrelvir', 'norgestimate', 'palonosetron', 'sunitinib', 'talazoparib', 'vecuronium', 'voriconazole', 'ziprasidone'] as const;

/** Round 10's held-out set, annotated blind to fresh7's mix of section kinds (data/label-sections-fresh8/README.md): to be scored once, by the lead. */
export const FRESH8_DIR = path.join(projectRoot, 'data', 'label-sections-fresh8');
/** fresh8's labels (chunk ids start with them). */
export const FRESH8_LABELS = ['abrocitinib', 'aripiprazole', 'binimetinib', 'carbamazepine', 'colchicine', 'dacomitinib', 'elranatamab', 'etrasimod', 'levetiracetam', 'levofloxacin', 'metronidazole', 'ondansetron', 'rimegepant', 'ritlecitinib', 'semaglutide', 'tadalafil', 'tafamidis', 'tucatinib', 'zavegepant'] as const;

/** Round 11's held-out set, annotated blind to fresh7 and fresh8's mix of section kinds (data/label-sections-fresh9/README.md): scored once at round 11's end, development data from round 12. */
export const FRESH9_DIR = path.join(projectRoot, 'data', 'label-sections-fresh9');
/** fresh9's labels (chunk ids start with them). */
export const FRESH9_LABELS = ['anidulafungin', 'baclofen', 'bupropion', 'cephalexin', 'cyclobenzaprine', 'doxycycline', 'enfortumab', 'finasteride', 'gemtuzumab', 'inotuzumab', 'lamotrigine', 'lorazepam', 'meningococcal', 'pegvisomant', 'rsv', 'somatrogon', 'temsirolimus', 'tigecycline', 'tisotumab', 'trimethoprim', 'voxelotor'] as const;
/** The tenth held-out set, annotated blind to fresh9's mix of section kinds (data/label-sections-fresh10/README.md): to be scored once, by the lead. */
export const FRESH10_DIR = path.join(projectRoot, 'data', 'label-sections-fresh10');
/** fresh10's labels (chunk ids start with them). */
export const FRESH10_LABELS = ['bevacizumab', 'covid', 'crisaborole', 'diazepam', 'epoetin', 'escitalopram', 'exemestane', 'fluconazole', 'hydrocodone', 'irinotecan', 'meloxicam', 'olanzapine', 'piperacillin', 'prevnar13', 'prevnar20', 'simvastatin', 'sirolimus', 'spironolactone', 'tramadol', 'trastuzumab'] as const;
/** The eleventh held-out set, annotated blind to the brief's mix of section kinds (data/label-sections-fresh11/README.md): scored once at round 13's end, development data from round 14. */
export const FRESH11_DIR = path.join(projectRoot, 'data', 'label-sections-fresh11');
/** fresh11's labels (chunk ids start with them). */
export const FRESH11_LABELS = ['adenosine', 'avelumab', 'dexmedetomidine', 'efexor', 'fentanyl', 'genotropin', 'infliximab', 'oxycodone', 'pantoprazole', 'pegfilgrastim', 'premarin', 'premarincream', 'prempro', 'quetiapine', 'risperidone', 'rituximab', 'sitagliptin', 'tamsulosin', 'ticovac', 'tolterodine', 'venlafaxine'] as const;
/** The twelfth held-out set (data/label-sections-fresh12/README.md): scored once at round 14's end, development data from round 15. */
export const FRESH12_DIR = path.join(projectRoot, 'data', 'label-sections-fresh12');
/** fresh12's labels (chunk ids start with them). */
export const FRESH12_LABELS = ['arthrotec', 'cardura', 'carduraxl', 'dilantin', 'estring', 'feldene', 'fluoxetine', 'halcion', 'insulin_glargine', 'magnesium', 'metcort', 'methotrexate', 'morphine', 'nicardia', 'nifedipine', 'nivestim', 'nivestym', 'procardia', 'trumenba'] as const;

export function readSections(dir?: string): { sections: LabelSection[]; gold: Record<string, string[]> } {
  return {
    sections: JSON.parse(readFileSync(dir ? path.join(dir, 'sections.json') : SECTIONS_FILE, 'utf8')) as LabelSection[],
    gold: JSON.parse(readFileSync(dir ? path.join(dir, 'gold.json') : GOLD_FILE, 'utf8')) as Record<string, string[]>,
  };
}

const fold = (s: string) => s.toLowerCase().replace(/ae/g, 'e').replace(/oe/g, 'e').replace(/[^a-z0-9]+/g, ' ').trim();

/** The release for the sections, and each gold name's PT code in it. */
export function sectionsRelease(records: readonly TacRecord[], ctcaeDir: string, gold: Record<string, string[]>): { content: ReleaseContent; codeOf: Map<string, number>; added: number; addedCodes: Set<number> } {
  const content = foldRelease(records, new Set(), readCtcaeTerms(ctcaeDir));
  const byName = new Map<string, number>();
  for (const [code, name] of content.pts) byName.set(fold(name), code);
  for (const l of content.llts.values()) if (!byName.has(fold(l.name))) byName.set(fold(l.name), l.pt);
  const codeOf = new Map<string, number>();
  let next = 98_000_001;
  let added = 0;
  const addedCodes = new Set<number>();
  for (const name of new Set(Object.values(gold).flat())) {
    let code = byName.get(fold(name));
    if (code === undefined) {
      code = next++;
      content.pts.set(code, name);
      byName.set(fold(name), code);
      added++;
      addedCodes.add(code);
    }
    codeOf.set(name, code);
  }
  return { content, codeOf, added, addedCodes };
}

export type InputMode = 'text' | 'heading' | 'typed';

export interface SectionRun {
  id: string;
  sectionType: SectionType;
  gold: Set<number>;
  predicted: Map<number, number>;
  /** Excluded candidates (context ≠ adverse event) — for error analysis. */
  excluded: { ptCode: number; context: LabelContext }[];
  detected: SectionType | null;
}

export function runSections(sections: readonly LabelSection[], gold: Record<string, string[]>, codeOf: Map<string, number>, vocab: Vocabulary, mode: InputMode, extra: LabelOptions = {}): SectionRun[] {
  return sections.map((s) => {
    const text = mode === 'heading' ? `${s.heading}\n${s.text}` : s.text;
    const r = classifyLabelDetailed(text, vocab, { maxResults: 100, minConfidence: 0.05, includeExcluded: true, sectionType: mode === 'typed' ? s.sectionType : undefined, ...extra });
    return {
      id: s.id,
      sectionType: s.sectionType,
      gold: new Set((gold[s.id] ?? []).map((n) => codeOf.get(n)!)),
      predicted: new Map(r.codes.map((c) => [c.ptCode, c.confidence])),
      excluded: r.excluded.map((e) => ({ ptCode: e.ptCode, context: e.context })),
      detected: r.sectionType,
    };
  });
}

export interface Counts { tp: number; fp: number; fn: number }
export function count(runs: readonly SectionRun[], threshold: number): Counts {
  let tp = 0, fp = 0, fn = 0;
  for (const r of runs) {
    const pred = new Set([...r.predicted].filter(([, c]) => c >= threshold).map(([p]) => p));
    for (const p of pred) if (r.gold.has(p)) tp++; else fp++;
    for (const g of r.gold) if (!pred.has(g)) fn++;
  }
  return { tp, fp, fn };
}

/** Wilson score interval (95%) of k successes in n. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

const f1 = (c: Counts) => (2 * c.tp === 0 ? 0 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn));


/** 95% percentile bootstrap interval of micro-F1 over sections (seeded). */
export function bootstrapF1(runs: readonly SectionRun[], threshold: number, reps = 1000, seed = 29): [number, number] {
  if (runs.length === 0) return [0, 0];
  const rnd = lcg(seed);
  const per = runs.map((r) => count([r], threshold));
  const vals: number[] = [];
  for (let i = 0; i < reps; i++) {
    const c = { tp: 0, fp: 0, fn: 0 };
    for (let j = 0; j < runs.length; j++) {
      const x = per[Math.floor(rnd() * runs.length)]!;
      c.tp += x.tp; c.fp += x.fp; c.fn += x.fn;
    }
    vals.push(f1(c));
  }
  vals.sort((a, b) => a - b);
  return [vals[Math.floor(reps * 0.025)]!, vals[Math.floor(reps * 0.975)]!];
}

/**
 * 95% percentile bootstrap intervals of micro precision and F1 resampling whole labels (a chunk's label: its id
 * up to the first '-'), seeded. Chunks of one label share its wording and its annotator's calls, so they are not
 * independent: the per-section intervals above are too narrow to compare two sets of different labels, and this
 * one is the interval to compare them by.
 */
export function labelBootstrap(runs: readonly SectionRun[], threshold: number, reps = 1000, seed = 29): { p: [number, number]; f1: [number, number]; labels: number } {
  const byLabel = new Map<string, Counts>();
  for (const r of runs) {
    const label = r.id.split('-')[0]!;
    const c = byLabel.get(label) ?? { tp: 0, fp: 0, fn: 0 };
    const x = count([r], threshold);
    c.tp += x.tp; c.fp += x.fp; c.fn += x.fn;
    byLabel.set(label, c);
  }
  const per = [...byLabel.values()];
  if (per.length === 0) return { p: [0, 0], f1: [0, 0], labels: 0 };
  const rnd = lcg(seed);
  const ps: number[] = [];
  const fs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const c = { tp: 0, fp: 0, fn: 0 };
    for (let j = 0; j < per.length; j++) {
      const x = per[Math.floor(rnd() * per.length)]!;
      c.tp += x.tp; c.fp += x.fp; c.fn += x.fn;
    }
    ps.push(c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp));
    fs.push(f1(c));
  }
  const at = (l: number[], q: number) => l.sort((a, b) => a - b)[Math.floor(reps * q)]!;
  return { p: [at(ps, 0.025), at(ps, 0.975)], f1: [at(fs, 0.025), at(fs, 0.975)], labels: per.length };
}

export interface TypeRow {
  type: string;
  sections: number;
  gold: number;
  counts: Counts;
  p: number; r: number; f1: number;
  pInterval: [number, number]; rInterval: [number, number]; f1Interval: [number, number];
  /** Intervals with whole labels resampled (labelBootstrap), and how many labels the row has. */
  byLabel: { p: [number, number]; f1: [number, number]; labels: number };
  /** Sections with gold codes that got none of them right. */
  lostAll: number;
  /** False codes per section without any gold code. */
  fpPerEmptySection: number;
}

export function scoreByType(runs: readonly SectionRun[], threshold: number): TypeRow[] {
  const types = [...new Set(runs.map((r) => r.sectionType))].sort();
  const groups: [string, SectionRun[]][] = [
    ...types.map((t): [string, SectionRun[]] => [t, runs.filter((r) => r.sectionType === t)]),
    ['other kinds (not adverse reactions / boxed)', runs.filter((r) => r.sectionType !== 'adverse_reactions' && r.sectionType !== 'boxed_warning')],
    ['all', [...runs]],
  ];
  return groups.map(([type, rs]) => {
    const c = count(rs, threshold);
    const empty = rs.filter((r) => r.gold.size === 0);
    return {
      type,
      sections: rs.length,
      gold: rs.reduce((n, r) => n + r.gold.size, 0),
      counts: c,
      p: c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp),
      r: c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn),
      f1: f1(c),
      pInterval: wilson(c.tp, c.tp + c.fp),
      rInterval: wilson(c.tp, c.tp + c.fn),
      f1Interval: bootstrapF1(rs, threshold),
      byLabel: labelBootstrap(rs, threshold),
      lostAll: rs.filter((r) => r.gold.size > 0 && count([r], threshold).tp === 0).length,
      fpPerEmptySection: empty.length === 0 ? 0 : count(empty, threshold).fp / empty.length,
    };
  });
}

export function formatTypeRows(rows: readonly TypeRow[]): string {
  const f = (x: number) => x.toFixed(3);
  const lines = [
    '| section type | sections | gold | tp / fp / fn | P [95%] | R [95%] | F1 [95%] | labels: P, F1 [95%, labels resampled] | lost all | FP per empty section |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.type} | ${r.sections} | ${r.gold} | ${r.counts.tp} / ${r.counts.fp} / ${r.counts.fn} | ${f(r.p)} [${f(r.pInterval[0])}, ${f(r.pInterval[1])}] | ${f(r.r)} [${f(r.rInterval[0])}, ${f(r.rInterval[1])}] | ${f(r.f1)} [${f(r.f1Interval[0])}, ${f(r.f1Interval[1])}] | ${r.byLabel.labels}: [${f(r.byLabel.p[0])}, ${f(r.byLabel.p[1])}], [${f(r.byLabel.f1[0])}, ${f(r.byLabel.f1[1])}] | ${r.lostAll} | ${r.fpPerEmptySection.toFixed(2)} |`,
    );
  return lines.join('\n');
}

/** Formatting variants of a section that must code the same as the original (issue 29, class 4). */
export const FORMAT_VARIANTS: Record<string, (text: string) => string> = {
  'lower-case': (t) => t.toLowerCase(),
  'upper-case': (t) => t.toUpperCase(),
  'list markers': (t) => t.split('\n').map((l) => `• ${l}`).join('\n'),
  'numbered list': (t) => t.split('\n').map((l, i) => `${i + 1}. ${l}`).join('\n'),
  'HTML remnants': (t) => `<div class="Section"><p>${t.split('\n').map((l) => l.replace(/&/g, '&amp;')).join('</p>\n<p>')}</p></div>`,
  'one line': (t) => t.replace(/\n/g, ' '),
};

/** Per variant: sections whose code set (at the threshold) equals the original's, and micro-F1 against gold. */
export function formatRobustness(sections: readonly LabelSection[], gold: Record<string, string[]>, codeOf: Map<string, number>, vocab: Vocabulary, threshold: number): { variant: string; same: number; total: number; f1: number }[] {
  const base = runSections(sections, gold, codeOf, vocab, 'text');
  const set = (r: SectionRun) => [...r.predicted].filter(([, c]) => c >= threshold).map(([p]) => p).sort((a, b) => a - b).join(',');
  const out = [{ variant: 'original', same: base.length, total: base.length, f1: f1(count(base, threshold)) }];
  for (const [name, fn] of Object.entries(FORMAT_VARIANTS)) {
    const runs = runSections(sections.map((s) => ({ ...s, text: fn(s.text) })), gold, codeOf, vocab, 'text');
    out.push({ variant: name, same: runs.filter((r, i) => set(r) === set(base[i]!)).length, total: runs.length, f1: f1(count(runs, threshold)) });
  }
  return out;
}

/** The eight labels of the development data (rounds 5-6: each is a fold of a leave-one-label-out comparison). */
export const DRUGS = ['humira', 'lipitor', 'veklury', 'viagra', 'haloperidol', 'dexamethasone', 'vyvanse', 'ambien'] as const;

/** Round 10's development labels (`--split dev10`): every set's, fresh7's included — sixty-five labels. */
export const DEV10_LABELS: readonly string[] = [...DRUGS, ...FRESH4_LABELS, ...FRESH5_LABELS, ...FRESH6_LABELS, ...FRESH7_LABELS];

/** Round 11's development labels (`--split dev11`): dev10's and fresh8's — eighty-four labels. */
export const DEV11_LABELS: readonly string[] = [...DEV10_LABELS, ...FRESH8_LABELS];

/** Round 12's development labels (`--split dev12`): dev11's and fresh9's — a hundred and five labels. */
export const DEV12_LABELS: readonly string[] = [...DEV11_LABELS, ...FRESH9_LABELS];

/** Round 13's development labels (`--split dev13`): dev12's and fresh10's — a hundred and twenty-five labels. */
export const DEV13_LABELS: readonly string[] = [...DEV12_LABELS, ...FRESH10_LABELS];

/** Round 14's development labels (`--split dev14`): dev13's and fresh11's — a hundred and forty-six labels. */
export const DEV14_LABELS: readonly string[] = [...DEV13_LABELS, ...FRESH11_LABELS];

/** Round 15's development labels (`--split dev15`): dev14's and fresh12's — a hundred and sixty-five labels. */
export const DEV15_LABELS: readonly string[] = [...DEV14_LABELS, ...FRESH12_LABELS];

/** The runs with some codes removed from gold and predictions alike (scoring as if the release had never had them). */
export function withoutCodes(runs: readonly SectionRun[], codes: ReadonlySet<number>): SectionRun[] {
  return runs.map((r) => ({ ...r, gold: new Set([...r.gold].filter((c) => !codes.has(c))), predicted: new Map([...r.predicted].filter(([c]) => !codes.has(c))) }));
}

/** Per label (drug): other kinds (not adverse reactions / boxed) and all sections. */
export function scoreByLabel(runs: readonly SectionRun[], threshold: number, drugs: readonly string[]): { drug: string; other: TypeRow; all: TypeRow }[] {
  const rows = (rs: SectionRun[]) => scoreByType(rs, threshold);
  const pick = (rs: TypeRow[], t: string) => rs.find((x) => x.type.startsWith(t))!;
  return [...drugs, 'all labels'].map((drug) => {
    const rs = rows(drug === 'all labels' ? [...runs] : runs.filter((r) => r.id.startsWith(`${drug}-`)));
    return { drug, other: pick(rs, 'other kinds'), all: pick(rs, 'all') };
  });
}

export function formatLabelRows(rows: ReturnType<typeof scoreByLabel>): string {
  const f = (x: number) => x.toFixed(3);
  const cell = (r: TypeRow) => `${r.counts.tp} / ${r.counts.fp} / ${r.counts.fn} | ${f(r.p)} | ${f(r.r)} | ${f(r.f1)} [${f(r.f1Interval[0])}, ${f(r.f1Interval[1])}]`;
  const lines = ['| label | other kinds: tp / fp / fn | P | R | F1 [95%] | all: tp / fp / fn | P | R | F1 [95%] |', '|---|---|---|---|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.drug} | ${cell(r.other)} | ${cell(r.all)} |`);
  return lines.join('\n');
}
