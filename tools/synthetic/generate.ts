/**
 * Deterministic synthetic MedDRA-shaped release generator (SOC → HLGT → HLT → PT → LLT).
 *
 *   const r1 = generateRelease({ seed: 42, version: '90.0' });          // full size
 *   const r2 = generateRelease({ seed: 42, version: '90.1', changesFrom: r1 });
 *   checkRelease(r2);
 *   await writeMedAscii(r2, 'out/90.1');
 *
 * All codes come from the reserved range 90000000–99999999; no real MedDRA names or codes.
 */
import { Rng, distribute, mixSeed } from './prng.ts';
import { Namer, type Focus } from './names.ts';
import { CodeAllocator, State, freeze, type SyntheticRelease } from './model.ts';
import { addNewPt, addSecondaryLinks, addVariantLlt } from './build.ts';
import { generateSmqs } from './smq.ts';
import { nextRelease } from './next.ts';
import { THEMES, type Theme } from './words.ts';
import type { SyntheticOptions } from './options.ts';

export type {
  ReleaseChanges,
  SyntheticRelease,
  SynHlgt,
  SynHlt,
  SynLlt,
  SynPath,
  SynPt,
  SynSmq,
  SynSmqTerm,
  SynSoc,
} from './model.ts';
export { checkRelease } from './check.ts';
export { writeMedAscii } from './write.ts';

export type { SyntheticOptions } from './options.ts';

export type Level = 'SOC' | 'HLGT' | 'HLT' | 'PT' | 'LLT';

/** Full-size (scale 1) counts, matching MedDRA 27. */
export const FULL_SIZE: Record<Level, number> & { SMQ: number } = {
  SOC: 27,
  HLGT: 337,
  HLT: 1737,
  PT: 26_000,
  LLT: 85_000,
  SMQ: 100,
};

export function targetCounts(scale: number): Record<Level, number> & { SMQ: number } {
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`scale must be a positive number, got ${scale}`);
  const soc = Math.min(THEMES.length, Math.max(3, Math.round(FULL_SIZE.SOC * scale)));
  const hlgt = Math.max(soc, Math.round(FULL_SIZE.HLGT * scale));
  const hlt = Math.max(hlgt, Math.round(FULL_SIZE.HLT * scale));
  const pt = Math.max(hlt, Math.round(FULL_SIZE.PT * scale));
  const llt = Math.max(pt, Math.round(FULL_SIZE.LLT * scale));
  const smq = Math.max(3, Math.round(FULL_SIZE.SMQ * scale));
  return { SOC: soc, HLGT: hlgt, HLT: hlt, PT: pt, LLT: llt, SMQ: smq };
}

export function releaseCounts(r: SyntheticRelease): Record<Level, number> {
  return { SOC: r.socs.length, HLGT: r.hlgts.length, HLT: r.hlts.length, PT: r.pts.length, LLT: r.llts.length };
}

