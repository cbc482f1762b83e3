// SMQs: the catalog of Standardised MedDRA Queries (GET, cacheable like the other catalog
// reads) and `apply`, which runs one over a client's coded rows: that call takes client
// data, so it needs an API key and is never stored by a cache. The list, the detail and the
// change sets between releases are catalog reads: the catalog's cache headers (caches.ts) and
// the warm answer cache (CATALOG_PATHS) as for /codes.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { RestApp, RestDeps } from '../../rest/context.ts';
import { requireApiKey } from '../../transport/apiKeyGuard.ts';
import { registerSmqs } from '../../rest/routes/smqs.ts';
import { createRouter } from '../openapi.ts';
import { catalogEtag, noStore } from '../caches.ts';
import type { BodyLimits } from '../bodyLimits.ts';
import { admit, jsonOrCsv } from './codedData.ts';
import type { CodedWorkGates } from '../../services/codedWork.ts';

export function smqRouter(deps: RestDeps, prisma: PrismaClient, gates: CodedWorkGates | undefined, limits: BodyLimits): RestApp {
  const router = createRouter();
  router.use('/versions/:toVersionId/smq-changes', catalogEtag());
  router.use('/smqs', catalogEtag());
  router.use('/smqs/:code', catalogEtag());
  router.use('/smqs/:code/apply', limits.uploads, noStore(), requireApiKey(prisma, { aiNotice: false }), jsonOrCsv(), admit(gates?.uploads, limits.bytes.uploads));
  registerSmqs(router, deps);
  return router;
}
