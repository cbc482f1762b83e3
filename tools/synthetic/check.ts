/** Internal consistency check of a synthetic release; throws listing the problems found. */
import { MAX_NAME_LENGTH } from './names.ts';
import { CODE_MAX, CODE_MIN, type SyntheticRelease } from './model.ts';
import { FORBIDDEN_SOC_NAME_FRAGMENTS } from './words.ts';

const REAL_SOC_NAMES = new Set(FORBIDDEN_SOC_NAME_FRAGMENTS);

export class ReleaseCheckError extends Error {
  constructor(
    readonly version: string,
    readonly problems: string[],
  ) {
    super(
      `synthetic release ${version}: ${problems.length} consistency problem(s):\n  ` +
        problems.slice(0, 30).join('\n  ') +
        (problems.length > 30 ? `\n  … and ${problems.length - 30} more` : ''),
    );
    this.name = 'ReleaseCheckError';
  }
}

export function checkRelease(r: SyntheticRelease): void {
  const problems: string[] = [];
  const bad = (msg: string): void => {
    if (problems.length < 1000) problems.push(msg);
  };

  // ---- codes: unique per level, in range, disjoint across levels (except PT = own LLT) ----
  const levelSets: Record<string, Set<number>> = {};
  const level = (name: string, items: { code: number }[]): Set<number> => {
    const s = new Set<number>();
    for (const x of items) {
      if (!Number.isInteger(x.code) || x.code < CODE_MIN || x.code > CODE_MAX) bad(`${name} code ${x.code} outside ${CODE_MIN}–${CODE_MAX}`);
      if (s.has(x.code)) bad(`duplicate ${name} code ${x.code}`);
      s.add(x.code);
    }
    levelSets[name] = s;
    return s;
  };
  const socs = level('SOC', r.socs);
  const hlgts = level('HLGT', r.hlgts);
  const hlts = level('HLT', r.hlts);
  const pts = level('PT', r.pts);
  const llts = level('LLT', r.llts);
  const smqs = level('SMQ', r.smqs);
  const names = Object.keys(levelSets);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = names[i] as string;
      const b = names[j] as string;
      if (a === 'PT' && b === 'LLT') continue;
      for (const c of levelSets[a] as Set<number>) if ((levelSets[b] as Set<number>).has(c)) bad(`code ${c} used as ${a} and ${b}`);
    }
  }

  // ---- names ------------------------------------------------------------------------
  const checkNames = (lvl: string, items: { code: number; name: string }[]): void => {
    const seen = new Map<string, number>();
    for (const x of items) {
      const n = x.name;
      if (n.length === 0 || n.length > MAX_NAME_LENGTH) bad(`${lvl} ${x.code} name length ${n.length}`);
      if (n !== n.trim() || /[$\r\n\t]/.test(n)) bad(`${lvl} ${x.code} name has forbidden characters: ${JSON.stringify(n)}`);
      for (let i = 0; i < n.length; i++) {
        if (n.charCodeAt(i) > 0xff) {
          bad(`${lvl} ${x.code} name not Latin-1: ${JSON.stringify(n)}`);
          break;
        }
      }
      const k = n.toLowerCase();
      if (REAL_SOC_NAMES.has(k)) bad(`${lvl} ${x.code} uses a real SOC name: ${n}`);
      const prev = seen.get(k);
      if (prev !== undefined) bad(`duplicate ${lvl} name ${JSON.stringify(n)} (${prev}, ${x.code})`);
      seen.set(k, x.code);
    }
  };
  checkNames('SOC', r.socs);
  checkNames('HLGT', r.hlgts);
  checkNames('HLT', r.hlts);
  checkNames('PT', r.pts);
  checkNames('LLT', r.llts);
  checkNames('SMQ', r.smqs);
  for (const s of r.socs) {
    const low = s.name.toLowerCase();
    if (FORBIDDEN_SOC_NAME_FRAGMENTS.some((f) => low === f || low.startsWith(f))) bad(`SOC ${s.code} uses a real SOC name`);
    if (s.abbrev.length === 0 || /[$\r\n]/.test(s.abbrev)) bad(`SOC ${s.code} bad abbrev`);
  }
  const ords = new Set(r.socs.map((s) => s.intlOrd));
  if (ords.size !== r.socs.length) bad('duplicate intl_ord codes');

  // ---- links ------------------------------------------------------------------------
  const hlgtSoc = new Map<number, number>();
  for (const [s, hg] of r.links.socHlgt) {
    if (!socs.has(s)) bad(`soc_hlgt: unknown SOC ${s}`);
    if (!hlgts.has(hg)) bad(`soc_hlgt: unknown HLGT ${hg}`);
    if (hlgtSoc.has(hg)) bad(`HLGT ${hg} under more than one SOC`);
    hlgtSoc.set(hg, s);
  }
  for (const h of hlgts) if (!hlgtSoc.has(h)) bad(`HLGT ${h} has no SOC`);

  const hltHlgts = new Map<number, number[]>();
  const hlgtHasHlt = new Set<number>();
  const pairKeys = new Set<string>();
  for (const [hg, h] of r.links.hlgtHlt) {
    if (!hlgts.has(hg)) bad(`hlgt_hlt: unknown HLGT ${hg}`);
    if (!hlts.has(h)) bad(`hlgt_hlt: unknown HLT ${h}`);
    const k = `g${hg}:${h}`;
    if (pairKeys.has(k)) bad(`duplicate hlgt_hlt link ${hg}-${h}`);
    pairKeys.add(k);
    let a = hltHlgts.get(h);
    if (!a) hltHlgts.set(h, (a = []));
    a.push(hg);
    hlgtHasHlt.add(hg);
  }
  for (const h of hlts) if (!hltHlgts.has(h)) bad(`HLT ${h} has no HLGT`);
  for (const h of hlgts) if (!hlgtHasHlt.has(h)) bad(`HLGT ${h} has no HLT`);

  const ptHlts = new Map<number, number[]>();
  const hltHasPt = new Set<number>();
  for (const [h, p] of r.links.hltPt) {
    if (!hlts.has(h)) bad(`hlt_pt: unknown HLT ${h}`);
    if (!pts.has(p)) bad(`hlt_pt: unknown PT ${p}`);
    const k = `h${h}:${p}`;
    if (pairKeys.has(k)) bad(`duplicate hlt_pt link ${h}-${p}`);
    pairKeys.add(k);
    let a = ptHlts.get(p);
    if (!a) ptHlts.set(p, (a = []));
    a.push(h);
    hltHasPt.add(h);
  }
  for (const h of hlts) if (!hltHasPt.has(h)) bad(`HLT ${h} has no PT`);

  // ---- paths (mdhier) -----------------------------------------------------------------
  const expected = new Set<string>();
  for (const [p, hs] of ptHlts) {
    for (const h of hs) for (const hg of hltHlgts.get(h) ?? []) expected.add(`${p}:${h}:${hg}:${hlgtSoc.get(hg)}`);
  }
  const primaryCount = new Map<number, number>();
  const primaryPath = new Map<number, { hlt: number; hlgt: number; soc: number }>();
  const seenPaths = new Set<string>();
  for (const x of r.paths) {
    const k = `${x.ptCode}:${x.hltCode}:${x.hlgtCode}:${x.socCode}`;
    if (!expected.has(k)) bad(`mdhier path ${k} not implied by the links`);
    if (seenPaths.has(k)) bad(`duplicate mdhier path ${k}`);
    seenPaths.add(k);
    if (x.primary) {
      primaryCount.set(x.ptCode, (primaryCount.get(x.ptCode) ?? 0) + 1);
      primaryPath.set(x.ptCode, { hlt: x.hltCode, hlgt: x.hlgtCode, soc: x.socCode });
    }
  }
  if (seenPaths.size !== expected.size) bad(`mdhier has ${seenPaths.size} paths, links imply ${expected.size}`);

  // ---- PTs ----------------------------------------------------------------------------
  const lltByCode = new Map(r.llts.map((l) => [l.code, l] as const));
  for (const p of r.pts) {
    if (!ptHlts.has(p.code)) bad(`PT ${p.code} has no HLT`);
    if (!socs.has(p.socCode)) bad(`PT ${p.code}: unknown pt_soc_code ${p.socCode}`);
    const c = primaryCount.get(p.code) ?? 0;
    if (c !== 1) bad(`PT ${p.code} has ${c} primary paths`);
    const pp = primaryPath.get(p.code);
    if (pp) {
      if (pp.soc !== p.socCode) bad(`PT ${p.code}: pt_soc_code ${p.socCode} ≠ primary path SOC ${pp.soc}`);
      if (pp.hlt !== p.primaryHltCode || pp.hlgt !== p.primaryHlgtCode) bad(`PT ${p.code}: primary path disagrees with model`);
    }
    const own = lltByCode.get(p.code);
    if (!own) bad(`PT ${p.code} has no own LLT`);
    else {
      if (own.ptCode !== p.code) bad(`PT ${p.code}: own LLT points to ${own.ptCode}`);
      if (own.name !== p.name) bad(`PT ${p.code}: own LLT name differs`);
      if (!own.current) bad(`PT ${p.code}: own LLT is non-current`);
    }
  }

  // ---- LLTs ---------------------------------------------------------------------------
  for (const l of r.llts) {
    if (!pts.has(l.ptCode)) bad(`LLT ${l.code}: unknown PT ${l.ptCode}`);
    if (pts.has(l.code) && l.ptCode !== l.code) bad(`LLT ${l.code} shares a PT code but is not its own LLT`);
  }

  // ---- SMQs ---------------------------------------------------------------------------
  if (r.withSmq) {
    const rowKeys = new Set<string>();
    for (const c of r.smqContent) {
      if (!smqs.has(c.smqCode)) bad(`smq_content: unknown SMQ ${c.smqCode}`);
      const ok =
        (c.termLevel === 4 && pts.has(c.termCode)) ||
        (c.termLevel === 5 && llts.has(c.termCode)) ||
        (c.termLevel === 0 && smqs.has(c.termCode));
      if (!ok) bad(`smq_content: SMQ ${c.smqCode} term ${c.termCode} not found at level ${c.termLevel}`);
      const k = `${c.smqCode}:${c.termCode}`;
      if (rowKeys.has(k)) bad(`smq_content: duplicate row ${k}`);
      rowKeys.add(k);
    }
  } else if (r.smqs.length > 0 || r.smqContent.length > 0) {
    bad('SMQs present although withSmq is false');
  }

  if (problems.length > 0) throw new ReleaseCheckError(r.version, problems);
}
