// The narrative capabilities as GraphQL fields: identify, classify, classifyLabel.
// Same API-key requirement as REST; every result carries the AI notice.
import { builder } from '../builder.ts';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { CodePrediction, IdentifiedEvent, LabelPrediction } from '../../nlp/index.ts';
import type { Classification, SeveritySystem } from '../../assessment/service.ts';
import { AI_NOTICE } from '../../assessment/notice.ts';
import { DomainError, validationError } from '../../domain/errors.ts';
import type { GraphQLContext } from '../context.ts';
import type { ReleaseInfo } from '../../domain/releases.ts';
import { CodeRef, withVersion } from './Code.ts';
import { checkFirst } from '../../services/arguments.ts';

/** Longest narrative for identify/classify; labels may be longer (bounded by MAX_BODY_BYTES). */
export const MAX_NARRATIVE = 100_000;
export const MAX_LABEL = 1_000_000;

interface Base {
  requestId: string;
  release: ReleaseInfo;
  provider: string;
  fallbackReason: string | null;
}

const AssessmentInterface = builder.interfaceRef<Base>('Assessment').implement({
  description: 'An AI-generated assessment. It must be reviewed by a qualified person before use in regulatory submissions.',
  fields: (t) => ({
    requestId: t.exposeString('requestId'),
    version: t.string({ description: 'The release used.', resolve: (a) => a.release.version }),
    provider: t.exposeString('provider', { description: 'lexical (offline engine) or openai (LLM grounded in the release).' }),
    fallbackReason: t.string({ nullable: true, description: 'Why the LLM answer was not used, when it was not.', resolve: (a) => a.fallbackReason }),
    notice: t.string({ resolve: () => AI_NOTICE }),
  }),
});

const EventRef = builder.objectRef<IdentifiedEvent>('EventStatement').implement({
  description: 'A discrete, self-contained adverse-event statement (never a terminology code).',
  fields: (t) => ({
    description: t.exposeString('description'),
    reasons: t.exposeStringList('reasons', { description: 'Quotes of the evidence in the narrative.' }),
    confidence: t.exposeFloat('confidence'),
  }),
});

type PredictionShape = (CodePrediction | LabelPrediction) & { version: string; releaseId: number };

const SnippetRef = builder.objectRef<LabelPrediction['supportingSnippets'][number]>('SupportingSnippet').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    section: t.exposeString('section'),
    text: t.exposeString('text', { description: 'Exactly description[start:end].' }),
    start: t.exposeInt('start'),
    end: t.exposeInt('end'),
    likelihood: t.exposeFloat('likelihood'),
    confidence: t.exposeFloat('confidence'),
    explanations: t.exposeStringList('explanations'),
  }),
});

const PredictionRef = builder.objectRef<PredictionShape>('CodePrediction').implement({
  description: 'A predicted PT with calibrated confidence; its hierarchy context is on `code`.',
  fields: (t) => ({
    code: t.field({
      type: CodeRef,
      resolve: async (p, _a, ctx) => {
        const c = await ctx.loaders.concept.load({ releaseId: p.releaseId, level: 'PT', code: p.ptCode });
        if (!c) throw new DomainError('INTERNAL_ERROR', 'prediction outside the release');
        return withVersion(c, p.version);
      },
    }),
    matchedTerm: t.field({
      type: CodeRef,
      nullable: true,
      description: 'The LLT the text matched, when it matched one.',
      resolve: async (p, _a, ctx) => {
        const m = 'matchedLlt' in p ? p.matchedLlt : undefined;
        if (!m) return null;
        const c = await ctx.loaders.concept.load({ releaseId: p.releaseId, level: 'LLT', code: m.code });
        return c ? withVersion(c, p.version) : null;
      },
    }),
    confidence: t.exposeFloat('confidence', { description: 'Calibrated: among predictions given confidence p, about p are right.' }),
    rawScore: t.exposeFloat('rawScore', { description: 'Uncalibrated score.' }),
    reasons: t.exposeStringList('reasons'),
    supportingSnippets: t.field({
      type: [SnippetRef],
      nullable: true,
      description: 'Label classification only: where the label supports this code.',
      resolve: (p) => ('supportingSnippets' in p ? p.supportingSnippets : null),
    }),
  }),
});

