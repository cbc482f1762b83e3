// Turns raw MedAscii records into a validated release model. Every problem is
// collected with its file and line, so an operator sees all of them in one run.
import type { Level } from '../domain/levels.ts';
import { normalizeName } from '../domain/text.ts';
import { STORED_CODE } from '../domain/formats.ts';
import { FILES } from './files.ts';
import type { ImportIssue } from './errors.ts';
import type { MedAsciiFolder, RawRecord } from './medascii.ts';

export interface ConceptRow {
  level: Level;
  code: number;
  name: string;
  nameNorm: string;
  current: boolean;
  ptCode: number | null;
  primarySocCode: number | null;
  socAbbrev: string | null;
  intlOrder: number | null;
}

export interface LinkRow {
  parentLevel: Level;
  parentCode: number;
  childLevel: Level;
  childCode: number;
  isPrimary: boolean;
}

export interface PathRow {
  ptCode: number;
  hltCode: number;
  hlgtCode: number;
  socCode: number;
  isPrimary: boolean;
}

export interface GradeRow {
  code: number;
  grade: number;
  definition: string;
}

export interface SmqRow {
  code: number;
  name: string;
  level: number;
  description: string;
  source: string;
  note: string;
  version: string;
  status: string;
  algorithm: string;
}

export interface SmqTermRow {
  smqCode: number;
  termCode: number;
  termLevel: number;
  termScope: number;
  termCategory: string;
  termWeight: number;
  termStatus: string;
  termAdditionVersion: string;
  termLastModifiedVersion: string;
}

export interface HistoryRow {
  termCode: number;
  termName: string;
  termAdditionVersion: string;
  termType: string;
  lltCurrency: string;
  action: string;
}

export interface ReleaseModel {
  version: string;
  /** As meddra_release.asc names it (English). */
  language: string;
  /** BCP 47 tag of the folder's language (or the --language override). */
  languageTag: string;
  concepts: ConceptRow[];
  links: LinkRow[];
  paths: PathRow[];
  grades: GradeRow[];
  smqs: SmqRow[];
  smqTerms: SmqTermRow[];
  history: HistoryRow[];
  counts: Record<Level, number>;
}


class Collector {
  constructor(readonly issues: ImportIssue[]) {}
  add(file: string, line: number, message: string) {
    this.issues.push({ file, line, message });
  }
  code(file: string, rec: RawRecord, index: number, what: string): number | null {
    const v = rec.fields[index] ?? '';
    if (!STORED_CODE.test(v)) {
      this.add(file, rec.line, v === '' ? `${what} is empty` : `${what} '${v}' is not a valid code (1–9 digits)`);
      return null;
    }
    return Number(v);
  }
  int(file: string, rec: RawRecord, index: number, what: string, allowEmpty = false): number | null {
    const v = rec.fields[index] ?? '';
    if (v === '' && allowEmpty) return 0;
    if (!/^-?[0-9]+$/.test(v)) {
      this.add(file, rec.line, `${what} '${v}' is not an integer`);
      return null;
    }
    return Number(v);
  }
  name(file: string, rec: RawRecord, index: number, what: string): string | null {
    const v = rec.fields[index] ?? '';
    if (v === '') {
      this.add(file, rec.line, `${what} is empty`);
      return null;
    }
    return v;
  }
}

interface Node {
  name: string;
  line: number;
}

function yn(c: Collector, file: string, rec: RawRecord, index: number, what: string): boolean | null {
  const v = (rec.fields[index] ?? '').toUpperCase();
  if (v === 'Y') return true;
  if (v === 'N') return false;
  c.add(file, rec.line, `${what} must be Y or N, found '${rec.fields[index] ?? ''}'`);
  return null;
}

/** The records of one file of the folder (none when the file is absent). */
type Records = (file: keyof typeof FILES) => RawRecord[];

