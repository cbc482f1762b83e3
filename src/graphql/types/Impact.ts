// Impact of a release upgrade on coded data: the `impact` field. Requires X-API-Key (the
// rows are the client's data); never result-cached (see resultCache.ts).
import { builder, listCost } from '../builder.ts';
import { IMPACT_KIND_DESCRIPTIONS, IMPACT_KINDS, type CodeState, type Impact, type ImpactRowResult, type NodeRef, type PtDelta, type SocMovement, type Suggestion } from '../../domain/impact/analyse.ts';
import { analyseImpact, impactRowsOf, type ImpactReport, type ImpactRowError, type ImpactSummary } from '../../services/impact.ts';
import { MAX_IMPACT_ROWS } from '../../services/limits.ts';
import { LevelEnum } from './enums.ts';
import { settleInSlices } from '../../services/codedWork.ts';
import { JSONScalar } from './Change.ts';

export const TermRefType = builder.objectRef<NodeRef>('TermRef').implement({
  description: 'A concept of a release: code, term and level.',
  fields: (t) => ({
    code: t.exposeString('code'),
    term: t.exposeString('term'),
    level: t.field({ type: LevelEnum, resolve: (n) => n.level }),
  }),
});

const ImpactKindEnum = builder.enumType('ImpactKind', {
  values: Object.fromEntries(IMPACT_KINDS.map((k) => [k, { description: IMPACT_KIND_DESCRIPTIONS[k] }])) as Record<(typeof IMPACT_KINDS)[number], { description: string }>,
});

const RecodeActionEnum = builder.enumType('RecodeAction', {
  values: {
    KEEP: { description: 'The code stays valid: keep it (tables may shift).' },
    RECODE: { description: 'Recode to the suggested code.' },
    REVIEW: { description: 'A person must decide; the suggested code, if any, is a candidate.' },
  } as const,
});

const SuggestionRef = builder.objectRef<Suggestion>('RecodeSuggestion').implement({
  fields: (t) => ({
    action: t.field({ type: RecodeActionEnum, resolve: (s) => s.action }),
    code: t.string({ nullable: true, resolve: (s) => s.code }),
    term: t.string({ nullable: true, resolve: (s) => s.term }),
    level: t.field({ type: LevelEnum, nullable: true, resolve: (s) => s.level }),
    reason: t.exposeString('reason'),
  }),
});

const ImpactRef = builder.objectRef<Impact>('Impact').implement({
  description: 'One impact of the upgrade on a row, with the new values and a suggested recode.',
  fields: (t) => ({
    kind: t.field({ type: ImpactKindEnum, resolve: (i) => i.kind }),
    details: t.exposeString('details'),
    before: t.string({ nullable: true, resolve: (i) => i.before }),
    after: t.string({ nullable: true, resolve: (i) => i.after }),
    suggestion: t.field({ type: SuggestionRef, resolve: (i) => i.suggestion }),
  }),
});

const CodeStateRef = builder.objectRef<CodeState>('ImpactCodeState').implement({
  description: 'A coded row as one release sees it.',
  fields: (t) => ({
    level: t.field({ type: LevelEnum, description: 'PT when the code is a PT (and its own LLT), else LLT.', resolve: (s) => s.level }),
    term: t.exposeString('term'),
    current: t.exposeBoolean('current'),
    pt: t.field({ type: TermRefType, nullable: true, resolve: (s) => s.pt }),
    hlt: t.field({ type: TermRefType, nullable: true, description: 'Of the primary path.', resolve: (s) => s.hlt }),
    hlgt: t.field({ type: TermRefType, nullable: true, description: 'Of the primary path.', resolve: (s) => s.hlgt }),
    soc: t.field({ type: TermRefType, nullable: true, description: 'The primary SOC.', resolve: (s) => s.soc }),
  }),
});

const ImpactRowRef = builder.objectRef<ImpactRowResult>('ImpactRow').implement({
  fields: (t) => ({
    rowId: t.exposeString('rowId'),
    code: t.exposeString('code'),
    recordedTerm: t.string({ nullable: true, resolve: (r) => r.recordedTerm }),
    position: t.exposeInt('position', { description: '1-based position among the input rows.' }),
    line: t.int({ nullable: true, description: 'Line of the uploaded CSV file.', resolve: (r) => r.line }),
    before: t.field({ type: CodeStateRef, description: 'The code in the `from` release.', resolve: (r) => r.before }),
    after: t.field({ type: CodeStateRef, nullable: true, description: 'The code in the `to` release; null when it is retired.', resolve: (r) => r.after }),
    impacts: t.field({ type: [ImpactRef], description: 'Empty when the upgrade does not affect the row.', resolve: (r) => r.impacts }),
  }),
});

const RowErrorRef = builder.objectRef<ImpactRowError>('ImpactRowError').implement({
  description: 'A row that was not analysed, and why.',
  fields: (t) => ({
    rowId: t.string({ nullable: true, resolve: (e) => e.rowId }),
    position: t.exposeInt('position'),
    line: t.int({ nullable: true, resolve: (e) => e.line }),
    field: t.exposeString('field'),
    reason: t.exposeString('reason'),
  }),
});

const KindCountRef = builder.objectRef<ImpactSummary['byKind'][number]>('ImpactKindCount').implement({
  fields: (t) => ({ kind: t.field({ type: ImpactKindEnum, resolve: (k) => k.kind }), rows: t.exposeInt('rows') }),
});

