// POST /labels/classify → query ClassifyLabel.
import { createRoute, z } from '@hono/zod-openapi';
import { ClassifyLabelDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { errorResponses, langParam, versionIdParam } from '../schemas.ts';
import { assessmentHead, assessmentMeta, descriptionField, jsonBody, prediction, PredictionSchema } from '../narrative.ts';
import { LABEL_MIN_CONFIDENCE as MC, LABEL_RESULTS as LR, MAX_LABEL } from '../../services/limits.ts';
import { LABEL_CONTEXTS, SECTION_TYPES, type LabelContext, type SectionType } from '../../nlp/index.ts';

/** GraphQL enum values are the lower-case REST words in capitals. */
const lower = <T extends string>(v: T) => v.toLowerCase() as Lowercase<T>;

const SpanSchema = z.object({ text: z.string(), start: z.number().int(), end: z.number().int() }).openapi({ description: 'text is exactly description.slice(start, end).' });
const ContextSchema = z.enum(LABEL_CONTEXTS).openapi({ description: 'Clause-level context of a mention; only adverse_event mentions are coded unless `contexts` asks for others.' });
const SectionTypeSchema = z.enum(SECTION_TYPES);
const ExcludedSchema = z.object({
  ptCode: z.string(),
  context: ContextSchema,
  mention: SpanSchema,
  snippet: z.object({ text: z.string(), start: z.number().int(), end: z.number().int(), section: z.string() }),
  explanations: z.array(z.string()),
});

const SnippetSchema = z.object({
  id: z.string(),
  context: ContextSchema,
  mention: SpanSchema,
  section: z.string(),
  text: z.string().openapi({ description: 'Exactly description.slice(start, end).' }),
  start: z.number().int(),
  end: z.number().int(),
  likelihood: z.number(),
  confidence: z.number(),
  explanations: z.array(z.string()),
});

const route = createRoute({
  method: 'post',
  path: '/labels/classify',
  tags: ['Narratives'],
  summary: 'Every adverse reaction a product label lists, coded and located',
  description: 'Section-aware: headings such as BOXED WARNING, WARNINGS AND PRECAUTIONS and ADVERSE REACTIONS are kept. Requires X-API-Key.',
  security: [{ apiKey: [] }],
  request: {
    // No query parameters: an unknown one is refused, as on every GET route.
    query: z.object({ lang: langParam() }).strict(),
    body: jsonBody(
      z
        .object({
          description: descriptionField(MAX_LABEL),
          maxResults: z.number().int().min(LR.min, `maxResults must be at least ${LR.min}`).max(LR.max, `maxResults must be at most ${LR.max}`).optional(),
          minConfidence: z.number().min(MC.min, `minConfidence must be between ${MC.min} and ${MC.max}`).max(MC.max, `minConfidence must be between ${MC.min} and ${MC.max}`).optional(),
          version: versionIdParam('version').optional(),
          sectionType: z
            .enum(SECTION_TYPES, { error: () => `sectionType must be one of ${SECTION_TYPES.join(', ')}` })
            .optional()
            .openapi({ description: 'Kind of section; detected from the heading or the text when absent.' }),
          contexts: z
            .array(z.enum(LABEL_CONTEXTS, { error: () => `contexts must be among ${LABEL_CONTEXTS.join(', ')}` }))
            .min(1, 'contexts must name at least one context')
            .max(LABEL_CONTEXTS.length)
            .optional()
            .openapi({ description: 'Contexts whose mentions are coded (default ["adverse_event"]).' }),
          includeExcluded: z.boolean().optional().openapi({ description: 'Also list the candidates dropped for their context (default false).' }),
        })
        .strict(),
    ),
  },
  responses: {
    200: {
      description: 'Coded adverse reactions',
      content: {
        'application/json': {
          schema: z.object({
            ...assessmentMeta,
            results: z.object({
              terminologyCodes: z.array(PredictionSchema.extend({ rawScore: z.number(), supportingSnippets: z.array(SnippetSchema) })),
              sectionType: SectionTypeSchema.nullable().openapi({ description: "The section type used: the request's, else the first heading's, else detected from the text (null: not recognised)." }),
              sectionTypeSource: z.enum(['request', 'heading', 'text', 'none']),
              excluded: z.array(ExcludedSchema).openapi({ description: 'Candidates dropped for their context; empty unless includeExcluded.' }),
            }),
          }),
        },
      },
    },
    ...errorResponses(400, 401, 404, 413, 422, 429, 500, 503),
  },
});

export function registerLabels(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const b = c.req.valid('json');
    const { data, usedVersions } = await operation(deps, c, ClassifyLabelDocument, {
      input: {
        description: b.description,
        version: b.version,
        maxResults: b.maxResults,
        minConfidence: b.minConfidence,
        sectionType: b.sectionType?.toUpperCase() as Uppercase<SectionType> | undefined,
        contexts: b.contexts?.map((x) => x.toUpperCase() as Uppercase<LabelContext>),
        includeExcluded: b.includeExcluded,
      },
      language: c.req.valid('query').lang,
    }, { language: 'lang' });
    const d = data.classifyLabel;
    return respond(
      c,
      {
        ...assessmentHead(d),
        results: {
          terminologyCodes: d.terminologyCodes.map((p) => ({
            ...prediction(p),
            rawScore: p.rawScore,
            supportingSnippets: (p.supportingSnippets ?? []).map((s) => ({ ...s, context: lower(s.context) })),
          })),
          sectionType: d.sectionType ? lower(d.sectionType) : null,
          sectionTypeSource: d.sectionTypeSource as 'request' | 'heading' | 'text' | 'none',
          excluded: d.excluded.map((e) => ({ ...e, context: lower(e.context) })),
        },
      },
      usedVersions,
    );
  });
}
