// Coded lists against one release: validation (does each code exist, at which level, is it
// current, does the recorded term match, where does it roll up) and hierarchy analysis
// (roll-up counts by PT, HLT, HLGT and SOC along the primary path, and optionally every
// path, the way safety tables are built). Lookups run on the release's in-memory index;
// only the secondary paths of multiaxial PTs come from the database, batched.
import { codeState, otherLevel, type NodeRef } from '../domain/impact/analyse.ts';
import { validationError } from '../domain/errors.ts';
import { CODE_SYNTAX, codeNumber } from '../domain/formats.ts';
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import type { ReleaseIndex } from '../domain/releaseIndex/releaseIndex.ts';
import { normalizeName } from '../domain/text.ts';
import { MAX_CODE_LIST, MAX_PUBLIC_CODE_LIST, MAX_RECORDED_TERM_LENGTH } from './limits.ts';
import { underGate, type RequestScope } from './scope.ts';
import { listInputBytes, sliced } from './codedWork.ts';

export interface CodeListItem {
  code: string;
  term?: string | null;
}

export interface CodeListArgs {
  codes: readonly CodeListItem[];
  version?: string | null;
  /** BCP 47 tag of the names (a hosted language; issue 28): terms shown and recorded terms compared in it. */
  language?: string | null;
}

export interface ValidatedCode {
  /** 1-based position in the list. */
  position: number;
  code: string;
  recordedTerm: string | null;
  exists: boolean;
  /** PT or LLT (a PT is also its own LLT); SOC, HLGT or HLT for codes of those levels; null when unknown. */
  level: Level | null;
  /** The code's term in the release. */
  term: string | null;
  current: boolean | null;
  /** Null without a recorded term. */
  termMatches: boolean | null;
  pt: NodeRef | null;
  /** SOC → HLGT → HLT → PT (→ LLT) of the primary path. */
  primaryPath: NodeRef[];
  /** How many paths the PT has (more than one: multiaxial). */
  pathCount: number;
  multiaxial: boolean;
  /** Why the code cannot be used as it stands (empty when it can). */
  issues: string[];
}

export interface CodeValidation {
  release: ReleaseInfo;
  items: ValidatedCode[];
  summary: { items: number; valid: number; unknown: number; nonCurrent: number; termMismatches: number; multiaxial: number };
}

/** The refusal of a list longer than MAX_CODE_LIST (GraphQL's check before coercing the variable names it too: listWork.ts). */
export function tooManyCodes(got: number) {
  return validationError({ codes: [`at most ${MAX_CODE_LIST} codes per request (got ${got})`] });
}

async function checkList(scope: RequestScope, args: CodeListArgs): Promise<void> {
  if (args.codes.length > MAX_CODE_LIST) throw tooManyCodes(args.codes.length);
  if (args.codes.length > MAX_PUBLIC_CODE_LIST) {
    if (!scope.apiKeyPresented) {
      throw validationError({ codes: [`at most ${MAX_PUBLIC_CODE_LIST} codes per request without an API key (got ${args.codes.length}); with X-API-Key, up to ${MAX_CODE_LIST}`] });
    }
    await scope.requireApiKey('lists'); // a key that does not verify: 401
  }
  const errors: Record<string, string[]> = {};
  args.codes.forEach((c, k) => {
    if (c.term && c.term.length > MAX_RECORDED_TERM_LENGTH) errors[`codes.${k}.term`] = [`must be at most ${MAX_RECORDED_TERM_LENGTH} characters`];
  });
  if (Object.keys(errors).length) throw validationError(errors);
}

const nodeAt = (ix: ReleaseIndex, level: Level, code: number): NodeRef | null => {
  const i = ix.find(level, code);
  return i < 0 ? null : { code: String(code), term: ix.name[i]!, level };
};

/** The release and its index in the request's language (a language index shares the primary's hierarchy). */
async function releaseAndIndex(scope: RequestScope, version: string | null | undefined, language: string | null | undefined) {
  const release = await scope.selectRelease(version);
  const tag = scope.chooseLanguage(release, language);
  const db = scope.services.reader?.() ?? scope.services.prisma;
  const indexes = scope.services.catalog.searchIndexes;
  return { release, ix: tag === release.languages[0] ? await indexes.get(release.id, db) : await indexes.getLanguage(release.id, tag, db) };
}

