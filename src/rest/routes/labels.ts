// POST /labels/classify → query ClassifyLabel.
import { createRoute, z } from '@hono/zod-openapi';
import { ClassifyLabelDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { errorResponses, versionIdParam } from '../schemas.ts';
import { assessmentHead, assessmentMeta, descriptionField, jsonBody, prediction, PredictionSchema } from '../narrative.ts';
import { LABEL_MIN_CONFIDENCE as MC, LABEL_RESULTS as LR, MAX_LABEL } from '../../services/limits.ts';

const SnippetSchema = z.object({
  id: z.string(),
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
    query: z.object({}).strict(),
    body: jsonBody(
      z
        .object({
          description: descriptionField(MAX_LABEL),
          maxResults: z.number().int().min(LR.min, `maxResults must be at least ${LR.min}`).max(LR.max, `maxResults must be at most ${LR.max}`).optional(),
          minConfidence: z.number().min(MC.min, `minConfidence must be between ${MC.min} and ${MC.max}`).max(MC.max, `minConfidence must be between ${MC.min} and ${MC.max}`).optional(),
          version: versionIdParam('version').optional(),
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
            }),
          }),
        },
      },
    },
    ...errorResponses(400, 401, 404, 413, 429, 500, 503),
  },
});

export function registerLabels(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const b = c.req.valid('json');
    const { data, usedVersions } = await operation(deps, c, ClassifyLabelDocument, {
      input: { description: b.description, version: b.version, maxResults: b.maxResults, minConfidence: b.minConfidence },
    });
    const d = data.classifyLabel;
    return respond(
      c,
      {
        ...assessmentHead(d),
        results: {
          terminologyCodes: d.terminologyCodes.map((p) => ({ ...prediction(p), rawScore: p.rawScore, supportingSnippets: p.supportingSnippets ?? [] })),
        },
      },
      usedVersions,
    );
  });
}
