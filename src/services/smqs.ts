// SMQs (standardised queries): the list and search, one SMQ with its sub-SMQs and terms, the
// SMQs a code belongs to, what changed in SMQs between releases, and running an SMQ over a
// client's coded rows (narrow/broad matches, and the category rule of algorithmic SMQs per case).
import { DomainError, validationDetail, validationError } from '../domain/errors.ts';
import { clip } from '../domain/clientText.ts';
import { CODE_SYNTAX, codeNumber } from '../domain/formats.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import {
  activeSmqTerms, codeLevels, listSmqRows, SCOPE_OF, smqChangeRows, smqsInLanguage, smqTermPage,
  type CodeSmqRow, type Smq, type SmqChange, type SmqChangeCounts, type SmqChangeType, type SmqScope, type SmqTerm, type SmqTermLevel,
} from '../domain/smqs.ts';
import { AlgorithmSyntaxError, evaluateAlgorithm, isAlgorithmic, parseAlgorithm } from '../domain/smqAlgorithm.ts';
import { parseCode, rowText } from './arguments.ts';
import { resolveBaseline } from './changes.ts';
import type { ReleaseConcept } from './codes.ts';
import { MAX_QUERY_LENGTH, SMQ_APPLY_MAX_ERRORS, SMQ_APPLY_MAX_ID, SMQ_APPLY_MAX_ROWS } from './limits.ts';
import type { Page, PageRequest } from './paging.ts';
import { underGate, type RequestScope } from './scope.ts';
import { foldSearchText } from '../domain/languageNames.ts';
import { listInputBytes } from './codedWork.ts';

export { SMQ_CHANGE_TYPES, type SmqChangeCounts } from '../domain/smqs.ts';

/** An SMQ with the identifier of its release. */
export type ReleaseSmq = Smq & { version: string };
export type ReleaseSmqTerm = SmqTerm & { version: string };

const withVersion = (s: Smq, version: string): ReleaseSmq => ({ ...s, version });

// Names in the request's language for the release (issue 28): the root field chose it
// (scope.chooseLanguage); nested reads ask scope.languageOf. Orders stay the primary language's.

/** The SMQ with its name and description in the request's language (the primary's where the language has none). */
async function localized(scope: RequestScope, s: Smq, version: string): Promise<ReleaseSmq> {
  const l = scope.languageOf(s.releaseId);
  if (l.primary || !l.tag) return withVersion(s, version);
  const n = await scope.loaders.smqName.load({ releaseId: s.releaseId, language: l.tag, code: s.code });
  return n ? { ...s, name: n.name, description: n.description, version } : withVersion(s, version);
}

/** A concept's name in the request's language for its release (the given primary name otherwise). */
async function conceptNameIn(scope: RequestScope, releaseId: number, level: 'PT' | 'LLT', code: number, name: string): Promise<string>;
async function conceptNameIn(scope: RequestScope, releaseId: number, level: 'PT' | 'LLT', code: number, name: string | null): Promise<string | null>;
async function conceptNameIn(scope: RequestScope, releaseId: number, level: 'PT' | 'LLT', code: number, name: string | null): Promise<string | null> {
  const l = scope.languageOf(releaseId);
  if (l.primary || !l.tag || name === null) return name;
  return (await scope.loaders.name.load({ releaseId, language: l.tag, level, code })) ?? name;
}

/** An SMQ's name in the request's language, by code (the primary name given otherwise). */
async function smqNameIn(scope: RequestScope, releaseId: number, code: number, name: string): Promise<string> {
  const l = scope.languageOf(releaseId);
  if (l.primary || !l.tag) return name;
  return (await scope.loaders.smqName.load({ releaseId, language: l.tag, code }))?.name ?? name;
}

