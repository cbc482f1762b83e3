// Impact of a release upgrade on coded data, row by row, on the two releases' in-memory
// indexes (O(1) per row: no SQL). Pure: the service layer validates input, loads the
// indexes, yields to the event loop between slices and fills in the search-based
// suggestions for retired codes (the only step that needs the search engine).
import { LEVELS, type Level } from '../levels.ts';
import { normalizeName } from '../text.ts';
import type { ReleaseIndex } from '../releaseIndex/releaseIndex.ts';
import { trigramCodes } from '../releaseIndex/trigram.ts';

export const IMPACT_KINDS = [
  'LLT_NON_CURRENT',
  'LLT_MOVED',
  'PT_DEMOTED',
  'LLT_PROMOTED',
  'RENAMED',
  'CODE_RETIRED',
  'PRIMARY_SOC_CHANGED',
  'HIERARCHY_CHANGED',
  'TERM_MISMATCH',
  'TRANSLATION_CHANGED',
] as const;
export type ImpactKind = (typeof IMPACT_KINDS)[number];

export const IMPACT_KIND_DESCRIPTIONS: Record<ImpactKind, string> = {
  LLT_NON_CURRENT: 'The LLT was made non-current: new coding must not use it.',
  LLT_MOVED: 'The LLT moved to another PT: cases now count under the new PT.',
  PT_DEMOTED: 'The PT was demoted to an LLT of another PT.',
  LLT_PROMOTED: 'The LLT was promoted to a PT of its own.',
  RENAMED: "The code's term was renamed.",
  CODE_RETIRED: 'The code no longer exists in the target release.',
  PRIMARY_SOC_CHANGED: "The primary SOC the code rolls up to changed.",
  HIERARCHY_CHANGED: 'The primary path (HLT or HLGT) the code rolls up to changed.',
  TERM_MISMATCH: 'The recorded term does not match the code’s term in the target release.',
  TRANSLATION_CHANGED: "The code's name changed in the report's language only (a translation correction): the primary language's name is unchanged.",
};

export type RecodeAction = 'KEEP' | 'RECODE' | 'REVIEW';

/** Codes are strings here, as the APIs show them. */
export interface NodeRef {
  code: string;
  term: string;
  level: Level;
}

export interface Suggestion {
  action: RecodeAction;
  /** The code to use (the row's own for KEEP); null for REVIEW without a candidate. */
  code: string | null;
  term: string | null;
  level: Level | null;
  reason: string;
}

export interface Impact {
  kind: ImpactKind;
  /** What changed, in words. */
  details: string;
  /** The value before and after (a term, a PT, a SOC, a path), as text. */
  before: string | null;
  after: string | null;
  suggestion: Suggestion;
}

/** A code as one release sees it. */
export interface CodeState {
  /** PT when the code is a PT in the release (then also its own LLT), else LLT. */
  level: 'PT' | 'LLT';
  term: string;
  current: boolean;
  pt: NodeRef | null;
  hlt: NodeRef | null;
  hlgt: NodeRef | null;
  soc: NodeRef | null;
}

export interface ImpactRowInput {
  rowId: string;
  code: number;
  term: string | null;
  /** 1-based position among the input rows. */
  position: number;
  line: number | null;
}

export interface ImpactRowResult {
  rowId: string;
  code: string;
  recordedTerm: string | null;
  position: number;
  line: number | null;
  before: CodeState;
  /** Null when the code is retired (absent from the target release). */
  after: CodeState | null;
  impacts: Impact[];
}

const LLT_LEVEL = 4;

// Nodes and code states are interned per release index: 100,000 rows share a few
// thousand PT/HLT/HLGT/SOC objects instead of allocating ten objects each (memory, GC
// pauses). Both are immutable once made; they go with the index.
const nodesOf = new WeakMap<ReleaseIndex, Map<number, NodeRef>>();
const statesOf = new WeakMap<ReleaseIndex, Map<number, CodeState>>();

function node(ix: ReleaseIndex, level: Level, code: number): NodeRef | null {
  let nodes = nodesOf.get(ix);
  if (!nodes) nodesOf.set(ix, (nodes = new Map()));
  const key = LEVELS.indexOf(level) * 1e9 + code;
  let n = nodes.get(key);
  if (!n) {
    const i = ix.find(level, code);
    if (i < 0) return null;
    nodes.set(key, (n = Object.freeze({ code: String(code), term: ix.name[i]!, level })));
  }
  return n;
}

