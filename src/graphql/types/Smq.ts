import { builder, listCost } from '../builder.ts';
import * as smqs from '../../services/smqs.ts';
import type { CodeSmq, ReleaseSmq, ReleaseSmqChange, ReleaseSmqTerm, SmqApplication, SmqCaseResult, SmqChangeCounts, SmqChangesPage, SmqRowMatch, SmqRowProblem, SmqTermsPage } from '../../services/smqs.ts';
import { SMQ_PAGES } from '../../services/limits.ts';
import { offsetConnection, totalCount } from '../connections.ts';
import { VersionRef } from './Version.ts';
import { CodeRef } from './Code.ts';
import { JSONScalar } from './Change.ts';
import { conceptByKey } from '../../services/codes.ts';

export const SmqScopeEnum = builder.enumType('SmqScope', {
  description: 'Scope of an SMQ term (smq_content term_scope): NARROW (2) finds cases highly likely to be the condition; BROAD (1) adds those that may be. A broad search runs both.',
  values: ['NARROW', 'BROAD'] as const,
});

export const SmqStatusEnum = builder.enumType('SmqStatus', {
  description: 'A (active) or I (inactive) in the files. Inactive terms stay listed but are not used by a search.',
  values: ['ACTIVE', 'INACTIVE'] as const,
});

const SmqTermLevelEnum = builder.enumType('SmqTermLevel', { values: ['PT', 'LLT'] as const });

export const SmqRef = builder.objectRef<ReleaseSmq>('Smq');

const SmqTermRef = builder.objectRef<ReleaseSmqTerm>('SmqTerm').implement({
  description: 'A PT or LLT in the content of an SMQ (or of one of its sub-SMQs).',
  fields: (t) => ({
    code: t.string({ resolve: (x) => String(x.code) }),
    term: t.string({ nullable: true, description: 'Name in the release (null if the release lacks the concept).', resolve: (x) => x.name }),
    level: t.field({ type: SmqTermLevelEnum, resolve: (x) => x.level }),
    scope: t.field({ type: SmqScopeEnum, nullable: true, resolve: (x) => smqs.scopeOf(x.scope) }),
    category: t.exposeString('category', { description: 'Algorithmic SMQs: the category (A, B, …); A otherwise.' }),
    weight: t.exposeInt('weight', { description: 'Algorithmic SMQs with weights; 0 otherwise.' }),
    status: t.field({ type: SmqStatusEnum, resolve: (x) => smqs.smqStatus(x.status) }),
    additionVersion: t.exposeString('additionVersion', { description: 'Release the term joined the SMQ in (term_addition_version).' }),
    lastModifiedVersion: t.exposeString('lastModifiedVersion', { description: 'term_last_modified_version.' }),
    smq: t.field({ type: SmqRef, nullable: true, description: 'The SMQ whose content lists the term (a sub-SMQ when read through its parent).', resolve: (x, _a, ctx) => smqs.smqOfTerm(ctx, x) }),
    concept: t.field({
      type: CodeRef,
      nullable: true,
      resolve: (x, _a, ctx) => conceptByKey(ctx, { releaseId: x.releaseId, level: x.level, code: x.code }, x.version),
    }),
  }),
});

const SmqTermCountsRef = builder.objectRef<{ narrow: number; broad: number }>('SmqTermCounts').implement({
  fields: (t) => ({ narrow: t.exposeInt('narrow'), broad: t.exposeInt('broad') }),
});