interface Concepts {
  socs: Map<number, Node & { abbrev: string }>;
  hlgts: Map<number, Node>;
  hlts: Map<number, Node>;
  pts: Map<number, Node & { socCode: number | null; socLine: number }>;
  llts: Map<number, Node & { ptCode: number; current: boolean }>;
}

type Edge = { parent: number; child: number; line: number };
interface Edges {
  socHlgt: Edge[];
  hlgtHlt: Edge[];
  hltPt: Edge[];
}

/**
 * The release model of a MedAscii folder. Each part below reads its files and reports what is
 * wrong with them; they run in this order, so the issues come file by file as before.
 */
export function buildModel(folder: MedAsciiFolder): ReleaseModel {
  const c = new Collector(folder.issues);
  const recs: Records = (k) => folder.records[k] ?? [];
  const concepts = readConcepts(c, recs);
  const edges = readEdges(c, recs, concepts);
  const paths = readPaths(c, recs, concepts, edges);
  const intlOrder = readIntlOrder(c, recs, concepts);
  const links = linkRows(concepts, edges, paths);
  const grades = readGrades(c, recs, concepts);
  const smqs = readSmqs(c, recs);
  const smqTerms = readSmqTerms(c, recs, concepts, smqs);
  const history = readHistory(c, recs);
  const { socs, hlgts, hlts, pts, llts } = concepts;
  return {
    version: folder.version,
    language: folder.language,
    languageTag: folder.languageTag,
    concepts: conceptRows(concepts, intlOrder),
    links,
    paths,
    grades,
    smqs,
    smqTerms,
    history,
    counts: { SOC: socs.size, HLGT: hlgts.size, HLT: hlts.size, PT: pts.size, LLT: llts.size },
  };
}

/** The concepts of each level (soc, hlgt, hlt, pt, llt files): codes and names unique, parents known, each PT its own LLT. */
function readConcepts(c: Collector, recs: Records): Concepts {
  const socs: Concepts['socs'] = new Map();
  const hlgts: Concepts['hlgts'] = new Map();
  const hlts: Concepts['hlts'] = new Map();
  const pts: Concepts['pts'] = new Map();
  const llts: Concepts['llts'] = new Map();

  function unique<T>(map: Map<number, T>, file: string, rec: RawRecord, code: number, value: T) {
    const prior = map.get(code) as { line?: number } | undefined;
    if (prior) c.add(file, rec.line, `duplicate code ${code} (first at line ${prior.line})`);
    else map.set(code, value);
  }

  for (const r of recs('soc')) {
    const code = c.code(FILES.soc.name, r, 0, 'soc_code');
    const name = c.name(FILES.soc.name, r, 1, 'soc_name');
    if (code !== null && name !== null) unique(socs, FILES.soc.name, r, code, { name, line: r.line, abbrev: r.fields[2] ?? '' });
  }
  for (const [key, map] of [['hlgt', hlgts], ['hlt', hlts]] as const) {
    const file = FILES[key].name;
    for (const r of recs(key)) {
      const code = c.code(file, r, 0, `${key}_code`);
      const name = c.name(file, r, 1, `${key}_name`);
      if (code !== null && name !== null) unique(map, file, r, code, { name, line: r.line });
    }
  }
  for (const r of recs('pt')) {
    const f = FILES.pt.name;
    const code = c.code(f, r, 0, 'pt_code');
    const name = c.name(f, r, 1, 'pt_name');
    let socCode: number | null = null;
    if ((r.fields[3] ?? '') === '') c.add(f, r.line, `PT ${code ?? r.fields[0]} has no primary SOC (pt_soc_code is empty)`);
    else socCode = c.code(f, r, 3, 'pt_soc_code');
    if (socCode !== null && !socs.has(socCode)) c.add(f, r.line, `unknown primary SOC code ${socCode}`);
    if (code !== null && name !== null) unique(pts, f, r, code, { name, line: r.line, socCode, socLine: r.line });
  }
  for (const r of recs('llt')) {
    const f = FILES.llt.name;
    const code = c.code(f, r, 0, 'llt_code');
    const name = c.name(f, r, 1, 'llt_name');
    const ptCode = c.code(f, r, 2, 'pt_code');
    const current = yn(c, f, r, 9, 'llt_currency');
    if (ptCode !== null && !pts.has(ptCode)) c.add(f, r.line, `unknown parent code: PT ${ptCode}`);
    if (code !== null && name !== null && ptCode !== null && current !== null) {
      unique(llts, f, r, code, { name, line: r.line, ptCode, current });
    }
  }
  for (const [code, pt] of pts) {
    const own = llts.get(code);
    if (!own) c.add(FILES.pt.name, pt.line, `PT ${code} has no LLT of its own in ${FILES.llt.name}`);
    else if (own.ptCode !== code) c.add(FILES.llt.name, own.line, `LLT ${code} shares its code with a PT but belongs to PT ${own.ptCode}`);
  }

  return { socs, hlgts, hlts, pts, llts };
}