type Criterion = { met: boolean; confidence: number; reasons: string[] };
const CriterionRef = builder.objectRef<Criterion>('SeriousnessCriterion').implement({
  fields: (t) => ({ met: t.exposeBoolean('met'), confidence: t.exposeFloat('confidence'), reasons: t.exposeStringList('reasons') }),
});
const CRITERIA = ['death', 'life_threatening', 'hospitalization', 'disability', 'congenital_anomaly', 'medically_important'] as const;
type SeriousnessShape = NonNullable<Classification['seriousness']>;
const SeriousnessRef = builder.objectRef<SeriousnessShape>('Seriousness').implement({
  description: 'ICH E2A seriousness: serious when any criterion is met.',
  fields: (t) => ({
    serious: t.exposeBoolean('serious'),
    confidence: t.exposeFloat('confidence'),
    criteria: t.field({
      type: builder.objectRef<SeriousnessShape['criteria']>('SeriousnessCriteria').implement({
        fields: (f) => Object.fromEntries(CRITERIA.map((c) => [c, f.field({ type: CriterionRef, resolve: (x) => x[c] })])) as never,
      }),
      resolve: (s) => s.criteria,
    }),
  }),
});

type SeverityShape = NonNullable<Classification['severity']>;
const CtcaeRef = builder.objectRef<NonNullable<SeverityShape['ctcae']>>('CtcaeSeverity').implement({
  fields: (t) => ({
    grade: t.int({ resolve: (s) => s.value.grade }),
    label: t.string({ resolve: (s) => s.value.label }),
    confidence: t.exposeFloat('confidence'),
    reasons: t.exposeStringList('reasons'),
  }),
});
const SimpleRef = builder.objectRef<NonNullable<SeverityShape['simple']>>('SimpleSeverity').implement({
  fields: (t) => ({
    grade: t.string({ description: 'mild, moderate or severe', resolve: (s) => s.value.grade }),
    confidence: t.exposeFloat('confidence'),
    reasons: t.exposeStringList('reasons'),
  }),
});
const SeverityRef = builder.objectRef<SeverityShape>('Severity').implement({
  fields: (t) => ({
    ctcae: t.field({ type: CtcaeRef, nullable: true, description: '5-level (CTCAE grade 1–5).', resolve: (s) => s.ctcae ?? null }),
    simple: t.field({ type: SimpleRef, nullable: true, description: '3-level.', resolve: (s) => s.simple ?? null }),
  }),
});

const IdentifyRef = builder.objectRef<Base & { events: IdentifiedEvent[] }>('IdentifyAssessment').implement({
  interfaces: [AssessmentInterface],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'events' in v,
  fields: (t) => ({
    events: t.connection(
      {
        type: EventRef,
        complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
        resolve: async (a, args) => {
          checkFirst(args.first);
          return { ...(await resolveOffsetConnection({ args, defaultSize: 20, maxSize: 200 }, ({ offset, limit }) => a.events.slice(offset, offset + limit))), totalCount: a.events.length };
        },
      },
      { name: 'EventConnection', fields: (f) => ({ totalCount: f.int({ resolve: (p) => (p as unknown as { totalCount: number }).totalCount }) }) },
    ),
  }),
});

const ClassificationRef = builder.objectRef<Base & { result: Classification }>('ClassificationAssessment').implement({
  interfaces: [AssessmentInterface],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'result' in v,
  fields: (t) => ({
    terminologyCodes: t.field({ type: [PredictionRef], resolve: (a) => a.result.terminologyCodes.map((p) => ({ ...p, version: a.release.version, releaseId: a.release.id })) }),
    seriousness: t.field({ type: SeriousnessRef, nullable: true, resolve: (a) => a.result.seriousness }),
    severity: t.field({ type: SeverityRef, nullable: true, resolve: (a) => a.result.severity }),
  }),
});

const LabelRef = builder.objectRef<Base & { codes: LabelPrediction[] }>('LabelAssessment').implement({
  interfaces: [AssessmentInterface],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'codes' in v,
  fields: (t) => ({
    terminologyCodes: t.field({ type: [PredictionRef], resolve: (a) => a.codes.map((p) => ({ ...p, version: a.release.version, releaseId: a.release.id })) }),
  }),
});

const SeveritySystemEnum = builder.enumType('SeveritySystem', {
  values: { FIVE_LEVEL: { value: '5-level', description: 'CTCAE grade 1–5' }, THREE_LEVEL: { value: '3-level', description: 'mild / moderate / severe' } } as const,
});

