// The TAC 2017 ADR benchmark (training half, read at run time from shared data) and a
// throw-away MedAscii release built from its gold PT/LLT vocabulary. Nothing of it is
// ever written inside the repository: the release goes to a temporary directory.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

/** [mention, pt_name, pt_code, llt_name, llt_code, start, length, kind]; offsets are strings, some null. */
export type TacEvent = [
  mention: string,
  ptName: string | null,
  ptCode: number | null,
  lltName: string | null,
  lltCode: number | null,
  start: string | null,
  length: string | null,
  kind: string,
];

export interface TacRecord {
  label_id: string;
  section_name: string;
  section_text: string;
  adverse_events: TacEvent[];
}

export type Split = 'dev' | 'test';

export function readTac(file: string): TacRecord[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(data)) throw new Error(`${file}: expected a JSON array of label sections`);
  return data as TacRecord[];
}

/** FNV-1a (32-bit) of the UTF-8 bytes: a stable, platform-independent hash. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Deterministic split by label: even hash → dev, odd → test (the former two-way split; kept for reference). */
export function splitOf(labelId: string): Split {
  return fnv1a(labelId) % 2 === 0 ? 'dev' : 'test';
}

/** Folds of the cross-validation by label (drug): every section of a label falls in one fold. */
export const FOLDS = 5;

/**
 * Cross-validation folds by label: labels ordered by FNV-1a of their id (ties by id) and dealt
 * round-robin, so folds are balanced (±1 label) and stable.
 */
export function assignFolds(labelIds: readonly string[], folds = FOLDS): Map<string, number> {
  const order = [...new Set(labelIds)].sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : a > b ? 1 : 0));
  return new Map(order.map((id, i) => [id, i % folds]));
}

/** Gold ADRs of a label: PTs of human adverse events (TAC task 4 excludes animal and drug-class mentions). */
export function isGoldEvent(e: TacEvent): boolean {
  return e[7] === 'human' && e[2] !== null;
}

export interface EvalLabel {
  labelId: string;
  split: Split;
  /** Cross-validation fold (0 … FOLDS − 1), by label. */
  fold: number;
  /** Sections joined in file order, each starting with its own heading. */
  text: string;
  gold: Set<number>;
  /** Gold mentions (text → PT), deduplicated per label. */
  mentions: { text: string; ptCode: number }[];
  /** The label's sections with the character spans of their gold (human) mentions. */
  sections: { name: string; text: string; spans: { start: number; end: number }[] }[];
}

/** Character spans of a section's gold mentions (human adverse reactions with offsets). */
export function goldSpans(r: TacRecord): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const e of r.adverse_events) {
    if (!isGoldEvent(e) || e[5] === null || e[6] === null) continue;
    const start = Number(e[5]);
    const length = Number(e[6]);
    if (Number.isFinite(start) && Number.isFinite(length) && length > 0) out.push({ start, end: start + length });
  }
  return out;
}

