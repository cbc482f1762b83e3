// What the SMQ routes share: the SMQ summary (its schema and its mapping) and the upper-case
// enum parameters (scope=narrow → NARROW).
import { z } from '@hono/zod-openapi';
import type { SmqSummaryFragment } from '../operations/generated.ts';

export const upperEnum = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(values, { message: `${name} must be one of ${values.map((v) => v.toLowerCase()).join(', ')}` }))
    .optional()
    .openapi({ type: 'string', enum: values.map((v) => v.toLowerCase()) });

export const SmqSummarySchema = z
  .object({
    code: z.string().openapi({ example: '90500004' }),
    name: z.string(),
    level: z.number().int().openapi({ description: '1 (top) to 5.' }),
    status: z.enum(['ACTIVE', 'INACTIVE']),
    isAlgorithmic: z.boolean(),
    algorithm: z.string().nullable().openapi({ description: 'The category rule, e.g. "A or (B and C)"; null when not algorithmic.' }),
  })
  .openapi('SmqSummary');

export const summary = (s: SmqSummaryFragment) => ({
  code: s.code,
  name: s.name,
  level: s.level,
  status: s.status,
  isAlgorithmic: s.isAlgorithmic,
  algorithm: s.algorithm,
});
