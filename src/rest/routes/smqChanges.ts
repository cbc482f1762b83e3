// GET /versions/{toVersionId}/smq-changes → query SmqChanges: what changed in SMQs between two releases.
import { createRoute, z } from '@hono/zod-openapi';
import { SmqChangesDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { codeParam, errorResponses, intParam, MetaSchema, versionIdParam, langParam } from '../schemas.ts';
import { SMQ_PAGES } from '../../services/limits.ts';
import { SMQ_CHANGE_TYPES } from '../../services/smqs.ts';
import { summary, upperEnum } from './smqSummary.ts';

const changesRoute = createRoute({
  method: 'get',
  path: '/versions/{toVersionId}/smq-changes',
  tags: ['SMQs', 'Changes'],
  summary: 'What changed in SMQs between two releases',
  description:
    'SMQs added, retired (absent, or made inactive) or redefined; terms and sub-SMQs added (or made active again), removed (absent, or made inactive) or re-scoped/re-categorised/re-weighted. `changes` counts each type under the `smq` filter.',
  request: {
    params: z.object({ toVersionId: versionIdParam('toVersionId') }),
    query: z
      .object({
        fromVersionId: versionIdParam('fromVersionId').optional().openapi({ description: 'Baseline release; default: the previous published release.' }),
        smq: codeParam('smq').optional().openapi({ description: "Only this SMQ's own rows." }),
        changeType: upperEnum('changeType', SMQ_CHANGE_TYPES),
        lang: langParam(),
        page: intParam('page', 1, 1_000_000, 1),
        limit: intParam('limit', 1, SMQ_PAGES.smqChanges.rest, SMQ_PAGES.smqChanges.default),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'SMQ changes',
      content: {
        'application/json': {
          schema: z.object({
            versions: z.object({ from: z.string(), to: z.string() }),
            changes: z.object(Object.fromEntries(SMQ_CHANGE_TYPES.map((t) => [t.toLowerCase(), z.number().int()])) as Record<string, z.ZodNumber>),
            results: z.object({
              results: z.array(
                z
                  .object({
                    changeType: z.enum(SMQ_CHANGE_TYPES.map((t) => t.toLowerCase()) as [string, ...string[]]),
                    smqCode: z.string(),
                    smqName: z.string(),
                    termCode: z.string().nullable(),
                    termLevel: z.string().nullable().openapi({ description: 'PT, LLT, or SMQ (a sub-SMQ).' }),
                    termName: z.string().nullable(),
                    details: z.string(),
                    before: z.record(z.string(), z.unknown()).nullable(),
                    after: z.record(z.string(), z.unknown()).nullable(),
                  })
                  .openapi('SmqChangeItem'),
              ),
              meta: MetaSchema,
            }),
          }),
        },
      },
    },
    ...errorResponses(400, 404, 429, 500),
  },
});

export function registerSmqChanges(app: RestApp, deps: RestDeps) {
  app.openapi(changesRoute, async (c) => {
    const { toVersionId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(
      deps,
      c,
      SmqChangesDocument,
      { to: toVersionId, from: q.fromVersionId, smq: q.smq, changeType: q.changeType, language: q.lang, first: q.limit, after: afterCursor(q.page, q.limit) },
      { from: 'fromVersionId', language: 'lang' },
    );
    const ch = data.version.smqChanges;
    return respond(
      c,
      {
        versions: { from: ch.from.version, to: ch.to.version },
        changes: {
          smq_added: ch.counts.smqAdded,
          smq_retired: ch.counts.smqRetired,
          smq_updated: ch.counts.smqUpdated,
          term_added: ch.counts.termAdded,
          term_removed: ch.counts.termRemoved,
          term_updated: ch.counts.termUpdated,
        },
        results: {
          results: ch.edges.map(({ node: n }) => ({
            ...n,
            changeType: n.changeType.toLowerCase(),
            before: n.before as Record<string, unknown> | null,
            after: n.after as Record<string, unknown> | null,
          })),
          meta: pageMeta(c.req.query(), q.page, q.limit, ch.totalCount),
        },
      },
      usedVersions,
    );
  });
}
