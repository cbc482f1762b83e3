// Shared pieces of the three narrative routes: the mapping of a predicted code to the
// documented JSON and the assessment head (the API-key check: src/transport/apiKeyGuard.ts).
import { z } from '@hono/zod-openapi';
import { AI_NOTICE } from '../assessment/notice.ts';
import type { PredictionFieldsFragment } from './operations/generated.ts';

export const NodeSchema = z.object({ code: z.string(), term: z.string(), level: z.string() });

export const PredictionSchema = z
  .object({
    value: NodeSchema,
    confidence: z.number().openapi({ description: 'Calibrated probability that the code is right.' }),
    reasons: z.array(z.string()),
    matchedTerm: NodeSchema.nullable().openapi({ description: 'The LLT the text matched, when it matched one.' }),
    hierarchy: z.array(NodeSchema).openapi({ description: 'Primary path from the SOC down to the PT.' }),
  })
  .openapi('PredictedCode');

export function prediction(p: PredictionFieldsFragment) {
  return {
    value: { code: p.code.code, term: p.code.term, level: p.code.level as string },
    confidence: p.confidence,
    reasons: p.reasons,
    matchedTerm: p.matchedTerm ? { code: p.matchedTerm.code, term: p.matchedTerm.term, level: p.matchedTerm.level as string } : null,
    hierarchy: (p.code.primaryPath?.nodes ?? []).map((n) => ({ code: n.code, term: n.term, level: n.level as string })),
  };
}

export const assessmentMeta = {
  requestId: z.string(),
  version: z.string().openapi({ description: 'The release used.' }),
  provider: z.enum(['lexical', 'openai']),
  fallbackReason: z.string().nullable().openapi({ description: 'Why the LLM answer was not used, when it was not.' }),
  notice: z.string().openapi({ example: AI_NOTICE }),
};

/** The common head of every assessment response. */
export function assessmentHead(d: { requestId: string; version: string; provider: string; fallbackReason: string | null; notice: string }) {
  return {
    requestId: d.requestId,
    version: d.version,
    provider: d.provider as 'lexical' | 'openai',
    fallbackReason: d.fallbackReason,
    notice: d.notice,
  };
}

/** The `description` member of a narrative request body. */
export const descriptionField = (max: number) =>
  z.string().min(1, 'description must not be empty').max(max, `description must be at most ${max} characters`);

/** A JSON request body definition for createRoute. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