const ClassifyInput = builder.inputType('ClassifyInput', {
  fields: (t) => ({
    description: t.string({ required: true }),
    version: t.string({ required: false }),
    terminology: t.boolean({ required: false, description: 'Predict codes (default true).' }),
    terminologyVersion: t.string({ required: false, description: 'Same as assessments.terminology.version on REST.' }),
    seriousness: t.boolean({ required: false, description: 'Assess seriousness (default false).' }),
    severity: t.field({ type: [SeveritySystemEnum], required: false, description: 'Severity systems to assess (default none).' }),
    limit: t.int({ required: false, description: 'Codes returned, 1–20 (default 5).' }),
  }),
});

const LabelInput = builder.inputType('LabelClassifyInput', {
  fields: (t) => ({
    description: t.string({ required: true }),
    version: t.string({ required: false }),
    maxResults: t.int({ required: false, description: '1–100, default 25.' }),
    minConfidence: t.float({ required: false, description: '0–1, default 0.25.' }),
  }),
});

function service(ctx: GraphQLContext) {
  const s = ctx.services.assessment;
  if (!s) throw new DomainError('SERVICE_UNAVAILABLE', 'The narrative endpoints are not configured on this server.');
  return s;
}

function checkText(text: string, max: number): void {
  if (text.trim().length === 0) throw validationError({ description: ['must not be empty'] });
  if (text.length > max) throw validationError({ description: [`must be at most ${max} characters`] });
}

async function prepare(ctx: GraphQLContext, text: string, max: number, version: string | null | undefined) {
  const apiKeyId = await ctx.requireApiKey();
  checkText(text, max);
  const release = await ctx.selectRelease(version);
  return { apiKeyId, release, requestId: ctx.requestId };
}

const aiComplexity = { field: 50 };

builder.queryFields((t) => ({
  identify: t.field({
    type: IdentifyRef,
    description: 'Split a narrative into discrete adverse-event statements (no codes). Requires X-API-Key.',
    args: { description: t.arg.string({ required: true }), version: t.arg.string({ required: false }) },
    complexity: aiComplexity,
    resolve: async (_r, args, ctx) => {
      const p = await prepare(ctx, args.description, MAX_NARRATIVE, args.version);
      const out = await service(ctx).identify({ ...p, endpoint: 'identify', text: args.description });
      return { requestId: p.requestId, release: p.release, provider: out.provider, fallbackReason: out.fallbackReason, events: out.value };
    },
  }),
  classify: t.field({
    type: ClassificationRef,
    description: 'Code an event description (ranked PTs), optionally with seriousness and severity. Requires X-API-Key.',
    args: { input: t.arg({ type: ClassifyInput, required: true }) },
    complexity: aiComplexity,
    resolve: async (_r, { input }, ctx) => {
      if (input.version && input.terminologyVersion && input.version !== input.terminologyVersion) {
        ctx.log.warn({ requestId: ctx.requestId, version: input.version, terminologyVersion: input.terminologyVersion }, 'version and assessments.terminology.version disagree; version wins');
      }
      const limit = input.limit ?? 5;
      if (limit < 1 || limit > 20) throw validationError({ limit: ['must be between 1 and 20'] });
      const p = await prepare(ctx, input.description, MAX_NARRATIVE, input.version ?? input.terminologyVersion);
      const out = await service(ctx).classify(
        { ...p, endpoint: 'classify', text: input.description },
        {
          terminology: input.terminology ?? true,
          seriousness: input.seriousness ?? false,
          severity: input.severity && input.severity.length ? [...new Set(input.severity)] as SeveritySystem[] : null,
          limit,
        },
      );
      return { requestId: p.requestId, release: p.release, provider: out.provider, fallbackReason: out.fallbackReason, result: out.value };
    },
  }),
  classifyLabel: t.field({
    type: LabelRef,
    description: 'Every adverse reaction a product label lists, coded and located in the text. Requires X-API-Key.',
    args: { input: t.arg({ type: LabelInput, required: true }) },
    complexity: aiComplexity,
    resolve: async (_r, { input }, ctx) => {
      const maxResults = input.maxResults ?? 25;
      const minConfidence = input.minConfidence ?? 0.25;
      const errors: Record<string, string[]> = {};
      if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 100) errors.maxResults = ['must be an integer between 1 and 100'];
      if (!(minConfidence >= 0 && minConfidence <= 1)) errors.minConfidence = ['must be between 0 and 1'];
      if (Object.keys(errors).length) throw validationError(errors);
      const p = await prepare(ctx, input.description, MAX_LABEL, input.version);
      const out = await service(ctx).classifyLabel({ ...p, endpoint: 'labels/classify', text: input.description }, { maxResults, minConfidence });
      return { requestId: p.requestId, release: p.release, provider: out.provider, fallbackReason: out.fallbackReason, codes: out.value };
    },
  }),
}));
