// GET /codes → query SearchCodes.
import { createRoute, z } from '@hono/zod-openapi';
import { SearchCodesDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { changeTypeParam, codeParam, errorResponses, intParam, langParam, levelParam, MetaSchema, versionParam } from '../schemas.ts';
import { MAX_QUERY_LENGTH, PAGES } from '../../services/limits.ts';

const L = { default: PAGES.codes.default, max: PAGES.codes.rest };

const NodeSchema = z.object({ code: z.string(), term: z.string(), level: z.string() });

export const CodeListItemSchema = z
  .object({
    code: z.string(),
    term: z.string(),
    level: z.string(),
    status: z.string(),
    match: z
      .object({
        term: z.string().openapi({ description: 'The name that matched (the code’s own or an LLT synonym).' }),
        level: z.string(),
        code: z.string(),
        type: z.enum(['EXACT', 'PREFIX', 'WORD_PREFIX', 'FUZZY']),
        isSynonym: z.boolean(),
        score: z.number(),
        language: z.string().optional().openapi({ description: 'BCP 47 tag of the matched name: with lang=*, and when it is not the primary language.' }),
      })
      .nullable()
      .openapi({ description: 'How the query matched; null when listing without q.' }),
    hierarchy: z.array(NodeSchema).openapi({ description: 'Primary path from the SOC down to the code.' }),
  })
  .openapi('CodeListItem');

const route = createRoute({
  method: 'get',
  path: '/codes',
  tags: ['Catalog'],
  summary: 'Search or list codes',
  description:
    'q matches every level’s names including LLT synonyms, ignoring case and accents, ranked exact > prefix > word-prefix > typo-tolerant. An LLT match is returned on its PT unless level=LLT. Without q: a stable listing (level, international SOC order, name).',
  request: {
    query: z
      .object({
        q: z.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).optional(),
        level: levelParam,
        soc: codeParam('soc').optional(),
        hlgt: codeParam('hlgt').optional(),
        hlt: codeParam('hlt').optional(),
        llt: codeParam('llt').optional(),
        changeType: changeTypeParam.openapi({ type: 'string', enum: ['ADDED', 'UPDATED', 'RETIRED'], description: 'Only codes changed this way against the previous release.' }),
        version: versionParam,
        lang: langParam(true),
        page: intParam('page', 1, 1_000_000, 1),
        limit: intParam('limit', 1, L.max, L.default),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'Matching codes',
      content: { 'application/json': { schema: z.object({ results: z.array(CodeListItemSchema), meta: MetaSchema }) } },
    },
    ...errorResponses(400, 404, 429, 500),
  },
});

export function registerCodes(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, SearchCodesDocument, {
      q: q.q,
      level: q.level,
      soc: q.soc,
      hlgt: q.hlgt,
      hlt: q.hlt,
      llt: q.llt,
      changeType: q.changeType,
      version: q.version,
      language: q.lang,
      first: q.limit,
      after: afterCursor(q.page, q.limit),
    });
    return respond(
      c,
      {
        results: data.codes.edges.map(({ node: { code: n, match } }) => ({
          code: n.code,
          term: n.term,
          level: n.level,
          status: n.status,
          match: match && (({ language, ...m }) => (language ? { ...m, language } : m))(match),
          hierarchy: n.primaryPath?.nodes ?? [],
        })),
        meta: pageMeta(c.req.query(), q.page, q.limit, data.codes.totalCount),
      },
      usedVersions,
    );
  });
}
