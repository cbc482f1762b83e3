// A release's language snapshot moved onto the new newest's (snapshotChain.ts's rebaseLanguages)
// from what is stored, without loading its primary index or building its language index (issue 32:
// the import's index phase independent of the number of releases). A language delta holds, per
// entry, the base entry of its (level, code), the names that are not that entry's, and every name
// rank (snapshotDelta.ts): the entries' (level, code) come from the release's primary delta over
// the new newest, its names from its stored language snapshot (whole, or a delta over another
// release's whole one), so the delta is the one languageDeltaOf() writes from the loaded index, byte for byte.
import { LEVELS } from '../levels.ts';
import { bit, type IndexOverlay } from './overlay.ts';
import type { ReleaseIndex } from './releaseIndex.ts';
import type { DeltaBase, LanguageDelta } from './snapshotDelta.ts';

export interface LanguageNames {
  name: string[];
  norm: string[];
  nameRank: Int32Array;
}

/**
 * Per entry of the release whose primary snapshot is overlay `o` over `top`: top's entry of its
 * (level, code), or -1; undefined when `o` is not over `top` or does not fit it.
 */
export function entriesInTop(o: IndexOverlay, top: ReleaseIndex): Int32Array | undefined {
  if (o.baseReleaseId !== top.releaseId || o.masked.length !== (top.size + 7) >> 3) return undefined;
  const out = new Int32Array(o.size);
  let j = 0;
  let k = 0;
  for (let i = 0; i < o.size; i++) {
    if (k < o.at.length && o.at[k] === i) {
      out[i] = top.find(LEVELS[o.own.level[k]!]!, o.own.code[k]!);
      k++;
      continue;
    }
    while (j < top.size && bit(o.masked, j)) j++;
    if (j >= top.size) return undefined;
    out[i] = j++;
  }
  return k === o.at.length ? out : undefined;
}

/** A release's names in a language from its language delta over `base`'s names (as a load gives them). */
export function namesOfDelta(d: LanguageDelta, base: { name: string[]; norm: string[] }): LanguageNames | undefined {
  const n = d.fromBase.length;
  const name = new Array<string>(n);
  const norm = new Array<string>(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (k < d.at.length && d.at[k] === i) {
      name[i] = d.name[k]!;
      norm[i] = d.norm[k++]!;
      continue;
    }
    const j = d.fromBase[i]!;
    if (j < 0 || j >= base.name.length) return undefined;
    name[i] = base.name[j]!;
    norm[i] = base.norm[j]!;
  }
  return k === d.at.length ? { name, norm, nameRank: d.nameRank } : undefined;
}

/** The language delta of a release's names over `top`'s (`fromTop`: entriesInTop()): those not top's entry's own, every rank. */
export function languageDeltaOnto(fromTop: Int32Array, own: LanguageNames, top: { name: string[]; norm: string[] }, base: DeltaBase): LanguageDelta {
  const at: number[] = [];
  for (let i = 0; i < fromTop.length; i++) {
    const j = fromTop[i]!;
    if (j < 0 || top.name[j] !== own.name[i] || top.norm[j] !== own.norm[i]) at.push(i);
  }
  return { base, fromBase: fromTop, at: Int32Array.from(at), name: at.map((i) => own.name[i]!), norm: at.map((i) => own.norm[i]!), nameRank: own.nameRank };
}