/** Every path of each PT (SOC, HLGT, HLT, PT codes), one batched statement. */
async function allPaths(scope: RequestScope, release: ReleaseInfo, ptCodes: Iterable<number>): Promise<Map<number, { level: Level; code: number }[][]>> {
  const codes = [...new Set(ptCodes)];
  const found = await scope.loaders.paths.loadMany(codes.map((code) => ({ releaseId: release.id, level: 'PT' as const, code })));
  const out = new Map<number, { level: Level; code: number }[][]>();
  codes.forEach((code, k) => {
    const p = found[k];
    out.set(code, p instanceof Error || !p ? [] : p.map((path) => path.nodes.map((n) => ({ level: n.level, code: n.code }))));
  });
  return out;
}

export async function validateCodes(scope: RequestScope, args: CodeListArgs): Promise<CodeValidation> {
  await checkList(scope, args);
  return underGate(scope, 'lists', () => validateList(scope, args), () => listInputBytes(args.codes));
}

async function validateList(scope: RequestScope, args: CodeListArgs): Promise<CodeValidation> {
  const { release, ix } = await releaseAndIndex(scope, args.version, args.language);
  const states = await sliced(args.codes, (item) => {
    const raw = item.code.trim();
    const code = CODE_SYNTAX.test(raw) ? codeNumber(raw) : null;
    return { raw, code, state: code === null ? null : codeState(ix, code) };
  });
  const paths = await allPaths(scope, release, states.flatMap((s) => (s.state?.pt ? [Number(s.state.pt.code)] : [])));
  // Counted as each item is made, in its slice: five passes over 10,000 items after the last slice
  // held the serving thread 25-35 ms in one turn (85-133 ms on the slow host class).
  const summary = { items: args.codes.length, valid: 0, unknown: 0, nonCurrent: 0, termMismatches: 0, multiaxial: 0 };
  const count = (v: ValidatedCode): ValidatedCode => {
    if (v.issues.length === 0) summary.valid++;
    if (!v.exists) summary.unknown++;
    if (v.current === false) summary.nonCurrent++;
    if (v.termMatches === false) summary.termMismatches++;
    if (v.multiaxial) summary.multiaxial++;
    return v;
  };
  const items = await sliced(args.codes, (item, k) => count(validateItem(item, k)));
  return { release, items, summary };

  function validateItem(item: CodeListItem, k: number): ValidatedCode {
    const { raw, code, state } = states[k]!;
    const recordedTerm = item.term?.trim() ? item.term.trim() : null;
    const position = k + 1;
    if (!CODE_SYNTAX.test(raw)) return validatedCode(position, raw, recordedTerm, false, null, null, null, null, null, [], 0, ['malformed code: 1 to 12 digits expected']);
    if (!state) {
      const other = code === null ? null : otherLevel(ix, code);
      if (other) {
        const n = nodeAt(ix, other, code!)!;
        const path = (ix.primaryPath(other, code!) ?? []).map((p) => nodeAt(ix, p.level, p.code)!).filter(Boolean);
        const termMatches = recordedTerm === null ? null : normalizeName(recordedTerm) === normalizeName(n.term);
        const issues = [`an ${other} code: coded data holds LLT or PT codes`, ...(termMatches === false ? ['recorded term does not match'] : [])];
        return validatedCode(position, raw, recordedTerm, true, other, n.term, true, termMatches, null, path, 0, issues);
      }
      return validatedCode(position, raw, recordedTerm, false, null, null, null, null, null, [], 0, [`not in release ${release.version}`]);
    }
    const termMatches = recordedTerm === null ? null : normalizeName(recordedTerm) === normalizeName(state.term);
    const path = [state.soc, state.hlgt, state.hlt, state.pt].filter((n): n is NodeRef => !!n);
    if (state.level === 'LLT') path.push({ code: String(code!), term: state.term, level: 'LLT' });
    const pathCount = state.pt ? (paths.get(Number(state.pt.code))?.length ?? 0) : 0;
    const issues: string[] = [];
    if (!state.current) issues.push('non-current LLT: recode to a current LLT');
    if (termMatches === false) issues.push(`recorded term does not match '${state.term}'`);
    return validatedCode(position, raw, recordedTerm, true, state.level, state.term, state.current, termMatches, state.pt, path, pathCount, issues);
  }
}

