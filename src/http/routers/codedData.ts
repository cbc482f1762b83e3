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

export function codedDataRouter(deps: RestDeps, prisma: PrismaClient): RestApp {
  const router = createRouter();
  router.use('/impact', noStore(), requireApiKey(prisma, { aiNotice: false }));
  registerImpact(router, deps);
  registerCodeLists(router, deps);
  return router;
}
