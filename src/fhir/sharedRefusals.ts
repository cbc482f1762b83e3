// Refusals the shared middleware makes before the FHIR router runs (rate limit 429, body
// limit 413, malformed X-API-Version / X-Terminology-Version 400), and the app's answer when
// no route serves the request (404, 405), are problem JSON; a FHIR client expects an
// OperationOutcome. Mounted outermost on /fhir, this rewrites them with the same status and
// headers (Retry-After, RateLimit-*, Allow, X-Request-Id stay).
import type { MiddlewareHandler } from 'hono';
import type { Problem } from '../rest/problem.ts';
import { DOMAIN_ISSUE, operationOutcome } from './outcome.ts';
import { FHIR_JSON } from './system.ts';

export function sharedRefusalsAsOutcomes(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.get('content-type')?.startsWith('application/problem+json')) return;
    const p = (await c.res.clone().json()) as Problem;
    const first = p.errors ? Object.keys(p.errors)[0] : undefined;
    const body = operationOutcome('error', DOMAIN_ISSUE[p.code] ?? 'processing', `${p.detail} (request ${p.requestId}${p.traceId ? `, trace ${p.traceId}` : ''})`, first);
    const headers = new Headers(c.res.headers);
    headers.set('content-type', FHIR_JSON);
    headers.delete('content-length');
    c.res = new Response(JSON.stringify(body), { status: c.res.status, headers });
  };
}
