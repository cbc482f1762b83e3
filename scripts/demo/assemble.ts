// Assembles the in-memory releases: CTCAE terms -> PTs under invented HLTs,
// own LLTs, lay/lexical variant LLTs, retired terms, and the 5.0.1 changes.
import type { Change } from './changes-501.ts';
import type { CodeMap } from './codes.ts';
import type { CtcaeFile } from './ctcae.ts';
import { SECONDARY_PATHS } from './groups.ts';
import type { Hierarchy } from './hierarchy.ts';
import { LAY_TERMS, NON_CURRENT_TERMS } from './lay-terms.ts';
import { link, type Llt, type Pt, type Release } from './model.ts';
import { socByCode } from './socs.ts';
import { cleanText, cmpStr, nameKey } from './text.ts';

export type Log = (msg: string) => void;

type Meta = Pick<Release, 'version' | 'releaseDate' | 'dir' | 'source'>;

/** PTs, own LLTs, HLT links and grades of one CTCAE file. */
export function buildFromCtcae(file: CtcaeFile, meta: Meta, hier: Hierarchy): Release {
  const r: Release = {
    ...meta,
    socCodes: new Set(file.socs.map((s) => s.code)),
    pts: new Map(),
    llts: new Map(),
    hltsOfPt: new Map(),
    grades: new Map(),
  };
  const terms = [...file.terms].sort((a, b) => a.code - b.code);
  for (const t of terms) {
    r.pts.set(t.code, { code: t.code, name: t.name, socCode: t.soc.code });
    r.llts.set(t.code, { code: t.code, name: t.name, ptCode: t.code, current: true });
    r.grades.set(t.code, t.grade);
    link(r, hier.classify(t.name, t.soc).code, t.code);
    for (const hltName of SECONDARY_PATHS[t.name] ?? []) {
      const hlt = hier.hlt(hltName);
      if (hlt.hlgt.soc.code === t.soc.code) continue; // the primary placement in this release
      if (!r.socCodes.has(hlt.hlgt.soc.code)) continue;
      link(r, hlt.code, t.code);
    }
  }
  return r;
}

/** Index of LLT names for conflict checks: name key -> LLTs. */
class LltNames {
  private readonly byKey = new Map<string, Llt[]>();
  constructor(r: Release) {
    for (const l of r.llts.values()) this.add(l);
  }
  add(l: Llt): void {
    const k = nameKey(l.name);
    const list = this.byKey.get(k);
    if (list) list.push(l);
    else this.byKey.set(k, [l]);
  }
  remove(l: Llt): void {
    const k = nameKey(l.name);
    const list = (this.byKey.get(k) ?? []).filter((x) => x !== l);
    if (list.length) this.byKey.set(k, list);
    else this.byKey.delete(k);
  }
  /** Why `name` cannot be an LLT of ptCode, or 'duplicate' if that PT already has it, or null if fine. */
  conflict(name: string, ptCode: number, r: Release): string | null {
    const list = this.byKey.get(nameKey(name)) ?? [];
    const other = list.find((l) => l.ptCode !== ptCode);
    if (other) {
      const isPt = r.pts.get(other.code)?.name === other.name;
      return isPt
        ? `equals the PT "${other.name}"`
        : `already an LLT of "${r.pts.get(other.ptCode)?.name ?? other.ptCode}"`;
    }
    if (list.some((l) => l.name.toLowerCase() === name.toLowerCase())) return 'duplicate';
    return null;
  }
}

/**
 * Adds the hand-written variants (LAY_TERMS current, NON_CURRENT_TERMS
 * non-current) under the PTs of the release, PTs in name order, variants in
 * list order. Conflicting variants are skipped and logged.
 */
export function addVariants(r: Release, codes: CodeMap, log: Log): void {
  const names = new LltNames(r);
  const pts = [...r.pts.values()].sort((a, b) => cmpStr(nameKey(a.name), nameKey(b.name)) || a.code - b.code);
  for (const pt of pts) {
    const lists: [string[], boolean][] = [
      [LAY_TERMS[pt.name] ?? [], true],
      [NON_CURRENT_TERMS[pt.name] ?? [], false],
    ];
    for (const [list, current] of lists) {
      for (const raw of list) addVariant(r, names, codes, pt, raw, current, log);
    }
  }
}

