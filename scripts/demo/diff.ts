// Classifies the differences between two releases the way a version report
// does (used for the README and to prove 5.0.1 exercises every change kind).
import type { Hierarchy } from './hierarchy.ts';
import { structure } from './medascii.ts';
import type { Release } from './model.ts';
import { socByCode } from './socs.ts';
import { cmpStr } from './text.ts';

export const DIFF_KINDS = {
  'pt-added': 'PT added',
  'pt-retired': 'PT retired (gone)',
  'pt-renamed': 'PT renamed',
  'pt-soc-moved': 'PT primary SOC moved',
  'pt-demoted': 'PT demoted to LLT',
  'llt-promoted': 'LLT promoted to PT',
  'llt-added': 'LLT added',
  'llt-retired': 'LLT gone',
  'llt-renamed': 'LLT renamed',
  'llt-noncurrent': 'LLT made non-current',
  'llt-current': 'LLT made current again',
  'llt-moved': 'LLT moved to another PT',
  'link-added': 'HLT-PT link added',
  'link-removed': 'HLT-PT link removed',
  'hlt-added': 'HLT added',
  'hlt-removed': 'HLT removed',
  'hlgt-added': 'HLGT added',
  'hlgt-removed': 'HLGT removed',
} as const;

export type DiffKind = keyof typeof DIFF_KINDS;

export interface DiffEntry {
  kind: DiffKind;
  text: string;
}

export function diffReleases(a: Release, b: Release, hier: Hierarchy): DiffEntry[] {
  const out: DiffEntry[] = [];
  const add = (kind: DiffKind, text: string): void => {
    out.push({ kind, text });
  };
  const ptName = (r: Release, code: number): string => r.pts.get(code)?.name ?? String(code);
  const hltName = (code: number): string => hier.hltByCode.get(code)?.name ?? String(code);

  for (const [code, pt] of b.pts) {
    const old = a.pts.get(code);
    if (!old) {
      if (a.llts.has(code)) add('llt-promoted', `${pt.name} (${code}), was an LLT of ${ptName(a, a.llts.get(code)!.ptCode)}`);
      else add('pt-added', `${pt.name} (${code}) in ${socByCode(pt.socCode).name}`);
      continue;
    }
    if (old.name !== pt.name) add('pt-renamed', `${code}: ${old.name} -> ${pt.name}`);
    if (old.socCode !== pt.socCode) {
      add('pt-soc-moved', `${pt.name} (${code}): ${socByCode(old.socCode).name} -> ${socByCode(pt.socCode).name}`);
    }
    const before = a.hltsOfPt.get(code) ?? new Set<number>();
    const after = b.hltsOfPt.get(code) ?? new Set<number>();
    for (const h of after) if (!before.has(h)) add('link-added', `${hltName(h)} -> ${pt.name}`);
    for (const h of before) if (!after.has(h)) add('link-removed', `${hltName(h)} -> ${pt.name}`);
  }
  for (const [code, pt] of a.pts) {
    if (b.pts.has(code)) continue;
    const l = b.llts.get(code);
    if (l) add('pt-demoted', `${pt.name} (${code}), now an LLT of ${ptName(b, l.ptCode)}${l.current ? '' : ' (non-current)'}`);
    else add('pt-retired', `${pt.name} (${code}) of ${socByCode(pt.socCode).name}`);
  }
  for (const [code, l] of b.llts) {
    const old = a.llts.get(code);
    const isPt = a.pts.has(code) || b.pts.has(code);
    if (!old) {
      if (!b.pts.has(code)) add('llt-added', `${l.name} (${code}) under ${ptName(b, l.ptCode)}`);
      continue;
    }
    if (isPt) continue; // covered by the PT kinds
    if (old.name !== l.name) add('llt-renamed', `${code}: ${old.name} -> ${l.name}`);
    if (old.current && !l.current) add('llt-noncurrent', `${l.name} (${code}) under ${ptName(b, l.ptCode)}`);
    if (!old.current && l.current) add('llt-current', `${l.name} (${code}) under ${ptName(b, l.ptCode)}`);
    if (old.ptCode !== l.ptCode) add('llt-moved', `${l.name} (${code}): ${ptName(a, old.ptCode)} -> ${ptName(b, l.ptCode)}`);
  }
  for (const [code, l] of a.llts) {
    if (!b.llts.has(code) && !a.pts.has(code)) add('llt-retired', `${l.name} (${code}) of ${ptName(a, l.ptCode)}`);
  }
  const sa = structure(a, hier);
  const sb = structure(b, hier);
  const codesOf = (xs: { code: number }[]): Set<number> => new Set(xs.map((x) => x.code));
  const [ha, hb, ga, gb] = [codesOf(sa.hlts), codesOf(sb.hlts), codesOf(sa.hlgts), codesOf(sb.hlgts)];
  for (const h of sb.hlts) if (!ha.has(h.code)) add('hlt-added', `${h.name} (${h.code}) under ${h.hlgt.name}`);
  for (const h of sa.hlts) if (!hb.has(h.code)) add('hlt-removed', `${h.name} (${h.code})`);
  for (const g of sb.hlgts) if (!ga.has(g.code)) add('hlgt-added', `${g.name} (${g.code}) under ${g.soc.name}`);
  for (const g of sa.hlgts) if (!gb.has(g.code)) add('hlgt-removed', `${g.name} (${g.code})`);
  const order = Object.keys(DIFF_KINDS);
  return out.sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind) || cmpStr(x.text, y.text));
}

export function countKinds(entries: DiffEntry[]): Map<DiffKind, number> {
  const m = new Map<DiffKind, number>();
  for (const e of entries) m.set(e.kind, (m.get(e.kind) ?? 0) + 1);
  return m;
}
