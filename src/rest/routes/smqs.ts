// SMQs: GET /smqs → query Smqs; GET /smqs/{code} → query SmqDetail;
// GET /versions/{toVersionId}/smq-changes → query SmqChanges; POST /smqs/{code}/apply → query ApplySmq
// (needs X-API-Key: src/http/routers/smqs.ts mounts the key check).
import { createRoute, z } from '@hono/zod-openapi';
import { ApplySmqDocument, SmqChangesDocument, SmqDetailDocument, SmqsDocument, type SmqSummaryFragment } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { afterCursor, pageMeta } from '../paging.ts';
import { codeParam, errorResponses, intParam, MetaSchema, versionIdParam, versionParam } from '../schemas.ts';
import { parseCodedRowsCsv } from '../../domain/impact/csv.ts';
import { validationError } from '../../domain/errors.ts';
import { clip } from '../../domain/clientText.ts';
import { bodyChunks, isCsv } from '../csvBody.ts';
import { MAX_QUERY_LENGTH, SMQ_APPLY_MAX_ERRORS, SMQ_APPLY_MAX_ROWS, SMQ_PAGES } from '../../services/limits.ts';
import { SMQ_CHANGE_TYPES } from '../../services/smqs.ts';

const upperEnum = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(values, { message: `${name} must be one of ${values.map((v) => v.toLowerCase()).join(', ')}` }))
    .optional()
    .openapi({ type: 'string', enum: values.map((v) => v.toLowerCase()) });

const SmqSummarySchema = z
  .object({
    code: z.string().openapi({ example: '90500004' }),
    name: z.string(),
    level: z.number().int().openapi({ description: '1 (top) to 5.' }),
    status: z.enum(['ACTIVE', 'INACTIVE']),
    isAlgorithmic: z.boolean(),
    algorithm: z.string().nullable().openapi({ description: 'The category rule, e.g. "A or (B and C)"; null when not algorithmic.' }),
  })
  .openapi('SmqSummary');

const summary = (s: SmqSummaryFragment) => ({
  code: s.code,
  name: s.name,
  level: s.level,
  status: s.status,
  isAlgorithmic: s.isAlgorithmic,
  algorithm: s.algorithm,
});

// --- GET /smqs -----------------------------------------------------------------------

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

// --- GET /smqs/{code} ----------------------------------------------------------------

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

// --- GET /versions/{toVersionId}/smq-changes -----------------------------------------

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

// --- POST /smqs/{code}/apply ---------------------------------------------------------

const ID = z.union([z.string(), z.number().int()]);

/** Row shapes, checked without one issue per row: at most SMQ_APPLY_MAX_ERRORS problems are listed. */
const RowsSchema = z
  .array(z.unknown())
  .min(1, 'rows must hold at least one row')
  .max(SMQ_APPLY_MAX_ROWS, `rows: at most ${SMQ_APPLY_MAX_ROWS} rows per request`)
  .superRefine((rows, ctx) => {
    let n = 0;
    const add = (path: (string | number)[], message: string) => {
      if (++n <= SMQ_APPLY_MAX_ERRORS) ctx.addIssue({ code: 'custom', path, message });
    };
    rows.forEach((r, i) => {
      if (typeof r !== 'object' || r === null || Array.isArray(r)) return add([i], 'must be an object {rowId, code, caseId?}');
      const o = r as Record<string, unknown>;
      for (const k of ['rowId', 'code'] as const) if (!ID.safeParse(o[k]).success) add([i, k], o[k] === undefined ? `${k} is required` : `${k} must be a string`);
      if (o.caseId !== undefined && o.caseId !== null && !ID.safeParse(o.caseId).success) add([i, 'caseId'], 'caseId must be a string');
      if (o.term !== undefined && typeof o.term !== 'string') add([i, 'term'], 'term must be a string');
      for (const k of Object.keys(o)) if (!['rowId', 'code', 'caseId', 'term'].includes(k)) add([i], `unknown field '${k.slice(0, 40)}'`);
    });
    if (n > SMQ_APPLY_MAX_ERRORS) ctx.addIssue({ code: 'custom', path: [], message: `${n - SMQ_APPLY_MAX_ERRORS} more row problems not listed` });
  })
  .transform((rows) =>
    (rows as Record<string, unknown>[]).map((o) => ({
      rowId: String(o.rowId),
      code: String(o.code),
      ...(o.caseId === undefined || o.caseId === null ? {} : { caseId: String(o.caseId) }),
    })),
  )
  .openapi({
    type: 'array',
    minItems: 1,
    maxItems: SMQ_APPLY_MAX_ROWS,
    items: {
      type: 'object',
      required: ['rowId', 'code'],
      properties: {
        rowId: { type: 'string', description: '1–200 characters, unique in the request.' },
        code: { type: 'string', description: 'A PT or LLT code (a number is accepted too).', example: '10037868' },
        caseId: { type: 'string', description: 'Rows with the same caseId are one case (algorithmic SMQs); a row without one is a case of its own.' },
        term: { type: 'string', description: 'Accepted (the impact row shape) and ignored.' },
      },
    },
  });

