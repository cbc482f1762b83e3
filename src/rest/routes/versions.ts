// GET /versions → query Versions.
import { createRoute, z } from '@hono/zod-openapi';
import { VersionsDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { errorResponses, intParam, MetaSchema } from '../schemas.ts';
import { PAGES } from '../../services/limits.ts';

const L = { default: PAGES.versions.default, max: PAGES.versions.rest };

export const VersionItemSchema = z
  .object({
    id: z.string().openapi({ description: 'Release identifier, usable in /versions/{toVersionId}/changes.', example: '5.0' }),
    version: z.string().openapi({ example: '5.0' }),
    releaseDate: z.string().nullable().openapi({ example: '2017-11-27' }),
    language: z.string(),
    languages: z.array(z.string()).openapi({ description: 'BCP 47 tags of the languages the release hosts, its primary language first.', example: ['en', 'de', 'ja'] }),
    isLatest: z.boolean(),
    counts: z.object({ SOC: z.number().int(), HLGT: z.number().int(), HLT: z.number().int(), PT: z.number().int(), LLT: z.number().int() }),
    changes: z
      .object({ added: z.number().int(), updated: z.number().int(), retired: z.number().int() })
      .nullable()
      .openapi({ description: 'Changes against the previous release; null for the oldest.' }),
  })
  .openapi('VersionItem');

const route = createRoute({
  method: 'get',
  path: '/versions',
  tags: ['Catalog'],
  summary: 'List hosted releases, latest first',
  request: {
    query: z
      .object({ page: intParam('page', 1, 1_000_000, 1), limit: intParam('limit', 1, L.max, L.default) })
      .strict(),
  },
  responses: {
    200: {
      description: 'Releases',
      content: { 'application/json': { schema: z.object({ results: z.array(VersionItemSchema), meta: MetaSchema }) } },
    },
    ...errorResponses(400, 429, 500),
  },
});

export function registerVersions(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const { page, limit } = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, VersionsDocument, { first: limit, after: afterCursor(page, limit) });
    const v = data.versions;
    return respond(
      c,
      {
        results: v.edges.map(({ node: n }) => ({
          id: n.version,
          version: n.version,
          releaseDate: n.releaseDate,
          language: n.language,
          languages: n.languages,
          isLatest: n.isLatest,
          counts: { SOC: n.counts.soc, HLGT: n.counts.hlgt, HLT: n.counts.hlt, PT: n.counts.pt, LLT: n.counts.llt },
          changes: n.changeCounts,
        })),
        meta: pageMeta(c.req.query(), page, limit, v.totalCount),
      },
      usedVersions,
    );
  });
}
