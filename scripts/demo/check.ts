// Self-check of the generated MedAscii bytes: parses them back like an
// importer would and verifies the invariants. Returns the problems found.
import { isReserved } from './codes.ts';
import { ASC_FILES, FIELD_COUNTS, type AscFile } from './medascii.ts';
import { nameKey } from './text.ts';

type Rows = Map<AscFile, string[][]>;

export interface Parsed {
  version: string;
  rows: Rows;
}

const LEGACY_EMPTY: Partial<Record<AscFile, number[]>> = {
  'soc.asc': [3, 4, 5, 6, 7, 8, 9],
  'hlgt.asc': [2, 3, 4, 5, 6, 7, 8],
  'hlt.asc': [2, 3, 4, 5, 6, 7, 8],
  'pt.asc': [2, 4, 5, 6, 7, 8, 9, 10],
  'llt.asc': [3, 4, 5, 6, 7, 8, 10],
  'mdhier.asc': [9],
  'meddra_release.asc': [2, 3, 4],
};

export interface FolderOptions {
  /** The language field of meddra_release.asc (default English). */
  language?: string;
  /** 'latin1': printable Windows-1252/Latin-1 bytes (the default); 'utf8': valid UTF-8 without control characters. */
  encoding?: 'latin1' | 'utf8';
  /** Shown after the version in problems ("5.0 (ja)"). */
  label?: string;
}