export const smqGlobalId = (s: ReleaseSmq) => `${s.version}:${s.code}`;
export const smqStatus = (status: string): 'ACTIVE' | 'INACTIVE' => (status.trim().toUpperCase() === 'I' ? 'INACTIVE' : 'ACTIVE');
export const smqIsAlgorithmic = (s: Smq) => isAlgorithmic(s.algorithm);
export const smqAlgorithm = (s: Smq) => (isAlgorithmic(s.algorithm) ? s.algorithm : null);
export const scopeOf = (n: number): SmqScope | null => SCOPE_OF(n);

const smqNotFound = (code: string, version: string) =>
  new DomainError('CODE_NOT_FOUND', `SMQ ${clip(code)} does not exist in release ${clip(version)}. GET /smqs lists the release's SMQs.`);

export interface SmqListArgs {
  q?: string | null | undefined;
  version?: string | null | undefined;
  /** BCP 47 tag of the names (a hosted language); default Accept-Language, else the primary. */
  language?: string | null | undefined;
}

/** SMQs of a release (argument, else header, else latest), by name; `q` filters by name (any case). */
export async function listSmqs(scope: RequestScope, args: SmqListArgs, page: PageRequest): Promise<Page<ReleaseSmq>> {
  const q = args.q?.trim() || null;
  if (q && q.length > MAX_QUERY_LENGTH) throw validationError({ q: [`must be at most ${MAX_QUERY_LENGTH} characters`] });
  const release = await scope.selectRelease(args.version);
  const tag = scope.chooseLanguage(release, args.language);
  const db = scope.services.reader?.() ?? scope.services.prisma;
  if (tag !== release.languages[0]) {
    // Another language: its names folded as its search folds them, ordered by its collation.
    const fold = (x: string) => foldSearchText(tag, x);
    const folded = q === null ? null : fold(q);
    const collator = new Intl.Collator(tag);
    const all = (await smqsInLanguage(db, release.id, tag)).filter((s) => folded === null || fold(s.name).includes(folded));
    all.sort((a, b) => collator.compare(a.name, b.name) || a.code - b.code);
    return { items: all.slice(page.offset, page.offset + page.limit).map((s) => withVersion(s, release.version)), total: all.length };
  }
  const found = await listSmqRows(db, release.id, q, page.offset, page.limit);
  return { items: found.items.map((s) => withVersion(s, release.version)), total: found.total };
}

/** The SMQ with this code in a release, or null (a malformed code: VALIDATION_ERROR naming `field`). */
export async function smqAt(scope: RequestScope, release: ReleaseInfo, code: string, field = 'code'): Promise<ReleaseSmq | null> {
  const s = await scope.loaders.smq.load({ releaseId: release.id, code: parseCode(code, field) });
  return s ? localized(scope, s, release.version) : null;
}

async function smqIn(scope: RequestScope, release: ReleaseInfo, code: string, field = 'code'): Promise<ReleaseSmq> {
  const s = await smqAt(scope, release, code, field);
  if (!s) throw smqNotFound(code, release.version);
  return s;
}

/** One SMQ by code (malformed: VALIDATION_ERROR; absent from the release: CODE_NOT_FOUND). */
export async function lookupSmq(scope: RequestScope, code: string, version: string | null | undefined, language?: string | null): Promise<ReleaseSmq> {
  const release = await scope.selectRelease(version);
  scope.chooseLanguage(release, language);
  return smqIn(scope, release, code);
}

export async function smqByGlobalId(scope: RequestScope, id: string): Promise<ReleaseSmq | null> {
  const [version, code] = id.split(':');
  const release = version ? await scope.services.catalog.byVersion(version) : undefined;
  const n = code ? codeNumber(code) : null;
  if (!release || n === null) return null;
  const s = await scope.loaders.smq.load({ releaseId: release.id, code: n });
  return s ? localized(scope, s, release.version) : null;
}

export async function smqRelease(scope: RequestScope, s: ReleaseSmq): Promise<ReleaseInfo> {
  const r = await scope.services.catalog.byId(s.releaseId);
  if (!r) throw new Error(`release ${s.releaseId} vanished from the catalog`);
  return r;
}

