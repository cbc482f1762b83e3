// The narrative endpoints (identify, classify, labels/classify): AI assessments, each
// call authenticated with an API key, rate-limited and audited.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { RestApp, RestDeps } from '../../rest/context.ts';
import { requireApiKey } from '../../transport/apiKeyGuard.ts';
import { registerIdentify } from '../../rest/routes/identify.ts';
import { registerClassify } from '../../rest/routes/classify.ts';
import { registerLabels } from '../../rest/routes/labels.ts';
import { createRouter } from '../openapi.ts';
import { noStore } from '../caches.ts';
import type { BodyLimits } from '../bodyLimits.ts';
import { ahead } from './ahead.ts';

export function narrativeRouter(deps: RestDeps, prisma: PrismaClient, limits: BodyLimits): RestApp {
  const routes = createRouter();
  registerIdentify(routes, deps);
  registerClassify(routes, deps);
  registerLabels(routes, deps);
  // The key check guards every path these routes serve, whatever the method, ahead of
  // validation (a caller without a key learns nothing).
  return ahead(routes, limits.ordinary, noStore(), requireApiKey(prisma));
}