function addVariant(r: Release, names: LltNames, codes: CodeMap, pt: Pt, raw: string, current: boolean, log: Log): void {
  const name = cleanText(raw);
  const why = names.conflict(name, pt.code, r);
  if (why === 'duplicate') return;
  if (why) {
    log(`${r.version}: skipped variant "${name}" of "${pt.name}": ${why}`);
    return;
  }
  const code = codes.get('llt', name);
  const prev = r.llts.get(code);
  if (prev) throw new Error(`${r.version}: LLT code ${code} of "${name}" already used by "${prev.name}"`);
  const l: Llt = { code, name, ptCode: pt.code, current };
  r.llts.set(code, l);
  names.add(l);
}

/**
 * Terms of the previous release that CTCAE dropped but that have an obvious
 * successor: kept as non-current LLTs (same code) under the successor PT, with
 * their variants. Other dropped terms are left out (they show as retired).
 */
export const RETIRED_TERM_SUCCESSORS: Record<string, string> = {
  'IVth nerve disorder': 'Trochlear nerve disorder',
  'Fetal death': 'Pregnancy loss',
  'External ear inflammation': 'Otitis externa',
  'Constrictive pericarditis': 'Pericarditis',
  'Fallopian tube stenosis': 'Fallopian tube obstruction',
};

export function addRetiredTerms(prev: Release, r: Release, codes: CodeMap, log: Log): void {
  const names = new LltNames(r);
  const ptByName = new Map([...r.pts.values()].map((p) => [nameKey(p.name), p]));
  const gone = [...prev.pts.values()].filter((p) => !r.pts.has(p.code) && !r.llts.has(p.code));
  for (const old of gone.sort((a, b) => a.code - b.code)) {
    const successorName = RETIRED_TERM_SUCCESSORS[old.name];
    if (!successorName) {
      log(`${r.version}: "${old.name}" (${old.code}) of ${prev.version} is not in CTCAE ${r.version}: retired`);
      continue;
    }
    const successor = ptByName.get(nameKey(successorName));
    if (!successor) throw new Error(`RETIRED_TERM_SUCCESSORS: no PT "${successorName}" in ${r.version}`);
    const why = names.conflict(old.name, successor.code, r);
    if (why) throw new Error(`${r.version}: cannot keep "${old.name}" as an LLT: ${why}`);
    const own: Llt = { code: old.code, name: old.name, ptCode: successor.code, current: false };
    r.llts.set(own.code, own);
    names.add(own);
    log(`${r.version}: "${old.name}" (${old.code}) of ${prev.version} kept as a non-current LLT of "${successor.name}"`);
    for (const l of prev.llts.values()) {
      if (l.ptCode !== old.code || l.code === old.code) continue;
      addVariant(r, names, codes, successor, l.name, l.current, log);
    }
  }
  for (const name of Object.keys(RETIRED_TERM_SUCCESSORS)) {
    if (![...prev.pts.values()].some((p) => p.name === name)) {
      throw new Error(`RETIRED_TERM_SUCCESSORS: "${name}" is not a PT of ${prev.version}`);
    }
  }
}

// ---------------------------------------------------------------------------
// 5.0.1

function findPt(r: Release, name: string): Pt {
  const k = nameKey(name);
  const pt = [...r.pts.values()].find((p) => nameKey(p.name) === k);
  if (!pt) throw new Error(`${r.version}: no PT "${name}"`);
  return pt;
}

function findLlt(r: Release, name: string): Llt {
  const k = name.toLowerCase();
  const found = [...r.llts.values()].filter((l) => l.name.toLowerCase() === k);
  if (found.length !== 1) throw new Error(`${r.version}: expected one LLT "${name}", found ${found.length}`);
  return found[0]!;
}

function assertFreeName(r: Release, name: string, ptCode: number): void {
  const why = new LltNames(r).conflict(name, ptCode, r);
  if (why) throw new Error(`${r.version}: name "${name}" is not free: ${why}`);
}