/** The parent → child links of the upper levels (soc_hlgt, hlgt_hlt, hlt_pt): both ends known, no duplicates, every child linked. */
function readEdges(c: Collector, recs: Records, { socs, hlgts, hlts, pts }: Concepts): Edges {
  function edges(key: 'socHlgt' | 'hlgtHlt' | 'hltPt', parents: Map<number, unknown>, children: Map<number, unknown>, pl: Level, cl: Level) {
    const file = FILES[key].name;
    const seen = new Map<string, number>();
    const out: Edge[] = [];
    for (const r of recs(key)) {
      const parent = c.code(file, r, 0, `${pl.toLowerCase()}_code`);
      const child = c.code(file, r, 1, `${cl.toLowerCase()}_code`);
      if (parent === null || child === null) continue;
      let ok = true;
      if (!parents.has(parent)) {
        c.add(file, r.line, `unknown parent code: ${pl} ${parent}`);
        ok = false;
      }
      if (!children.has(child)) {
        c.add(file, r.line, `unknown child code: ${cl} ${child}`);
        ok = false;
      }
      const k = `${parent}/${child}`;
      if (seen.has(k)) {
        c.add(file, r.line, `duplicate link ${pl} ${parent} → ${cl} ${child} (first at line ${seen.get(k)})`);
        ok = false;
      }
      seen.set(k, r.line);
      if (ok) out.push({ parent, child, line: r.line });
    }
    const linked = new Set(out.map((e) => e.child));
    for (const [code, node] of children as Map<number, Node>) {
      if (!linked.has(code)) {
        // Reported against the child's own file, where the operator will look for it.
        c.add(FILES[cl.toLowerCase() as 'hlgt' | 'hlt' | 'pt'].name, node.line, `${cl} ${code} has no parent ${pl} in ${file}`);
      }
    }
    return out;
  }
  const socHlgt = edges('socHlgt', socs, hlgts, 'SOC', 'HLGT');
  const hlgtHlt = edges('hlgtHlt', hlgts, hlts, 'HLGT', 'HLT');
  const hltPt = edges('hltPt', hlts, pts, 'HLT', 'PT');

  return { socHlgt, hlgtHlt, hltPt };
}