/** The code at LLT or PT level in a release (coded data holds those), or null. Shared: never mutate. */
export function codeState(ix: ReleaseIndex, code: number): CodeState | null {
  let states = statesOf.get(ix);
  if (!states) statesOf.set(ix, (states = new Map()));
  let s = states.get(code);
  if (s) return s;
  // Only codes of the release are kept (the map stays within the release's size, whatever clients send).
  s = computeState(ix, code) ?? undefined;
  if (s) states.set(code, s);
  return s ?? null;
}

function computeState(ix: ReleaseIndex, code: number): CodeState | null {
  const llt = ix.find('LLT', code);
  const pt = ix.find('PT', code);
  if (llt < 0 && pt < 0) return null;
  const ptCode = pt >= 0 ? code : ix.ptCode[llt]!;
  const path = ix.primaryPath('PT', ptCode);
  const at = (level: Level) => {
    const n = path?.find((p) => p.level === level);
    return n ? node(ix, level, n.code) : null;
  };
  return Object.freeze({
    level: pt >= 0 ? 'PT' : 'LLT',
    term: ix.name[llt >= 0 ? llt : pt]!,
    current: ix.current[llt >= 0 ? llt : pt] === 1,
    pt: node(ix, 'PT', ptCode),
    hlt: at('HLT'),
    hlgt: at('HLGT'),
    soc: at('SOC'),
  });
}

/** The level a code has when it is not at LLT or PT level (an SOC, HLGT or HLT), or null. */
export function otherLevel(ix: ReleaseIndex, code: number): Level | null {
  for (const level of ['SOC', 'HLGT', 'HLT'] as const) if (ix.find(level, code) >= 0) return level;
  return null;
}

