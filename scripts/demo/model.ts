// In-memory form of one demo release. The HLT -> HLGT -> SOC tree is fixed (see
// hierarchy.ts); a release holds its terms and its HLT -> PT links, and the
// files (soc_hlgt, hlgt_hlt, mdhier ...) are derived from them.

export interface Pt {
  code: number;
  name: string;
  /** Primary SOC. */
  socCode: number;
}

export interface Llt {
  code: number;
  name: string;
  ptCode: number;
  current: boolean;
}

export interface Grade {
  code: number;
  /** Grade 1-5 texts, '' where CTCAE has '-' or nothing. */
  grades: [string, string, string, string, string];
  definition: string;
}

export interface Release {
  version: string;
  releaseDate: string;
  dir: string;
  /** CTCAE this release derives from, for the README. */
  source: string;
  socCodes: Set<number>;
  pts: Map<number, Pt>;
  llts: Map<number, Llt>;
  /** PT code -> HLT codes (primary and secondary). */
  hltsOfPt: Map<number, Set<number>>;
  grades: Map<number, Grade>;
}

export function cloneRelease(r: Release, meta: Pick<Release, 'version' | 'releaseDate' | 'dir' | 'source'>): Release {
  return {
    ...meta,
    socCodes: new Set(r.socCodes),
    pts: new Map([...r.pts].map(([k, v]) => [k, { ...v }])),
    llts: new Map([...r.llts].map(([k, v]) => [k, { ...v }])),
    hltsOfPt: new Map([...r.hltsOfPt].map(([k, v]) => [k, new Set(v)])),
    grades: new Map([...r.grades].map(([k, v]) => [k, { ...v, grades: [...v.grades] }])),
  };
}

export function link(r: Release, hltCode: number, ptCode: number): void {
  let s = r.hltsOfPt.get(ptCode);
  if (!s) r.hltsOfPt.set(ptCode, (s = new Set()));
  s.add(hltCode);
}
