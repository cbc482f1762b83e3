// The catalog: releases, codes and the changes between releases (read-only, open to all).
import type { RestApp, RestDeps } from '../../rest/context.ts';
import { registerVersions } from '../../rest/routes/versions.ts';
import { registerCodes } from '../../rest/routes/codes.ts';
import { registerCode } from '../../rest/routes/code.ts';
import { registerCodeChanges } from '../../rest/routes/codeChanges.ts';
import { registerReleaseChanges } from '../../rest/routes/releaseChanges.ts';
import { createRouter } from '../openapi.ts';

export function catalogRouter(deps: RestDeps): RestApp {
  const router = createRouter();
  registerVersions(router, deps);
  registerCodes(router, deps);
  registerCode(router, deps);
  registerCodeChanges(router, deps);
  registerReleaseChanges(router, deps);
  return router;
}