/** mdhier: every PT's full paths up to a SOC over known links, exactly one primary path per PT. */
function readPaths(c: Collector, recs: Records, { socs, hlgts, hlts, pts }: Concepts, { socHlgt, hlgtHlt, hltPt }: Edges): PathRow[] {
  const f = FILES.mdhier.name;
  const edgeSet = (es: Edge[]) => new Set(es.map((e) => `${e.parent}/${e.child}`));
  const socHlgtSet = edgeSet(socHlgt);
  const hlgtHltSet = edgeSet(hlgtHlt);
  const hltPtSet = edgeSet(hltPt);
  const paths: PathRow[] = [];
  const primaryCount = new Map<number, number>();
  const coveredHltPt = new Set<string>();
  const seenPaths = new Set<string>();
  for (const r of recs('mdhier')) {
    const pt = c.code(f, r, 0, 'pt_code');
    const hlt = c.code(f, r, 1, 'hlt_code');
    const hlgt = c.code(f, r, 2, 'hlgt_code');
    const soc = c.code(f, r, 3, 'soc_code');
    const ptSoc = c.code(f, r, 10, 'pt_soc_code');
    const primary = yn(c, f, r, 11, 'primary_soc_fg');
    if (pt === null || hlt === null || hlgt === null || soc === null || ptSoc === null || primary === null) continue;
    let ok = true;
    for (const [lvl, code, map] of [['PT', pt, pts], ['HLT', hlt, hlts], ['HLGT', hlgt, hlgts], ['SOC', soc, socs]] as const) {
      if (!(map as Map<number, unknown>).has(code)) {
        c.add(f, r.line, `unknown ${lvl} code ${code}`);
        ok = false;
      }
    }
    if (!ok) continue;
    if (!hltPtSet.has(`${hlt}/${pt}`)) c.add(f, r.line, `path uses link HLT ${hlt} → PT ${pt}, which is not in ${FILES.hltPt.name}`);
    if (!hlgtHltSet.has(`${hlgt}/${hlt}`)) c.add(f, r.line, `path uses link HLGT ${hlgt} → HLT ${hlt}, which is not in ${FILES.hlgtHlt.name}`);
    if (!socHlgtSet.has(`${soc}/${hlgt}`)) c.add(f, r.line, `path uses link SOC ${soc} → HLGT ${hlgt}, which is not in ${FILES.socHlgt.name}`);
    const ptRow = pts.get(pt)!;
    if (ptRow.socCode !== null && ptSoc !== ptRow.socCode) {
      c.add(f, r.line, `pt_soc_code ${ptSoc} disagrees with ${FILES.pt.name} (primary SOC ${ptRow.socCode})`);
    }
    if (primary && ptRow.socCode !== null && soc !== ptRow.socCode) {
      c.add(f, r.line, `primary path of PT ${pt} ends in SOC ${soc}, not its primary SOC ${ptRow.socCode}`);
    }
    const key = `${pt}/${hlt}/${hlgt}/${soc}`;
    if (seenPaths.has(key)) {
      c.add(f, r.line, `duplicate path ${key}`);
      continue;
    }
    seenPaths.add(key);
    if (primary) primaryCount.set(pt, (primaryCount.get(pt) ?? 0) + 1);
    coveredHltPt.add(`${hlt}/${pt}`);
    paths.push({ ptCode: pt, hltCode: hlt, hlgtCode: hlgt, socCode: soc, isPrimary: primary });
  }
  for (const [code, pt] of pts) {
    const n = primaryCount.get(code) ?? 0;
    if (n === 0) c.add(FILES.pt.name, pt.line, `PT ${code} has no primary path in ${f} (no row with primary_soc_fg = Y)`);
    if (n > 1) c.add(FILES.pt.name, pt.line, `PT ${code} has ${n} primary paths in ${f}; exactly one is allowed`);
  }
  for (const e of hltPt) {
    if (!coveredHltPt.has(`${e.parent}/${e.child}`)) {
      c.add(FILES.hltPt.name, e.line, `link HLT ${e.parent} → PT ${e.child} has no path in ${f}`);
    }
  }

  return paths;
}

/** intl_ord: the international order of the SOCs. */
function readIntlOrder(c: Collector, recs: Records, { socs }: Concepts): Map<number, number> {
  const intlOrder = new Map<number, number>();
  for (const r of recs('intlOrd')) {
    const file = FILES.intlOrd.name;
    const ord = c.int(file, r, 0, 'intl_ord_code');
    const soc = c.code(file, r, 1, 'soc_code');
    if (ord === null || soc === null) continue;
    if (!socs.has(soc)) c.add(file, r.line, `unknown SOC code ${soc}`);
    else if (intlOrder.has(soc)) c.add(file, r.line, `SOC ${soc} is ordered twice`);
    else intlOrder.set(soc, ord);
  }

  return intlOrder;
}

