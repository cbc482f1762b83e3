// The narrative capabilities as GraphQL fields: identify, classify, classifyLabel.
// Same API-key requirement as REST; every result carries the AI notice.
import { builder } from '../builder.ts';
import { LABEL_CONTEXTS, SECTION_TYPES, type CodePrediction, type ExcludedCandidate, type IdentifiedEvent, type LabelContext, type LabelPrediction, type SectionType } from '../../nlp/index.ts';
import type { Classification, SeveritySystem } from '../../assessment/service.ts';
import { AI_NOTICE } from '../../assessment/notice.ts';
import * as assessments from '../../services/assessments.ts';
import type { AssessmentHead, ClassificationResult, Identification, LabelClassification } from '../../services/assessments.ts';
import { conceptByKey } from '../../services/codes.ts';
import { PAGES } from '../../services/limits.ts';
import { slicePage } from '../../services/paging.ts';
import { DomainError } from '../../domain/errors.ts';
import { offsetConnection, totalCount } from '../connections.ts';
import { CodeRef } from './Code.ts';

const AssessmentInterface = builder.interfaceRef<AssessmentHead>('Assessment').implement({
  description: 'An AI-generated assessment. It must be reviewed by a qualified person before use in regulatory submissions.',
  fields: (t) => ({
    requestId: t.exposeString('requestId'),
    version: t.string({ description: 'The release used.', resolve: (a) => a.release.version }),
    provider: t.exposeString('provider', { description: 'lexical (offline engine) or openai (LLM grounded in the release).' }),
    fallbackReason: t.string({ nullable: true, description: 'Why the LLM answer was not used, when it was not.', resolve: (a) => a.fallbackReason }),
    notice: t.string({ resolve: () => AI_NOTICE }),
  }),
});

type Mention = IdentifiedEvent['mentions'][number] & { text: string };
const MentionRef = builder.objectRef<Mention>('EventMention').implement({
  description: 'Where the narrative names the finding: the matched words, as UTF-16 offsets [start, end).',
  fields: (t) => ({
    start: t.exposeInt('start'),
    end: t.exposeInt('end'),
    text: t.exposeString('text', { description: 'Exactly description[start:end] of the narrative sent.' }),
  }),
});

// The narrative travels with the events so that each mention can quote its words.
type EventShape = IdentifiedEvent & { narrative: string };
const EventRef = builder.objectRef<EventShape>('EventStatement').implement({
  description: 'A discrete, self-contained adverse-event statement (never a terminology code).',
  fields: (t) => ({
    description: t.exposeString('description'),
    reasons: t.exposeStringList('reasons', { description: 'Quotes of the evidence in the narrative.' }),
    confidence: t.exposeFloat('confidence'),
    mentions: t.field({
      type: [MentionRef],
      description: 'The matched words of each mention merged into the event, in the narrative sent (reasons quote whole clauses).',
      resolve: (e) => (e.mentions ?? []).map((m) => ({ ...m, text: e.narrative.slice(m.start, m.end) })),
    }),
  }),
});

type PredictionShape = (CodePrediction | LabelPrediction) & { version: string; releaseId: number };

const SectionTypeEnum = builder.enumType('LabelSectionType', {
  description: 'Kind of product-label section.',
  values: Object.fromEntries(SECTION_TYPES.map((v) => [v.toUpperCase(), { value: v }])) as Record<Uppercase<SectionType>, { value: SectionType }>,
});
const LabelContextEnum = builder.enumType('LabelMentionContext', {
  description: 'Clause-level context of a mention: only ADVERSE_EVENT mentions are coded unless the request asks for others.',
  values: Object.fromEntries(LABEL_CONTEXTS.map((v) => [v.toUpperCase(), { value: v }])) as Record<Uppercase<LabelContext>, { value: LabelContext }>,
});
const SpanRef = builder.objectRef<{ text: string; start: number; end: number }>('TextSpan').implement({
  description: 'A span of the request text: text is exactly description[start:end].',
  fields: (t) => ({ text: t.exposeString('text'), start: t.exposeInt('start'), end: t.exposeInt('end') }),
});
const ExcludedSnippetRef = builder.objectRef<ExcludedCandidate['snippet']>('ExcludedSnippet').implement({
  fields: (t) => ({ text: t.exposeString('text'), start: t.exposeInt('start'), end: t.exposeInt('end'), section: t.exposeString('section') }),
});
const ExcludedRef = builder.objectRef<ExcludedCandidate>('ExcludedCandidate').implement({
  description: 'A candidate code dropped because none of its mentions is in a requested context.',
  fields: (t) => ({
    // A code, so a string like every code in the API (issue 26).
    ptCode: t.string({ resolve: (e) => String(e.ptCode) }),
    context: t.field({ type: LabelContextEnum, resolve: (e) => e.context }),
    mention: t.field({ type: SpanRef, resolve: (e) => e.mention }),
    snippet: t.field({ type: ExcludedSnippetRef, resolve: (e) => e.snippet }),
    explanations: t.exposeStringList('explanations'),
  }),
});

