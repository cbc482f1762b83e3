// Impact of a release upgrade on a client's coded data: row validation (bad rows are
// reported, the others analysed), the per-row impacts with suggested recodes, and the
// summary. Needs the API key (the rows are the client's data). Rows are analysed on the
// two releases' in-memory indexes in slices, yielding to the event loop between slices,
// so 100,000 rows never hold up other requests.
import {
  asTranslationChange,
  codeState,
  IMPACT_KINDS,
  ImpactTally,
  nameSimilarity,
  otherLevel,
  PENDING_SEARCH,
  rowImpacts,
  type ImpactKind,
  type ImpactRowInput,
  type ImpactRowResult,
  type PtDelta,
  type SocMovement,
  type Suggestion,
} from '../domain/impact/analyse.ts';
import { validationError } from '../domain/errors.ts';
import { CODE_SYNTAX, codeNumber } from '../domain/formats.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { normalizeName } from '../domain/text.ts';
import { IMPACT_SLICE_ROWS, MAX_IMPACT_ROWS, MAX_QUERY_LENGTH, MAX_RECORDED_TERM_LENGTH, MAX_RETIRED_SEARCHES, MAX_ROW_ID_LENGTH } from './limits.ts';
import { underGate, type RequestScope } from './scope.ts';
import { listInputBytes } from './codedWork.ts';
import { searchCodes } from './search.ts';
import { noGoodMatch, structuralSuggestion, TEXT_FLOOR } from '../domain/impact/retired.ts';
import type { ReleaseIndex } from '../domain/releaseIndex/releaseIndex.ts';
import { rowText } from './arguments.ts';
import { languageNotFound } from '../domain/languages.ts';
import { languageDisplayName } from '../domain/languageTags.ts';
import { nextTurn } from '../runtime/nextTurn.ts';

export interface ImpactArgs {
  from: string;
  to: string;
  /** Typed rows (GraphQL clients), or */
  rows?: readonly { rowId?: string | null; code?: string | null; term?: string | null; line?: number | null }[] | null;
  /**
   * the same rows as one untyped value (REST and the CLI): GraphQL coerces a typed list of
   * 100,000 input objects in one blocking step; here each row is checked like any other.
   */
  rowsData?: unknown;
  validateOnly?: boolean | null;
  /** BCP 47 tag of the names (issue 28; hosted by both releases); default Accept-Language, else the primary. */
  language?: string | null;
}

type RawRow = { rowId?: unknown; code?: unknown; term?: unknown; line?: unknown; position?: unknown };

/** The rows of either input, or a VALIDATION_ERROR when neither or both are given. */
function inputRows(args: ImpactArgs): readonly unknown[] {
  const typed = args.rows !== undefined && args.rows !== null;
  const data = args.rowsData !== undefined && args.rowsData !== null;
  if (typed === data) throw validationError({ rows: ['give the rows either as rows or as rowsData'] });
  if (typed) return args.rows!;
  if (!Array.isArray(args.rowsData)) throw validationError({ rowsData: ['must be an array of {rowId, code, term?}'] });
  return args.rowsData;
}


export interface ImpactRowError {
  rowId: string | null;
  /** 1-based position among the input rows. */
  position: number;
  /** Line of the CSV file, when the rows came from one. */
  line: number | null;
  field: string;
  reason: string;
}

export interface ImpactSummary {
  rowsUploaded: number;
  rowsValid: number;
  rowsInvalid: number;
  rowsImpacted: number;
  /** Impacted rows as a percentage of the valid rows (0 when none is valid), one decimal. */
  impactedPercent: number;
  byKind: { kind: ImpactKind; rows: number }[];
  socMovements: SocMovement[];
  ptDeltas: PtDelta[];
}

export interface ImpactReport {
  from: ReleaseInfo;
  to: ReleaseInfo;
  /** The language of every name in the report (a language both releases host). */
  language: string;
  validateOnly: boolean;
  summary: ImpactSummary;
  errors: ImpactRowError[];
  rows: ImpactRowResult[];
}

export interface ImpactOptions {
  /** Called after each slice (the CLI shows progress on large files). */
  onProgress?: (done: number, total: number) => void;
}


