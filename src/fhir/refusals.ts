// Refusals the shared middleware makes before the FHIR router runs (rate limit 429, body
// limit 413, malformed X-API-Version / X-Terminology-Version 400), and the app's answer when
// no route serves the request (404, 405): a FHIR client expects an OperationOutcome. Mounted
// outermost on /fhir, this sets the request's refusal renderer, so they are written as one
// directly, with the status and headers a problem would have had (Retry-After, RateLimit-*,
// Allow, X-Request-Id).
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../transport/appEnv.ts';
import { refusalHeaders, type Problem } from '../transport/problem.ts';
import { DOMAIN_ISSUE, operationOutcome } from './outcome.ts';
import { FHIR_JSON } from './system.ts';

function outcomeRefusal(c: Context, p: Problem, headers: Record<string, string>): Response {
  const first = p.errors ? Object.keys(p.errors)[0] : undefined;
  const body = operationOutcome('error', DOMAIN_ISSUE[p.code] ?? 'processing', `${p.detail} (request ${p.requestId}${p.traceId ? `, trace ${p.traceId}` : ''})`, first);
  return c.body(JSON.stringify(body), p.status as ContentfulStatusCode, { ...refusalHeaders(p, headers), 'content-type': FHIR_JSON });
}

export function refusalsAsOutcomes(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('renderRefusal', outcomeRefusal);
    await next();
  };
}