const MatchSchema = z
  .object({
    rowId: z.string(),
    caseId: z.string().nullable(),
    code: z.string(),
    level: z.enum(['PT', 'LLT']),
    term: z.string(),
    matchedCode: z.string().openapi({ description: 'The listed term that matched: the code itself, or the PT of an LLT.' }),
    matchedLevel: z.enum(['PT', 'LLT']),
    matchedTerm: z.string().nullable(),
    scope: z.enum(['NARROW', 'BROAD']),
    category: z.string(),
    weight: z.number().int(),
    smqCode: z.string().openapi({ description: 'The SMQ or sub-SMQ listing the matched term.' }),
  })
  .openapi('SmqRowMatch');

const applyRoute = createRoute({
  method: 'post',
  path: '/smqs/{code}/apply',
  tags: ['SMQs'],
  summary: 'Run an SMQ over coded rows',
  description:
    'Each row\'s code (a PT, or an LLT: matched itself or through its PT) against the SMQ\'s active terms, its sub-SMQs\' included. A row matching a narrow term is in `narrow`; one matching only broad terms in `broad` (a broad search is both). For an algorithmic SMQ, `algorithm.cases` evaluates the category rule per case (rows grouped by `caseId`). Unknown codes and codes that are not PTs/LLTs are listed in `problems`. Requires X-API-Key (the rows are client data).',
  security: [{ apiKey: [] }],
  request: {
    params: z.object({ code: codeParam('code').openapi({ example: '90500005' }) }),
    query: z.object({ version: versionIdParam('version').optional().openapi({ description: 'Release (for CSV uploads; a JSON body names it in `version`).' }) }).strict(),
    body: {
      // Not required for the validator: a CSV upload is read by the handler (a missing body is refused there).
      required: false,
      content: {
        'application/json': { schema: z.object({ rows: RowsSchema, version: versionIdParam('version').optional() }).strict() },
        'text/csv': {
          schema: z.string().openapi({
            description: `rowId,code[,caseId][,term] — the impact upload's format (RFC 4180, header row required, UTF-8), at most ${SMQ_APPLY_MAX_ROWS} rows.`,
            example: 'rowId,code,caseId\r\nr1,10002198,case-1\r\n',
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: 'Matches per scope, and the rule per case for algorithmic SMQs',
      content: {
        'application/json': {
          schema: z.object({
            version: z.string(),
            smq: SmqSummarySchema,
            counts: z.object({
              rows: z.number().int(),
              narrow: z.number().int(),
              broad: z.number().int(),
              broadSearch: z.number().int().openapi({ description: 'narrow + broad' }),
              unmatched: z.number().int(),
              problems: z.number().int(),
            }),
            narrow: z.array(MatchSchema),
            broad: z.array(MatchSchema),
            problems: z.array(z.object({ rowId: z.string(), code: z.string(), reason: z.enum(['UNKNOWN_CODE', 'NOT_PT_OR_LLT']) })),
            algorithm: z
              .object({
                expression: z.string(),
                error: z.string().nullable(),
                matchedCases: z.number().int().nullable(),
                cases: z.array(
                  z.object({
                    caseId: z.string().nullable(),
                    rowIds: z.array(z.string()),
                    categories: z.array(z.object({ category: z.string(), weight: z.number().int() })),
                    weight: z.number().int(),
                    matched: z.boolean().nullable(),
                  }),
                ),
              })
              .nullable(),
          }),
        },
      },
    },
    ...errorResponses(400, 401, 404, 413, 415, 429, 500),
  },
});

export function registerSmqs(app: RestApp, deps: RestDeps) {
  app.openapi(listRoute, async (c) => {
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, SmqsDocument, { q: q.q, version: q.version, first: q.limit, after: afterCursor(q.page, q.limit) });
    return respond(
      c,
      {
        results: data.smqs.edges.map(({ node }) => ({ ...summary(node), parentCode: node.parent?.code ?? null })),
        meta: pageMeta(c.req.query(), q.page, q.limit, data.smqs.totalCount),
      },
      usedVersions,
    );
  });

  app.openapi(detailRoute, async (c) => {
    const { code } = c.req.valid('param');
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(deps, c, SmqDetailDocument, {
      code,
      version: q.version,
      scope: q.scope,
      level: q.level,
      status: q.status,
      first: q.termsLimit,
      after: afterCursor(q.termsPage, q.termsLimit),
    });
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

  app.openapi(changesRoute, async (c) => {
    const { toVersionId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { data, usedVersions } = await operation(
      deps,
      c,
      SmqChangesDocument,
      { to: toVersionId, from: q.fromVersionId, smq: q.smq, changeType: q.changeType, first: q.limit, after: afterCursor(q.page, q.limit) },
      { from: 'fromVersionId' },
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

  app.openapi(applyRoute, async (c) => {
    const { code } = c.req.valid('param');
    let version: string | undefined = c.req.valid('query').version;
    let rowsData: { rowId: string; code: string; caseId?: string }[];
    if (isCsv(c.req.header('content-type'))) {
      // The impact upload's reader: the same columns, quoting and bounds (caseId groups a case's rows).
      const parsed = await parseCodedRowsCsv(bodyChunks(c), SMQ_APPLY_MAX_ROWS);
      if (parsed.problems.length) {
        const listed = parsed.problems.slice(0, SMQ_APPLY_MAX_ERRORS);
        throw validationError(Object.fromEntries(listed.map((p) => [`line ${p.line}`, [`row ${clip(p.rowId ?? '?')}: ${p.reason}`]])));
      }
      if (parsed.rows.length === 0) throw validationError({ rows: ['rows must hold at least one row'] });
      rowsData = parsed.rows.map((r) => ({ rowId: r.rowId ?? '', code: r.code ?? '', ...(r.caseId ? { caseId: r.caseId } : {}) }));
    } else {
      const body = c.req.valid('json') as { rows?: typeof rowsData; version?: string } | undefined;
      if (!body?.rows) throw validationError({ body: ['a JSON body {rows, version?} or a text/csv upload (Content-Type: text/csv) is required'] });
      version = body.version ?? version;
      rowsData = body.rows;
    }
    const { data, usedVersions } = await operation(deps, c, ApplySmqDocument, { code, version, rowsData }, { rowsData: 'rows' });
    const a = data.applySmq;
    return respond(
      c,
      {
        version: a.version.version,
        smq: summary(a.smq),
        counts: a.counts,
        narrow: a.narrow,
        broad: a.broad,
        problems: a.problems,
        algorithm: a.algorithm,
      },
      usedVersions,
    );
  });
}