const SnippetRef = builder.objectRef<LabelPrediction['supportingSnippets'][number]>('SupportingSnippet').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    context: t.field({ type: LabelContextEnum, description: 'Context of the mention within its sentence or clause.', resolve: (s) => s.context }),
    mention: t.field({ type: SpanRef, description: 'The evidence span (the mention itself).', resolve: (s) => s.mention }),
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
        const c = await conceptByKey(ctx, { releaseId: p.releaseId, level: 'PT', code: p.ptCode }, p.version);
        if (!c) throw new DomainError('INTERNAL_ERROR', 'prediction outside the release');
        return c;
      },
    }),
    matchedTerm: t.field({
      type: CodeRef,
      nullable: true,
      description: 'The LLT the text matched, when it matched one.',
      resolve: (p, _a, ctx) => {
        const m = 'matchedLlt' in p ? p.matchedLlt : undefined;
        return m ? conceptByKey(ctx, { releaseId: p.releaseId, level: 'LLT', code: m.code }, p.version) : null;
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

const IdentifyRef = builder.objectRef<Identification>('IdentifyAssessment').implement({
  interfaces: [AssessmentInterface],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'events' in v,
  fields: (t) => ({
    events: t.connection(
      {
        type: EventRef,
        complexity: (args) => ({ field: 1, multiplier: args.first ?? PAGES.events.default }),
        resolve: (a, args) =>
          offsetConnection(args, PAGES.events, async (page) => {
            const p = slicePage(a.events, page);
            return { ...p, items: p.items.map((e) => ({ ...e, narrative: a.text })) };
          }),
      },
      { name: 'EventConnection', fields: (f) => ({ totalCount: f.int({ resolve: totalCount }) }) },
    ),
  }),
});

const ClassificationRef = builder.objectRef<ClassificationResult>('ClassificationAssessment').implement({
  interfaces: [AssessmentInterface],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'result' in v,
  fields: (t) => ({
    terminologyCodes: t.field({ type: [PredictionRef], resolve: (a) => a.result.terminologyCodes.map((p) => ({ ...p, version: a.release.version, releaseId: a.release.id })) }),
    seriousness: t.field({ type: SeriousnessRef, nullable: true, resolve: (a) => a.result.seriousness }),
    severity: t.field({ type: SeverityRef, nullable: true, resolve: (a) => a.result.severity }),
  }),
});

const LabelRef = builder.objectRef<LabelClassification>('LabelAssessment').implement({
  interfaces: [AssessmentInterface],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'codes' in v,
  fields: (t) => ({
    terminologyCodes: t.field({ type: [PredictionRef], resolve: (a) => a.codes.map((p) => ({ ...p, version: a.release.version, releaseId: a.release.id })) }),
    sectionType: t.field({ type: SectionTypeEnum, nullable: true, description: 'The section type used: the request\'s, else the first heading\'s, else detected from the text (null: not recognised).', resolve: (a) => a.sectionType }),
    sectionTypeSource: t.string({ description: 'request, heading, text or none.', resolve: (a) => a.sectionTypeSource }),
    excluded: t.field({ type: [ExcludedRef], description: 'Candidates dropped for their context (only with includeExcluded).', resolve: (a) => a.excluded }),
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
    sectionType: t.field({ type: SectionTypeEnum, required: false, description: 'Kind of section; detected from the heading or the text when absent.' }),
    contexts: t.field({ type: [LabelContextEnum], required: false, description: 'Contexts whose mentions are coded (default [ADVERSE_EVENT]).' }),
    includeExcluded: t.boolean({ required: false, description: 'Also list the candidates dropped for their context (default false).' }),
  }),
});

const aiComplexity = { field: 50 };

builder.queryFields((t) => ({
  identify: t.field({
    type: IdentifyRef,
    description: 'Split a narrative into discrete adverse-event statements (no codes). Requires X-API-Key.',
    args: { description: t.arg.string({ required: true }), version: t.arg.string({ required: false }), language: t.arg.string({ required: false, description: 'BCP 47 tag of the names in the answer (a hosted language); default: Accept-Language, else the primary. The narrative itself must be English (else 422 LANGUAGE_NOT_SUPPORTED).' }) },
    complexity: aiComplexity,
    resolve: (_r, args, ctx) => assessments.identify(ctx, args),
  }),
  classify: t.field({
    type: ClassificationRef,
    description: 'Code an event description (ranked PTs), optionally with seriousness and severity. Requires X-API-Key.',
    args: { input: t.arg({ type: ClassifyInput, required: true }), language: t.arg.string({ required: false, description: 'BCP 47 tag of the names in the answer (a hosted language); default: Accept-Language, else the primary. The narrative itself must be English (else 422 LANGUAGE_NOT_SUPPORTED).' }) },
    complexity: aiComplexity,
    resolve: (_r, { input, ...args }, ctx) => assessments.classify(ctx, { ...input, severity: input.severity as SeveritySystem[] | null | undefined, language: args.language }),
  }),
  classifyLabel: t.field({
    type: LabelRef,
    description: 'Every adverse reaction a product label lists, coded and located in the text. Requires X-API-Key.',
    args: { input: t.arg({ type: LabelInput, required: true }), language: t.arg.string({ required: false, description: 'BCP 47 tag of the names in the answer (a hosted language); default: Accept-Language, else the primary. The narrative itself must be English (else 422 LANGUAGE_NOT_SUPPORTED).' }) },
    complexity: aiComplexity,
    resolve: (_r, { input, ...args }, ctx) => assessments.classifyLabel(ctx, { ...input, language: args.language }),
  }),
}));
