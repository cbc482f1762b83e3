// Work on a client's coded data: the impact of an upgrade (POST /impact: rows of a safety
// database or study, behind the API key, never stored by a cache) and the validation and
// roll-up analysis of a coded list (POST /codes/validate, /codes/analyse).
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { RestApp, RestDeps } from '../../rest/context.ts';
import { requireApiKey } from '../../transport/apiKeyGuard.ts';
import { registerImpact } from '../../rest/routes/impact.ts';
import { registerCodeLists } from '../../rest/routes/codeLists.ts';
import { createRouter } from '../openapi.ts';
import { noStore } from '../caches.ts';
import { WorkGate, type CodedWorkGates } from '../../services/codedWork.ts';
import { DomainError } from '../../domain/errors.ts';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../transport/appEnv.ts';
import type { BodyLimits } from '../bodyLimits.ts';

/** An upload of coded rows is JSON or CSV: any other declared type is 415, not a 400 about the body. */
export function jsonOrCsv(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const type = c.req.header('content-type');
    if (c.req.method === 'POST' && type && !/^\s*(?:application\/(?:[\w.+-]+\+)?json|text\/csv)\b/i.test(type)) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the rows as application/json or text/csv.');
    }
    return next();
  };
}

/**
 * A coded-data request takes its place in its class's gate before its body is read (at capacity:
 * 503 at once), and keeps it while the body is parsed and the job runs. Its memory is counted
 * from its Content-Length, or as the route's body limit when the length is not declared.
 */
export function admit(gate: WorkGate | undefined, maxBodyBytes: number): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (c.req.method !== 'POST' || !gate) return next();
    const declared = Number(c.req.header('content-length'));
    if (c.req.header('content-length') !== undefined && Number.isSafeInteger(declared) && declared >= 0) return gate.run(() => next(), WorkGate.jobBytes(Math.min(declared, maxBodyBytes)));
    // Length not declared (chunked): counted as the most it may send, at most the class's whole budget (it then runs alone).
    return gate.run(() => next(), Math.min(WorkGate.jobBytes(maxBodyBytes), gate.limits.bytes ?? Number.POSITIVE_INFINITY));
  };
}

export function codedDataRouter(deps: RestDeps, prisma: PrismaClient, gates: CodedWorkGates | undefined, limits: BodyLimits): RestApp {
  const router = createRouter();
  router.use('/impact', limits.uploads, noStore(), requireApiKey(prisma, { aiNotice: false }), jsonOrCsv(), admit(gates?.uploads, limits.bytes.uploads));
  for (const path of ['/codes/validate', '/codes/analyse']) router.use(path, limits.ordinary, admit(gates?.lists, limits.bytes.ordinary));
  registerImpact(router, deps);
  registerCodeLists(router, deps);
  return router;
}