export function generateRelease(opts: SyntheticOptions): SyntheticRelease {
  if (opts.changesFrom) return nextRelease(opts, opts.changesFrom);
  const scale = opts.scale ?? 1;
  const withSmq = opts.withSmq ?? true;
  const n = targetCounts(scale);

  // Content depends on the seed and scale only (not on the version string).
  const root = new Rng(mixSeed(opts.seed, 'synthetic-release/base', scale));
  const codes = new CodeAllocator(root.fork('codes'));
  const rng = root.fork('structure');
  const namer = new Namer(root.fork('names'));
  const st = new State(codes);

  // ---- SOCs ---------------------------------------------------------------------------
  const themeIdx = pickThemes(rng, n.SOC);
  themeIdx.forEach((ti, i) => {
    const t = THEMES[ti] as Theme;
    st.addSoc({ code: codes.next(), name: t.name, abbrev: t.abbrev, intlOrd: i + 1, theme: ti });
  });
  const socCodes = [...st.socs.keys()];
  const themeOf = (soc: number): Theme => st.themeOfSoc(soc);

  // ---- HLGTs --------------------------------------------------------------------------
  const hlgtPerSoc = distribute(
    n.HLGT,
    socCodes.map((s) => themeOf(s).hlgtWeight),
    1,
  );
  const hlgtAdj = new Map<number, string | undefined>();
  socCodes.forEach((s, i) => {
    const t = themeOf(s);
    for (let k = 0; k < (hlgtPerSoc[i] as number); k++) {
      const adj = t.adjs.length > 0 ? rng.pick(t.adjs) : undefined;
      namer.focus = adj !== undefined ? { adj } : {};
      const name = namer.uniqueHlgtName(t, st.hlgtNames);
      const code = codes.next();
      st.addHlgt({ code, name }, s);
      hlgtAdj.set(code, adj);
    }
  });

  // ---- HLTs ---------------------------------------------------------------------------
  const hlgtCodes = [...st.hlgts.keys()];
  const hltWeights = hlgtCodes.map((hg) => {
    const s = st.hlgtSoc.get(hg) as number;
    const t = themeOf(s);
    return (t.ptWeight / (st.socHlgts.get(s)?.length ?? 1)) * Math.exp(0.6 * rng.gauss());
  });
  const hltPerHlgt = distribute(n.HLT, hltWeights, 1);
  const hltFocus = new Map<number, Focus>();
  hlgtCodes.forEach((hg, i) => {
    const t = themeOf(st.hlgtSoc.get(hg) as number);
    for (let k = 0; k < (hltPerHlgt[i] as number); k++) {
      const focus = namer.newFocus(t, hlgtAdj.get(hg));
      namer.focus = focus;
      const name = namer.uniqueHltName(t, focus, st.hltNames);
      const code = codes.next();
      st.addHlt({ code, name }, hg);
      hltFocus.set(code, focus);
    }
  });

  // ~2% of HLTs under a second HLGT (same or another multiaxial SOC).
  const hltCodes = [...st.hlts.keys()];
  const multiHlgts = hlgtCodes.filter((hg) => st.isMultiaxialSoc(st.hlgtSoc.get(hg) as number));
  if (multiHlgts.length >= 2) {
    const want = Math.max(1, Math.round(0.02 * n.HLT));
    const eligible = rng.shuffle(hltCodes.filter((h) => st.isMultiaxialSoc(st.hltSoc(h))));
    let done = 0;
    for (const h of eligible) {
      if (done >= want) break;
      const first = st.hltHlgts.get(h)?.[0] as number;
      const soc = st.hlgtSoc.get(first) as number;
      const same = (st.socHlgts.get(soc) ?? []).filter((x) => x !== first);
      const pool = same.length > 0 && rng.chance(0.5) ? same : multiHlgts.filter((x) => x !== first);
      if (pool.length === 0) continue;
      st.linkHlgtHlt(rng.pick(pool), h);
      done++;
    }
  }

  // ---- PTs (+ own LLTs) ----------------------------------------------------------------
  const hltPtWeights = hltCodes.map((h) => {
    const s = st.hltSoc(h);
    return (themeOf(s).ptWeight / st.hltsOfSoc(s).length) * Math.exp(0.8 * rng.gauss());
  });
  const ptPerHlt = distribute(n.PT, hltPtWeights, 1);
  hltCodes.forEach((h, i) => {
    const t = themeOf(st.hltSoc(h));
    namer.focus = hltFocus.get(h) ?? {};
    for (let k = 0; k < (ptPerHlt[i] as number); k++) addNewPt(st, namer, h, t);
  });

  // ---- secondary paths (multiaxiality) -----------------------------------------------
  const multiSocs = socCodes.filter((s) => st.isMultiaxialSoc(s));
  const hltsBySoc = new Map(socCodes.map((s) => [s, st.hltsOfSoc(s)] as const));
  const eligiblePts = [...st.pts.values()].filter((p) => st.isMultiaxialSoc(p.socCode));
  const nSecondary = Math.min(eligiblePts.length, Math.round(0.3 * n.PT));
  for (const p of rng.sample(eligiblePts, nSecondary)) addSecondaryLinks(st, rng, p, multiSocs, hltsBySoc);

  // ---- further LLTs --------------------------------------------------------------------
  const ptList = [...st.pts.values()];
  const lltWeights = ptList.map(() => Math.exp(1.0 * rng.gauss()));
  const lltPerPt = distribute(n.LLT - n.PT, lltWeights, 0);
  ptList.forEach((p, i) => {
    const t = themeOf(p.socCode);
    namer.focus = hltFocus.get(p.primaryHltCode) ?? {};
    for (let k = 0; k < (lltPerPt[i] as number); k++) {
      const current = !rng.chance(0.04);
      addVariantLlt(st, namer, p, t, current);
    }
  });

  // ---- SMQs ----------------------------------------------------------------------------
  if (withSmq) generateSmqs(st, root.fork('smq'), opts.version, n.SMQ);

  return freeze(st, { version: opts.version, seed: opts.seed, scale, withSmq });
}

/** Choose n themes (intl order kept); at least two multiaxial ones so secondary paths exist. */
function pickThemes(rng: Rng, n: number): number[] {
  const all = THEMES.map((_, i) => i);
  if (n >= all.length) return all;
  const multi = rng.shuffle(all.filter((i) => (THEMES[i] as Theme).multiaxial));
  const first = multi.slice(0, Math.min(2, n));
  const rest = rng.shuffle(all.filter((i) => !first.includes(i)));
  return [...first, ...rest].slice(0, n).sort((a, b) => a - b);
}
