// POST /codes/validate → query ValidateCodes; POST /codes/analyse → query AnalyseCodes.
// A coded list against one release (body `version`, else X-Terminology-Version, else the latest).
import { createRoute, z } from '@hono/zod-openapi';
import { AnalyseCodesDocument, ValidateCodesDocument } from '../operations/generated.ts';
import { operation, respond, respondStream, type RestApp, type RestDeps } from '../context.ts';
import { jsonChunks, streamChunks } from '../../transport/jsonStream.ts';
import { errorResponses, langParam, versionIdParam } from '../schemas.ts';
import { jsonBody } from '../narrative.ts';
import { MAX_CODE_LIST, MAX_PUBLIC_CODE_LIST, MAX_RECORDED_TERM_LENGTH } from '../../services/limits.ts';

const codeValue = z.union([z.string().max(32), z.number().int().nonnegative()]);

const listFields = {
  codes: z
    .array(
      // The object form first: zod tries a union's options in order, and a {code, term} item that failed the two
      // code forms first cost 4× as much (10,000 items held the serving thread ~100 ms on the slow host class).
      z.union([z.object({ code: codeValue, term: z.string().max(MAX_RECORDED_TERM_LENGTH, `term must be at most ${MAX_RECORDED_TERM_LENGTH} characters`).nullish() }).strict(), codeValue]),
    )
    .max(MAX_CODE_LIST, `codes: at most ${MAX_CODE_LIST} items per request`)
    .openapi({ description: `Codes, or {code, term} with the term as recorded; at most ${MAX_PUBLIC_CODE_LIST} without an API key (X-API-Key), ${MAX_CODE_LIST} with one.`, example: ['10047848', { code: '90300310', term: 'Loose stools' }] }),
  version: versionIdParam('version').optional().openapi({ description: 'Release to check against (default: header, else the latest).' }),
};

const TermSchema = z.object({ code: z.string(), term: z.string(), level: z.string() });

const ValidationSchema = z
  .object({
    version: z.string(),
    summary: z.object({
      items: z.number().int(),
      valid: z.number().int(),
      unknown: z.number().int(),
      nonCurrent: z.number().int(),
      termMismatches: z.number().int(),
      multiaxial: z.number().int(),
    }),
    items: z.array(
      z.object({
        position: z.number().int(),
        code: z.string(),
        recordedTerm: z.string().nullable(),
        exists: z.boolean(),
        level: z.string().nullable(),
        term: z.string().nullable(),
        current: z.boolean().nullable(),
        termMatches: z.boolean().nullable().openapi({ description: 'Null without a recorded term.' }),
        pt: TermSchema.nullable().openapi({ description: 'The PT it rolls up to.' }),
        primaryPath: z.array(TermSchema).openapi({ description: 'SOC down to the code.' }),
        pathCount: z.number().int(),
        multiaxial: z.boolean(),
        issues: z.array(z.string()),
      }),
    ),
  })
  .openapi('CodeValidation');

const RollUpSchema = z.object({
  code: z.string(),
  term: z.string(),
  level: z.string(),
  count: z.number().int().openapi({ description: 'Items counted along their primary path.' }),
  allPathsCount: z.number().int().nullable().openapi({ description: 'Items counted along every path; null unless allPaths.' }),
});

const AnalysisSchema = z
  .object({
    version: z.string(),
    allPaths: z.boolean(),
    items: z.number().int(),
    counted: z.number().int(),
    notCounted: z.array(z.object({ position: z.number().int(), code: z.string(), reason: z.string() })),
    pt: z.array(RollUpSchema),
    hlt: z.array(RollUpSchema),
    hlgt: z.array(RollUpSchema),
    soc: z.array(RollUpSchema),
  })
  .openapi('CodeAnalysis');

const validateRoute = createRoute({
  method: 'post',
  path: '/codes/validate',
  tags: ['Safety-data workflows'],
  summary: 'Validate a coded list against one release',
  description: 'Per item: exists, level, current or not, recorded term matching, the PT and primary path it rolls up to, multiaxial PTs.',
  request: { query: z.object({ lang: langParam() }).strict(), body: jsonBody(z.object(listFields).strict()) },
  responses: {
    200: { description: 'Validation per item', content: { 'application/json': { schema: ValidationSchema } } },
    ...errorResponses(400, 404, 413, 429, 500, 503),
  },
});

const analyseRoute = createRoute({
  method: 'post',
  path: '/codes/analyse',
  tags: ['Safety-data workflows'],
  summary: 'Roll-up counts of a coded list by PT, HLT, HLGT and SOC',
  description: 'Counts along the primary path (the way safety tables are built), and along every path with `allPaths` (a multiaxial PT counts under each of its SOCs).',
  request: { query: z.object({ lang: langParam() }).strict(), body: jsonBody(z.object({ ...listFields, allPaths: z.boolean().optional() }).strict()) },
  responses: {
    200: { description: 'Roll-up counts', content: { 'application/json': { schema: AnalysisSchema } } },
    ...errorResponses(400, 404, 413, 429, 500, 503),
  },
});

/** Items from which a validation's answer is streamed. */
const STREAM_FROM_ITEMS = 500;

type Item = z.infer<typeof listFields.codes>[number];
const toInput = (items: Item[]) => items.map((i) => (typeof i === 'object' ? { code: String(i.code), term: i.term ?? null } : { code: String(i) }));

export function registerCodeLists(app: RestApp, deps: RestDeps) {
  app.openapi(validateRoute, async (c) => {
    const body = c.req.valid('json');
    const { data, usedVersions } = await operation(deps, c, ValidateCodesDocument, { codes: toInput(body.codes), version: body.version, language: c.req.valid('query').lang }, { language: 'lang' });
    // A long list's answer is megabytes: written in slices, not one blocking stringify (same JSON).
    const { items, ...head } = data.validateCodes;
    if (items.length <= STREAM_FROM_ITEMS) return respond(c, data.validateCodes, usedVersions);
    return respondStream<typeof c, typeof data.validateCodes>(c, streamChunks(jsonChunks(head, { items })), usedVersions);
  });
  app.openapi(analyseRoute, async (c) => {
    const body = c.req.valid('json');
    const { data, usedVersions } = await operation(deps, c, AnalyseCodesDocument, { codes: toInput(body.codes), version: body.version, allPaths: body.allPaths, language: c.req.valid('query').lang }, { language: 'lang' });
    return respond(c, data.analyseCodes, usedVersions);
  });
}
