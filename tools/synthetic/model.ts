/**
 * In-memory model of a synthetic release, plus the mutable working state used while
 * generating one (freeze → immutable-ish arrays sorted by code; thaw → deep copy back).
 */
import type { Rng } from './prng.ts';
import { NameSet } from './names.ts';
import { FORBIDDEN_SOC_NAME_FRAGMENTS, THEMES, type Theme } from './words.ts';

export const CODE_MIN = 90_000_000;
export const CODE_MAX = 99_999_999;

export interface SynSoc {
  code: number;
  name: string;
  abbrev: string;
  /** Position in intl_ord.asc (1-based). */
  intlOrd: number;
  /** Index into THEMES (vocabulary used for this SOC's terms). */
  theme: number;
}
export interface SynHlgt {
  code: number;
  name: string;
}
export interface SynHlt {
  code: number;
  name: string;
}
export interface SynPt {
  code: number;
  name: string;
  /** Primary SOC (= SOC of the primary path). */
  socCode: number;
  /** Primary path: the HLT and HLGT it goes through. */
  primaryHltCode: number;
  primaryHlgtCode: number;
}
export interface SynLlt {
  code: number;
  name: string;
  ptCode: number;
  current: boolean;
}
/** One mdhier.asc row. */
export interface SynPath {
  ptCode: number;
  hltCode: number;
  hlgtCode: number;
  socCode: number;
  primary: boolean;
}
export interface SynSmq {
  code: number;
  name: string;
  level: number;
  description: string;
  source: string;
  note: string;
  /** MedDRA version the SMQ was last changed in. */
  version: string;
  status: 'A' | 'I';
  algorithm: string;
}
export interface SynSmqTerm {
  smqCode: number;
  termCode: number;
  /** 4 = PT, 5 = LLT, 0 = sub-SMQ */
  termLevel: 0 | 4 | 5;
  /** 1 broad, 2 narrow, 0 for sub-SMQ rows */
  scope: 0 | 1 | 2;
  category: string;
  weight: number;
  status: 'A' | 'I';
  addedVersion: string;
  modifiedVersion: string;
}

/** What changed relative to `fromVersion` (only on releases generated with changesFrom). */
export interface ReleaseChanges {
  fromVersion: string;
  toVersion: string;
  newHlts: number[];
  newPts: number[];
  /** All new LLT codes: own LLTs of new PTs, their further LLTs, and new LLTs on existing PTs. */
  newLlts: number[];
  /** New LLTs attached to PTs that already existed. */
  newLltsOnExistingPts: number[];
  renamedPts: { code: number; from: string; to: string }[];
  /** Renamed non-own LLTs (own LLTs of renamed PTs are not repeated here). */
  renamedLlts: { code: number; from: string; to: string }[];
  lltsMadeNonCurrent: number[];
  lltsMadeCurrent: number[];
  primarySocMoves: { pt: number; fromSoc: number; toSoc: number; newPath: boolean }[];
  linksAdded: { hlt: number; pt: number }[];
  linksRemoved: { hlt: number; pt: number }[];
  lltsMoved: { llt: number; fromPt: number; toPt: number }[];
  demotedPts: { code: number; toPt: number; movedLlts: number[] }[];
  promotedLlts: { code: number; fromPt: number; hlt: number }[];
  smqRowsChanged: number;
}

export interface SyntheticRelease {
  version: string;
  seed: number;
  scale: number;
  withSmq: boolean;
  socs: SynSoc[];
  hlgts: SynHlgt[];
  hlts: SynHlt[];
  pts: SynPt[];
  llts: SynLlt[];
  links: {
    socHlgt: [soc: number, hlgt: number][];
    hlgtHlt: [hlgt: number, hlt: number][];
    hltPt: [hlt: number, pt: number][];
  };
  paths: SynPath[];
  smqs: SynSmq[];
  smqContent: SynSmqTerm[];
  changes?: ReleaseChanges;
}

export class CodeAllocator {
  readonly used = new Set<number>();
  constructor(private readonly rng: Rng) {}
  reserve(code: number): void {
    this.used.add(code);
  }
  next(): number {
    for (;;) {
      const c = this.rng.int(CODE_MIN, CODE_MAX);
      if (!this.used.has(c)) {
        this.used.add(c);
        return c;
      }
    }
  }
}

/** Mutable working state. Maps keep insertion order, so iteration is deterministic. */
export class State {
  socs = new Map<number, SynSoc>();
  hlgts = new Map<number, SynHlgt>();
  hlts = new Map<number, SynHlt>();
  pts = new Map<number, SynPt>();
  llts = new Map<number, SynLlt>();