/** Every link, the primary flag on each: PT edges from mdhier's primary paths, LLTs under their PT. */
function linkRows({ pts, llts }: Concepts, { socHlgt, hlgtHlt, hltPt }: Edges, paths: PathRow[]): LinkRow[] {
  const primaryEdges = new Set<string>();
  for (const p of paths) {
    if (!p.isPrimary) continue;
    primaryEdges.add(`HLT/${p.hltCode}/${p.ptCode}`);
    primaryEdges.add(`HLGT/${p.hlgtCode}/${p.hltCode}`);
    primaryEdges.add(`SOC/${p.socCode}/${p.hlgtCode}`);
  }
  const parentCount = (es: Edge[]) => {
    const m = new Map<number, number>();
    for (const e of es) m.set(e.child, (m.get(e.child) ?? 0) + 1);
    return m;
  };
  const links: LinkRow[] = [];
  for (const [es, pl, cl] of [[socHlgt, 'SOC', 'HLGT'], [hlgtHlt, 'HLGT', 'HLT'], [hltPt, 'HLT', 'PT']] as const) {
    const counts = parentCount(es);
    for (const e of es) {
      // PT edges follow mdhier's flag; an HLT/HLGT with a single parent is primary there by definition.
      const isPrimary = primaryEdges.has(`${pl}/${e.parent}/${e.child}`) || (cl !== 'PT' && counts.get(e.child) === 1);
      links.push({ parentLevel: pl, parentCode: e.parent, childLevel: cl, childCode: e.child, isPrimary });
    }
  }
  for (const [code, l] of llts) {
    if (pts.has(l.ptCode)) links.push({ parentLevel: 'PT', parentCode: l.ptCode, childLevel: 'LLT', childCode: code, isPrimary: true });
  }

  return links;
}

/** The optional grades file: grades 1–5 and a definition per term. */
function readGrades(c: Collector, recs: Records, { pts, llts }: Concepts): GradeRow[] {
  const grades: GradeRow[] = [];
  for (const r of recs('grades')) {
    const file = FILES.grades.name;
    const code = c.code(file, r, 0, 'term_code');
    if (code === null) continue;
    if (!pts.has(code) && !llts.has(code)) c.add(file, r.line, `unknown term code ${code}`);
    // Grades 1–5 in fields 1–5, the term's definition as grade 0.
    for (let g = 1; g <= 5; g++) {
      const d = r.fields[g] ?? '';
      if (d !== '' && d !== '-') grades.push({ code, grade: g, definition: d });
    }
    if (r.fields[6]) grades.push({ code, grade: 0, definition: r.fields[6] });
  }
  return grades;
}

/** The optional SMQ list. */
function readSmqs(c: Collector, recs: Records): SmqRow[] {
  const smqs: SmqRow[] = [];
  for (const r of recs('smqList')) {
    const file = FILES.smqList.name;
    const code = c.code(file, r, 0, 'smq_code');
    const level = c.int(file, r, 2, 'smq_level');
    if (code === null || level === null) continue;
    if (level < 1 || level > 5) c.add(file, r.line, `smq_level ${level} is not between 1 and 5`);
    const [, name = '', , description = '', source = '', note = '', version = '', status = '', algorithm = ''] = r.fields;
    smqs.push({ code, name, level, description, source, note, version, status, algorithm });
  }
  return smqs;
}