export async function analyseImpact(scope: RequestScope, args: ImpactArgs, opts: ImpactOptions = {}): Promise<ImpactReport> {
  // The key first: requests without one never take a place in the gate.
  await scope.requireApiKey('impact');
  return underGate(scope, 'uploads', () => analyse(scope, args, opts), () => listInputBytes(args.rows ?? args.rowsData));
}

async function analyse(scope: RequestScope, args: ImpactArgs, opts: ImpactOptions): Promise<ImpactReport> {
  const input = inputRows(args);
  if (input.length > MAX_IMPACT_ROWS) {
    throw validationError({ rows: [`at most ${MAX_IMPACT_ROWS} rows per request (got ${input.length}): split the file`] });
  }
  const { catalog } = scope.services;
  const [from, to] = await Promise.all([catalog.require(args.from, 'from'), catalog.require(args.to, 'to')]);
  scope.usedVersions.add(from.version);
  scope.usedVersions.add(to.version);
  const db = scope.services.reader?.() ?? scope.services.prisma;
  const language = impactLanguage(scope, from, to, args.language);
  const [fromIx, toIx] = await Promise.all([catalog.searchIndexes.get(from.id, db), catalog.searchIndexes.get(to.id, db)]);
  // Names in the report's language: its index shares the primary's entries and hierarchy.
  const inLanguage = (r: ReleaseInfo, ix: ReleaseIndex) => (r.languages[0] === language || !r.languages.includes(language) ? ix : catalog.searchIndexes.getLanguage(r.id, language, db));
  const [fromNames, toNames] = await Promise.all([inLanguage(from, fromIx), inLanguage(to, toIx)]);

  const { errors, valid } = await validateRows(input, from, fromIx);
  const tally = new ImpactTally();
  const rows = args.validateOnly ? [] : await compareRows(valid, { fromIx, toIx, fromNames, toNames, languageName: languageDisplayName(language) }, to, tally, opts);
  if (!args.validateOnly) await suggestForRetired(scope, to, toNames, rows);
  return { from, to, language, validateOnly: !!args.validateOnly, errors, rows, summary: summaryOf(input.length, valid.length, errors.length, tally) };
}

/** Validation: every bad row is reported with its rowId and reason; the others go on. */
async function validateRows(input: readonly unknown[], from: ReleaseInfo, fromIx: ReleaseIndex): Promise<{ errors: ImpactRowError[]; valid: ImpactRowInput[] }> {
  const errors: ImpactRowError[] = [];
  const valid: ImpactRowInput[] = [];
  const seen = new Map<string, number>();
  for (let k = 0; k < input.length; k++) {
    if (k > 0 && k % IMPACT_SLICE_ROWS === 0) await nextTurn();
    const checked = checkRow(input[k], k, seen, from, fromIx);
    if ('reason' in checked) errors.push(checked);
    else valid.push(checked);
  }
  return { errors, valid };
}