  hlgtSoc = new Map<number, number>();
  socHlgts = new Map<number, number[]>();
  hltHlgts = new Map<number, number[]>();
  hlgtHlts = new Map<number, number[]>();
  ptHlts = new Map<number, number[]>();
  hltPts = new Map<number, Set<number>>();

  socNames = new NameSet();
  hlgtNames = new NameSet();
  hltNames = new NameSet();
  /** All LLT names (which include every PT name through the PTs' own LLTs). */
  lltNames = new NameSet();

  smqs: SynSmq[] = [];
  smqContent: SynSmqTerm[] = [];
  smqNames = new NameSet();

  constructor(public codes: CodeAllocator) {
    // Never let any term take a real SOC name.
    for (const n of FORBIDDEN_SOC_NAME_FRAGMENTS) {
      this.hlgtNames.add(n);
      this.hltNames.add(n);
      this.lltNames.add(n);
      this.smqNames.add(n);
    }
  }

  themeOfSoc(soc: number): Theme {
    const s = this.socs.get(soc);
    if (!s) throw new Error(`unknown SOC ${soc}`);
    return THEMES[s.theme] as Theme;
  }
  /** SOC of an HLT's first (original) HLGT. */
  hltSoc(hlt: number): number {
    const hg = this.hltHlgts.get(hlt)?.[0];
    if (hg === undefined) throw new Error(`HLT ${hlt} has no HLGT`);
    return this.hlgtSoc.get(hg) as number;
  }
  isMultiaxialSoc(soc: number): boolean {
    return this.themeOfSoc(soc).multiaxial;
  }

  addSoc(s: SynSoc): void {
    this.socs.set(s.code, s);
    this.socHlgts.set(s.code, []);
    this.socNames.add(s.name);
  }
  addHlgt(h: SynHlgt, soc: number): void {
    this.hlgts.set(h.code, h);
    this.hlgtSoc.set(h.code, soc);
    this.socHlgts.get(soc)?.push(h.code);
    this.hlgtHlts.set(h.code, []);
    this.hlgtNames.add(h.name);
  }
  addHlt(h: SynHlt, hlgt: number): void {
    this.hlts.set(h.code, h);
    this.hltHlgts.set(h.code, []);
    this.hltPts.set(h.code, new Set());
    this.hltNames.add(h.name);
    this.linkHlgtHlt(hlgt, h.code);
  }
  linkHlgtHlt(hlgt: number, hlt: number): void {
    this.hltHlgts.get(hlt)?.push(hlgt);
    this.hlgtHlts.get(hlgt)?.push(hlt);
  }
  addPt(p: SynPt): void {
    this.pts.set(p.code, p);
    this.ptHlts.set(p.code, []);
    this.linkHltPt(p.primaryHltCode, p.code);
  }
  linkHltPt(hlt: number, pt: number): void {
    const l = this.ptHlts.get(pt);
    if (!l) throw new Error(`unknown PT ${pt}`);
    if (l.includes(hlt)) throw new Error(`duplicate link ${hlt}-${pt}`);
    l.push(hlt);
    this.hltPts.get(hlt)?.add(pt);
  }
  unlinkHltPt(hlt: number, pt: number): void {
    const l = this.ptHlts.get(pt);
    if (l) {
      const i = l.indexOf(hlt);
      if (i >= 0) l.splice(i, 1);
    }
    this.hltPts.get(hlt)?.delete(pt);
  }
  removePt(code: number): void {
    for (const h of this.ptHlts.get(code) ?? []) this.hltPts.get(h)?.delete(code);
    this.ptHlts.delete(code);
    this.pts.delete(code);
  }
  addLlt(l: SynLlt): void {
    this.llts.set(l.code, l);
    this.lltNames.add(l.name);
  }
  /** SOCs reached by a PT's HLT links (through each HLT's HLGTs). */
  ptSocs(pt: number): Set<number> {
    const out = new Set<number>();
    for (const h of this.ptHlts.get(pt) ?? []) {
      for (const hg of this.hltHlgts.get(h) ?? []) out.add(this.hlgtSoc.get(hg) as number);
    }
    return out;
  }
  ptPaths(pt: number): { hlt: number; hlgt: number; soc: number }[] {
    const out: { hlt: number; hlgt: number; soc: number }[] = [];
    for (const h of this.ptHlts.get(pt) ?? []) {
      for (const hg of this.hltHlgts.get(h) ?? []) out.push({ hlt: h, hlgt: hg, soc: this.hlgtSoc.get(hg) as number });
    }
    return out;
  }
  hltsOfSoc(soc: number): number[] {
    const out: number[] = [];
    for (const hg of this.socHlgts.get(soc) ?? []) for (const h of this.hlgtHlts.get(hg) ?? []) out.push(h);
    return out;
  }
}

