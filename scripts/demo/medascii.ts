// Renders a release as MedAscii files: `$`-separated fields, a trailing `$` on
// every record, CRLF line endings, Latin-1 bytes. Records are sorted.
import type { Hierarchy, HlgtInfo, HltInfo } from './hierarchy.ts';
import type { Release } from './model.ts';
import { socByCode, type SocDef } from './socs.ts';
import { isLatin1Printable } from './text.ts';

/** Field counts (values before the trailing `$`), as in the format spec. */
export const FIELD_COUNTS = {
  'meddra_release.asc': 5,
  'soc.asc': 10,
  'hlgt.asc': 9,
  'hlt.asc': 9,
  'pt.asc': 11,
  'llt.asc': 11,
  'soc_hlgt.asc': 2,
  'hlgt_hlt.asc': 2,
  'hlt_pt.asc': 2,
  'mdhier.asc': 12,
  'intl_ord.asc': 2,
  'ctcae_grade.asc': 7,
} as const;

export type AscFile = keyof typeof FIELD_COUNTS;
export const ASC_FILES = Object.keys(FIELD_COUNTS) as AscFile[];

export interface Path {
  ptCode: number;
  hlt: HltInfo;
  hlgt: HlgtInfo;
  soc: SocDef;
  primary: boolean;
}

export interface Structure {
  socs: SocDef[];
  hlgts: HlgtInfo[];
  hlts: HltInfo[];
  paths: Path[];
}

/** The SOC/HLGT/HLT actually used by a release, and every PT path. Unused groups are left out. */
export function structure(r: Release, hier: Hierarchy): Structure {
  const hltCodes = new Set<number>();
  for (const s of r.hltsOfPt.values()) for (const c of s) hltCodes.add(c);
  const hlts = [...hltCodes].map((c) => {
    const h = hier.hltByCode.get(c);
    if (!h) throw new Error(`${r.version}: unknown HLT code ${c}`);
    return h;
  });
  const hlgts = [...new Map(hlts.map((h) => [h.hlgt.code, h.hlgt])).values()];
  for (const g of hlgts) {
    if (!r.socCodes.has(g.soc.code)) throw new Error(`${r.version}: HLGT "${g.name}" lies in SOC ${g.soc.name}, absent from the release`);
  }
  const socs = [...r.socCodes].map(socByCode);
  const paths: Path[] = [];
  for (const [ptCode, set] of r.hltsOfPt) {
    const pt = r.pts.get(ptCode);
    if (!pt) throw new Error(`${r.version}: HLT link to unknown PT ${ptCode}`);
    for (const c of set) {
      const hlt = hier.hltByCode.get(c)!;
      paths.push({ ptCode, hlt, hlgt: hlt.hlgt, soc: hlt.hlgt.soc, primary: hlt.hlgt.soc.code === pt.socCode });
    }
  }
  const byCode = <T extends { code: number }>(a: T, b: T): number => a.code - b.code;
  paths.sort((a, b) => a.ptCode - b.ptCode || a.hlt.code - b.hlt.code);
  return { socs: socs.sort(byCode), hlgts: hlgts.sort(byCode), hlts: hlts.sort(byCode), paths };
}

function rec(fields: (string | number)[]): string {
  return fields.map(String).join('$') + '$';
}

function blanks(n: number): string[] {
  return Array.from({ length: n }, () => '');
}

/** The text of every file of the release (records without line ends). */
export function renderRelease(r: Release, hier: Hierarchy): Map<AscFile, string[]> {
  const s = structure(r, hier);
  const out = new Map<AscFile, string[]>();
  out.set('meddra_release.asc', [rec([r.version, 'English', '', '', ''])]);
  out.set('soc.asc', s.socs.map((x) => rec([x.code, x.name, x.abbrev, ...blanks(7)])));
  out.set('hlgt.asc', s.hlgts.map((x) => rec([x.code, x.name, ...blanks(7)])));
  out.set('hlt.asc', s.hlts.map((x) => rec([x.code, x.name, ...blanks(7)])));
  const pts = [...r.pts.values()].sort((a, b) => a.code - b.code);
  out.set('pt.asc', pts.map((p) => rec([p.code, p.name, '', p.socCode, ...blanks(7)])));
  const llts = [...r.llts.values()].sort((a, b) => a.code - b.code);
  out.set('llt.asc', llts.map((l) => rec([l.code, l.name, l.ptCode, ...blanks(6), l.current ? 'Y' : 'N', ''])));
  out.set(
    'soc_hlgt.asc',
    [...s.hlgts].sort((a, b) => a.soc.code - b.soc.code || a.code - b.code).map((g) => rec([g.soc.code, g.code])),
  );
  out.set(
    'hlgt_hlt.asc',
    [...s.hlts].sort((a, b) => a.hlgt.code - b.hlgt.code || a.code - b.code).map((h) => rec([h.hlgt.code, h.code])),
  );
  out.set(
    'hlt_pt.asc',
    [...s.paths].sort((a, b) => a.hlt.code - b.hlt.code || a.ptCode - b.ptCode).map((p) => rec([p.hlt.code, p.ptCode])),
  );
  out.set(
    'mdhier.asc',
    s.paths.map((p) => {
      const pt = r.pts.get(p.ptCode)!;
      return rec([
        pt.code,
        p.hlt.code,
        p.hlgt.code,
        p.soc.code,
        pt.name,
        p.hlt.name,
        p.hlgt.name,
        p.soc.name,
        p.soc.abbrev,
        '',
        pt.socCode,
        p.primary ? 'Y' : 'N',
      ]);
    }),
  );
  out.set(
    'intl_ord.asc',
    [...s.socs].sort((a, b) => a.intlOrder - b.intlOrder).map((x) => rec([x.intlOrder, x.code])),
  );
  const grades = [...r.grades.values()].filter((g) => r.pts.has(g.code)).sort((a, b) => a.code - b.code);
  out.set('ctcae_grade.asc', grades.map((g) => rec([g.code, ...g.grades, g.definition])));
  return out;
}

/** Joins records with CRLF (final CRLF included) and encodes Latin-1, refusing anything unrepresentable. */
export function encode(file: string, records: string[]): Buffer {
  for (const line of records) {
    if (!isLatin1Printable(line)) {
      const bad = [...line].find((ch) => !isLatin1Printable(ch));
      throw new Error(`${file}: character U+${bad?.codePointAt(0)?.toString(16).padStart(4, '0')} is not printable Latin-1 in ${JSON.stringify(line)}`);
    }
  }
  const text = records.map((l) => l + '\r\n').join('');
  return Buffer.from(text, 'latin1');
}
