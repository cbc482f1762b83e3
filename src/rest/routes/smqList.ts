// GET /smqs → query Smqs: the SMQs of a release, listed or searched.
import { createRoute, z } from '@hono/zod-openapi';
import { SmqsDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { errorResponses, intParam, MetaSchema, versionParam, langParam } from '../schemas.ts';
import { MAX_QUERY_LENGTH, SMQ_PAGES } from '../../services/limits.ts';
import { SmqSummarySchema, summary } from './smqSummary.ts';

const listRoute = createRoute({
  method: 'get',
  path: '/smqs',
  tags: ['SMQs'],
  summary: 'List or search the SMQs of a release',
  description: 'By name; `q` keeps names containing it (any case).',
  request: {
    query: z
      .object({
        q: z.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).optional(),
        version: versionParam,
        lang: langParam(),
        page: intParam('page', 1, 1_000_000, 1),
        limit: intParam('limit', 1, SMQ_PAGES.smqs.rest, SMQ_PAGES.smqs.default),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'SMQs',
      content: {
        'application/json': {
          schema: z.object({
            results: z.array(SmqSummarySchema.extend({ parentCode: z.string().nullable().openapi({ description: 'The SMQ listing this one as a sub-SMQ.' }) })),
            meta: MetaSchema,
          }),
        },
      },
    },
    ...errorResponses(400, 404, 429, 500),
  },
});

export function registerSmqList(app: RestApp, deps: RestDeps) {
  app.openapi(listRoute, async (c) => {
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, SmqsDocument, { q: q.q, version: q.version, language: q.lang, first: q.limit, after: afterCursor(q.page, q.limit) }, { language: 'lang' });
    return respond(
      c,
      {
        results: data.smqs.edges.map(({ node }) => ({ ...summary(node), parentCode: node.parent?.code ?? null })),
        meta: pageMeta(c.req.query(), q.page, q.limit, data.smqs.totalCount),
      },
      usedVersions,
    );
  });
}