const SocMovementRef = builder.objectRef<SocMovement>('SocMovement').implement({
  description: 'Rows whose primary SOC changes from one SOC to another.',
  fields: (t) => ({
    from: t.field({ type: TermRefType, resolve: (m) => m.from }),
    to: t.field({ type: TermRefType, resolve: (m) => m.to }),
    rows: t.exposeInt('rows'),
  }),
});

const PtDeltaRef = builder.objectRef<PtDelta>('PtDelta').implement({
  description: 'How the number of rows counted under a PT shifts.',
  fields: (t) => ({
    pt: t.field({ type: TermRefType, resolve: (d) => d.pt }),
    before: t.exposeInt('before'),
    after: t.exposeInt('after'),
    delta: t.exposeInt('delta'),
  }),
});

const SummaryRef = builder.objectRef<ImpactSummary>('ImpactSummary').implement({
  fields: (t) => ({
    rowsUploaded: t.exposeInt('rowsUploaded'),
    rowsValid: t.exposeInt('rowsValid'),
    rowsInvalid: t.exposeInt('rowsInvalid'),
    rowsImpacted: t.exposeInt('rowsImpacted'),
    impactedPercent: t.exposeFloat('impactedPercent', { description: 'Impacted rows as a percentage of the valid rows.' }),
    byKind: t.field({ type: [KindCountRef], description: 'Rows with each kind of impact (every kind, zeros included).', resolve: (s) => s.byKind }),
    socMovements: t.field({ type: [SocMovementRef], resolve: (s) => s.socMovements }),
    ptDeltas: t.field({ type: [PtDeltaRef], description: 'PTs whose row count changes, the largest shift first.', resolve: (s) => s.ptDeltas }),
  }),
});

const ImpactReportRef = builder.objectRef<ImpactReport>('ImpactReport').implement({
  fields: (t) => ({
    from: t.string({ resolve: (r) => r.from.version }),
    to: t.string({ resolve: (r) => r.to.version }),
    language: t.string({ description: 'BCP 47 tag of every name in the report (a language both releases host).', resolve: (r) => r.language }),
    validateOnly: t.exposeBoolean('validateOnly'),
    summary: t.field({ type: SummaryRef, resolve: (r) => r.summary }),
    // Up to 100,000 bad rows: completed a slice per turn (settleInSlices), not in one pass.
    errors: t.field({ type: [RowErrorRef], description: 'Rows not analysed (bad rows), with the reason.', resolve: (r) => settleInSlices(r.errors) }),
    rows: t.field({
      type: [ImpactRowRef],
      description: 'The valid rows in input order (empty with validateOnly); only those with an impact when impactedOnly.',
      args: { impactedOnly: t.arg.boolean({ required: false, defaultValue: false }) },
      resolve: (r, { impactedOnly }) => impactRowsOf(r, !!impactedOnly),
    }),
    rowsData: t.field({
      type: JSONScalar,
      description:
        'The same rows as `rows` (same fields, codes as strings) as one JSON value: for moving up to 100,000 rows at once, which a typed list resolved field by field makes slow (REST and the CLI use it).',
      args: { impactedOnly: t.arg.boolean({ required: false, defaultValue: false }) },
      resolve: (r, { impactedOnly }) => impactRowsOf(r, !!impactedOnly),
    }),
  }),
});

const ImpactRowInputRef = builder.inputType('ImpactRowInput', {
  description: 'A coded row. Every field is optional here so that a bad row is reported with its reason instead of failing the request.',
  fields: (t) => ({
    rowId: t.string({ required: false }),
    code: t.string({ required: false, description: 'LLT or PT code.' }),
    term: t.string({ required: false, description: 'The term as recorded (optional).' }),
    line: t.int({ required: false, description: 'Line of the source file (reported with errors).' }),
  }),
});

const ImpactInputRef = builder.inputType('ImpactInput', {
  fields: (t) => ({
    from: t.string({ required: true, description: 'Release the rows were coded with.' }),
    to: t.string({ required: true, description: 'Release to upgrade to (any hosted release, either direction).' }),
    rows: t.field({ type: [ImpactRowInputRef], required: false, description: `At most ${MAX_IMPACT_ROWS} rows. Give rows or rowsData.` }),
    rowsData: t.field({
      type: JSONScalar,
      required: false,
      description:
        'The same rows as one JSON array of {rowId, code, term?, line?, position?} (line and position: where the row is in the client\'s file): for up to 100,000 rows, which graphql-js would coerce as typed input objects in one blocking step (REST and the CLI use it).',
    }),
    validateOnly: t.boolean({ required: false, description: 'Only check the rows: the errors come back alone.' }),
  }),
});

builder.queryFields((t) => ({
  impact: t.field({
    type: ImpactReportRef,
    description: 'What an upgrade from one release to another does to coded data. Requires X-API-Key.',
    args: {
      input: t.arg({ type: ImpactInputRef, required: true }),
      language: t.arg.string({
        required: false,
        description:
          "BCP 47 tag of the names (hosted by both releases); default: Accept-Language, else the target's primary. A name changed in this language only is TRANSLATION_CHANGED.",
      }),
    },
    // rowsData is one JSON value: its length counts as rows do.
    complexity: ({ input }) => listCost(input.rows ?? input.rowsData, 0.1),
    resolve: (_r, { input, language }, ctx) => analyseImpact(ctx, { ...input, language }),
  }),
}));