builder.node(SmqRef, {
  description: 'A standardised query (smq_list.asc) of one release: a group of PTs/LLTs with narrow and broad scope, possibly with sub-SMQs and a category rule.',
  id: { resolve: smqs.smqGlobalId },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'algorithm' in v && 'definitionVersion' in v,
  loadOne: (id, ctx) => smqs.smqByGlobalId(ctx, id),
  fields: (t) => ({
    code: t.string({ resolve: (s) => String(s.code) }),
    name: t.exposeString('name'),
    level: t.exposeInt('level', { description: '1 (top) to 5; sub-SMQs sit one level below their parent.' }),
    description: t.exposeString('description'),
    source: t.exposeString('source'),
    note: t.exposeString('note'),
    definitionVersion: t.exposeString('definitionVersion', { description: 'The release the SMQ was last changed in (smq_list version column).' }),
    status: t.field({ type: SmqStatusEnum, resolve: (s) => smqs.smqStatus(s.status) }),
    isAlgorithmic: t.boolean({ resolve: smqs.smqIsAlgorithmic }),
    algorithm: t.string({ nullable: true, description: 'The category rule, e.g. "A or (B and C)"; null when not algorithmic.', resolve: smqs.smqAlgorithm }),
    release: t.field({ type: VersionRef, resolve: (s, _a, ctx) => smqs.smqRelease(ctx, s) }),
    parent: t.field({ type: SmqRef, nullable: true, description: 'The SMQ listing this one as a sub-SMQ.', resolve: (s, _a, ctx) => smqs.parentSmq(ctx, s) }),
    children: t.field({
      type: [SmqRef],
      description: 'Sub-SMQs (term level 0 rows), by name.',
      complexity: { field: 1, multiplier: 5 },
      resolve: (s, _a, ctx) => smqs.subSmqs(ctx, s),
    }),
    terms: t.connection(
      {
        type: SmqTermRef,
        description: "The SMQ's terms, its sub-SMQs' included: narrow first, PTs before LLTs, by name.",
        args: {
          scope: t.arg({ type: SmqScopeEnum, required: false }),
          level: t.arg({ type: SmqTermLevelEnum, required: false }),
          status: t.arg({ type: SmqStatusEnum, required: false, description: 'Default: both.' }),
        },
        complexity: (args) => ({ field: 2, multiplier: args.first ?? SMQ_PAGES.smqTerms.default }),
        resolve: (s, args, ctx) => offsetConnection(args, SMQ_PAGES.smqTerms, (page) => smqs.smqTerms(ctx, s, args, page)),
      },
      {
        name: 'SmqTermConnection',
        fields: (f) => ({
          totalCount: f.int({ resolve: totalCount }),
          counts: f.field({ type: SmqTermCountsRef, description: 'Terms per scope under the level and status filters.', resolve: (p) => (p as unknown as SmqTermsPage).counts }),
        }),
      },
    ),
  }),
});

// --- Code.smqs ---------------------------------------------------------------------

const CodeSmqRef = builder.objectRef<CodeSmq>('CodeSmq').implement({
  description: 'An SMQ whose content lists a code (or, for an LLT, its PT).',
  fields: (t) => ({
    smq: t.field({ type: SmqRef, resolve: (m) => m.smq }),
    scope: t.field({ type: SmqScopeEnum, nullable: true, resolve: (m) => smqs.scopeOf(m.scope) }),
    category: t.exposeString('category'),
    weight: t.exposeInt('weight'),
    status: t.field({ type: SmqStatusEnum, resolve: (m) => smqs.smqStatus(m.status) }),
    direct: t.exposeBoolean('direct', { description: 'The SMQ lists the code itself (false: an LLT through its PT).' }),
    termCode: t.string({ description: 'The listed term.', resolve: (m) => String(m.termCode) }),
    termLevel: t.field({ type: SmqTermLevelEnum, resolve: (m) => m.termLevel }),
  }),
});

builder.objectFields(CodeRef, (t) => ({
  smqs: t.field({
    type: [CodeSmqRef],
    description: 'SMQs of this release whose content lists this PT or LLT (an LLT also through its PT), by SMQ name; parent SMQs through Smq.parent. Empty for other levels.',
    complexity: { field: 2, multiplier: 5 },
    resolve: (c, _a, ctx) => smqs.smqsOfCode(ctx, c),
  }),
}));

// --- changes -----------------------------------------------------------------------