const byCode = <T extends { code: number }>(a: T, b: T): number => a.code - b.code;
const byPair = (a: [number, number], b: [number, number]): number => a[0] - b[0] || a[1] - b[1];

export function computePaths(st: State): SynPath[] {
  const out: SynPath[] = [];
  const ptCodes = [...st.pts.keys()].sort((a, b) => a - b);
  for (const pc of ptCodes) {
    const pt = st.pts.get(pc) as SynPt;
    const hlts = [...(st.ptHlts.get(pc) ?? [])].sort((a, b) => a - b);
    for (const h of hlts) {
      const hgs = [...(st.hltHlgts.get(h) ?? [])].sort((a, b) => a - b);
      for (const hg of hgs) {
        out.push({
          ptCode: pc,
          hltCode: h,
          hlgtCode: hg,
          socCode: st.hlgtSoc.get(hg) as number,
          primary: h === pt.primaryHltCode && hg === pt.primaryHlgtCode,
        });
      }
    }
  }
  return out;
}

export function freeze(
  st: State,
  meta: { version: string; seed: number; scale: number; withSmq: boolean },
  changes?: ReleaseChanges,
): SyntheticRelease {
  const socHlgt: [number, number][] = [];
  for (const [hg, s] of st.hlgtSoc) socHlgt.push([s, hg]);
  const hlgtHlt: [number, number][] = [];
  for (const [h, hgs] of st.hltHlgts) for (const hg of hgs) hlgtHlt.push([hg, h]);
  const hltPt: [number, number][] = [];
  for (const [p, hs] of st.ptHlts) for (const h of hs) hltPt.push([h, p]);
  const r: SyntheticRelease = {
    version: meta.version,
    seed: meta.seed,
    scale: meta.scale,
    withSmq: meta.withSmq,
    socs: [...st.socs.values()].map((x) => ({ ...x })).sort(byCode),
    hlgts: [...st.hlgts.values()].map((x) => ({ ...x })).sort(byCode),
    hlts: [...st.hlts.values()].map((x) => ({ ...x })).sort(byCode),
    pts: [...st.pts.values()].map((x) => ({ ...x })).sort(byCode),
    llts: [...st.llts.values()].map((x) => ({ ...x })).sort(byCode),
    links: { socHlgt: socHlgt.sort(byPair), hlgtHlt: hlgtHlt.sort(byPair), hltPt: hltPt.sort(byPair) },
    paths: computePaths(st),
    smqs: meta.withSmq ? st.smqs.map((x) => ({ ...x })).sort(byCode) : [],
    smqContent: meta.withSmq
      ? st.smqContent
          .map((x) => ({ ...x }))
          .sort((a, b) => a.smqCode - b.smqCode || a.termLevel - b.termLevel || a.termCode - b.termCode)
      : [],
  };
  if (changes) r.changes = changes;
  return r;
}

/** Rebuild a mutable state (deep copy) from a frozen release. */
export function thaw(r: SyntheticRelease, codes: CodeAllocator): State {
  const st = new State(codes);
  for (const s of r.socs) st.addSoc({ ...s });
  const hlgtByCode = new Map(r.hlgts.map((h) => [h.code, h] as const));
  for (const [s, hg] of r.links.socHlgt) {
    const h = hlgtByCode.get(hg);
    if (!h) throw new Error(`soc_hlgt references unknown HLGT ${hg}`);
    st.addHlgt({ ...h }, s);
  }
  for (const h of r.hlts) {
    st.hlts.set(h.code, { ...h });
    st.hltHlgts.set(h.code, []);
    st.hltPts.set(h.code, new Set());
    st.hltNames.add(h.name);
  }
  for (const [hg, h] of r.links.hlgtHlt) st.linkHlgtHlt(hg, h);
  for (const p of r.pts) {
    st.pts.set(p.code, { ...p });
    st.ptHlts.set(p.code, []);
  }
  for (const [h, p] of r.links.hltPt) st.linkHltPt(h, p);
  for (const l of r.llts) st.addLlt({ ...l });
  for (const x of r.smqs) {
    st.smqs.push({ ...x });
    st.smqNames.add(x.name);
  }
  for (const x of r.smqContent) st.smqContent.push({ ...x });
  // Reserve every code ever used.
  for (const m of [r.socs, r.hlgts, r.hlts, r.pts, r.llts, r.smqs]) for (const x of m) codes.reserve(x.code);
  return st;
}