/**
 * One validated item, always built by this one literal: items made as `{ ...base, ...fields }`
 * each had a hidden class of their own, so every later pass over 10,000 of them (the summary,
 * GraphQL's completion, JSON) read properties megamorphically, 10-20x slower (measured in Node 20).
 */
function validatedCode(
  position: number,
  code: string,
  recordedTerm: string | null,
  exists: boolean,
  level: Level | null,
  term: string | null,
  current: boolean | null,
  termMatches: boolean | null,
  pt: NodeRef | null,
  primaryPath: NodeRef[],
  pathCount: number,
  issues: string[],
): ValidatedCode {
  return { position, code, recordedTerm, exists, level, term, current, termMatches, pt, primaryPath, pathCount, multiaxial: pathCount > 1, issues };
}

export interface RollUp {
  code: number;
  term: string;
  level: Level;
  /** Items counted along their primary path. */
  count: number;
  /** Items counted along every path (each item once per node); null unless all paths were asked for. */
  allPathsCount: number | null;
}

export interface CodeAnalysis {
  release: ReleaseInfo;
  allPaths: boolean;
  items: number;
  counted: number;
  notCounted: { position: number; code: string; reason: string }[];
  pt: RollUp[];
  hlt: RollUp[];
  hlgt: RollUp[];
  soc: RollUp[];
}

export async function analyseCodes(scope: RequestScope, args: CodeListArgs & { allPaths?: boolean | null }): Promise<CodeAnalysis> {
  await checkList(scope, args);
  return underGate(scope, 'lists', () => analyseList(scope, args), () => listInputBytes(args.codes));
}

async function analyseList(scope: RequestScope, args: CodeListArgs & { allPaths?: boolean | null }): Promise<CodeAnalysis> {
  const { release, ix } = await releaseAndIndex(scope, args.version, args.language);
  const notCounted: CodeAnalysis['notCounted'] = [];
  const counted: NodeRef[] = [];
  const tables: Record<'SOC' | 'HLGT' | 'HLT' | 'PT', Map<number, RollUp>> = { SOC: new Map(), HLGT: new Map(), HLT: new Map(), PT: new Map() };
  const bump = (level: Level, code: number, field: 'count' | 'allPathsCount') => {
    const t = tables[level as keyof typeof tables];
    if (!t) return;
    let r = t.get(code);
    if (!r) {
      const n = nodeAt(ix, level, code);
      t.set(code, (r = { code, term: n?.term ?? String(code), level, count: 0, allPathsCount: args.allPaths ? 0 : null }));
    }
    r[field] = (r[field] ?? 0) + 1;
  };
  // Each item counted in its slice: counting 10,000 items' paths after the last slice, in one
  // pass, held the serving thread 15-20 ms in one turn (and as long again with allPaths).
  await sliced(args.codes, (item, k) => {
    const raw = item.code.trim();
    const code = CODE_SYNTAX.test(raw) ? codeNumber(raw) : null;
    const state = code === null ? null : codeState(ix, code);
    if (!state?.pt) {
      const other = code === null ? null : otherLevel(ix, code);
      notCounted.push({
        position: k + 1,
        code: raw,
        reason: !CODE_SYNTAX.test(raw) ? 'malformed code' : other ? `an ${other} code: only LLT and PT codes roll up` : `not in release ${release.version}`,
      });
      return;
    }
    counted.push(state.pt);
    for (const n of [state.soc, state.hlgt, state.hlt, state.pt]) if (n) bump(n.level, Number(n.code), 'count');
  });
  if (args.allPaths) {
    const paths = await allPaths(scope, release, counted.map((pt) => Number(pt.code)));
    await sliced(counted, (pt) => {
      const nodes = new Map<string, { level: Level; code: number }>();
      for (const path of paths.get(Number(pt.code)) ?? []) for (const n of path) nodes.set(`${n.level}:${n.code}`, n);
      for (const n of nodes.values()) bump(n.level, n.code, 'allPathsCount');
    });
  }
  const sorted = (m: Map<number, RollUp>) => [...m.values()].sort((a, b) => b.count - a.count || (b.allPathsCount ?? 0) - (a.allPathsCount ?? 0) || a.code - b.code);
  return {
    release,
    allPaths: !!args.allPaths,
    items: args.codes.length,
    counted: counted.length,
    notCounted,
    pt: sorted(tables.PT),
    hlt: sorted(tables.HLT),
    hlgt: sorted(tables.HLGT),
    soc: sorted(tables.SOC),
  };
}