export const SmqChangeTypeEnum = builder.enumType('SmqChangeType', {
  values: {
    SMQ_ADDED: { description: 'the SMQ is absent from the baseline' },
    SMQ_RETIRED: { description: 'the SMQ is absent from the target, or made inactive' },
    SMQ_UPDATED: { description: 'name, level, status, algorithm or description changed' },
    TERM_ADDED: { description: 'a term or sub-SMQ listed (or made active again)' },
    TERM_REMOVED: { description: 'a term or sub-SMQ no longer listed, or made inactive' },
    TERM_UPDATED: { description: 'scope, category or weight of an active term changed' },
  } as const,
});

const SmqChangeRef = builder.objectRef<ReleaseSmqChange>('SmqChange').implement({
  description: 'One change to an SMQ or its content between two releases.',
  fields: (t) => ({
    changeType: t.field({ type: SmqChangeTypeEnum, resolve: (c) => c.changeType }),
    smqCode: t.string({ resolve: (c) => String(c.smqCode) }),
    smqName: t.exposeString('smqName', { description: 'Name in the target release (in the baseline when the SMQ left).' }),
    termCode: t.string({ nullable: true, resolve: (c) => (c.termCode === null ? null : String(c.termCode)) }),
    termLevel: t.string({ nullable: true, description: 'PT, LLT, or SMQ (a sub-SMQ).', resolve: (c) => c.termLevel }),
    termName: t.string({ nullable: true, resolve: (c) => c.termName }),
    details: t.string({ resolve: (c) => smqs.smqChangeDetails(c) }),
    before: t.field({ type: JSONScalar, nullable: true, description: 'SMQ: {name, level, status, algorithm, description}; term: {scope, category, weight, status}.', resolve: (c) => c.before }),
    after: t.field({ type: JSONScalar, nullable: true, resolve: (c) => c.after }),
    from: t.string({ resolve: (c) => c.fromVersion }),
    to: t.string({ resolve: (c) => c.toVersion }),
  }),
});

const SmqChangeCountsRef = builder.objectRef<SmqChangeCounts>('SmqChangeCounts').implement({
  fields: (t) => ({
    smqAdded: t.int({ resolve: (c) => c.SMQ_ADDED }),
    smqRetired: t.int({ resolve: (c) => c.SMQ_RETIRED }),
    smqUpdated: t.int({ resolve: (c) => c.SMQ_UPDATED }),
    termAdded: t.int({ resolve: (c) => c.TERM_ADDED }),
    termRemoved: t.int({ resolve: (c) => c.TERM_REMOVED }),
    termUpdated: t.int({ resolve: (c) => c.TERM_UPDATED }),
  }),
});

builder.objectFields(VersionRef, (t) => ({
  smqChanges: t.connection(
    {
      type: SmqChangeRef,
      description: 'What changed in SMQs from a baseline (default: the previous release) to this release: SMQs added, retired, redefined; terms added, removed, re-scoped.',
      args: {
        from: t.arg.string({ required: false, description: 'Baseline release (default: the previous one).' }),
        smq: t.arg.string({ required: false, description: 'Only this SMQ (its own content rows).' }),
        changeType: t.arg({ type: SmqChangeTypeEnum, required: false }),
        language: t.arg.string({ required: false, description: 'BCP 47 tag of the names (a hosted language); default: Accept-Language, else the primary.' }),
      },
      complexity: (args) => ({ field: 5, multiplier: args.first ?? SMQ_PAGES.smqChanges.default }),
      resolve: (to, args, ctx) => offsetConnection(args, SMQ_PAGES.smqChanges, (page) => smqs.smqChanges(ctx, to, args, page)),
    },
    {
      name: 'SmqChangeConnection',
      fields: (f) => ({
        totalCount: f.int({ resolve: totalCount }),
        counts: f.field({ type: SmqChangeCountsRef, description: 'Per change type, under the smq filter.', resolve: (p) => (p as unknown as SmqChangesPage).counts }),
        from: f.field({ type: VersionRef, resolve: (p) => (p as unknown as SmqChangesPage).from }),
        to: f.field({ type: VersionRef, resolve: (p) => (p as unknown as SmqChangesPage).to }),
      }),
    },
  ),
}));

