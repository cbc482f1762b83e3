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
import type { CodedWorkGates, WorkGate } from '../../services/codedWork.ts';
import { DomainError } from '../../domain/errors.ts';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../transport/appEnv.ts';

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
 * 503 at once), and keeps it while the body is parsed and the job runs.
 */
export function admit(gate: WorkGate | undefined): MiddlewareHandler<AppEnv> {
  return (c, next) => (c.req.method === 'POST' && gate ? gate.run(() => next()) : next());
}

export function codedDataRouter(deps: RestDeps, prisma: PrismaClient, gates?: CodedWorkGates): RestApp {
  const router = createRouter();
  router.use('/impact', noStore(), requireApiKey(prisma, { aiNotice: false }), jsonOrCsv(), admit(gates?.uploads));
  for (const path of ['/codes/validate', '/codes/analyse']) router.use(path, admit(gates?.lists));
  registerImpact(router, deps);
  registerCodeLists(router, deps);
  return router;
}