/** The optional SMQ content: each row's SMQ and term known, its level and scope valid, no duplicates. */
function readSmqTerms(c: Collector, recs: Records, { pts, llts }: Concepts, smqs: SmqRow[]): SmqTermRow[] {
  const smqCodes = new Set(smqs.map((s) => s.code));
  const smqTerms: SmqTermRow[] = [];
  const smqRowKeys = new Set<string>();
  for (const r of recs('smqContent')) {
    const file = FILES.smqContent.name;
    const smqCode = c.code(file, r, 0, 'smq_code');
    const termCode = c.code(file, r, 1, 'term_code');
    const termLevel = c.int(file, r, 2, 'term_level');
    const termScope = c.int(file, r, 3, 'term_scope', true);
    const termWeight = c.int(file, r, 5, 'term_weight', true);
    if (smqCode === null || termCode === null || termLevel === null || termScope === null || termWeight === null) continue;
    if (!smqCodes.has(smqCode)) c.add(file, r.line, `unknown SMQ code ${smqCode}`);
    // term_level 0 = a sub-SMQ, 4 = PT, 5 = LLT; term_scope 0 (sub-SMQ rows), 1 broad, 2 narrow.
    if (termLevel === 0 ? !smqCodes.has(termCode) : termLevel === 4 ? !pts.has(termCode) : termLevel === 5 ? !llts.has(termCode) : true) {
      c.add(file, r.line, [0, 4, 5].includes(termLevel) ? `unknown ${termLevel === 0 ? 'sub-SMQ' : termLevel === 4 ? 'PT' : 'LLT'} code ${termCode}` : `term_level ${termLevel} is not 0 (sub-SMQ), 4 (PT) or 5 (LLT)`);
    }
    if (termScope < 0 || termScope > 2) c.add(file, r.line, `term_scope ${termScope} is not 0, 1 (broad) or 2 (narrow)`);
    const smqKey = `${smqCode}:${termLevel}:${termCode}`;
    if (smqRowKeys.has(smqKey)) c.add(file, r.line, `duplicate row: term ${termCode} at level ${termLevel} is already listed in SMQ ${smqCode}`);
    smqRowKeys.add(smqKey);
    smqTerms.push({
      smqCode, termCode, termLevel, termScope, termWeight,
      termCategory: r.fields[4] ?? '', termStatus: r.fields[6] ?? '',
      termAdditionVersion: r.fields[7] ?? '', termLastModifiedVersion: r.fields[8] ?? '',
    });
  }
  return smqTerms;
}

/** The optional term history. */
function readHistory(c: Collector, recs: Records): HistoryRow[] {
  const history: HistoryRow[] = [];
  for (const r of recs('history')) {
    const termCode = c.code(FILES.history.name, r, 0, 'term_code');
    if (termCode === null) continue;
    const [, termName = '', termAdditionVersion = '', termType = '', lltCurrency = '', action = ''] = r.fields;
    history.push({ termCode, termName, termAdditionVersion, termType, lltCurrency, action });
  }

  return history;
}

/** The concept rows as stored, level by level. */
function conceptRows({ socs, hlgts, hlts, pts, llts }: Concepts, intlOrder: Map<number, number>): ConceptRow[] {
  const concept = (level: Level, code: number, name: string, extra: Partial<ConceptRow> = {}): ConceptRow => ({
    level, code, name, nameNorm: normalizeName(name), current: true,
    ptCode: null, primarySocCode: null, socAbbrev: null, intlOrder: null, ...extra,
  });
  return [
    ...[...socs].map(([code, s]) => concept('SOC', code, s.name, { socAbbrev: s.abbrev || null, intlOrder: intlOrder.get(code) ?? null })),
    ...[...hlgts].map(([code, s]) => concept('HLGT', code, s.name)),
    ...[...hlts].map(([code, s]) => concept('HLT', code, s.name)),
    ...[...pts].map(([code, s]) => concept('PT', code, s.name, { primarySocCode: s.socCode })),
    ...[...llts].map(([code, s]) => concept('LLT', code, s.name, { ptCode: s.ptCode, current: s.current })),
  ];
}