/** pg_trgm-style similarity of two normalised names (shared distinct trigrams / union). */
export function nameSimilarity(a: string, b: string): number {
  const ta = new Set(trigramCodes(a));
  const tb = new Set(trigramCodes(b));
  if (!ta.size || !tb.size) return a === b ? 1 : 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** Per index: LLT entries by PT code, and current LLTs by normalised name (built once, on first use). */
interface Extras {
  lltsByPt: Map<number, number[]>;
  currentLltByName: Map<string, number>;
}
const extrasOf = new WeakMap<ReleaseIndex, Extras>();

export function indexExtras(ix: ReleaseIndex): Extras {
  let e = extrasOf.get(ix);
  if (!e) {
    e = { lltsByPt: new Map(), currentLltByName: new Map() };
    for (let i = 0; i < ix.size; i++) {
      if (ix.level[i] !== LLT_LEVEL) continue;
      const pt = ix.ptCode[i]!;
      let list = e.lltsByPt.get(pt);
      if (!list) e.lltsByPt.set(pt, (list = []));
      list.push(i);
      if (ix.current[i] === 1 && !e.currentLltByName.has(ix.norm[i]!)) e.currentLltByName.set(ix.norm[i]!, i);
    }
    extrasOf.set(ix, e);
  }
  return e;
}

const ptNumber = (s: CodeState): number | undefined => (s.pt ? Number(s.pt.code) : undefined);
const quote = (n: NodeRef | null) => (n ? `${n.level} ${n.code} '${n.term}'` : 'none');
const keep = (code: number, term: string, level: Level, reason: string): Suggestion => ({ action: 'KEEP', code: String(code), term, level, reason });

/**
 * For a non-current LLT: the current LLT of the same PT whose name is closest to the
 * recorded term (or to the LLT's own term), else the PT's own LLT.
 */
export function recodeNonCurrent(to: ReleaseIndex, ptCode: number | undefined, text: string): Suggestion {
  if (ptCode === undefined) return { action: 'REVIEW', code: null, term: null, level: null, reason: 'The LLT has no PT in the target release: code the case again.' };
  const norm = normalizeName(text);
  let best = -1;
  let bestScore = -1;
  for (const i of indexExtras(to).lltsByPt.get(ptCode) ?? []) {
    if (to.current[i] !== 1 || to.code[i] === ptCode) continue;
    const s = nameSimilarity(norm, to.norm[i]!);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  }
  const ptName = to.name[to.find('PT', ptCode)] ?? String(ptCode);
  if (best >= 0 && bestScore >= 0.3) {
    return {
      action: 'RECODE',
      code: String(to.code[best]!),
      term: to.name[best]!,
      level: 'LLT',
      reason: `Current LLT of the same PT ${ptCode} '${ptName}' closest to '${text}' (similarity ${bestScore.toFixed(2)}).`,
    };
  }
  const own = to.find('LLT', ptCode);
  return {
    action: 'RECODE',
    code: String(ptCode),
    term: own >= 0 ? to.name[own]! : ptName,
    level: 'LLT',
    reason: `No current LLT of PT ${ptCode} '${ptName}' is close to '${text}': the PT's own LLT.`,
  };
}

/** Placeholder of a retired code's suggestion until the service's search fills it in. */
export const PENDING_SEARCH: Suggestion = { action: 'REVIEW', code: null, term: null, level: null, reason: 'No term in the target release matches.' };

/**
 * A rename seen in a non-primary language (the states' names) while the primary language's name
 * stayed: a translation correction (issue 28), its own kind. `primaryRenamed` says whether the
 * primary names differ; `languageName` names the language in the details.
 */
export function asTranslationChange(impacts: Impact[], code: number, primaryRenamed: boolean, languageName: string): Impact[] {
  if (primaryRenamed) return impacts;
  return impacts.map((i) =>
    i.kind === 'RENAMED'
      ? {
          ...i,
          kind: 'TRANSLATION_CHANGED',
          details: `${languageName} name of ${code} changed (translation): '${i.before}' → '${i.after}'.`,
          suggestion: { ...i.suggestion, reason: 'Same code, same concept: only the translation changed.' },
        }
      : i,
  );
}

/** Every impact of the upgrade on one row (before: the code in `from`; after: in `to`, null when retired). */
export function rowImpacts(row: ImpactRowInput, before: CodeState, after: CodeState | null, to: ReleaseIndex, toVersion: string): Impact[] {
  const out: Impact[] = [];
  const text = row.term ?? before.term;
  if (!after) {
    out.push({ kind: 'CODE_RETIRED', details: `Code ${row.code} '${before.term}' does not exist in release ${toVersion}.`, before: before.term, after: null, suggestion: PENDING_SEARCH });
    return out;
  }
  const code = row.code;
  const keepCode = (reason: string) => keep(code, after.term, 'LLT', reason);
  if (before.current && !after.current) {
    out.push({
      kind: 'LLT_NON_CURRENT',
      details: `LLT ${code} '${after.term}' is non-current in ${toVersion}.`,
      before: 'current',
      after: 'non-current',
      suggestion: recodeNonCurrent(to, ptNumber(after), text),
    });
  }
  const ptChanged = before.pt?.code !== after.pt?.code;
  if (before.level === 'PT' && after.level === 'LLT') {
    out.push({
      kind: 'PT_DEMOTED',
      details: `PT ${code} '${before.term}' is now an LLT of ${quote(after.pt)}.`,
      before: 'PT',
      after: `LLT of ${quote(after.pt)}`,
      suggestion: after.current
        ? keepCode(`The code stays valid as an LLT; cases now count under ${quote(after.pt)}.`)
        : recodeNonCurrent(to, ptNumber(after), text),
    });
  } else if (before.level === 'LLT' && after.level === 'PT') {
    out.push({
      kind: 'LLT_PROMOTED',
      details: `LLT ${code} '${before.term}' (of ${quote(before.pt)}) is now a PT.`,
      before: `LLT of ${quote(before.pt)}`,
      after: 'PT',
      suggestion: keepCode(`The code stays valid; cases now count under PT ${code} '${after.term}' instead of ${quote(before.pt)}.`),
    });
  } else if (ptChanged) {
    out.push({
      kind: 'LLT_MOVED',
      details: `LLT ${code} '${after.term}' moved from ${quote(before.pt)} to ${quote(after.pt)}.`,
      before: quote(before.pt),
      after: quote(after.pt),
      suggestion: keepCode(`The LLT stays valid; cases now count under ${quote(after.pt)}: review PT-level tables.`),
    });
  }
  if (before.term !== after.term) {
    out.push({
      kind: 'RENAMED',
      details: `Term of ${code} renamed from '${before.term}' to '${after.term}'.`,
      before: before.term,
      after: after.term,
      suggestion: keepCode('Same code, same concept: only the wording changed.'),
    });
  }
  if (before.soc && after.soc && before.soc.code !== after.soc.code) {
    out.push({
      kind: 'PRIMARY_SOC_CHANGED',
      details: `Primary SOC moved from ${quote(before.soc)} to ${quote(after.soc)}.`,
      before: quote(before.soc),
      after: quote(after.soc),
      suggestion: keepCode('The code stays valid; SOC-level counts move: review tables by primary SOC.'),
    });
  }
  if (before.hlt?.code !== after.hlt?.code || before.hlgt?.code !== after.hlgt?.code) {
    const path = (s: CodeState) => `${quote(s.hlgt)} > ${quote(s.hlt)}`;
    out.push({
      kind: 'HIERARCHY_CHANGED',
      details: `Primary path changed from ${path(before)} to ${path(after)}.`,
      before: path(before),
      after: path(after),
      suggestion: keepCode('The code stays valid; HLT/HLGT groupings change: review tables by HLT or HLGT.'),
    });
  }
  if (row.term !== null) {
    const recorded = normalizeName(row.term);
    if (recorded !== normalizeName(after.term)) {
      const matchedBefore = recorded === normalizeName(before.term);
      let suggestion: Suggestion;
      if (matchedBefore) {
        suggestion = keepCode(`The recorded term was the code's term in the source release; it now reads '${after.term}'.`);
      } else {
        const exact = indexExtras(to).currentLltByName.get(recorded);
        suggestion =
          exact !== undefined && to.code[exact] !== code
            ? { action: 'RECODE', code: String(to.code[exact]!), term: to.name[exact]!, level: 'LLT', reason: `The recorded term is exactly current LLT ${to.code[exact]} in the target release.` }
            : { action: 'REVIEW', code: String(code), term: after.term, level: 'LLT', reason: 'The recorded term matches neither this code nor any current LLT: check the coding.' };
      }
      out.push({
        kind: 'TERM_MISMATCH',
        details: matchedBefore
          ? `The recorded term '${row.term}' no longer matches the code's term '${after.term}'.`
          : `The recorded term '${row.term}' does not match the code's term '${after.term}'.`,
        before: row.term,
        after: after.term,
        suggestion,
      });
    }
  }
  return out;
}

export interface SocMovement {
  from: NodeRef;
  to: NodeRef;
  rows: number;
}

export interface PtDelta {
  pt: NodeRef;
  before: number;
  after: number;
  delta: number;
}

/** Accumulates the summary while rows are analysed: counts per kind, SOC moves, PT counts. */
export class ImpactTally {
  impacted = 0;
  readonly byKind = new Map<ImpactKind, number>();
  private readonly socMoves = new Map<string, SocMovement>();
  private readonly ptBefore = new Map<string, { pt: NodeRef; n: number }>();
  private readonly ptAfter = new Map<string, { pt: NodeRef; n: number }>();

  add(r: ImpactRowResult): void {
    if (r.impacts.length) this.impacted++;
    for (const k of new Set(r.impacts.map((i) => i.kind))) this.byKind.set(k, (this.byKind.get(k) ?? 0) + 1);
    const count = (m: Map<string, { pt: NodeRef; n: number }>, pt: NodeRef | null | undefined) => {
      if (!pt) return;
      const e = m.get(pt.code);
      if (e) e.n++;
      else m.set(pt.code, { pt, n: 1 });
    };
    count(this.ptBefore, r.before.pt);
    count(this.ptAfter, r.after?.pt);
    const a = r.before.soc;
    const b = r.after?.soc;
    if (a && b && a.code !== b.code) {
      const key = `${a.code}>${b.code}`;
      const m = this.socMoves.get(key);
      if (m) m.rows++;
      else this.socMoves.set(key, { from: a, to: b, rows: 1 });
    }
  }

  socMovements(): SocMovement[] {
    return [...this.socMoves.values()].sort((x, y) => y.rows - x.rows || Number(x.from.code) - Number(y.from.code) || Number(x.to.code) - Number(y.to.code));
  }

  /** PTs whose row count differs between the releases, the largest shift first. */
  ptDeltas(): PtDelta[] {
    const out: PtDelta[] = [];
    for (const code of new Set([...this.ptBefore.keys(), ...this.ptAfter.keys()])) {
      const b = this.ptBefore.get(code);
      const a = this.ptAfter.get(code);
      const before = b?.n ?? 0;
      const after = a?.n ?? 0;
      if (before !== after) out.push({ pt: (a ?? b)!.pt, before, after, delta: after - before });
    }
    return out.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || Number(x.pt.code) - Number(y.pt.code));
  }
}
