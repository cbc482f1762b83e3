// POST /impact → query Impact. JSON body, or a CSV upload (Content-Type: text/csv, from and
// to as query parameters) parsed as a stream into the same GraphQL variables; the answer is
// JSON, or CSV with ?format=csv (or Accept: text/csv). Requires X-API-Key.
import { createRoute, z } from '@hono/zod-openapi';
import { ImpactDocument, type ImpactQuery, type ImpactQueryVariables } from '../operations/generated.ts';
import { operation, type RestApp, type RestDeps } from '../context.ts';
import { errorResponses, langParam, versionIdParam } from '../schemas.ts';
import { IMPACT_KINDS } from '../../domain/impact/analyse.ts';
import { impactCsv, parseCodedRowsCsv, type CsvRowProblem } from '../../domain/impact/csv.ts';
import { bodyChunks, isCsv } from '../csvBody.ts';
import { jsonChunks, streamChunks } from '../../transport/jsonStream.ts';
import { validationError } from '../../domain/errors.ts';
import { MAX_IMPACT_ROWS } from '../../services/limits.ts';
import type { ImpactRowResult } from '../../domain/impact/analyse.ts';

const TermSchema = z.object({ code: z.string(), term: z.string(), level: z.string() }).openapi('TermRef');

const StateSchema = z
  .object({
    level: z.string().openapi({ description: 'PT when the code is a PT (and its own LLT), else LLT.' }),
    term: z.string(),
    current: z.boolean(),
    pt: TermSchema.nullable(),
    hlt: TermSchema.nullable().openapi({ description: 'Of the primary path.' }),
    hlgt: TermSchema.nullable().openapi({ description: 'Of the primary path.' }),
    soc: TermSchema.nullable().openapi({ description: 'The primary SOC.' }),
  })
  .openapi('ImpactCodeState');

const ImpactSchema = z
  .object({
    kind: z.enum(IMPACT_KINDS),
    details: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
    suggestion: z.object({
      action: z.enum(['KEEP', 'RECODE', 'REVIEW']),
      code: z.string().nullable(),
      term: z.string().nullable(),
      level: z.string().nullable(),
      reason: z.string(),
    }),
  })
  .openapi('Impact');

const RowErrorSchema = z
  .object({
    rowId: z.string().nullable(),
    position: z.number().int().openapi({ description: '1-based position among the rows.' }),
    line: z.number().int().nullable().openapi({ description: 'Line of the uploaded CSV file.' }),
    field: z.string(),
    reason: z.string(),
  })
  .openapi('ImpactRowError');

const ReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    language: z.string().openapi({ description: 'BCP 47 tag of every name in the report (hosted by both releases; Content-Language too).' }),
    validateOnly: z.boolean(),
    summary: z.object({
      rowsUploaded: z.number().int(),
      rowsValid: z.number().int(),
      rowsInvalid: z.number().int(),
      rowsImpacted: z.number().int(),
      impactedPercent: z.number(),
      byKind: z.array(z.object({ kind: z.enum(IMPACT_KINDS), rows: z.number().int() })),
      socMovements: z.array(z.object({ from: TermSchema, to: TermSchema, rows: z.number().int() })),
      ptDeltas: z.array(z.object({ pt: TermSchema, before: z.number().int(), after: z.number().int(), delta: z.number().int() })),
    }),
    errors: z.array(RowErrorSchema),
    rows: z.array(
      z.object({
        rowId: z.string(),
        code: z.string(),
        recordedTerm: z.string().nullable(),
        position: z.number().int(),
        line: z.number().int().nullable(),
        before: StateSchema,
        after: StateSchema.nullable().openapi({ description: 'Null when the code is retired.' }),
        impacts: z.array(ImpactSchema),
      }),
    ),
  })
  .openapi('ImpactReport');

const scalar = z.union([z.string().max(1000), z.number()]).nullish();

const JsonBody = z
  .object({
    from: versionIdParam('from').optional().openapi({ description: 'Release the rows were coded with (or the `from` query parameter).' }),
    to: versionIdParam('to').optional().openapi({ description: 'Release to upgrade to (or the `to` query parameter).' }),
    rows: z
      .array(z.object({ rowId: scalar, code: scalar, term: z.string().max(10_000).nullish() }).openapi({ description: 'A coded row; a bad one is reported in `errors`.' }))
      .max(MAX_IMPACT_ROWS, `rows: at most ${MAX_IMPACT_ROWS} rows per request`),
    validateOnly: z.boolean().optional(),
    impactedOnly: z.boolean().optional(),
  })
  .strict()
  .openapi('ImpactRequest');

const flag = (name: string, description: string) =>
  z
    .enum(['true', 'false'], { message: `${name} must be true or false` })
    .optional()
    .openapi({ description });