/** One row (the k-th of the input) as a valid row, or why it is not one. `seen`: rowIds so far, with their position. */
function checkRow(raw: unknown, k: number, seen: Map<string, number>, from: ReleaseInfo, fromIx: ReleaseIndex): ImpactRowInput | ImpactRowError {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { rowId: null, position: k + 1, line: null, field: 'row', reason: 'a row must be an object {rowId, code, term?}' };
  }
  const r = raw as RawRow;
  // A file's record number when the rows come from one (a CSV upload: bad records it dropped count too).
  const position = typeof r.position === 'number' && Number.isSafeInteger(r.position) && r.position > 0 ? r.position : k + 1;
  const line = typeof r.line === 'number' && Number.isSafeInteger(r.line) ? r.line : null;
  const rowIdText = rowText(r.rowId);
  const rowId = rowIdText?.trim() ? rowIdText.trim() : null;
  const fail = (field: string, reason: string): ImpactRowError => ({ rowId: rowId && rowId.length <= MAX_ROW_ID_LENGTH ? rowId : null, position, line, field, reason });
  const codeText = rowText(r.code);
  const termText = rowText(r.term);
  if (rowIdText === undefined || codeText === undefined || termText === undefined) {
    const field = rowIdText === undefined ? 'rowId' : codeText === undefined ? 'code' : 'term';
    return fail(field, `${field} must be a string`);
  }
  if (rowId === null) return fail('rowId', 'rowId is required');
  if (rowId.length > MAX_ROW_ID_LENGTH) return fail('rowId', `rowId must be at most ${MAX_ROW_ID_LENGTH} characters`);
  const first = seen.get(rowId);
  if (first !== undefined) return fail('rowId', `duplicate rowId (first at row ${first})`);
  seen.set(rowId, position);
  const rawCode = codeText?.trim() ?? '';
  if (!rawCode) return fail('code', 'code is required');
  if (!CODE_SYNTAX.test(rawCode)) return fail('code', 'code must be a terminology code: 1 to 12 digits');
  const term = termText?.trim() ? termText.trim() : null;
  if (term !== null && term.length > MAX_RECORDED_TERM_LENGTH) return fail('term', `term must be at most ${MAX_RECORDED_TERM_LENGTH} characters`);
  const code = codeNumber(rawCode);
  if (code === null || !codeState(fromIx, code)) {
    const other = code === null ? null : otherLevel(fromIx, code);
    return fail(
      'code',
      other
        ? `code ${rawCode} is an ${other} in release ${from.version}; coded data holds LLT or PT codes`
        : `code ${rawCode} does not exist in release ${from.version} at LLT or PT level`,
    );
  }
  return { rowId, code, term, position, line };
}

/** The two releases' indexes, and those of the report's language (the same objects when it is the primary). */
interface ComparedIndexes {
  fromIx: ReleaseIndex;
  toIx: ReleaseIndex;
  fromNames: ReleaseIndex;
  toNames: ReleaseIndex;
  languageName: string;
}

/** Each valid row's state in both releases and its impacts, counted in `tally`; progress told every slice. */
async function compareRows(
  valid: readonly ImpactRowInput[],
  { fromIx, toIx, fromNames, toNames, languageName }: ComparedIndexes,
  to: ReleaseInfo,
  tally: ImpactTally,
  opts: ImpactOptions,
): Promise<ImpactRowResult[]> {
  const translated = fromNames !== fromIx || toNames !== toIx;
  const rows: ImpactRowResult[] = [];
  for (let k = 0; k < valid.length; k++) {
    if (k > 0 && k % IMPACT_SLICE_ROWS === 0) {
      opts.onProgress?.(k, valid.length);
      await nextTurn();
    }
    const row = valid[k]!;
    const before = codeState(fromNames, row.code)!;
    const after = codeState(toNames, row.code);
    let impacts = rowImpacts(row, before, after, toNames, to.version);
    if (translated && after && before.term !== after.term) {
      impacts = asTranslationChange(impacts, row.code, codeState(fromIx, row.code)!.term !== codeState(toIx, row.code)!.term, languageName);
    }
    const result: ImpactRowResult = {
      rowId: row.rowId,
      code: String(row.code),
      recordedTerm: row.term,
      position: row.position,
      line: row.line,
      before,
      after,
      impacts,
    };
    tally.add(result);
    rows.push(result);
  }
  opts.onProgress?.(valid.length, valid.length);
  return rows;
}

function summaryOf(uploaded: number, valid: number, invalid: number, tally: ImpactTally): ImpactSummary {
  return {
    rowsUploaded: uploaded,
    rowsValid: valid,
    rowsInvalid: invalid,
    rowsImpacted: tally.impacted,
    impactedPercent: valid ? Math.round((tally.impacted / valid) * 1000) / 10 : 0,
    byKind: IMPACT_KINDS.map((kind) => ({ kind, rows: tally.byKind.get(kind) ?? 0 })),
    socMovements: tally.socMovements(),
    ptDeltas: tally.ptDeltas(),
  };
}

/**
 * The report's language: the request's choice for the target release (argument > Accept-Language >
 * primary). Names are compared across the two releases, so the baseline must host it too: named
 * explicitly, a baseline without it is LANGUAGE_NOT_FOUND; negotiated, the report falls back to the
 * target's primary language.
 */
