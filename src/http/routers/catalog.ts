// The catalog: releases, codes and the changes between releases (read-only, open to all).
// Every answer carries the catalog's cache headers (ETag, Cache-Control, Vary: caches.ts).
import type { RestApp, RestDeps } from '../../rest/context.ts';
import { registerVersions } from '../../rest/routes/versions.ts';
import { registerCodes } from '../../rest/routes/codes.ts';
import { registerCode } from '../../rest/routes/code.ts';
import { registerCodeChanges } from '../../rest/routes/codeChanges.ts';
import { registerReleaseChanges } from '../../rest/routes/releaseChanges.ts';
import { createRouter } from '../openapi.ts';
import { catalogEtag } from '../caches.ts';
import { ahead } from './ahead.ts';

export function catalogRouter(deps: RestDeps): RestApp {
  const routes = createRouter();
  registerVersions(routes, deps);
  registerCodes(routes, deps);
  registerCode(routes, deps);
  registerCodeChanges(routes, deps);
  registerReleaseChanges(routes, deps);
  return ahead(routes, catalogEtag());
}
