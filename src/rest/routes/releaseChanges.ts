// GET /versions/{toVersionId}/changes → query ReleaseChanges.
import { createRoute, z } from '@hono/zod-openapi';
import { ReleaseChangesDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { changeTypeParam, codeParam, errorResponses, intParam, langParam, levelParam, MetaSchema, versionIdParam } from '../schemas.ts';
import { PAGES } from '../../services/limits.ts';

const CountsSchema = z.object({ added: z.number().int(), updated: z.number().int(), retired: z.number().int() });

/** One side of a change: the values that changed; codes in it are strings, like every code in the API. */
const ChangeSideSchema = z
  .object({
    ptCode: z.string().nullable().optional(),
    primarySocCode: z.string().nullable().optional(),
    parents: z.array(z.string()).optional(),
  })
  .catchall(z.unknown())
  .openapi('ReleaseChangeSide', { description: 'The changed values (term, status, level, ptCode, primarySocCode, parents, abbreviation, internationalOrder); codes are strings.' });

const ChangeItemSchema = z
  .object({
    code: z.string(),
    level: z.string(),
    term: z.string().openapi({ description: 'Name in the target release (in the baseline when the concept left).' }),
    changeType: z.enum(['added', 'updated', 'retired']),
    details: z.string(),
    previousTerm: z.string().nullable(),
    language: z.string().optional().openapi({ description: 'A translation change (kind translation_changed, with lang): the language whose name changed.' }),
    metadata: z
      .object({ kinds: z.array(z.string()), before: ChangeSideSchema, after: ChangeSideSchema })
      .openapi({ description: 'kinds: added, retired, made_non_current, currency_restored, renamed, primary_soc_changed, parents_added, parents_removed, llt_moved, promoted, demoted, soc_abbreviation_changed, soc_order_changed; before/after: the changed values.' }),
  })
  .openapi('ReleaseChangeItem');

const route = createRoute({
  method: 'get',
  path: '/versions/{toVersionId}/changes',
  tags: ['Changes'],
  summary: 'What changed between two releases',
  description:
    'Hierarchy filters use the target release, or the baseline for concepts that left it. `changes` counts each change type under every filter except changeType.',
  request: {
    params: z.object({ toVersionId: versionIdParam('toVersionId') }),
    query: z
      .object({
        fromVersionId: versionIdParam('fromVersionId').optional().openapi({ description: 'Baseline release; default: the previous published release.' }),
        level: levelParam,
        changeType: changeTypeParam,
        soc: codeParam('soc').optional(),
        hlgt: codeParam('hlgt').optional(),
        hlt: codeParam('hlt').optional(),
        llt: codeParam('llt').optional(),
        lang: langParam().openapi({
          description:
            "Language of the names (a hosted BCP 47 tag; beats Accept-Language): the changes named in it, then that language's translation changes (a name changed in it only: changeType updated, metadata.kinds [translation_changed], `language` set), counted as updated. Not listed under the hierarchy filters.",
        }),
        page: intParam('page', 1, 1_000_000, 1),
        limit: intParam('limit', 1, PAGES.changes.rest, PAGES.changes.default),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'Changes',
      content: {
        'application/json': {
          schema: z.object({
            versions: z.object({ from: z.string(), to: z.string() }),
            changes: CountsSchema,
            results: z.object({ results: z.array(ChangeItemSchema), meta: MetaSchema }),
          }),
        },
      },
    },
    ...errorResponses(400, 404, 429, 500),
  },
});

export function registerReleaseChanges(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const { toVersionId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, ReleaseChangesDocument, {
      to: toVersionId,
      from: q.fromVersionId,
      level: q.level,
      changeType: q.changeType,
      soc: q.soc,
      hlgt: q.hlgt,
      hlt: q.hlt,
      llt: q.llt,
      language: q.lang,
      first: q.limit,
      after: afterCursor(q.page, q.limit),
    }, { from: 'fromVersionId' });
    const ch = data.version.changes;
    return respond(
      c,
      {
        versions: { from: ch.from.version, to: ch.to.version },
        changes: ch.counts,
        results: {
          results: ch.edges.map(({ node: n }) => ({
            code: n.code,
            level: n.level,
            term: n.term,
            changeType: n.changeType.toLowerCase() as 'added' | 'updated' | 'retired',
            details: n.details,
            previousTerm: n.previousTerm,
            ...(n.language ? { language: n.language } : {}),
            metadata: n.metadata as { kinds: string[]; before: Record<string, unknown>; after: Record<string, unknown> },
          })),
          meta: pageMeta(c.req.query(), q.page, q.limit, ch.totalCount),
        },
      },
      usedVersions,
    );
  });
}