export async function parentSmq(scope: RequestScope, s: ReleaseSmq): Promise<ReleaseSmq | null> {
  const p = await scope.loaders.parentSmq.load({ releaseId: s.releaseId, code: s.code });
  return p ? localized(scope, p, s.version) : null;
}

export async function subSmqs(scope: RequestScope, s: ReleaseSmq): Promise<ReleaseSmq[]> {
  return Promise.all((await scope.loaders.subSmqs.load({ releaseId: s.releaseId, code: s.code })).map((x) => localized(scope, x, s.version)));
}

export async function smqOfTerm(scope: RequestScope, t: ReleaseSmqTerm): Promise<ReleaseSmq | null> {
  const s = await scope.loaders.smq.load({ releaseId: t.releaseId, code: t.smqCode });
  return s ? localized(scope, s, t.version) : null;
}

export interface SmqTermArgs {
  scope?: SmqScope | null | undefined;
  level?: SmqTermLevel | null | undefined;
  status?: 'ACTIVE' | 'INACTIVE' | null | undefined;
  /** Terms whose concept is current only: FHIR's activeOnly (GraphQL and REST do not offer it). */
  currentOnly?: boolean | undefined;
}

export interface SmqTermsPage extends Page<ReleaseSmqTerm> {
  counts: { narrow: number; broad: number };
}

/** An SMQ's terms, its sub-SMQs' included: narrow first, then PTs before LLTs, by name. */
export async function smqTerms(scope: RequestScope, s: ReleaseSmq, args: SmqTermArgs, page: PageRequest): Promise<SmqTermsPage> {
  const found = await smqTermPage(
    scope.services.reader?.() ?? scope.services.prisma,
    s.releaseId,
    s.code,
    {
      scope: args.scope === 'NARROW' ? 2 : args.scope === 'BROAD' ? 1 : undefined,
      level: args.level ?? undefined,
      active: args.status === 'ACTIVE' ? true : args.status === 'INACTIVE' ? false : undefined,
      current: args.currentOnly ? true : undefined,
    },
    page.offset,
    page.limit,
  );
  const items = await Promise.all(found.items.map(async (t) => ({ ...t, name: await conceptNameIn(scope, t.releaseId, t.level, t.code, t.name), version: s.version })));
  return { items, total: found.total, counts: { narrow: found.narrow, broad: found.broad } };
}

/** A code's membership of an SMQ (see domain CodeSmqRow). */
export type CodeSmq = Omit<CodeSmqRow, 'smq'> & { smq: ReleaseSmq };

/** The SMQs whose content lists a PT or LLT (an LLT also through its PT), by SMQ name. */
export async function smqsOfCode(scope: RequestScope, c: ReleaseConcept): Promise<CodeSmq[]> {
  if (c.level !== 'PT' && c.level !== 'LLT') return [];
  const rows = await scope.loaders.smqsOfConcept.load({ releaseId: c.releaseId, level: c.level, code: c.code });
  return Promise.all(rows.map(async (r) => ({ ...r, smq: await localized(scope, r.smq, c.version) })));
}

// --- changes ---------------------------------------------------------------------

export type ReleaseSmqChange = SmqChange & { fromVersion: string; toVersion: string };

export interface SmqChangesArgs {
  from?: string | null | undefined;
  smq?: string | null | undefined;
  changeType?: SmqChangeType | null | undefined;
  /** BCP 47 tag of the names (hosted by the target); default the request's choice for the target. */
  language?: string | null | undefined;
}

export interface SmqChangesPage extends Page<ReleaseSmqChange> {
  counts: SmqChangeCounts;
  from: ReleaseInfo;
  to: ReleaseInfo;
}

