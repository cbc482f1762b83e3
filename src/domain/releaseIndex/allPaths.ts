// Every path of a concept up to a SOC, primary first (exactly one primary): one derivation for the
// release's own index (releaseIndex.ts) and for a view over base + overlay (overlayView.ts), each
// giving it the lookups over its own storage.
import type { Level } from '../levels.ts';

export type PathNodes = { isPrimary: boolean; nodes: { level: Level; code: number }[] };
type Row = { soc: number; hlgt: number | null; hlt: number | null; pt: number | null; isPrimary: boolean };

/** What the derivation reads of an index: entries by handle, as that index numbers them (negative: absent). */
export interface PathSource {
  find(level: Level, code: number): number;
  /** The PT code of an LLT entry (NONE-valued when it has none). */
  ptCodeOf(entry: number): number;
  /** A PT's stored paths above it (SOC, HLGT, HLT). */
  ptPaths(pt: number): { soc: number; hlgt: number | null; hlt: number | null; isPrimary: boolean }[];
  /** An HLT's or HLGT's links up, each with whether it is the primary one. */
  ups(entry: number): { i: number; p: boolean }[];
  codeAt(entry: number): number;
}

export function allPathsOf(src: PathSource, level: Level, code: number, none: number): PathNodes[] {
  let raw: Row[] = [];
  const self = src.find(level, code);
  if (level === 'SOC') raw = [{ soc: code, hlgt: null, hlt: null, pt: null, isPrimary: true }];
  else if (level === 'PT' || level === 'LLT') {
    const pt = level === 'PT' ? code : self < 0 ? none : src.ptCodeOf(self);
    if (pt !== none) raw = src.ptPaths(pt).map((p) => ({ ...p, pt }));
  } else if (self >= 0) {
    // HLT: each HLGT link times that HLGT's SOC links; HLGT: its SOC links.
    if (level === 'HLGT') raw = src.ups(self).map((s) => ({ soc: src.codeAt(s.i), hlgt: code, hlt: null, pt: null, isPrimary: s.p }));
    else {
      for (const g of src.ups(self)) {
        for (const s of src.ups(g.i)) raw.push({ soc: src.codeAt(s.i), hlgt: src.codeAt(g.i), hlt: code, pt: null, isPrimary: g.p && s.p });
      }
    }
    raw.sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || a.soc - b.soc || (a.hlgt ?? 0) - (b.hlgt ?? 0));
  }
  const out: PathNodes[] = [];
  for (const r of raw) {
    const nodes: { level: Level; code: number }[] = [{ level: 'SOC', code: r.soc }];
    if (r.hlgt !== null) nodes.push({ level: 'HLGT', code: r.hlgt });
    if (r.hlt !== null) nodes.push({ level: 'HLT', code: r.hlt });
    if (r.pt !== null) nodes.push({ level: 'PT', code: r.pt });
    if (level === 'LLT') nodes.push({ level, code });
    out.push({ isPrimary: r.isPrimary && !out.some((p) => p.isPrimary), nodes });
  }
  return out;
}
