// Zod building blocks for REST parameters. Values arrive as strings; bounds are
// checked, never silently clamped.
import { z } from '@hono/zod-openapi';
import { LEVELS } from '../domain/levels.ts';
import { CODE_SYNTAX, CODE_SYNTAX_MESSAGE, VERSION_SYNTAX, VERSION_SYNTAX_MESSAGE } from '../domain/formats.ts';

/** An integer query parameter within bounds, absent = undefined. */
export const optionalIntParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be an integer between ${min} and ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
    .optional();

export const intParam = (name: string, min: number, max: number, def: number) =>
  optionalIntParam(name, min, max).default(def).openapi({ type: 'integer', minimum: min, maximum: max, default: def });

export const codeParam = (name: string) =>
  z
    .string()
    .regex(CODE_SYNTAX, `${name} ${CODE_SYNTAX_MESSAGE}`)
    .openapi({ example: '10047700' });

export const versionIdParam = (name: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a string`) }).regex(VERSION_SYNTAX, `${name} ${VERSION_SYNTAX_MESSAGE}`).openapi({ example: '5.0' });

/** Change categories; accepted in any case, documented lowercase for release changes and uppercase on /codes. */
export const changeTypeParam = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(['ADDED', 'UPDATED', 'RETIRED'], { message: 'changeType must be one of added, updated, retired' }))
  .optional()
  .openapi({ type: 'string', enum: ['added', 'updated', 'retired'] });

export const versionParam = z
  .string()
  .regex(VERSION_SYNTAX, `version ${VERSION_SYNTAX_MESSAGE}`)
  .optional()
  .openapi({ description: 'Release to use (beats the X-Terminology-Version header; default: latest).', example: '5.0' });

/** `lang` (issue 28): BCP 47 tag of a hosted language; beats Accept-Language. */
export const langParam = (allowAll = false) =>
  z
    .string()
    .regex(allowAll ? /^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,4})$/ : /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,4}$/, `lang must be a BCP 47 language tag such as en, de or ja${allowAll ? ', or * for every hosted language' : ''}`)
    .optional()
    .openapi({
      description: `Language of the names (BCP 47 tag of a language the release hosts; GET /versions lists them)${allowAll ? '; * searches every hosted language and each match names its language' : ''}. Beats Accept-Language; default: the release's primary language. A language the release does not host: 404 LANGUAGE_NOT_FOUND.`,
      example: allowAll ? 'de' : 'ja',
    });

export const levelParam = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(LEVELS, { message: `level must be one of ${LEVELS.join(', ')}` }))
  .optional()
  .openapi({ type: 'string', enum: [...LEVELS] });

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    requestId: z.string(),
    traceId: z.string().optional().openapi({ description: "The request's W3C trace id (32 hex digits); present only while the service sends OpenTelemetry traces." }),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .openapi('Problem');

export const MetaSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
  })
  .openapi('Meta');

export const errorResponses = (...codes: (400 | 401 | 404 | 413 | 415 | 422 | 429 | 500 | 503)[]) =>
  Object.fromEntries(
    codes.map((s) => [s, { description: 'Error (problem details)', content: { 'application/problem+json': { schema: ProblemSchema } } }]),
  );
