// POST /labels/classify → query ClassifyLabel.
import { createRoute, z } from '@hono/zod-openapi';
import { ClassifyLabelDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { errorResponses, versionIdParam } from '../schemas.ts';
import { assessmentHead, assessmentMeta, descriptionField, jsonBody, prediction, PredictionSchema } from '../narrative.ts';
import { MAX_LABEL } from '../../graphql/types/Assessment.ts';

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
    body: jsonBody(
      z
        .object({
          description: descriptionField(MAX_LABEL),
          maxResults: z.number().int().min(1, 'maxResults must be at least 1').max(100, 'maxResults must be at most 100').optional(),
          minConfidence: z.number().min(0, 'minConfidence must be between 0 and 1').max(1, 'minConfidence must be between 0 and 1').optional(),
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
      input: { description: b.description, version: b.version, maxResults: b.maxResults ?? 25, minConfidence: b.minConfidence ?? 0.25 },
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