/** What changed in SMQs from a baseline (default: the previous release) to `to`. */
export async function smqChanges(scope: RequestScope, to: ReleaseInfo, args: SmqChangesArgs, page: PageRequest): Promise<SmqChangesPage> {
  const from = await resolveBaseline(scope, to, args.from);
  const smqCode = args.smq === null || args.smq === undefined ? undefined : parseCode(args.smq, 'smq');
  const found = await smqChangeRows(scope.services.prisma, from.id, to.id, { smqCode, changeType: args.changeType ?? undefined }, page.offset, page.limit);
  const tag = scope.chooseLanguage(to, args.language);
  // Names in the target's language, else the baseline's (an SMQ or term that left); the order stays the primary's.
  const where = (c: SmqChange) => (c.changeType === 'SMQ_RETIRED' && !c.after) || (c.changeType === 'TERM_REMOVED' && !c.after) ? from : to;
  const items = await Promise.all(
    found.items.map(async (c) => {
      if (tag === to.languages[0]) return { ...c, fromVersion: from.version, toVersion: to.version };
      const r = where(c).languages.includes(tag) ? where(c) : to;
      if (r !== to && !r.languages.includes(tag)) return { ...c, fromVersion: from.version, toVersion: to.version };
      const smqName = await smqNameIn(scope, r.id, c.smqCode, c.smqName);
      const termName =
        c.termCode === null || c.termName === null
          ? c.termName
          : c.termLevel === 'SMQ'
            ? await smqNameIn(scope, r.id, c.termCode, c.termName)
            : await conceptNameIn(scope, r.id, c.termLevel === 'PT' ? 'PT' : 'LLT', c.termCode, c.termName);
      return { ...c, smqName, termName, fromVersion: from.version, toVersion: to.version };
    }),
  );
  return {
    items,
    total: found.total,
    counts: found.counts,
    from,
    to,
  };
}

/** Readable sentence of an SMQ change. */
export function smqChangeDetails(c: SmqChange): string {
  const b = c.before ?? {};
  const a = c.after ?? {};
  const term = `${c.termLevel === 'SMQ' ? 'sub-SMQ' : (c.termLevel ?? 'term')} ${c.termName ?? c.termCode}`;
  const scopeName = (v: unknown) => (v === 2 ? 'narrow' : v === 1 ? 'broad' : 'no scope');
  switch (c.changeType) {
    case 'SMQ_ADDED':
      return 'SMQ added.';
    case 'SMQ_RETIRED':
      return c.after ? 'SMQ made inactive.' : 'SMQ absent from the target release.';
    case 'SMQ_UPDATED': {
      const parts = ['name', 'level', 'status', 'algorithm', 'description'].filter((k) => b[k] !== a[k]).map((k) => (k === 'description' ? 'description changed' : `${k} ${JSON.stringify(b[k])} → ${JSON.stringify(a[k])}`));
      return `SMQ ${parts.join('; ')}.`;
    }
    case 'TERM_ADDED':
      return `${term} added (${scopeName(a.scope)}${a.category ? `, category ${a.category}` : ''}${c.before ? ', made active again' : ''}).`;
    case 'TERM_REMOVED':
      return `${term} removed${c.after ? ' (made inactive)' : ''}.`;
    case 'TERM_UPDATED': {
      const parts: string[] = [];
      if (b.scope !== a.scope) parts.push(`scope ${scopeName(b.scope)} → ${scopeName(a.scope)}`);
      if (b.category !== a.category) parts.push(`category ${String(b.category)} → ${String(a.category)}`);
      if (b.weight !== a.weight) parts.push(`weight ${String(b.weight)} → ${String(a.weight)}`);
      return `${term}: ${parts.join('; ')}.`;
    }
  }
}

// --- application to coded data -----------------------------------------------------

/** One row of coded data (the same shape as impact analysis rows, minus `term`). */
export interface SmqRowInput {
  rowId: string;
  code: string;
  caseId?: string | null | undefined;
}