export function groupLabels(records: readonly TacRecord[]): EvalLabel[] {
  const byId = new Map<string, TacRecord[]>();
  for (const r of records) {
    const l = byId.get(r.label_id);
    if (l) l.push(r);
    else byId.set(r.label_id, [r]);
  }
  const out: EvalLabel[] = [];
  const folds = assignFolds([...byId.keys()]);
  for (const [labelId, recs] of [...byId.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const gold = new Set<number>();
    const seen = new Set<string>();
    const mentions: EvalLabel['mentions'] = [];
    for (const r of recs) {
      for (const e of r.adverse_events) {
        if (!isGoldEvent(e)) continue;
        gold.add(e[2]!);
        const k = `${e[0].toLowerCase()}\u0000${e[2]}`;
        if (!seen.has(k)) {
          seen.add(k);
          mentions.push({ text: e[0], ptCode: e[2]! });
        }
      }
    }
    out.push({
      labelId,
      split: splitOf(labelId),
      fold: folds.get(labelId)!,
      text: recs.map((r) => r.section_text).join('\n\n'),
      gold,
      mentions,
      sections: recs.map((r) => ({ name: r.section_name, text: r.section_text, spans: goldSpans(r) })),
    });
  }
  return out;
}

const rec = (fields: (string | number)[]) => `${fields.join('$')}$\r\n`;
const blanks = (n: number) => Array<string>(n).fill('');

/** What an evaluation release holds: PTs (code → name) and LLTs (code → name, PT). */
export interface ReleaseContent {
  pts: Map<number, string>;
  llts: Map<number, { name: string; pt: number }>;
  /** Distractor PTs added (terms from outside the benchmark; 0 for the gold-only release). */
  distractors: number;
}

/** The gold PT/LLT vocabulary of the records (the former, leaky evaluation release: every label's gold). */
export function goldRelease(records: readonly TacRecord[]): ReleaseContent {
  const pts = new Map<number, string>();
  const llts = new Map<number, { name: string; pt: number }>();
  for (const r of records) {
    for (const e of r.adverse_events) {
      const [, ptName, ptCode, lltName, lltCode] = e;
      if (ptCode === null || ptName === null) continue;
      if (!pts.has(ptCode)) pts.set(ptCode, ptName);
      if (lltCode !== null && lltName !== null && !llts.has(lltCode)) llts.set(lltCode, { name: lltName, pt: ptCode });
    }
  }
  return { pts, llts, distractors: 0 };
}

/** A term of an outside vocabulary (CTCAE): its MedDRA code and name. */
export interface OutsideTerm {
  code: number;
  name: string;
}

/**
 * The CTCAE terms (v4.03 and v5.0, shared data): real MedDRA LLT/PT names with their codes,
 * written independently of any drug label. "<SOC> - Other, specify" rows (SOC codes) are left out.
 */
export function readCtcaeTerms(dir: string): OutsideTerm[] {
  const out = new Map<number, string>();
  for (const file of ['CTCAE_v5.0.csv', 'CTCAE_4.03.csv']) {
    const p = path.join(dir, file);
    if (!existsSync(p)) continue;
    const rows = parse(readFileSync(p), { bom: true, relax_column_count: true }) as string[][];
    for (const row of rows.slice(1)) {
      const code = Number(row[0]);
      const name = (row[2] ?? '').trim();
      if (!Number.isInteger(code) || !name || /other, specify/i.test(name)) continue;
      if (!out.has(code)) out.set(code, name);
    }
  }
  return [...out].map(([code, name]) => ({ code, name }));
}

/**
 * The release one held-out fold is scored against, built so that it does not leak the fold:
 *   - PTs and LLTs of the OTHER labels' gold (a real release has them; they come from other drugs);
 *   - every gold PT name, held-out labels' included (a real release has every PT — only the PT
 *     name, never the held-out labels' LLT names, which are often the mention text verbatim);
 *   - outside terms (CTCAE) as distractors: a code already present is skipped; a code that is a
 *     gold LLT of some label is added as that LLT (the CTCAE wording, the release's own mapping);
 *     any other code is a PT of its own. A name already present under another code is skipped.
 */
export function foldRelease(records: readonly TacRecord[], heldOut: ReadonlySet<string>, outside: readonly OutsideTerm[]): ReleaseContent {
  const train = goldRelease(records.filter((r) => !heldOut.has(r.label_id)));
  const all = goldRelease(records);
  const { pts, llts } = train;
  for (const [code, name] of all.pts) if (!pts.has(code)) pts.set(code, name);
  const names = new Set<string>([...pts.values(), ...[...llts.values()].map((l) => l.name)].map((n) => n.toLowerCase()));
  let distractors = 0;
  for (const t of outside) {
    if (pts.has(t.code) || llts.has(t.code) || names.has(t.name.toLowerCase())) continue;
    const asLlt = all.llts.get(t.code);
    if (asLlt) llts.set(t.code, { name: t.name, pt: asLlt.pt });
    else {
      pts.set(t.code, t.name);
      distractors++;
    }
    names.add(t.name.toLowerCase());
  }
  return { pts, llts, distractors };
}

/**
 * Writes a minimal valid MedAscii release holding the given PTs and LLTs under one placeholder
 * SOC/HLGT/HLT (the importer requires the hierarchy). Returns the counts.
 */
export function writeEvalRelease(content: ReleaseContent, dir: string, version = 'tac2017-eval'): { pts: number; llts: number } {
  mkdirSync(dir, { recursive: true });
  const pts = content.pts;
  const llts = new Map(content.llts);
  // Every PT has an LLT of its own with the same code and name.
  for (const [code, name] of pts) {
    const own = llts.get(code);
    if (!own || own.pt !== code) llts.set(code, { name, pt: code });
  }
  const SOC = 99000001;
  const HLGT = 99000002;
  const HLT = 99000003;
  const sortedPts = [...pts.entries()].sort((a, b) => a[0] - b[0]);
  const files: Record<string, string> = {
    'meddra_release.asc': `${version}$English$$$$`,
    'soc.asc': rec([SOC, 'Evaluation placeholder SOC', 'EvalSOC', ...blanks(7)]),
    'hlgt.asc': rec([HLGT, 'Evaluation placeholder HLGT', ...blanks(7)]),
    'hlt.asc': rec([HLT, 'Evaluation placeholder HLT', ...blanks(7)]),
    'soc_hlgt.asc': rec([SOC, HLGT]),
    'hlgt_hlt.asc': rec([HLGT, HLT]),
    'intl_ord.asc': rec([1, SOC]),
    'pt.asc': sortedPts.map(([c, n]) => rec([c, n, '', SOC, ...blanks(7)])).join(''),
    'hlt_pt.asc': sortedPts.map(([c]) => rec([HLT, c])).join(''),
    'mdhier.asc': sortedPts
      .map(([c, n]) => rec([c, HLT, HLGT, SOC, n, 'Evaluation placeholder HLT', 'Evaluation placeholder HLGT', 'Evaluation placeholder SOC', 'EvalSOC', '', SOC, 'Y']))
      .join(''),
    'llt.asc': [...llts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([c, l]) => rec([c, l.name, l.pt, ...blanks(6), 'Y', '']))
      .join(''),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), Buffer.from(text, 'latin1'));
  return { pts: pts.size, llts: llts.size };
}
