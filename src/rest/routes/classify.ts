// POST /classify → query Classify.
import { createRoute, z } from '@hono/zod-openapi';
import { ClassifyDocument, type CriterionFieldsFragment } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { errorResponses, langParam, versionIdParam } from '../schemas.ts';
import { assessmentHead, assessmentMeta, descriptionField, jsonBody, prediction, PredictionSchema } from '../narrative.ts';
import { CLASSIFY_LIMIT, MAX_NARRATIVE } from '../../services/limits.ts';

const CRITERIA = ['death', 'life_threatening', 'hospitalization', 'disability', 'congenital_anomaly', 'medically_important'] as const;
const CriterionSchema = z.object({ met: z.boolean(), confidence: z.number(), reasons: z.array(z.string()) });

const route = createRoute({
  method: 'post',
  path: '/classify',
  tags: ['Narratives'],
  summary: 'Code an event description, with optional seriousness and severity',
  description:
    'Release: `version`, else `assessments.terminology.version`, else X-Terminology-Version, else latest. ' +
    'Defaults: terminology enabled; seriousness and severity disabled; severity systems both when enabled without `systems`. Requires X-API-Key.',
  security: [{ apiKey: [] }],
  request: {
    // No query parameters: an unknown one is refused, as on every GET route.
    query: z.object({ lang: langParam() }).strict(),
    body: jsonBody(
      z
        .object({
          description: descriptionField(MAX_NARRATIVE),
          assessments: z
            .object({
              terminology: z.object({ enabled: z.boolean().optional(), version: versionIdParam('version').optional() }).strict().optional(),
              seriousness: z.object({ enabled: z.boolean().optional() }).strict().optional(),
              severity: z
                .object({
                  enabled: z.boolean().optional(),
                  systems: z.array(z.enum(['5-level', '3-level'], { message: "systems must contain only '5-level' and '3-level'" })).min(1).max(2).optional(),
                })
                .strict()
                .optional(),
            })
            .strict()
            .optional(),
          version: versionIdParam('version').optional(),
          limit: z.number().int().min(CLASSIFY_LIMIT.min).max(CLASSIFY_LIMIT.max).optional().openapi({ description: `Codes returned (default ${CLASSIFY_LIMIT.default}).` }),
        })
        .strict(),
    ),
  },
  responses: {
    200: {
      description: 'Predictions',
      content: {
        'application/json': {
          schema: z.object({
            ...assessmentMeta,
            results: z.object({
              terminologyCodes: z.array(PredictionSchema),
              seriousness: z
                .object({ serious: z.boolean(), confidence: z.number(), criteria: z.object(Object.fromEntries(CRITERIA.map((k) => [k, CriterionSchema]))) })
                .optional()
                .openapi({ description: 'ICH E2A criteria; serious when any is met. Present when enabled.' }),
              severity: z
                .object({
                  ctcae: z.object({ value: z.object({ grade: z.number().int(), label: z.string() }), confidence: z.number(), reasons: z.array(z.string()) }).optional(),
                  simple: z.object({ value: z.object({ grade: z.string() }), confidence: z.number(), reasons: z.array(z.string()) }).optional(),
                })
                .optional(),
            }),
          }),
        },
      },
    },
    ...errorResponses(400, 401, 404, 413, 422, 429, 500, 503),
  },
});

const crit = (c: CriterionFieldsFragment) => ({ met: c.met, confidence: c.confidence, reasons: c.reasons });

export function registerClassify(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const b = c.req.valid('json');
    const a = b.assessments ?? {};
    const severityOn = a.severity?.enabled ?? false;
    const { data, usedVersions } = await operation(deps, c, ClassifyDocument, {
      input: {
        description: b.description,
        version: b.version,
        terminologyVersion: a.terminology?.version,
        terminology: a.terminology?.enabled ?? true,
        seriousness: a.seriousness?.enabled ?? false,
        severity: severityOn ? (a.severity?.systems ?? ['5-level', '3-level']).map((s) => (s === '5-level' ? 'FIVE_LEVEL' : 'THREE_LEVEL')) : [],
        limit: b.limit ?? 5,
      },
      language: c.req.valid('query').lang,
    }, { language: 'lang' });
    const d = data.classify;
    type Results = { terminologyCodes: ReturnType<typeof prediction>[]; seriousness?: unknown; severity?: unknown };
    const results: Results = { terminologyCodes: d.terminologyCodes.map(prediction) };
    if (d.seriousness) {
      const cr = d.seriousness.criteria;
      results.seriousness = {
        serious: d.seriousness.serious,
        confidence: d.seriousness.confidence,
        criteria: Object.fromEntries(CRITERIA.map((k) => [k, crit(cr[k])])),
      };
    }
    if (d.severity) {
      results.severity = {
        ...(d.severity.ctcae ? { ctcae: { value: { grade: d.severity.ctcae.grade, label: d.severity.ctcae.label }, confidence: d.severity.ctcae.confidence, reasons: d.severity.ctcae.reasons } } : {}),
        ...(d.severity.simple ? { simple: { value: { grade: d.severity.simple.grade }, confidence: d.severity.simple.confidence, reasons: d.severity.simple.reasons } } : {}),
      };
    }
    return respond(
      c,
      { ...assessmentHead(d), results: results as Results & { seriousness?: never; severity?: never } },
      usedVersions,
    );
  });
}