export interface SmqRowMatch {
  rowId: string;
  caseId: string | null;
  /** The row's code and the concept it is in the release. */
  code: string;
  level: 'PT' | 'LLT';
  term: string;
  /** The listed term that matched: the code itself, or the PT of an LLT. */
  matchedCode: number;
  matchedLevel: SmqTermLevel;
  matchedTerm: string | null;
  scope: SmqScope;
  category: string;
  weight: number;
  /** The SMQ (or sub-SMQ) whose content lists the matched term. */
  smqCode: number;
}

export interface SmqRowProblem {
  rowId: string;
  code: string;
  reason: 'UNKNOWN_CODE' | 'NOT_PT_OR_LLT';
}

export interface SmqCaseResult {
  /** Null for a row without caseId (it is a case of its own). */
  caseId: string | null;
  rowIds: string[];
  /** Categories the case has, with the weight each counts for. */
  categories: { category: string; weight: number }[];
  weight: number;
  /** Null when the SMQ's algorithm cannot be evaluated (see SmqApplication.algorithm.error). */
  matched: boolean | null;
}

export interface SmqApplication {
  smq: ReleaseSmq;
  release: ReleaseInfo;
  rows: number;
  narrow: SmqRowMatch[];
  broad: SmqRowMatch[];
  problems: SmqRowProblem[];
  counts: { rows: number; narrow: number; broad: number; broadSearch: number; unmatched: number; problems: number };
  /** Algorithmic SMQs: the rule evaluated per case (cases with at least one matching row). */
  algorithm: { expression: string; error: string | null; matchedCases: number | null; cases: SmqCaseResult[] } | null;
}

/**
 * The rows of either input: typed `rows` (GraphQL clients), or `rowsData`, the same rows as one
 * plain JSON value (REST and CSV uploads: up to 100,000 rows, which graphql-js would coerce
 * field by field in one blocking step). A rowsData row must be an object whose rowId, code and
 * caseId are strings or numbers.
 */
export function smqInputRows(rows: readonly SmqRowInput[] | null | undefined, rowsData: unknown): readonly SmqRowInput[] {
  const typed = rows !== undefined && rows !== null;
  const data = rowsData !== undefined && rowsData !== null;
  if (typed === data) throw validationError({ rows: ['give the rows either as rows or as rowsData'] });
  if (typed) return rows!;
  if (!Array.isArray(rowsData)) throw validationError({ rowsData: ['must be an array of {rowId, code, caseId?}'] });
  const errors: Record<string, string[]> = {};
  let n = 0;
  const out = rowsData.map((r: unknown, i): SmqRowInput => {
    const o = (typeof r === 'object' && r !== null && !Array.isArray(r) ? r : {}) as Record<string, unknown>;
    const [rowId, code, caseId] = [rowText(o.rowId), rowText(o.code), rowText(o.caseId)];
    if (rowId === undefined || rowId === null || code === undefined || code === null || caseId === undefined) {
      if (++n <= SMQ_APPLY_MAX_ERRORS) errors[`rows.${i}`] = ['must be an object {rowId, code, caseId?} of strings'];
      return { rowId: '', code: '' };
    }
    return { rowId, code, caseId };
  });
  if (n > SMQ_APPLY_MAX_ERRORS) errors.rows = [`${n - SMQ_APPLY_MAX_ERRORS} more row problems not listed`];
  if (n) throw validationError(errors);
  return out;
}

