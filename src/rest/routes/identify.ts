// POST /identify → query Identify.
import { createRoute, z } from '@hono/zod-openapi';
import { IdentifyDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { errorResponses, langParam, MetaSchema, optionalIntParam, versionIdParam } from '../schemas.ts';
import { assessmentHead, assessmentMeta, descriptionField, jsonBody } from '../narrative.ts';
import { MAX_NARRATIVE, PAGES } from '../../services/limits.ts';

const L = PAGES.events;

const route = createRoute({
  method: 'post',
  path: '/identify',
  tags: ['Narratives'],
  summary: 'Split a narrative into discrete adverse-event statements',
  description: 'Negated, historical and speculative findings are excluded; no terminology codes are returned. Requires X-API-Key.',
  security: [{ apiKey: [] }],
  request: {
    // meta.next/previous are query strings (`?page=2&limit=20`): a client that follows them
    // re-sends the same body to the link, so the query's page and limit win over options.
    query: z
      .object({ page: optionalIntParam('page', 1, 1_000_000), limit: optionalIntParam('limit', 1, L.rest), lang: langParam() })
      .strict()
      .openapi({ description: 'page/limit here override options.page/options.limit (what meta.next and meta.previous link to).' }),
    body: jsonBody(
      z
        .object({
          description: descriptionField(MAX_NARRATIVE),
          options: z
            .object({
              page: z.number().int().min(1, 'options.page must be at least 1').max(1_000_000).optional(),
              limit: z.number().int().min(1, 'options.limit must be at least 1').max(L.rest, `options.limit must be at most ${L.rest}`).optional(),
            })
            .strict()
            .optional(),
          version: versionIdParam('version').optional(),
        })
        .strict(),
    ),
  },
  responses: {
    200: {
      description: 'Identified events',
      content: {
        'application/json': {
          schema: z.object({
            ...assessmentMeta,
            results: z.array(z.object({ description: z.string(), reasons: z.array(z.string()), confidence: z.number() })),
            meta: MetaSchema,
          }),
        },
      },
    },
    ...errorResponses(400, 401, 404, 413, 422, 429, 500, 503),
  },
});

export function registerIdentify(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const query = c.req.valid('query');
    const page = query.page ?? body.options?.page ?? 1;
    const limit = query.limit ?? body.options?.limit ?? L.default;
    const { data, usedVersions } = await operation(deps, c, IdentifyDocument, {
      description: body.description,
      version: body.version,
      language: query.lang,
      first: limit,
      after: afterCursor(page, limit),
    });
    // The events are spans of the client's text, with no terminology names: no Content-Language
    // (lang is still validated against the release, as on every route).
    c.header('Content-Language', undefined);
    const d = data.identify;
    return respond(
      c,
      {
        ...assessmentHead(d),
        results: d.events.edges.map(({ node }) => node),
        meta: pageMeta({}, page, limit, d.events.totalCount),
      },
      usedVersions,
    );
  });
}