function impactLanguage(scope: RequestScope, from: ReleaseInfo, to: ReleaseInfo, explicit: string | null | undefined): string {
  const tag = scope.chooseLanguage(to, explicit);
  if (from.languages.includes(tag)) {
    scope.chooseLanguage(from, tag);
    return tag;
  }
  if (explicit) throw languageNotFound(tag, from.version, from.languages);
  const primary = to.languages[0] ?? tag;
  scope.chooseLanguage(to, primary);
  if (from.languages.includes(primary)) scope.chooseLanguage(from, primary);
  return primary;
}

/**
 * A retired code's suggestion (src/domain/impact/retired.ts): from the structure first (its PT,
 * the same name, a close sibling under its HLT), else the best search match of the recorded term
 * (else of its old term) among current LLTs when the whole names are similar enough, else "no
 * good match". Each reason states its basis.
 */
async function suggestForRetired(scope: RequestScope, to: ReleaseInfo, toIx: ReleaseIndex, rows: ImpactRowResult[]): Promise<void> {
  const cache = new Map<string, Suggestion>();
  for (const r of rows) {
    for (const impact of r.impacts) {
      if (impact.suggestion !== PENDING_SEARCH) continue;
      const structural = structuralSuggestion(toIx, to.version, r.before, Number(r.code), r.recordedTerm);
      if (structural) {
        impact.suggestion = structural;
        continue;
      }
      const text = (r.recordedTerm ?? r.before.term).slice(0, MAX_QUERY_LENGTH);
      const key = `${normalizeName(text)}\u0000${r.before.hlt?.code ?? ''}`;
      let s = cache.get(key);
      if (!s) {
        s = cache.size >= MAX_RETIRED_SEARCHES ? tooMany : await bestMatch(scope, to, toIx, r, text);
        if (cache.size < MAX_RETIRED_SEARCHES) cache.set(key, s);
      }
      impact.suggestion = s;
    }
  }
}

const tooMany: Suggestion = {
  action: 'REVIEW',
  code: null,
  term: null,
  level: null,
  reason: `Not searched: more than ${MAX_RETIRED_SEARCHES} distinct terms of retired codes in one request.`,
};

async function bestMatch(scope: RequestScope, to: ReleaseInfo, toIx: ReleaseIndex, r: ImpactRowResult, text: string): Promise<Suggestion> {
  const norm = normalizeName(text);
  if (!norm) return noGoodMatch(to.version, r.before, toIx);
  const found = await searchCodes(scope, { q: text, level: 'LLT', version: to.version }, { offset: 0, limit: 10 });
  // The search ranks substrings and word prefixes first ("Menopause" finds "Early menopause" with
  // score 1.00): judge each candidate by the similarity of the whole names instead.
  let best: { hit: (typeof found.items)[number]; similarity: number } | undefined;
  for (const hit of found.items) {
    if (!hit.concept.current) continue;
    const similarity = nameSimilarity(norm, normalizeName(hit.concept.name));
    if (!best || similarity > best.similarity) best = { hit, similarity };
  }
  if (!best || best.similarity < TEXT_FLOOR) return noGoodMatch(to.version, r.before, toIx, best && { term: best.hit.concept.name, similarity: best.similarity });
  return {
    action: best.similarity === 1 ? 'RECODE' : 'REVIEW',
    code: String(best.hit.concept.code),
    term: best.hit.concept.name,
    level: 'LLT',
    reason: `Basis: text similarity. '${best.hit.concept.name}' is the current LLT of ${to.version} closest to '${text}' (name similarity ${best.similarity.toFixed(2)}).`,
  };
}

/**
 * The rows as one plain value (the `rowsData` field), for moving up to 100,000 rows at once:
 * GraphQL resolves a typed list field by field (about 60 fields a row: seconds for 100k
 * rows), a JSON value in one step. The rows already have the API shape (codes as strings).
 */
export function impactRowsOf(report: ImpactReport, impactedOnly: boolean): readonly ImpactRowResult[] {
  return impactedOnly ? report.rows.filter((r) => r.impacts.length > 0) : report.rows;
}
