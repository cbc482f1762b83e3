// Coded lists against one release: validateCodes and analyseCodes.
import { builder, listCost } from '../builder.ts';
import { analyseCodes, validateCodes, type CodeAnalysis, type CodeValidation, type RollUp, type ValidatedCode } from '../../services/codeLists.ts';
import { MAX_CODE_LIST, MAX_PUBLIC_CODE_LIST } from '../../services/limits.ts';
import { settleInSlices } from '../../services/codedWork.ts';
import { LevelEnum } from './enums.ts';
import { TermRefType } from './Impact.ts';

const ValidatedCodeRef = builder.objectRef<ValidatedCode>('ValidatedCode').implement({
  fields: (t) => ({
    position: t.exposeInt('position'),
    code: t.exposeString('code'),
    recordedTerm: t.string({ nullable: true, resolve: (v) => v.recordedTerm }),
    exists: t.exposeBoolean('exists'),
    level: t.field({ type: LevelEnum, nullable: true, resolve: (v) => v.level }),
    term: t.string({ nullable: true, description: "The code's term in the release.", resolve: (v) => v.term }),
    current: t.boolean({ nullable: true, resolve: (v) => v.current }),
    termMatches: t.boolean({ nullable: true, description: 'Null without a recorded term.', resolve: (v) => v.termMatches }),
    pt: t.field({ type: TermRefType, nullable: true, description: 'The PT it rolls up to.', resolve: (v) => v.pt }),
    primaryPath: t.field({ type: [TermRefType], description: 'SOC down to the code.', resolve: (v) => v.primaryPath }),
    pathCount: t.exposeInt('pathCount', { description: 'Paths of the PT to a SOC.' }),
    multiaxial: t.exposeBoolean('multiaxial', { description: 'The PT has more than one path (secondary SOCs).' }),
    issues: t.exposeStringList('issues', { description: 'Why the code cannot be used as it stands; empty when it can.' }),
  }),
});

const ValidationSummaryRef = builder.objectRef<CodeValidation['summary']>('CodeValidationSummary').implement({
  fields: (t) => ({
    items: t.exposeInt('items'),
    valid: t.exposeInt('valid'),
    unknown: t.exposeInt('unknown'),
    nonCurrent: t.exposeInt('nonCurrent'),
    termMismatches: t.exposeInt('termMismatches'),
    multiaxial: t.exposeInt('multiaxial'),
  }),
});

const CodeValidationRef = builder.objectRef<CodeValidation>('CodeValidation').implement({
  fields: (t) => ({
    version: t.string({ resolve: (v) => v.release.version }),
    summary: t.field({ type: ValidationSummaryRef, resolve: (v) => v.summary }),
    // Up to 10,000 items of ~30 fields each: completed a slice per turn (settleInSlices).
    items: t.field({ type: [ValidatedCodeRef], resolve: (v) => settleInSlices(v.items) }),
  }),
});

const RollUpRef = builder.objectRef<RollUp>('RollUp').implement({
  fields: (t) => ({
    code: t.string({ resolve: (r) => String(r.code) }),
    term: t.exposeString('term'),
    level: t.field({ type: LevelEnum, resolve: (r) => r.level }),
    count: t.exposeInt('count', { description: 'Items counted along their primary path.' }),
    allPathsCount: t.int({ nullable: true, description: 'Items counted along every path; null unless allPaths.', resolve: (r) => r.allPathsCount }),
  }),
});

const NotCountedRef = builder.objectRef<CodeAnalysis['notCounted'][number]>('NotCountedCode').implement({
  fields: (t) => ({ position: t.exposeInt('position'), code: t.exposeString('code'), reason: t.exposeString('reason') }),
});

const CodeAnalysisRef = builder.objectRef<CodeAnalysis>('CodeAnalysis').implement({
  fields: (t) => ({
    version: t.string({ resolve: (a) => a.release.version }),
    allPaths: t.exposeBoolean('allPaths'),
    items: t.exposeInt('items'),
    counted: t.exposeInt('counted'),
    notCounted: t.field({ type: [NotCountedRef], resolve: (a) => settleInSlices(a.notCounted) }),
    pt: t.field({ type: [RollUpRef], resolve: (a) => settleInSlices(a.pt) }),
    hlt: t.field({ type: [RollUpRef], resolve: (a) => a.hlt }),
    hlgt: t.field({ type: [RollUpRef], resolve: (a) => a.hlgt }),
    soc: t.field({ type: [RollUpRef], resolve: (a) => a.soc }),
  }),
});

const CodeListItemInput = builder.inputType('CodeListItemInput', {
  fields: (t) => ({ code: t.string({ required: true }), term: t.string({ required: false, description: 'The term as recorded.' }) }),
});

const listArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  codes: t.arg({ type: [CodeListItemInput], required: true, description: `At most ${MAX_PUBLIC_CODE_LIST} items without an API key (X-API-Key), ${MAX_CODE_LIST} with one.` }),
  version: t.arg.string({ required: false }),
  language: t.arg.string({ required: false, description: 'BCP 47 tag of the names (a hosted language): terms shown and recorded terms compared in it; default: Accept-Language, else the primary.' }),
});

builder.queryFields((t) => ({
  validateCodes: t.field({
    type: CodeValidationRef,
    description: 'Checks a coded list against one release: existence, level, currency, term match, roll-up.',
    args: listArgs(t),
    complexity: (args) => listCost(args.codes, 1),
    resolve: (_r, args, ctx) => validateCodes(ctx, args),
  }),
  analyseCodes: t.field({
    type: CodeAnalysisRef,
    description: 'Roll-up counts of a coded list by PT, HLT, HLGT and SOC (primary path; every path with allPaths).',
    args: { ...listArgs(t), allPaths: t.arg.boolean({ required: false }) },
    complexity: (args) => listCost(args.codes, 1),
    resolve: (_r, args, ctx) => analyseCodes(ctx, args),
  }),
}));
