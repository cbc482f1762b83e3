// "Is this concept under that node?" on a release index, exactly as underNodeSql
// (src/domain/hierarchyFilter.ts) answers it in SQL, for listings and search filters:
// a concept lies under a SOC/HLGT/HLT filter when one hierarchy_path row holds both the
// filter's node(s) and the concept (a PT: its pt_code; an LLT: its PT's; an HLT, HLGT or
// SOC: its own column), on any path, not only the primary; the llt filter selects the LLT
// and its PT. One pass over the release's PT paths (~40k rows at full size) per filter.
import { hasHierarchyFilter, type HierarchyFilter } from '../hierarchyFilter.ts';
import { LEVELS } from '../levels.ts';
import type { SearchableIndex } from './searchable.ts';

// Entry levels are positions in LEVELS.
const SOC = LEVELS.indexOf('SOC');
const HLGT = LEVELS.indexOf('HLGT');
const HLT = LEVELS.indexOf('HLT');
const PT = LEVELS.indexOf('PT');
const LLT = LEVELS.indexOf('LLT');

/** A test on index entries for the hierarchy filter; null when the filter sets no node. */
export function underNode(ix: SearchableIndex, f: HierarchyFilter): ((i: number) => boolean) | null {
  if (!hasHierarchyFilter(f)) return null;
  const byPath = f.soc !== undefined || f.hlgt !== undefined || f.hlt !== undefined;
  // Codes met on the path rows that pass the filter, per column.
  const codes = LEVELS.map(() => new Set<number>());
  if (byPath) {
    for (const { rows: p, skip } of ix.pathSegments()) for (let k = 0; k < p.pt.length; k++) {
      if (f.soc !== undefined && p.soc[k] !== f.soc) continue;
      if (f.hlgt !== undefined && p.hlgt[k] !== f.hlgt) continue;
      if (f.hlt !== undefined && p.hlt[k] !== f.hlt) continue;
      if (skip?.(p.pt[k]!)) continue;
      codes[SOC]!.add(p.soc[k]!);
      codes[HLGT]!.add(p.hlgt[k]!);
      codes[HLT]!.add(p.hlt[k]!);
      codes[PT]!.add(p.pt[k]!);
    }
  }
  // The llt filter: that LLT, and the PT its pt_code names (none when the LLT does not exist).
  let lltPt: number | undefined;
  if (f.llt !== undefined) {
    const l = ix.find('LLT', f.llt);
    lltPt = l < 0 ? undefined : (ix.concept(l).ptCode ?? undefined);
  }
  return (i) => {
    const lv = ix.levelAt(i);
    if (f.llt !== undefined && !((lv === LLT && ix.codeAt(i) === f.llt) || (lv === PT && ix.codeAt(i) === lltPt))) return false;
    if (!byPath) return true;
    // An LLT without a PT has the sentinel pt code, which no path holds.
    return lv === LLT ? codes[PT]!.has(ix.ptCodeAt(i)) : codes[lv]!.has(ix.codeAt(i));
  };
}
