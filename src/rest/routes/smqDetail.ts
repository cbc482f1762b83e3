// GET /smqs/{code} → query SmqDetail: one SMQ with its parent, sub-SMQs and terms by scope.
import { createRoute, z } from '@hono/zod-openapi';
import { SmqDetailDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { codeParam, errorResponses, intParam, MetaSchema, versionParam, langParam } from '../schemas.ts';
import { SMQ_PAGES } from '../../services/limits.ts';
import { SmqSummarySchema, summary, upperEnum } from './smqSummary.ts';

const SmqTermSchema = z
  .object({
    code: z.string(),
    term: z.string().nullable(),
    level: z.enum(['PT', 'LLT']),
    scope: z.enum(['NARROW', 'BROAD']).nullable(),
    category: z.string(),
    weight: z.number().int(),
    status: z.enum(['ACTIVE', 'INACTIVE']),
    additionVersion: z.string(),
    lastModifiedVersion: z.string(),
    smqCode: z.string().nullable().openapi({ description: 'The SMQ listing the term (a sub-SMQ when read through its parent).' }),
  })
  .openapi('SmqTerm');

const detailRoute = createRoute({
  method: 'get',
  path: '/smqs/{code}',
  tags: ['SMQs'],
  summary: 'One SMQ: definition, parent, sub-SMQs and terms by scope',
  description:
    "Terms include the sub-SMQs' terms, narrow first, PTs before LLTs, by name; `scope`, `level` and `status` filter them, `termsPage`/`termsLimit` page them. `terms.counts` counts narrow and broad terms under the level and status filters.",
  request: {
    params: z.object({ code: codeParam('code').openapi({ example: '90500004' }) }),
    query: z
      .object({
        version: versionParam,
        lang: langParam(),
        scope: upperEnum('scope', ['NARROW', 'BROAD'] as const),
        level: upperEnum('level', ['PT', 'LLT'] as const),
        status: upperEnum('status', ['ACTIVE', 'INACTIVE'] as const),
        termsPage: intParam('termsPage', 1, 1_000_000, 1),
        termsLimit: intParam('termsLimit', 1, SMQ_PAGES.smqTerms.rest, SMQ_PAGES.smqTerms.default),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'The SMQ',
      content: {
        'application/json': {
          schema: SmqSummarySchema.extend({
            description: z.string(),
            source: z.string(),
            note: z.string(),
            definitionVersion: z.string().openapi({ description: 'The release the SMQ was last changed in (smq_list version column).' }),
            version: z.string().openapi({ description: 'The release read.' }),
            parent: SmqSummarySchema.nullable(),
            children: z.array(SmqSummarySchema),
            terms: z.object({ counts: z.object({ narrow: z.number().int(), broad: z.number().int() }), results: z.array(SmqTermSchema), meta: MetaSchema }),
          }).openapi('Smq'),
        },
      },
    },
    ...errorResponses(400, 404, 429, 500),
  },
});

export function registerSmqDetail(app: RestApp, deps: RestDeps) {
  app.openapi(detailRoute, async (c) => {
    const { code } = c.req.valid('param');
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, SmqDetailDocument, {
      code,
      version: q.version,
      language: q.lang,
      scope: q.scope,
      level: q.level,
      status: q.status,
      first: q.termsLimit,
      after: afterCursor(q.termsPage, q.termsLimit),
    }, { language: 'lang' });
    const s = data.smq;
    return respond(
      c,
      {
        ...summary(s),
        description: s.description,
        source: s.source,
        note: s.note,
        definitionVersion: s.definitionVersion,
        version: s.release.version,
        parent: s.parent ? summary(s.parent) : null,
        children: s.children.map(summary),
        terms: {
          counts: s.terms.counts,
          results: s.terms.edges.map(({ node: { smq, ...t } }) => ({ ...t, smqCode: smq?.code ?? null })),
          meta: pageMeta(c.req.query(), q.termsPage, q.termsLimit, s.terms.totalCount, { page: 'termsPage', limit: 'termsLimit' }),
        },
      },
      usedVersions,
    );
  });
}
