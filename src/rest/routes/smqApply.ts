// POST /smqs/{code}/apply → query ApplySmq: an SMQ run over a client's coded rows (JSON or CSV;
// needs X-API-Key: src/http/routers/smqs.ts mounts the key check).
import { createRoute, z } from '@hono/zod-openapi';
import { ApplySmqDocument } from '../operations/generated.ts';
import { operation, respond, type RestApp, type RestDeps } from '../context.ts';
import { codeParam, errorResponses, langParam, versionIdParam } from '../schemas.ts';
import { parseCodedRowsCsv } from '../../domain/impact/csv.ts';
import { validationError } from '../../domain/errors.ts';
import { clip } from '../../domain/clientText.ts';
import { bodyChunks, isCsv } from '../csvBody.ts';
import { SMQ_APPLY_MAX_ERRORS, SMQ_APPLY_MAX_ROWS } from '../../services/limits.ts';
import { SmqSummarySchema, summary } from './smqSummary.ts';

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
    query: z.object({ version: versionIdParam('version').optional().openapi({ description: 'Release (for CSV uploads; a JSON body names it in `version`).' }), lang: langParam() }).strict(),
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

export function registerSmqApply(app: RestApp, deps: RestDeps) {
  app.openapi(applyRoute, async (c) => {
    const { code } = c.req.valid('param');
    const { version: queryVersion, lang } = c.req.valid('query');
    let version: string | undefined = queryVersion;
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
    const { data, usedVersions } = await operation(deps, c, ApplySmqDocument, { code, version, language: lang, rowsData }, { rowsData: 'rows', language: 'lang' });
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