/** Applies the 5.0.1 changes to r (a copy of 5.0), in order. Throws if a change does not apply. */
export function applyChanges(r: Release, changes: Change[], hier: Hierarchy, codes: CodeMap): void {
  for (const c of changes) {
    switch (c.kind) {
      case 'new-pt': {
        const hlt = hier.hlt(c.hlt);
        const code = codes.get('new', c.name);
        if (r.pts.has(code) || r.llts.has(code)) throw new Error(`new PT code ${code} in use`);
        assertFreeName(r, c.name, code);
        r.pts.set(code, { code, name: c.name, socCode: hlt.hlgt.soc.code });
        r.llts.set(code, { code, name: c.name, ptCode: code, current: true });
        link(r, hlt.code, code);
        break;
      }
      case 'new-llt': {
        const pt = findPt(r, c.pt);
        const code = codes.get('new', c.name);
        if (r.llts.has(code)) throw new Error(`new LLT code ${code} in use`);
        assertFreeName(r, c.name, pt.code);
        r.llts.set(code, { code, name: c.name, ptCode: pt.code, current: true });
        break;
      }
      case 'pt-renamed': {
        const pt = findPt(r, c.pt);
        assertFreeName(r, c.to, pt.code);
        pt.name = c.to;
        r.llts.get(pt.code)!.name = c.to;
        break;
      }
      case 'llt-renamed': {
        const l = findLlt(r, c.llt);
        if (r.pts.has(l.code)) throw new Error(`"${c.llt}" is a PT's own LLT; rename the PT`);
        assertFreeName(r, c.to, l.ptCode);
        l.name = c.to;
        break;
      }
      case 'llt-noncurrent':
      case 'llt-current': {
        const l = findLlt(r, c.llt);
        const want = c.kind === 'llt-current';
        if (l.current === want) throw new Error(`"${c.llt}" already has currency ${want ? 'Y' : 'N'}`);
        if (r.pts.has(l.code)) throw new Error(`"${c.llt}" is a PT's own LLT`);
        l.current = want;
        break;
      }
      case 'primary-soc-moved': {
        const pt = findPt(r, c.pt);
        const hlt = hier.hlt(c.toHlt);
        if (!r.hltsOfPt.get(pt.code)?.has(hlt.code)) throw new Error(`"${c.pt}" is not under "${c.toHlt}"`);
        if (hlt.hlgt.soc.code === pt.socCode) throw new Error(`"${c.toHlt}" is already in the primary SOC of "${c.pt}"`);
        pt.socCode = hlt.hlgt.soc.code;
        break;
      }
      case 'link-added': {
        const pt = findPt(r, c.pt);
        const hlt = hier.hlt(c.hlt);
        if (r.hltsOfPt.get(pt.code)?.has(hlt.code)) throw new Error(`"${c.pt}" is already under "${c.hlt}"`);
        link(r, hlt.code, pt.code);
        break;
      }
      case 'link-removed': {
        const pt = findPt(r, c.pt);
        const hlt = hier.hlt(c.hlt);
        if (!r.hltsOfPt.get(pt.code)?.delete(hlt.code)) throw new Error(`"${c.pt}" is not under "${c.hlt}"`);
        break;
      }
      case 'llt-moved': {
        const l = findLlt(r, c.llt);
        const to = findPt(r, c.toPt);
        if (r.pts.has(l.code)) throw new Error(`"${c.llt}" is a PT's own LLT`);
        if (l.ptCode === to.code) throw new Error(`"${c.llt}" is already under "${c.toPt}"`);
        l.ptCode = to.code;
        break;
      }
      case 'pt-demoted': {
        const pt = findPt(r, c.pt);
        const to = findPt(r, c.toPt);
        r.pts.delete(pt.code);
        r.hltsOfPt.delete(pt.code);
        r.grades.delete(pt.code);
        // Its own LLT and its variants follow it to the new PT.
        for (const l of r.llts.values()) if (l.ptCode === pt.code) l.ptCode = to.code;
        break;
      }
      case 'llt-promoted': {
        const l = findLlt(r, c.llt);
        if (r.pts.has(l.code)) throw new Error(`"${c.llt}" is already a PT`);
        const hlt = hier.hlt(c.hlt);
        l.ptCode = l.code;
        l.current = true;
        r.pts.set(l.code, { code: l.code, name: l.name, socCode: hlt.hlgt.soc.code });
        link(r, hlt.code, l.code);
        break;
      }
    }
  }
}

/** The SOC name of a SOC code, for messages. */
export function socName(code: number): string {
  return socByCode(code).name;
}
