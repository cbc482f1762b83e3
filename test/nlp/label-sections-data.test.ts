// The issue-29 development data (data/label-sections): every chunk sourced, typed and in exactly one part
// of the one split (stratified by type, ~60/40), its gold annotated, nothing invented outside the sources.
import { describe, expect, it } from 'vitest';
import { FRESH2_DIR, FRESH3_DIR, FRESH4_DIR, FRESH4_LABELS, FRESH5_DIR, FRESH5_LABELS, FRESH6_DIR, FRESH6_LABELS, FRESH7_DIR, FRESH7_LABELS, FRESH8_DIR, FRESH8_LABELS, FRESH9_DIR, FRESH9_LABELS, FRESH10_DIR, FRESH10_LABELS, FRESH11_DIR, FRESH11_LABELS, FRESH12_DIR, FRESH12_LABELS, FRESH_DIR, DEV10_LABELS, DEV11_LABELS, DEV12_LABELS, DEV13_LABELS, DEV14_LABELS, DEV15_LABELS, readSections, type LabelSection } from '../../tools/eval/sections.ts';
import { SECTION_TYPES } from '../../src/nlp/index.ts';

describe('data/label-sections', () => {
  const { sections, gold } = readSections();

  it('has at least 150 sourced, typed sections with unique ids, each annotated', () => {
    expect(sections.length).toBeGreaterThanOrEqual(150);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    for (const s of sections) {
      expect(SECTION_TYPES as readonly string[], s.id).toContain(s.sectionType);
      expect(s.text.trim().length, s.id).toBeGreaterThan(0);
      expect(s.source, s.id).toMatchObject({ repo: expect.any(String), path: expect.any(String), commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(Array.isArray(gold[s.id]), s.id).toBe(true);
    }
    expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
  });

  it('is split once, stratified by section type: about 60 % development in every type', () => {
    for (const type of new Set(sections.map((s) => s.sectionType))) {
      const of = sections.filter((s) => s.sectionType === type);
      const dev = of.filter((s) => s.split === 'dev').length;
      expect(Math.abs(dev - of.length * 0.6), type).toBeLessThanOrEqual(1.5);
    }
    expect(sections.every((s) => s.split === 'dev' || s.split === 'heldout')).toBe(true);
  });
});

describe('data/label-sections-fresh (round 3 held-out set)', () => {
  const { sections, gold } = readSections(FRESH_DIR);
  const old = readSections();

  it('has at least 60 sourced sections of the other types, each annotated, from labels not used before', () => {
    expect(sections.length).toBeGreaterThanOrEqual(60);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    for (const s of sections) {
      expect(s.split, s.id).toBe('fresh');
      expect(['warnings_precautions', 'specific_populations', 'overdosage', 'clinical_studies'], s.id).toContain(s.sectionType);
      expect(s.source, s.id).toMatchObject({ repo: expect.any(String), path: expect.any(String), commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(Array.isArray(gold[s.id]), s.id).toBe(true);
    }
    expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
    const oldPaths = new Set(old.sections.map((s) => String(s.source.path)));
    for (const s of sections) expect(oldPaths.has(String(s.source.path)), s.id).toBe(false);
    const oldTexts = new Set(old.sections.map((s) => s.text));
    for (const s of sections) expect(oldTexts.has(s.text), s.id).toBe(false);
  });
});

describe('data/label-sections-fresh2 (round 4 held-out set)', () => {
  const { sections, gold } = readSections(FRESH2_DIR);
  const earlier = [readSections(), readSections(FRESH_DIR)];

  it('is sourced, typed and annotated, from a label no earlier set used', () => {
    expect(sections.length).toBeGreaterThanOrEqual(40);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    for (const s of sections) {
      expect(s.split, s.id).toBe('fresh2');
      expect(SECTION_TYPES as readonly string[], s.id).toContain(s.sectionType);
      expect(s.source, s.id).toMatchObject({ document: expect.stringContaining('9ce1b515-8804-4e81-92f0-1e66ad327ee6'), section: expect.any(String) });
      expect(Array.isArray(gold[s.id]), s.id).toBe(true);
    }
    expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
    // Every section type the issue names that the label has: warnings, populations, overdosage, adverse reactions.
    for (const type of ['warnings_precautions', 'specific_populations', 'overdosage', 'adverse_reactions', 'indications'])
      expect(sections.some((s) => s.sectionType === type), type).toBe(true);
    const drugs = new Set(earlier.flatMap((e) => e.sections.map((s) => s.id.split('-')[0])));
    for (const s of sections) expect(drugs.has(s.id.split('-')[0]), s.id).toBe(false);
    const texts = new Set(earlier.flatMap((e) => e.sections.map((s) => s.text)));
    for (const s of sections) expect(texts.has(s.text), s.id).toBe(false);
  });
});

describe('data/label-sections-fresh3 (round 5 held-out set)', () => {
  const { sections, gold } = readSections(FRESH3_DIR);
  const earlier = [readSections(), readSections(FRESH_DIR), readSections(FRESH2_DIR)];

  it('is sourced, typed and annotated, from two labels no earlier set used, with every section type of the issue', () => {
    expect(sections.length).toBeGreaterThanOrEqual(60);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    for (const s of sections) {
      expect(s.split, s.id).toBe('fresh3');
      expect(SECTION_TYPES as readonly string[], s.id).toContain(s.sectionType);
      expect(s.text.length, s.id).toBeGreaterThanOrEqual(60);
      expect(s.text.length, s.id).toBeLessThanOrEqual(900);
      expect(s.source, s.id).toMatchObject({ repo: 'TFlowGit/tf-ads-bpa', path: expect.stringMatching(/resources\/(vyvanse|ambien)\.json$/), commit: expect.stringMatching(/^[0-9a-f]{40}$/), document: expect.stringContaining('SPL set') });
      expect(Array.isArray(gold[s.id]), s.id).toBe(true);
      for (const name of gold[s.id]!) expect(name.trim().length, s.id).toBeGreaterThan(0);
    }
    expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
    for (const type of ['warnings_precautions', 'specific_populations', 'overdosage', 'clinical_studies', 'indications', 'boxed_warning', 'adverse_reactions'])
      expect(sections.some((s) => s.sectionType === type), type).toBe(true);
    expect(new Set(sections.map((s) => s.id.split('-')[0]))).toEqual(new Set(['vyvanse', 'ambien']));
    const drugs = new Set(earlier.flatMap((e) => e.sections.map((s) => s.id.split('-')[0])));
    for (const s of sections) expect(drugs.has(s.id.split('-')[0]), s.id).toBe(false);
    const texts = new Set(earlier.flatMap((e) => e.sections.map((s) => s.text)));
    for (const s of sections) expect(texts.has(s.text), s.id).toBe(false);
  });
});

describe('data/label-sections-fresh4 (round 6 held-out set, annotated blind)', () => {
  const { sections, gold } = readSections(FRESH4_DIR);
  const earlier = [readSections(), readSections(FRESH_DIR), readSections(FRESH2_DIR), readSections(FRESH3_DIR)];
  const SOURCES = ['RohitKulkarni02/Medication-Instruction-Simplifier', 'YinTingyu/openfda-drug-label-extractor', 'angeloziletti/nlp-cas-dsmh'];

  it('is sourced, typed and annotated, from labels no earlier set used, with every section type of the issue', () => {
    expect(sections.length).toBeGreaterThanOrEqual(100);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    for (const s of sections) {
      expect(s.split, s.id).toBe('fresh4');
      expect(SECTION_TYPES as readonly string[], s.id).toContain(s.sectionType);
      expect(s.text.length, s.id).toBeGreaterThanOrEqual(60);
      expect(s.text.length, s.id).toBeLessThanOrEqual(900);
      expect(SOURCES, s.id).toContain((s.source as { repo: string }).repo);
      expect(s.source, s.id).toMatchObject({ path: expect.stringMatching(/\.json$/), commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(Array.isArray(gold[s.id]), s.id).toBe(true);
      for (const name of gold[s.id]!) expect(name.trim().length, s.id).toBeGreaterThan(0);
    }
    expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
    for (const type of ['warnings_precautions', 'specific_populations', 'overdosage', 'clinical_studies', 'indications', 'boxed_warning', 'adverse_reactions'])
      expect(sections.some((s) => s.sectionType === type), type).toBe(true);
    expect(new Set(sections.map((s) => s.id.split('-')[0]))).toEqual(new Set(FRESH4_LABELS));
    const drugs = new Set(earlier.flatMap((e) => e.sections.map((s) => s.id.split('-')[0])));
    for (const s of sections) expect(drugs.has(s.id.split('-')[0]), s.id).toBe(false);
    const texts = new Set(earlier.flatMap((e) => e.sections.map((s) => s.text)));
    for (const s of sections) expect(texts.has(s.text), s.id).toBe(false);
  });
});

describe('data/label-sections-fresh5 (round 7 held-out set, annotated blind)', () => {
  const { sections, gold } = readSections(FRESH5_DIR);
  const earlier = [readSections(), readSections(FRESH_DIR), readSections(FRESH2_DIR), readSections(FRESH3_DIR), readSections(FRESH4_DIR)];
  const SOURCES = ['pragyan1995/fda-drug-label-rag', 'angeloziletti/nlp-cas-dsmh'];

  it('is sourced, typed and annotated, from labels no earlier set used, with every section type of the issue', () => {
    expect(sections.length).toBeGreaterThanOrEqual(100);
    expect(sections.filter((s) => s.sectionType !== 'adverse_reactions').length).toBeGreaterThanOrEqual(70);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    for (const s of sections) {
      expect(s.split, s.id).toBe('fresh5');
      expect(SECTION_TYPES as readonly string[], s.id).toContain(s.sectionType);
      expect(s.text.length, s.id).toBeGreaterThanOrEqual(60);
      expect(s.text.length, s.id).toBeLessThanOrEqual(900);
      expect(SOURCES, s.id).toContain((s.source as { repo: string }).repo);
      expect(s.source, s.id).toMatchObject({ path: expect.stringMatching(/\.(json|xml)$/), commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(Array.isArray(gold[s.id]), s.id).toBe(true);
      for (const name of gold[s.id]!) expect(name.trim().length, s.id).toBeGreaterThan(0);
    }
    expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
    for (const type of ['warnings_precautions', 'specific_populations', 'overdosage', 'clinical_studies', 'indications', 'boxed_warning', 'adverse_reactions'])
      expect(sections.some((s) => s.sectionType === type), type).toBe(true);
    expect(new Set(sections.map((s) => s.id.split('-')[0]))).toEqual(new Set(FRESH5_LABELS));
    const drugs = new Set(earlier.flatMap((e) => e.sections.map((s) => s.id.split('-')[0])));
    for (const s of sections) expect(drugs.has(s.id.split('-')[0]), s.id).toBe(false);
    const texts = new Set(earlier.flatMap((e) => e.sections.map((s) => s.text)));
    for (const s of sections) expect(texts.has(s.text), s.id).toBe(false);
  });
});

describe('data/label-sections-fresh6 (round 8 held-out set, annotated blind)', () => {
  const { sections, gold } = readSections(FRESH6_DIR);
  const earlier = [readSections(), readSections(FRESH_DIR), readSections(FRESH2_DIR), readSections(FRESH3_DIR), readSections(FRESH4_DIR), readSections(FRESH5_DIR)];
  const REPOS = ['mconnor/nextjs-solosec', 'jmponcebe/PharmaGraphRAG'];

  it('is sourced (a repository at a commit, or a stored public page), typed and annotated, from labels no earlier set used', () => {
    expect(sections.length).toBeGreaterThanOrEqual(150);
    expect(sections.filter((s) => s.sectionType !== 'adverse_reactions').length).toBeGreaterThanOrEqual(100);
    expect(sections.filter((s) => s.sectionType === 'specific_populations').length).toBeGreaterThanOrEqual(25);
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    for (const s of sections) {
      expect(s.split, s.id).toBe('fresh6');
      expect(SECTION_TYPES as readonly string[], s.id).toContain(s.sectionType);
      expect(s.text.length, s.id).toBeGreaterThanOrEqual(60);
      expect(s.text.length, s.id).toBeLessThanOrEqual(900);
      const source = s.source as { repo?: string; url?: string };
      if (source.repo !== undefined) {
        expect(REPOS, s.id).toContain(source.repo);
        expect(s.source, s.id).toMatchObject({ path: expect.any(String), commit: expect.stringMatching(/^[0-9a-f]{7,40}$/) });
      } else expect(source.url, s.id).toMatch(/^https?:\/\//);
      expect(Array.isArray(gold[s.id]), s.id).toBe(true);
      for (const name of gold[s.id]!) expect(name.trim().length, s.id).toBeGreaterThan(0);
    }
    expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
    for (const type of ['warnings_precautions', 'specific_populations', 'overdosage', 'clinical_studies', 'indications', 'boxed_warning', 'adverse_reactions', 'other'])
      expect(sections.some((s) => s.sectionType === type), type).toBe(true);
    expect(new Set(sections.map((s) => s.id.split('-')[0]))).toEqual(new Set(FRESH6_LABELS));
    const drugs = new Set(earlier.flatMap((e) => e.sections.map((s) => s.id.split('-')[0])));
    for (const s of sections) expect(drugs.has(s.id.split('-')[0]), s.id).toBe(false);
    const texts = new Set(earlier.flatMap((e) => e.sections.map((s) => s.text)));
    for (const s of sections) expect(texts.has(s.text), s.id).toBe(false);
  });
});

// The held-out sets built to a fixed mix of section kinds (fresh7 to fresh12) are checked alike: each README names its
// mix, its labels and its sources, and these checks hold the files to it.
interface HeldOutSet {
  /** The split name every chunk carries. */
  split: LabelSection['split'];
  /** The sets built before it: its labels and chunk texts must be new to all of them. */
  earlier: (string | undefined)[];
  /** Its labels (chunk ids start with them). */
  labels: readonly string[];
  minSections: number;
  /** The mix it was built to: chunks per section kind, each within ±20 %, so sets built to one mix compare kind by kind. */
  mix: Record<string, number>;
  /** The one repository its openFDA fields come from, at the commit they were read at (file data/demo/dailymed/<label>.json). */
  repo?: { repo: string; commit: string };
}

function describeHeldOutSet(dir: string, title: string, set: HeldOutSet): void {
  describe(title, () => {
    const { sections, gold } = readSections(dir);
    const earlier = set.earlier.map((d) => readSections(d));

    it('is sourced (a stored public page, or an openFDA field in a repository at a commit), typed to its mix, from its labels', () => {
      expect(sections.length).toBeGreaterThanOrEqual(set.minSections);
      expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
      for (const s of sections) {
        expect(s.split, s.id).toBe(set.split);
        expect(SECTION_TYPES as readonly string[], s.id).toContain(s.sectionType);
        expect(s.text.length, s.id).toBeGreaterThanOrEqual(60);
        expect(s.text.length, s.id).toBeLessThanOrEqual(900);
        const source = s.source as { url?: string; repo?: string; path?: string };
        expect(source.url, s.id).toMatch(/^https?:\/\//);
        if (source.repo !== undefined) {
          expect(set.repo, s.id).toBeDefined();
          expect(s.source, s.id).toMatchObject(set.repo!);
          expect(source.path, s.id).toBe(`data/demo/dailymed/${s.id.split('-')[0]}.json`);
        }
      }
      for (const [type, target] of Object.entries(set.mix)) {
        const of = sections.filter((s) => s.sectionType === type);
        expect(of.length, type).toBeGreaterThanOrEqual(Math.floor(target * 0.8));
        expect(of.length, type).toBeLessThanOrEqual(Math.ceil(target * 1.2));
      }
      expect(new Set(sections.map((s) => s.id.split('-')[0]))).toEqual(new Set(set.labels));
      expect(set.labels.length).toBeGreaterThanOrEqual(18);
    });

    it('shares no label and no chunk text with an earlier set, and repeats no text of its own', () => {
      const drugs = new Set(earlier.flatMap((e) => e.sections.map((s) => s.id.split('-')[0])));
      for (const s of sections) expect(drugs.has(s.id.split('-')[0]), s.id).toBe(false);
      const texts = new Set(earlier.flatMap((e) => e.sections.map((s) => s.text)));
      for (const s of sections) expect(texts.has(s.text), s.id).toBe(false);
      expect(new Set(sections.map((s) => s.text)).size).toBe(sections.length);
    });

    it('has valid gold: one list per chunk of distinct, trimmed, capitalised names, and none where every code is false', () => {
      expect(Object.keys(gold).sort()).toEqual(sections.map((s) => s.id).sort());
      for (const s of sections) {
        const names = gold[s.id];
        expect(Array.isArray(names), s.id).toBe(true);
        expect(new Set(names).size, s.id).toBe(names!.length);
        for (const name of names!) {
          expect(name, s.id).toBe(name.trim());
          // A MedDRA PT name: starts with a capital letter or digit, no line breaks.
          expect(name, s.id).toMatch(/^[A-Z0-9][^\n]*$/);
        }
      }
      // Overdosage and clinical-studies chunks state no adverse event of the drug (each README: every code there is false).
      for (const s of sections.filter((x) => x.sectionType === 'overdosage' || x.sectionType === 'clinical_studies')) expect(gold[s.id], s.id).toEqual([]);
      // The set has gold to score: most warnings and adverse-reactions chunks name an event.
      const named = sections.filter((s) => (s.sectionType === 'warnings_precautions' || s.sectionType === 'adverse_reactions') && gold[s.id]!.length > 0);
      expect(named.length).toBeGreaterThanOrEqual(50);
    });
  });
}

const BEFORE_FRESH7 = [undefined, FRESH_DIR, FRESH2_DIR, FRESH3_DIR, FRESH4_DIR, FRESH5_DIR, FRESH6_DIR];
// fresh7's mix, which fresh8 was built to as well.
const MIX7 = { specific_populations: 40, warnings_precautions: 40, other: 30, overdosage: 15, clinical_studies: 15, boxed_warning: 10, adverse_reactions: 10 };
// The openFDA fields of fresh8 to fresh11, read at one commit of one repository.
const PHARMAGRAPHRAG = { repo: 'jmponcebe/PharmaGraphRAG', commit: '5dd363e2f243f5f2598ba4243ab6fcdfbc357151' };

describeHeldOutSet(FRESH7_DIR, 'data/label-sections-fresh7 (round 9 held-out set, annotated blind to a fixed mix of section kinds)', {
  split: 'fresh7', earlier: BEFORE_FRESH7, labels: FRESH7_LABELS, minSections: 160, mix: MIX7,
});

describeHeldOutSet(FRESH8_DIR, 'data/label-sections-fresh8 (round 10 held-out set, annotated blind to fresh7\'s mix of section kinds; development data from round 11)', {
  split: 'fresh8', earlier: [...BEFORE_FRESH7, FRESH7_DIR], labels: FRESH8_LABELS, minSections: 160, mix: MIX7, repo: PHARMAGRAPHRAG,
});

describeHeldOutSet(FRESH9_DIR, 'data/label-sections-fresh9 (round 11 held-out set, annotated blind to fresh7 and fresh8\'s mix of section kinds; development data from round 12)', {
  split: 'fresh9', earlier: [...BEFORE_FRESH7, FRESH7_DIR, FRESH8_DIR], labels: FRESH9_LABELS, minSections: 160, repo: PHARMAGRAPHRAG,
  // The brief's mix (data/label-sections-fresh9/README.md).
  mix: { specific_populations: 40, warnings_precautions: 45, other: 32, overdosage: 16, clinical_studies: 15, boxed_warning: 10, adverse_reactions: 12 },
});

describeHeldOutSet(FRESH10_DIR, 'data/label-sections-fresh10 (the tenth held-out set, annotated blind to the brief\'s mix of section kinds)', {
  split: 'fresh10', earlier: [...BEFORE_FRESH7, FRESH7_DIR, FRESH8_DIR, FRESH9_DIR], labels: FRESH10_LABELS, minSections: 150, repo: PHARMAGRAPHRAG,
  // The brief's mix (data/label-sections-fresh10/README.md).
  mix: { specific_populations: 35, warnings_precautions: 50, other: 30, overdosage: 15, clinical_studies: 13, boxed_warning: 9, adverse_reactions: 13 },
});

describeHeldOutSet(FRESH11_DIR, 'data/label-sections-fresh11 (the eleventh held-out set, annotated blind to the brief\'s mix of section kinds)', {
  split: 'fresh11', earlier: [...BEFORE_FRESH7, FRESH7_DIR, FRESH8_DIR, FRESH9_DIR, FRESH10_DIR], labels: FRESH11_LABELS, minSections: 150, repo: PHARMAGRAPHRAG,
  // The brief's mix (data/label-sections-fresh11/README.md).
  mix: { specific_populations: 35, warnings_precautions: 50, other: 30, overdosage: 15, clinical_studies: 13, boxed_warning: 9, adverse_reactions: 13 },
});

describeHeldOutSet(FRESH12_DIR, 'data/label-sections-fresh12 (the twelfth held-out set, annotated blind to the brief\'s mix of section kinds)', {
  split: 'fresh12', earlier: [...BEFORE_FRESH7, FRESH7_DIR, FRESH8_DIR, FRESH9_DIR, FRESH10_DIR, FRESH11_DIR], labels: FRESH12_LABELS, minSections: 150, repo: PHARMAGRAPHRAG,
  // The brief's mix for this set (data/label-sections-fresh12/README.md).
  mix: { specific_populations: 30, warnings_precautions: 50, other: 30, overdosage: 15, clinical_studies: 12, boxed_warning: 9, adverse_reactions: 13 },
});

describe('development labels of rounds 10 to 15 (--split dev10 … dev15)', () => {
  const dirs = [undefined, FRESH_DIR, FRESH2_DIR, FRESH3_DIR, FRESH4_DIR, FRESH5_DIR, FRESH6_DIR, FRESH7_DIR];
  const labelsOf = (ds: (string | undefined)[]) => new Set(ds.flatMap((d) => readSections(d).sections.map((s) => s.id.split('-')[0]!)));

  it('dev11 is dev10 and fresh8: every label of their chunks once, and no other', () => {
    expect(new Set(DEV10_LABELS)).toEqual(labelsOf(dirs));
    expect(DEV11_LABELS).toEqual([...DEV10_LABELS, ...FRESH8_LABELS]);
    expect(new Set(DEV11_LABELS).size).toBe(DEV11_LABELS.length);
    expect(new Set(DEV11_LABELS)).toEqual(labelsOf([...dirs, FRESH8_DIR]));
    expect(DEV11_LABELS.length).toBe(84);
  });

  it('dev12 is dev11 and fresh9: every label of their chunks once, and no other', () => {
    expect(DEV12_LABELS).toEqual([...DEV11_LABELS, ...FRESH9_LABELS]);
    expect(new Set(DEV12_LABELS).size).toBe(DEV12_LABELS.length);
    expect(new Set(DEV12_LABELS)).toEqual(labelsOf([...dirs, FRESH8_DIR, FRESH9_DIR]));
    expect(DEV12_LABELS.length).toBe(105);
  });

  it('dev13 is dev12 and fresh10: every label of their chunks once, and no other', () => {
    expect(DEV13_LABELS).toEqual([...DEV12_LABELS, ...FRESH10_LABELS]);
    expect(new Set(DEV13_LABELS).size).toBe(DEV13_LABELS.length);
    expect(new Set(DEV13_LABELS)).toEqual(labelsOf([...dirs, FRESH8_DIR, FRESH9_DIR, FRESH10_DIR]));
    expect(DEV13_LABELS.length).toBe(125);
  });

  it('dev14 is dev13 and fresh11: every label of their chunks once, and no other', () => {
    expect(DEV14_LABELS).toEqual([...DEV13_LABELS, ...FRESH11_LABELS]);
    expect(new Set(DEV14_LABELS).size).toBe(DEV14_LABELS.length);
    expect(new Set(DEV14_LABELS)).toEqual(labelsOf([...dirs, FRESH8_DIR, FRESH9_DIR, FRESH10_DIR, FRESH11_DIR]));
    expect(DEV14_LABELS.length).toBe(146);
  });

  it('dev15 is dev14 and fresh12: every label of their chunks once, and no other', () => {
    expect(DEV15_LABELS).toEqual([...DEV14_LABELS, ...FRESH12_LABELS]);
    expect(new Set(DEV15_LABELS).size).toBe(DEV15_LABELS.length);
    expect(new Set(DEV15_LABELS)).toEqual(labelsOf([...dirs, FRESH8_DIR, FRESH9_DIR, FRESH10_DIR, FRESH11_DIR, FRESH12_DIR]));
    expect(DEV15_LABELS.length).toBe(165);
  });
});