// --- application to coded data -----------------------------------------------------

const SmqRowInput = builder.inputType('SmqRowInput', {
  description: 'One row of coded data: a PT or LLT code, with the case it belongs to (rows of a case are evaluated together by an algorithmic SMQ).',
  fields: (t) => ({
    rowId: t.string({ required: true }),
    code: t.string({ required: true }),
    caseId: t.string({ required: false, description: 'Rows without caseId are each a case of their own.' }),
  }),
});

const SmqRowMatchRef = builder.objectRef<SmqRowMatch>('SmqRowMatch').implement({
  fields: (t) => ({
    rowId: t.exposeString('rowId'),
    caseId: t.string({ nullable: true, resolve: (m) => m.caseId }),
    code: t.exposeString('code'),
    level: t.field({ type: SmqTermLevelEnum, resolve: (m) => m.level }),
    term: t.exposeString('term'),
    matchedCode: t.string({ description: 'The listed term that matched: the code itself, or the PT of an LLT.', resolve: (m) => String(m.matchedCode) }),
    matchedLevel: t.field({ type: SmqTermLevelEnum, resolve: (m) => m.matchedLevel }),
    matchedTerm: t.string({ nullable: true, resolve: (m) => m.matchedTerm }),
    scope: t.field({ type: SmqScopeEnum, resolve: (m) => m.scope }),
    category: t.exposeString('category'),
    weight: t.exposeInt('weight'),
    smqCode: t.string({ description: 'The SMQ or sub-SMQ listing the matched term.', resolve: (m) => String(m.smqCode) }),
  }),
});

const SmqRowProblemReasonEnum = builder.enumType('SmqRowProblemReason', {
  values: {
    UNKNOWN_CODE: { description: 'the code does not exist in the release' },
    NOT_PT_OR_LLT: { description: 'the code is a SOC, HLGT or HLT' },
  } as const,
});

const SmqRowProblemRef = builder.objectRef<SmqRowProblem>('SmqRowProblem').implement({
  fields: (t) => ({
    rowId: t.exposeString('rowId'),
    code: t.exposeString('code'),
    reason: t.field({ type: SmqRowProblemReasonEnum, resolve: (p) => p.reason }),
  }),
});

const SmqCategoryWeightRef = builder.objectRef<{ category: string; weight: number }>('SmqCategoryWeight').implement({
  fields: (t) => ({ category: t.exposeString('category'), weight: t.exposeInt('weight') }),
});

const SmqCaseResultRef = builder.objectRef<SmqCaseResult>('SmqCaseResult').implement({
  fields: (t) => ({
    caseId: t.string({ nullable: true, description: 'Null for a row without caseId (a case of its own).', resolve: (c) => c.caseId }),
    rowIds: t.stringList({ description: 'Rows of the case that match a term.', resolve: (c) => c.rowIds }),
    categories: t.field({ type: [SmqCategoryWeightRef], resolve: (c) => c.categories }),
    weight: t.exposeInt('weight', { description: 'Sum of the weights of the categories the case has (each counted once, at its highest weight).' }),
    matched: t.boolean({ nullable: true, description: 'The rule holds for the case (null when the algorithm cannot be evaluated).', resolve: (c) => c.matched }),
  }),
});

type AlgorithmResult = NonNullable<SmqApplication['algorithm']>;
const SmqAlgorithmResultRef = builder.objectRef<AlgorithmResult>('SmqAlgorithmResult').implement({
  fields: (t) => ({
    expression: t.exposeString('expression'),
    error: t.string({ nullable: true, description: 'Why the rule could not be evaluated, if it could not.', resolve: (a) => a.error }),
    matchedCases: t.int({ nullable: true, resolve: (a) => a.matchedCases }),
    cases: t.field({ type: [SmqCaseResultRef], description: 'Cases with at least one matching row.', resolve: (a) => a.cases }),
  }),
});