export function parseAndCheck(version: string, files: Map<AscFile, Buffer>, errors: string[], opts: FolderOptions = {}): Parsed {
  const language = opts.language ?? 'English';
  const utf8 = opts.encoding === 'utf8';
  const err = (m: string): void => {
    errors.push(`${version}${opts.label ? ` (${opts.label})` : ''}: ${m}`);
  };
  const rows: Rows = new Map();
  for (const f of ASC_FILES) {
    const buf = files.get(f);
    if (!buf) {
      err(`${f} missing`);
      rows.set(f, []);
      continue;
    }
    let text: string;
    if (utf8) {
      text = decodeUtf8(buf) ?? '';
      if (text === '' && buf.length) err(`${f}: not valid UTF-8`);
      const bad = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff]/.exec(text);
      if (bad) err(`${f}: control character U+${bad[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${bad.index}`);
    } else {
      for (let i = 0; i < buf.length; i++) {
        const b = buf[i]!;
        const crlf = (b === 0x0d && buf[i + 1] === 0x0a) || (b === 0x0a && buf[i - 1] === 0x0d);
        if ((b < 0x20 && !crlf) || (b >= 0x7f && b < 0xa0)) {
          err(`${f}: byte 0x${b.toString(16)} at offset ${i} is not printable Latin-1 (or a CRLF)`);
          break;
        }
      }
      text = buf.toString('latin1');
    }
    if (text.length > 0 && !text.endsWith('\r\n')) err(`${f}: does not end with CRLF`);
    const lines = text.split('\r\n');
    lines.pop();
    const parsed: string[][] = [];
    lines.forEach((line, i) => {
      if (!line.endsWith('$')) err(`${f}:${i + 1}: record does not end with '$'`);
      const fields = line.slice(0, -1).split('$');
      if (fields.length !== FIELD_COUNTS[f]) err(`${f}:${i + 1}: ${fields.length} fields, expected ${FIELD_COUNTS[f]}`);
      for (const idx of LEGACY_EMPTY[f] ?? []) if (fields[idx] !== '') err(`${f}:${i + 1}: field ${idx + 1} should be empty`);
      if (fields.some((x) => x !== x.trim())) err(`${f}:${i + 1}: field with surrounding spaces`);
      parsed.push(fields);
    });
    rows.set(f, parsed);
  }
  const get = (f: AscFile): string[][] => rows.get(f)!;
  const col = (r: string[], i: number): string => r[i] ?? '';
  const num = (f: AscFile, r: string[], i: number): number => {
    const v = col(r, i);
    if (!/^\d{8}$/.test(v)) err(`${f}: ${JSON.stringify(v)} is not an 8-digit code`);
    return Number(v);
  };

  // meddra_release.asc
  const rel = get('meddra_release.asc');
  if (rel.length !== 1 || col(rel[0] ?? [], 0) !== version || col(rel[0] ?? [], 1) !== language) {
    err(`meddra_release.asc should be ${version}$${language}$$$$`);
  }

  // Term files: unique codes and names per level.
  const level = (f: AscFile, label: string): Map<number, string[]> => {
    const m = new Map<number, string[]>();
    const names = new Map<string, number>();
    for (const r of get(f)) {
      const code = num(f, r, 0);
      if (m.has(code)) err(`${f}: duplicate ${label} code ${code}`);
      m.set(code, r);
      const name = col(r, 1);
      if (name === '' || [...name].length > 100) err(`${f}: ${label} ${code} has an empty or over-long name`);
      if (f !== 'llt.asc') {
        const k = nameKey(name);
        if (names.has(k)) err(`${f}: ${label} name "${name}" used by ${names.get(k)} and ${code}`);
        names.set(k, code);
      }
    }
    return m;
  };
  const socs = level('soc.asc', 'SOC');
  const hlgts = level('hlgt.asc', 'HLGT');
  const hlts = level('hlt.asc', 'HLT');
  const pts = level('pt.asc', 'PT');
  const llts = level('llt.asc', 'LLT');

  // Codes distinct across SOC/HLGT/HLT/PT; LLT codes are PT codes or unique.
  const owner = new Map<number, string>();
  for (const [label, m] of [['SOC', socs], ['HLGT', hlgts], ['HLT', hlts], ['PT', pts]] as const) {
    for (const c of m.keys()) {
      if (owner.has(c)) err(`code ${c} is both ${owner.get(c)} and ${label}`);
      owner.set(c, label);
    }
  }
  for (const c of llts.keys()) {
    const o = owner.get(c);
    if (o && o !== 'PT') err(`LLT code ${c} is also a ${o} code`);
  }
  for (const c of [...hlgts.keys(), ...hlts.keys()]) if (!isReserved(c)) err(`invented code ${c} outside 90000000-99999999`);
  for (const c of socs.keys()) if (isReserved(c)) err(`SOC code ${c} in the reserved range`);

  // Links.
  const socOfHlgt = new Map<number, number[]>();
  for (const r of get('soc_hlgt.asc')) {
    const s = num('soc_hlgt.asc', r, 0);
    const g = num('soc_hlgt.asc', r, 1);
    if (!socs.has(s)) err(`soc_hlgt.asc: unknown SOC ${s}`);
    if (!hlgts.has(g)) err(`soc_hlgt.asc: unknown HLGT ${g}`);
    socOfHlgt.set(g, [...(socOfHlgt.get(g) ?? []), s]);
  }
  const hlgtOfHlt = new Map<number, number[]>();
  for (const r of get('hlgt_hlt.asc')) {
    const g = num('hlgt_hlt.asc', r, 0);
    const h = num('hlgt_hlt.asc', r, 1);
    if (!hlgts.has(g)) err(`hlgt_hlt.asc: unknown HLGT ${g}`);
    if (!hlts.has(h)) err(`hlgt_hlt.asc: unknown HLT ${h}`);
    hlgtOfHlt.set(h, [...(hlgtOfHlt.get(h) ?? []), g]);
  }
  const hltsOfPt = new Map<number, number[]>();
  const linkSeen = new Set<string>();
  for (const r of get('hlt_pt.asc')) {
    const h = num('hlt_pt.asc', r, 0);
    const p = num('hlt_pt.asc', r, 1);
    if (!hlts.has(h)) err(`hlt_pt.asc: unknown HLT ${h}`);
    if (!pts.has(p)) err(`hlt_pt.asc: unknown PT ${p}`);
    if (linkSeen.has(`${h}|${p}`)) err(`hlt_pt.asc: duplicate link ${h}-${p}`);
    linkSeen.add(`${h}|${p}`);
    hltsOfPt.set(p, [...(hltsOfPt.get(p) ?? []), h]);
  }
  for (const g of hlgts.keys()) if ((socOfHlgt.get(g) ?? []).length !== 1) err(`HLGT ${g} is under ${(socOfHlgt.get(g) ?? []).length} SOCs, expected 1`);
  for (const h of hlts.keys()) if (!hlgtOfHlt.has(h)) err(`HLT ${h} is under no HLGT`);
  for (const g of hlgts.keys()) if (![...hlgtOfHlt.values()].some((l) => l.includes(g))) err(`HLGT ${g} has no HLT`);
  for (const h of hlts.keys()) if (![...hltsOfPt.values()].some((l) => l.includes(h))) err(`HLT ${h} has no PT`);
  for (const p of pts.keys()) if (!hltsOfPt.has(p)) err(`PT ${p} is under no HLT`);

  // mdhier = every (PT, HLT, HLGT, SOC) path implied by the links, with consistent names and flags.
  const expected = new Set<string>();
  for (const [p, hs] of hltsOfPt) {
    for (const h of hs) for (const g of hlgtOfHlt.get(h) ?? []) for (const s of socOfHlgt.get(g) ?? []) expected.add(`${p}|${h}|${g}|${s}`);
  }
  const primaryCount = new Map<number, number>();
  const seenPaths = new Set<string>();
  for (const r of get('mdhier.asc')) {
    const [p, h, g, s] = [0, 1, 2, 3].map((i) => num('mdhier.asc', r, i)) as [number, number, number, number];
    const key = `${p}|${h}|${g}|${s}`;
    if (!expected.has(key)) err(`mdhier.asc: path ${key} not implied by the link files`);
    if (seenPaths.has(key)) err(`mdhier.asc: duplicate path ${key}`);
    seenPaths.add(key);
    const ptRow = pts.get(p);
    if (col(r, 4) !== col(ptRow ?? [], 1)) err(`mdhier.asc: PT name of ${p} differs from pt.asc`);
    if (col(r, 5) !== col(hlts.get(h) ?? [], 1)) err(`mdhier.asc: HLT name of ${h} differs from hlt.asc`);
    if (col(r, 6) !== col(hlgts.get(g) ?? [], 1)) err(`mdhier.asc: HLGT name of ${g} differs from hlgt.asc`);
    if (col(r, 7) !== col(socs.get(s) ?? [], 1)) err(`mdhier.asc: SOC name of ${s} differs from soc.asc`);
    if (col(r, 8) !== col(socs.get(s) ?? [], 2)) err(`mdhier.asc: SOC abbreviation of ${s} differs from soc.asc`);
    const ptSoc = num('mdhier.asc', r, 10);
    if (String(ptSoc) !== col(ptRow ?? [], 3)) err(`mdhier.asc: pt_soc_code of ${p} differs from pt.asc`);
    const flag = col(r, 11);
    if (flag !== 'Y' && flag !== 'N') err(`mdhier.asc: primary_soc_fg ${JSON.stringify(flag)}`);
    if ((flag === 'Y') !== (s === ptSoc)) err(`mdhier.asc: path ${key} has flag ${flag} but primary SOC ${ptSoc}`);
    if (flag === 'Y') primaryCount.set(p, (primaryCount.get(p) ?? 0) + 1);
  }
  for (const k of expected) if (!seenPaths.has(k)) err(`mdhier.asc: missing path ${k}`);
  for (const [p, r] of pts) {
    if ((primaryCount.get(p) ?? 0) !== 1) err(`PT ${p} has ${primaryCount.get(p) ?? 0} primary paths, expected 1`);
    if (!socs.has(Number(col(r, 3)))) err(`pt.asc: PT ${p} has unknown primary SOC ${col(r, 3)}`);
  }

  // LLTs.
  const lltNames = new Map<string, number>(); // name key -> pt code
  for (const [c, r] of llts) {
    const p = num('llt.asc', r, 2);
    if (!pts.has(p)) err(`llt.asc: LLT ${c} points to unknown PT ${p}`);
    const cur = col(r, 9);
    if (cur !== 'Y' && cur !== 'N') err(`llt.asc: LLT ${c} currency ${JSON.stringify(cur)}`);
    const k = nameKey(col(r, 1));
    const prev = lltNames.get(k);
    if (prev !== undefined && prev !== p) err(`llt.asc: name "${col(r, 1)}" under PTs ${prev} and ${p}`);
    lltNames.set(k, p);
    if (pts.has(c) && p !== c) err(`llt.asc: LLT ${c} has a PT's code but points to ${p}`);
    if (!pts.has(c) && !isReserved(c) && c >= 90000000) err(`llt.asc: LLT ${c} out of range`);
  }
  for (const [p, r] of pts) {
    const own = llts.get(p);
    if (!own) err(`PT ${p} has no own LLT`);
    else if (col(own, 1) !== col(r, 1) || col(own, 2) !== String(p) || col(own, 9) !== 'Y') {
      err(`PT ${p}: own LLT differs (name, pt_code or currency)`);
    }
  }

  // Group names never equal term names (keeps search results unambiguous).
  const termNames = new Set([...llts.values()].map((r) => nameKey(col(r, 1))));
  for (const [label, m] of [['HLGT', hlgts], ['HLT', hlts]] as const) {
    for (const [c, r] of m) if (termNames.has(nameKey(col(r, 1)))) err(`${label} ${c} "${col(r, 1)}" has the name of an LLT`);
  }

  // intl_ord.asc
  const ord = get('intl_ord.asc');
  const ordSocs = new Set(ord.map((r) => Number(col(r, 1))));
  if (ord.length !== socs.size || [...socs.keys()].some((s) => !ordSocs.has(s))) err('intl_ord.asc does not list every SOC once');
  const ordCodes = ord.map((r) => Number(col(r, 0)));
  if (new Set(ordCodes).size !== ordCodes.length || ordCodes.some((n) => !Number.isInteger(n) || n < 1)) err('intl_ord.asc: bad order codes');

  // ctcae_grade.asc
  const gradeCodes = new Set<number>();
  for (const r of get('ctcae_grade.asc')) {
    const c = num('ctcae_grade.asc', r, 0);
    if (!pts.has(c)) err(`ctcae_grade.asc: ${c} is not a PT`);
    if (gradeCodes.has(c)) err(`ctcae_grade.asc: duplicate ${c}`);
    gradeCodes.add(c);
    if (r.slice(1, 6).every((x) => x === '')) err(`ctcae_grade.asc: ${c} has no grade text`);
  }
  return { version, rows };
}