function checkRows(rows: readonly SmqRowInput[]): void {
  if (rows.length === 0) throw validationError({ rows: ['must hold at least one row'] });
  if (rows.length > SMQ_APPLY_MAX_ROWS) throw validationError({ rows: [`at most ${SMQ_APPLY_MAX_ROWS.toLocaleString('en')} rows per request (${rows.length.toLocaleString('en')} sent)`] });
  const errors: Record<string, string[]> = {};
  let n = 0;
  const add = (field: string, message: string) => {
    if (++n <= SMQ_APPLY_MAX_ERRORS) errors[field] = [...(errors[field] ?? []), message];
  };
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const id = r.rowId;
    if (id.length === 0 || id.length > SMQ_APPLY_MAX_ID) add(`rows.${i}.rowId`, `must be 1 to ${SMQ_APPLY_MAX_ID} characters`);
    else if (seen.has(id)) add(`rows.${i}.rowId`, `row ${clip(id)}: rowId repeats an earlier row`);
    seen.add(id);
    if (!CODE_SYNTAX.test(r.code)) add(`rows.${i}.code`, `row ${clip(id)}: code must be a terminology code: 1 to 12 digits`);
    if (r.caseId !== null && r.caseId !== undefined && (r.caseId.length === 0 || r.caseId.length > SMQ_APPLY_MAX_ID)) {
      add(`rows.${i}.caseId`, `row ${clip(id)}: caseId must be 1 to ${SMQ_APPLY_MAX_ID} characters`);
    }
  });
  if (n > SMQ_APPLY_MAX_ERRORS) errors.rows = [`${n - SMQ_APPLY_MAX_ERRORS} more row problems not listed`];
  if (n) throw validationError(errors, `${n} invalid row${n === 1 ? '' : 's'}: ${validationDetail(Object.fromEntries(Object.entries(errors).slice(0, 3)))}`);
}

/**
 * Runs an SMQ over coded rows: each row's code (PT, or LLT matched itself or through its PT)
 * against the SMQ's active terms, its sub-SMQs' included; a row matching a narrow term is a
 * narrow match, else a broad one (the broad search is both). For an algorithmic SMQ the rule
 * is evaluated per case (rows grouped by caseId). Needs the API key: the rows are client data.
 */
export async function applySmq(
  scope: RequestScope,
  code: string,
  version: string | null | undefined,
  input: { rows?: readonly SmqRowInput[] | null | undefined; rowsData?: unknown },
  language?: string | null,
): Promise<SmqApplication> {
  // The key first: requests without one never take a place in the gate.
  await scope.requireApiKey('smq');
  return underGate(scope, 'uploads', () => apply(scope, code, version, input, language), () => listInputBytes(input.rows ?? input.rowsData));
}

