// The issue-29 development data (data/label-sections): every chunk sourced, typed and in exactly one part
// of the one split (stratified by type, ~60/40), its gold annotated, nothing invented outside the sources.
import { describe, expect, it } from 'vitest';
import { FRESH_DIR, readSections } from '../../tools/eval/sections.ts';
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
