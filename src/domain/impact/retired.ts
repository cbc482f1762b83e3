// Recode suggestions for a retired code (absent from the target release), from the
// terminology's structure first, each stating its basis in its reason:
//   1. its PT in the target release (a retired LLT whose PT lives on): RECODE to that PT;
//   2. a current LLT of the same name elsewhere in the target release: RECODE to it;
//   3. a sibling under the same HLT (of its primary path) whose name is close: REVIEW;
// then text similarity over the whole release, only at or above TEXT_FLOOR (the service,
// which has the search engine: similarSuggestion); otherwise "no good match", naming the HLT to
// look under. (The MedDRA history file records no successor code, and the importer keeps none.)
import { normalizeName } from '../text.ts';
import type { ReleaseIndex } from '../releaseIndex/releaseIndex.ts';
import type { CodeState, Suggestion } from './analyse.ts';
import { indexExtras, nameSimilarity } from './analyse.ts';

/** Whole-name trigram similarity a text match must reach to be suggested at all. */
export const TEXT_FLOOR = 0.55;
/** A sibling PT under the same HLT is suggested from this similarity (the structure vouches for the rest). */
export const SIBLING_FLOOR = 0.3;

const PT_LEVEL = 3;

export function structuralSuggestion(to: ReleaseIndex, toVersion: string, before: CodeState, code: number, recorded: string | null): Suggestion | null {
  // 1. A retired LLT whose PT is still there.
  if (before.level === 'LLT' && before.pt && Number(before.pt.code) !== code) {
    const i = to.find('PT', Number(before.pt.code));
    if (i >= 0) {
      return {
        action: 'RECODE',
        code: before.pt.code,
        term: to.name[i]!,
        level: 'LLT',
        reason: `Basis: its PT. The LLT is gone, its PT ${before.pt.code} '${to.name[i]}' is in release ${toVersion}: code to the PT's own LLT.`,
      };
    }
  }
  // 2. The same name as a current LLT elsewhere.
  const names = [recorded, before.term].filter((s): s is string => !!s).map(normalizeName);
  const { currentLltByName } = indexExtras(to);
  for (const n of names) {
    const i = currentLltByName.get(n);
    if (i !== undefined) {
      const pt = to.ptCode[i]!;
      const ptName = to.name[to.find('PT', pt)] ?? '';
      return {
        action: 'RECODE',
        code: String(to.code[i]),
        term: to.name[i]!,
        level: 'LLT',
        reason: `Basis: same name. '${to.name[i]}' is a current LLT of PT ${pt} '${ptName}' in release ${toVersion} (code ${to.code[i]}).`,
      };
    }
  }
  // 3. A close sibling under the same HLT.
  if (before.hlt && to.find('HLT', Number(before.hlt.code)) >= 0) {
    let best: { code: number; name: string; sim: number } | undefined;
    for (const item of to.children('HLT', Number(before.hlt.code))) {
      const c = item.concept;
      if (c.code === code || to.level[to.find('PT', c.code)] !== PT_LEVEL) continue;
      const sim = Math.max(...names.map((n) => nameSimilarity(n, normalizeName(c.name))));
      if (!best || sim > best.sim) best = { code: c.code, name: c.name, sim };
    }
    if (best && best.sim >= SIBLING_FLOOR) {
      return {
        action: 'REVIEW',
        code: String(best.code),
        term: best.name,
        level: 'LLT',
        reason: `Basis: sibling under the same HLT ${before.hlt.code} '${before.hlt.term}'. Its closest PT there is ${best.code} '${best.name}' (name similarity ${best.sim.toFixed(2)}): review.`,
      };
    }
  }
  return null;
}

/** No structural or textual candidate: say so, and where to look. */
export function noGoodMatch(toVersion: string, before: CodeState, to: ReleaseIndex, best?: { term: string; similarity: number }): Suggestion {
  const hlt = before.hlt && to.find('HLT', Number(before.hlt.code)) >= 0 ? ` Look under HLT ${before.hlt.code} '${before.hlt.term}'.` : '';
  const closest = best ? ` (the closest name, '${best.term}', has similarity ${best.similarity.toFixed(2)}, below ${TEXT_FLOOR})` : '';
  return { action: 'REVIEW', code: null, term: null, level: null, reason: `No good match in release ${toVersion}${closest}: code the case again.${hlt}` };
}