async function apply(
  scope: RequestScope,
  code: string,
  version: string | null | undefined,
  input: { rows?: readonly SmqRowInput[] | null | undefined; rowsData?: unknown },
  language?: string | null,
): Promise<SmqApplication> {
  const rows = smqInputRows(input.rows, input.rowsData);
  checkRows(rows);
  const release = await scope.selectRelease(version);
  const tag = scope.chooseLanguage(release, language);
  const smq = await smqIn(scope, release, code);
  const db = scope.services.reader?.() ?? scope.services.prisma;
  const stored = [...new Set(rows.map((r) => codeNumber(r.code)).filter((n): n is number => n !== null))];
  const [terms, levels] = await Promise.all([activeSmqTerms(db, release.id, smq.code), codeLevels(db, release.id, stored)]);

  const listed = { PT: new Map<number, SmqTerm[]>(), LLT: new Map<number, SmqTerm[]>() };
  for (const t of terms) {
    if (SCOPE_OF(t.scope) === null) continue;
    const m = listed[t.level];
    m.set(t.code, [...(m.get(t.code) ?? []), t]);
  }

  const narrow: SmqRowMatch[] = [];
  const broad: SmqRowMatch[] = [];
  const problems: SmqRowProblem[] = [];
  // caseId (or a row's own key) → rows and categories
  const cases = new Map<string, { caseId: string | null; rowIds: string[]; categories: Map<string, number> }>();
  let unmatched = 0;
  for (const r of rows) {
    const n = codeNumber(r.code);
    const c = n === null ? undefined : levels.get(n);
    if (!c) {
      problems.push({ rowId: r.rowId, code: r.code, reason: 'UNKNOWN_CODE' });
      continue;
    }
    if (c.level !== 'PT' && c.level !== 'LLT') {
      problems.push({ rowId: r.rowId, code: r.code, reason: 'NOT_PT_OR_LLT' });
      continue;
    }
    const found =
      c.level === 'PT'
        ? listed.PT.get(c.code)
        : (listed.LLT.get(c.code) ?? (c.ptCode === null ? undefined : listed.PT.get(c.ptCode)));
    if (!found?.length) {
      unmatched++;
      continue;
    }
    const best = found.reduce((x, y) => (y.scope > x.scope ? y : x)); // narrow (2) over broad (1)
    const caseId = r.caseId ?? null;
    const m: SmqRowMatch = {
      rowId: r.rowId,
      caseId,
      code: r.code,
      level: c.level,
      term: c.name,
      matchedCode: best.code,
      matchedLevel: best.level,
      matchedTerm: best.name,
      scope: SCOPE_OF(best.scope)!,
      category: best.category,
      weight: best.weight,
      smqCode: best.smqCode,
    };
    (m.scope === 'NARROW' ? narrow : broad).push(m);
    const key = caseId === null ? `row:${r.rowId}` : `case:${caseId}`;
    let k = cases.get(key);
    if (!k) cases.set(key, (k = { caseId, rowIds: [], categories: new Map() }));
    k.rowIds.push(r.rowId);
    for (const t of found) k.categories.set(t.category, Math.max(k.categories.get(t.category) ?? 0, t.weight));
  }

  let algorithm: SmqApplication['algorithm'] = null;
  if (isAlgorithmic(smq.algorithm)) {
    // The release's own text: one this parser cannot read leaves the rule unevaluated
    // (matched null, with the reason) rather than failing the narrow/broad answer.
    let rule: ReturnType<typeof parseAlgorithm> | null = null;
    let error: string | null = null;
    try {
      rule = parseAlgorithm(smq.algorithm);
    } catch (e) {
      if (!(e instanceof AlgorithmSyntaxError)) throw e;
      error = `the algorithm cannot be evaluated: ${e.message}`;
    }
    const results: SmqCaseResult[] = [...cases.values()].map((k) => {
      const categories = [...k.categories].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([category, weight]) => ({ category, weight }));
      return {
        caseId: k.caseId,
        rowIds: k.rowIds,
        categories,
        weight: categories.reduce((s, x) => s + x.weight, 0),
        matched: rule ? evaluateAlgorithm(rule, k.categories) : null,
      };
    });
    algorithm = { expression: smq.algorithm, error, matchedCases: rule ? results.filter((r) => r.matched).length : null, cases: results };
  }

  if (tag !== release.languages[0]) await nameMatchesIn(scope, release.id, [...narrow, ...broad]);
  return {
    smq,
    release,
    rows: rows.length,
    narrow,
    broad,
    problems,
    counts: { rows: rows.length, narrow: narrow.length, broad: broad.length, broadSearch: narrow.length + broad.length, unmatched, problems: problems.length },
    algorithm,
  };
}

/** The matches' terms in the request's language: one batch per distinct term (100,000 rows share a few thousand). */
async function nameMatchesIn(scope: RequestScope, releaseId: number, matches: SmqRowMatch[]): Promise<void> {
  const names = new Map<string, Promise<string | null>>();
  const nameOf = (level: 'PT' | 'LLT', code: number, name: string | null) => {
    const key = `${level}:${code}`;
    let p = names.get(key);
    if (!p) names.set(key, (p = conceptNameIn(scope, releaseId, level, code, name)));
    return p;
  };
  for (const m of matches) {
    void nameOf(m.level, Number(m.code), m.term);
    void nameOf(m.matchedLevel, m.matchedCode, m.matchedTerm);
  }
  for (const m of matches) {
    m.term = (await nameOf(m.level, Number(m.code), m.term)) ?? m.term;
    m.matchedTerm = await nameOf(m.matchedLevel, m.matchedCode, m.matchedTerm);
  }
}