const SmqApplyCountsRef = builder.objectRef<SmqApplication['counts']>('SmqApplyCounts').implement({
  fields: (t) => ({
    rows: t.exposeInt('rows'),
    narrow: t.exposeInt('narrow', { description: 'Rows matching a narrow term.' }),
    broad: t.exposeInt('broad', { description: 'Rows matching only broad terms.' }),
    broadSearch: t.exposeInt('broadSearch', { description: 'Rows a broad search finds (narrow + broad).' }),
    unmatched: t.exposeInt('unmatched'),
    problems: t.exposeInt('problems', { description: 'Rows whose code is unknown or not a PT/LLT.' }),
  }),
});

const SmqApplicationRef = builder.objectRef<SmqApplication>('SmqApplication').implement({
  description: 'An SMQ run over coded rows.',
  fields: (t) => ({
    version: t.field({ type: VersionRef, resolve: (a) => a.release }),
    smq: t.field({ type: SmqRef, resolve: (a) => a.smq }),
    counts: t.field({ type: SmqApplyCountsRef, resolve: (a) => a.counts }),
    narrow: t.field({ type: [SmqRowMatchRef], resolve: (a) => a.narrow }),
    broad: t.field({ type: [SmqRowMatchRef], description: 'Rows matching only broad terms.', resolve: (a) => a.broad }),
    problems: t.field({ type: [SmqRowProblemRef], resolve: (a) => a.problems }),
    algorithm: t.field({ type: SmqAlgorithmResultRef, nullable: true, description: 'Algorithmic SMQs: the category rule evaluated per case.', resolve: (a) => a.algorithm }),
  }),
});

// --- root fields -------------------------------------------------------------------

builder.queryFields((t) => ({
  smqs: t.connection(
    {
      type: SmqRef,
      description: 'SMQs of a release (argument, else X-Terminology-Version, else latest), by name; `q` keeps names containing it (any case).',
      args: { q: t.arg.string({ required: false, description: 'Keeps SMQs whose name in the language contains it (folded as the language\'s search folds).' }), version: t.arg.string({ required: false }), language: t.arg.string({ required: false, description: 'BCP 47 tag of the names (a hosted language); default: Accept-Language, else the primary.' }) },
      complexity: (args) => ({ field: 1, multiplier: args.first ?? SMQ_PAGES.smqs.default }),
      resolve: (_root, args, ctx) => offsetConnection(args, SMQ_PAGES.smqs, (page) => smqs.listSmqs(ctx, args, page)),
    },
    { name: 'SmqConnection', fields: (f) => ({ totalCount: f.int({ resolve: totalCount }) }) },
  ),
  smq: t.field({
    type: SmqRef,
    description: 'One SMQ by code in a release (argument, else X-Terminology-Version, else latest).',
    args: { code: t.arg.string({ required: true }), version: t.arg.string({ required: false }), language: t.arg.string({ required: false, description: 'BCP 47 tag of the names (a hosted language); default: Accept-Language, else the primary.' }) },
    resolve: (_root, args, ctx) => smqs.lookupSmq(ctx, args.code, args.version, args.language),
  }),
  applySmq: t.field({
    type: SmqApplicationRef,
    description: 'Runs an SMQ over coded rows (needs X-API-Key: the rows are client data). Never cached.',
    args: {
      code: t.arg.string({ required: true }),
      version: t.arg.string({ required: false }),
      language: t.arg.string({ required: false, description: 'BCP 47 tag of the names (a hosted language); default: Accept-Language, else the primary.' }),
      rows: t.arg({ type: [SmqRowInput], required: false, description: 'The coded rows; give rows or rowsData.' }),
      rowsData: t.arg({
        type: JSONScalar,
        required: false,
        description: 'The same rows as one JSON array of {rowId, code, caseId?}: for up to 100,000 rows, which graphql-js would coerce as typed input objects in one blocking step (REST uses it).',
      }),
    },
    complexity: (args) => listCost(args.rows ?? args.rowsData, 0.1),
    resolve: (_root, args, ctx) => smqs.applySmq(ctx, args.code, args.version, { rows: args.rows, rowsData: args.rowsData }, args.language),
  }),
}));