function decodeUtf8(buf: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return undefined;
  }
}

/**
 * A language folder against its English folder: the same files, the same records in the
 * same order, every field equal except the names (`nameFields`, per file) and the language
 * field of meddra_release.asc. Both are given as decoded records (lines without CRLF).
 */
export function checkLanguageFolder(
  label: string,
  english: Map<string, string[]>,
  other: Map<string, string[]>,
  nameFields: Readonly<Record<string, readonly number[]>>,
  errors: string[],
): void {
  const err = (m: string): void => {
    errors.push(`${label}: ${m}`);
  };
  const files = new Set([...english.keys(), ...other.keys()]);
  for (const f of [...files].sort()) {
    const en = english.get(f);
    const ot = other.get(f);
    if (!en || !ot) {
      err(`${f} ${en ? 'missing' : 'not in the English folder'}`);
      continue;
    }
    if (en.length !== ot.length) err(`${f}: ${ot.length} records, English has ${en.length}`);
    const names = new Set(f === 'meddra_release.asc' ? [1] : (nameFields[f] ?? []));
    let reported = 0;
    for (let i = 0; i < Math.min(en.length, ot.length) && reported < 5; i++) {
      const a = en[i]!.split('$');
      const b = ot[i]!.split('$');
      if (a.length !== b.length) {
        err(`${f}:${i + 1}: ${b.length - 1} fields, English has ${a.length - 1}`);
        reported++;
        continue;
      }
      for (let j = 0; j < a.length; j++) {
        if (names.has(j) ? b[j] === '' && a[j] !== '' : a[j] !== b[j]) {
          err(`${f}:${i + 1}: field ${j + 1} is ${JSON.stringify(b[j])}, English has ${JSON.stringify(a[j])}`);
          reported++;
          break;
        }
      }
    }
  }
}

/** Checks across releases: group codes keep their names. */
export function checkAcross(all: Parsed[], errors: string[]): void {
  for (const f of ['soc.asc', 'hlgt.asc', 'hlt.asc'] as const) {
    const nameOf = new Map<string, string>();
    const codeOf = new Map<string, string>();
    for (const p of all) {
      for (const r of p.rows.get(f) ?? []) {
        const [code = '', name = ''] = r;
        const n = nameOf.get(code);
        if (n !== undefined && n !== name) errors.push(`${f}: code ${code} is "${n}" in one release and "${name}" in ${p.version}`);
        nameOf.set(code, name);
        const c = codeOf.get(name);
        if (c !== undefined && c !== code) errors.push(`${f}: "${name}" has codes ${c} and ${code} (${p.version})`);
        codeOf.set(name, code);
      }
    }
  }
}
