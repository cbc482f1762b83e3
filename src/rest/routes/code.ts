// GET /codes/{code} → query CodeDetail.
import { createRoute, z } from '@hono/zod-openapi';
import { CodeDetailDocument, type HierarchyItemFieldsFragment } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { codeParam, errorResponses, intParam, langParam, MetaSchema, versionParam } from '../schemas.ts';
import { PAGES } from '../../services/limits.ts';

const L = { default: PAGES.synonyms.default, max: PAGES.synonyms.rest };

const HierarchyItemSchema = z
  .object({
    code: z.string(),
    term: z.string(),
    level: z.string(),
    status: z.string(),
    relationshipType: z.string().openapi({ example: 'HLT_TO_PT' }),
    isPrimary: z.boolean(),
  })
  .openapi('HierarchyItem');

export const CodeSchema = z
  .object({
    code: z.string(),
    term: z.string(),
    language: z.string().openapi({ description: 'BCP 47 tag of the language of term (and of every other name in the answer).', example: 'en' }),
    names: z
      .array(z.object({ language: z.string(), name: z.string() }))
      .openapi({ description: 'The name in every language the release hosts, its primary language first.' }),
    level: z.enum(['SOC', 'HLGT', 'HLT', 'PT', 'LLT']),
    status: z.enum(['CURRENT', 'NON_CURRENT']),
    isPrimary: z.boolean(),
    primarySocCode: z.string().nullable(),
    version: z.string().openapi({ description: 'The release this resource was read from.' }),
    synonyms: z.object({ results: z.array(z.object({ name: z.string(), isPrimary: z.boolean() })), meta: MetaSchema }),
    parents: z.array(HierarchyItemSchema),
    children: z.array(HierarchyItemSchema),
    change: z
      .object({ changeType: z.enum(['ADDED', 'UPDATED', 'RETIRED']), details: z.string(), previousTerm: z.string().optional() })
      .optional()
      .openapi({ description: 'Present when the concept was added, updated or retired in this release (against the previous one).' }),
  })
  .openapi('Code');

const route = createRoute({
  method: 'get',
  path: '/codes/{code}',
  tags: ['Catalog'],
  summary: 'One code with its synonyms, parents and children',
  description: 'A code that exists at several levels (a PT and its own LLT) is returned at the highest level.',
  request: {
    params: z.object({ code: codeParam('code') }),
    query: z
      .object({
        version: versionParam,
        lang: langParam(),
        synonymsPage: intParam('synonymsPage', 1, 1_000_000, 1),
        synonymsLimit: intParam('synonymsLimit', 1, L.max, L.default),
      })
      .strict(),
  },
  responses: {
    200: { description: 'The code', content: { 'application/json': { schema: CodeSchema } } },
    ...errorResponses(400, 404, 429, 500),
  },
});

const item = (i: HierarchyItemFieldsFragment) => ({
  code: i.code.code,
  term: i.code.term,
  level: i.code.level,
  status: i.code.status,
  relationshipType: i.relationshipType,
  isPrimary: i.isPrimary,
});

export function registerCode(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const { code } = c.req.valid('param');
    const { version, lang, synonymsPage, synonymsLimit } = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, CodeDetailDocument, {
      code,
      version,
      language: lang,
      synonymsFirst: synonymsLimit,
      synonymsAfter: afterCursor(synonymsPage, synonymsLimit),
    });
    const d = data.code;
    return respond(
      c,
      {
        code: d.code,
        term: d.term,
        language: d.language,
        names: d.names,
        level: d.level,
        status: d.status,
        isPrimary: d.isPrimary,
        primarySocCode: d.primarySocCode,
        version: d.release.version,
        synonyms: {
          results: d.synonyms.edges.map(({ node: n }) => ({ name: n.term, isPrimary: n.isPrimary })),
          meta: pageMeta(c.req.query(), synonymsPage, synonymsLimit, d.synonyms.totalCount, { page: 'synonymsPage', limit: 'synonymsLimit' }),
        },
        parents: d.parents.map(item),
        children: d.children.map(item),
        ...(d.change
          ? {
              change: {
                changeType: d.change.changeType,
                details: d.change.details,
                ...(d.change.previousTerm ? { previousTerm: d.change.previousTerm } : {}),
              },
            }
          : {}),
      },
      usedVersions,
    );
  });
}
