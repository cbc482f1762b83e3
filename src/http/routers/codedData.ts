// Work on a client's coded data: the impact of an upgrade (POST /impact: rows of a safety
// database or study, behind the API key, never stored by a cache) and the validation and
// roll-up analysis of a coded list (POST /codes/validate, /codes/analyse).
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { RestApp, RestDeps } from '../../rest/context.ts';
import { requireApiKey } from '../../rest/narrative.ts';
import { registerImpact } from '../../rest/routes/impact.ts';
import { registerCodeLists } from '../../rest/routes/codeLists.ts';
import { createRouter } from '../openapi.ts';
import { noStore } from '../caches.ts';
import type { CodedWorkGates, WorkGate } from '../../services/codedWork.ts';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../rest/context.ts';

/** A coded-data request while its class is at capacity: 503 before its body is read. */
export function admit(gate: WorkGate | undefined): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (c.req.method === 'POST') gate?.refuseIfFull();
    return next();
  };
}

export function codedDataRouter(deps: RestDeps, prisma: PrismaClient, gates?: CodedWorkGates): RestApp {
  const router = createRouter();
  router.use('/impact', noStore(), requireApiKey(prisma, { aiNotice: false }), admit(gates?.uploads));
  for (const path of ['/codes/validate', '/codes/analyse']) router.use(path, admit(gates?.lists));
  registerImpact(router, deps);
  registerCodeLists(router, deps);
  return router;
}