const route = createRoute({
  method: 'post',
  path: '/impact',
  tags: ['Safety-data workflows'],
  summary: 'Impact of a release upgrade on coded data',
  description:
    `Rows \`{rowId, code, term?}\` (LLT or PT codes) as JSON, or as a CSV upload (\`Content-Type: text/csv\`, header row \`rowId,code,term\`), at most ${MAX_IMPACT_ROWS} rows ` +
    '(the body limit is MAX_IMPACT_BODY_BYTES, 32 MB by default). Per row every impact of the upgrade (LLT made non-current, moved, PT demoted, LLT promoted, renamed, retired, primary SOC or HLT/HLGT changed, recorded term not matching, name changed in the `lang` only) with a suggested recode; ' +
    'bad rows are reported in `errors` with their rowId and reason and the others analysed. `?format=csv` (or `Accept: text/csv`) answers one CSV line per row and impact. Requires X-API-Key.',
  security: [{ apiKey: [] }],
  request: {
    query: z.object({
      from: versionIdParam('from').optional().openapi({ description: 'Release the rows were coded with (required for CSV uploads).' }),
      to: versionIdParam('to').optional().openapi({ description: 'Release to upgrade to (required for CSV uploads).' }),
      format: z.enum(['json', 'csv'], { message: 'format must be json or csv' }).optional().openapi({ description: 'Answer format (default json, or csv when Accept asks for text/csv).' }),
      validateOnly: flag('validateOnly', 'Only check the rows: the errors come back alone.'),
      impactedOnly: flag('impactedOnly', 'Return only the rows with an impact (the summary still counts every row).'),
      lang: langParam().openapi({
        description:
          "Language of the names (a BCP 47 tag both releases host; beats Accept-Language; default the target's primary language). A name changed in this language only between the releases is a TRANSLATION_CHANGED impact; a recorded term is compared with the names in it. A language the releases do not both host: 404 LANGUAGE_NOT_FOUND.",
      }),
    }),
    body: {
      required: false,
      content: {
        'application/json': { schema: JsonBody },
        'text/csv': { schema: z.string().openapi({ description: 'rowId,code,term — RFC 4180, header row required, UTF-8.', example: 'rowId,code,term\r\ncase-1,10047848,Watering eyes\r\n' }) },
      },
    },
  },
  responses: {
    200: {
      description: 'The impact report (JSON), or one CSV line per row and impact',
      content: {
        'application/json': { schema: ReportSchema },
        'text/csv': { schema: z.string().openapi({ description: `Columns: rowId, line, code, recordedTerm, status (UNCHANGED, IMPACTED, INVALID), impact, details, before, after, suggestedAction, suggestedCode, suggestedTerm, suggestionReason, then the code's term, PT and primary SOC in each release.` }) },
      },
    },
    ...errorResponses(400, 401, 404, 413, 415, 429, 500, 503),
  },
});


/** Rows the CSV parser could not turn into rows join the service's bad rows. */
function withCsvProblems<T extends Pick<ImpactQuery['impact'], 'errors' | 'summary'>>(report: T, problems: CsvRowProblem[]): T {
  if (!problems.length) return report;
  const errors = [...report.errors, ...problems.map((p) => ({ rowId: p.rowId, position: p.position, line: p.line, field: p.field, reason: p.reason }))];
  errors.sort((a, b) => (a.line ?? a.position) - (b.line ?? b.position));
  const s = report.summary;
  return { ...report, errors, summary: { ...s, rowsUploaded: s.rowsUploaded + problems.length, rowsInvalid: s.rowsInvalid + problems.length } };
}

export function registerImpact(app: RestApp, deps: RestDeps) {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    let variables: ImpactQueryVariables;
    let problems: CsvRowProblem[] = [];
    const flagOf = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
    if (isCsv(c.req.header('content-type'))) {
      const missing: Record<string, string[]> = {};
      if (!query.from) missing.from = ['from is required (query parameter) with a CSV upload'];
      if (!query.to) missing.to = ['to is required (query parameter) with a CSV upload'];
      if (Object.keys(missing).length) throw validationError(missing);
      const parsed = await parseCodedRowsCsv(bodyChunks(c), MAX_IMPACT_ROWS);
      problems = parsed.problems;
      variables = { input: { from: query.from!, to: query.to!, rowsData: parsed.rows, validateOnly: flagOf(query.validateOnly) }, impactedOnly: flagOf(query.impactedOnly), language: query.lang };
    } else {
      const body = c.req.valid('json') as z.infer<typeof JsonBody> | Record<string, never>;
      if (!('rows' in body)) throw validationError({ body: ['a JSON body {from, to, rows} or a text/csv upload is required'] });
      const from = body.from ?? query.from;
      const to = body.to ?? query.to;
      const missing: Record<string, string[]> = {};
      if (!from) missing.from = ['from is required'];
      if (!to) missing.to = ['to is required'];
      if (Object.keys(missing).length) throw validationError(missing);
      variables = {
        input: {
          from: from!,
          to: to!,
          rowsData: body.rows,
          validateOnly: body.validateOnly ?? flagOf(query.validateOnly),
        },
        impactedOnly: body.impactedOnly ?? flagOf(query.impactedOnly),
        language: query.lang,
      };
    }
    const { data } = await operation(deps, c, ImpactDocument, variables, { 'input.rows': 'rows', 'input.rowsData': 'rows', 'input.from': 'from', 'input.to': 'to', language: 'lang' });
    const { rowsData, ...head } = withCsvProblems(data.impact, problems);
    const rows = rowsData as ImpactRowResult[];
    const wantsCsv = query.format ? query.format === 'csv' : /\btext\/csv\b/i.test(c.req.header('accept') ?? '') && !/\bapplication\/json\b/i.test(c.req.header('accept') ?? '');
    // Both answers stream in slices: 100,000 rows are tens of MB, never one blocking stringify.
    const { errors, ...summary } = head;
    const chunks = wantsCsv ? impactCsv({ errors, rows }) : jsonChunks(summary, { errors, rows });
    const stream = streamChunks(chunks);
    const headers: Record<string, string> = wantsCsv
      ? { 'content-type': 'text/csv; charset=utf-8; header=present', 'content-disposition': `attachment; filename="impact-${head.from}-to-${head.to}.csv"` }
      : { 'content-type': 'application/json' };
    // c.body keeps the headers the operation set (Content-Language, Vary).
    return c.body(stream, 200, headers) as unknown as Response;
  });
}
