// The HTTP application, assembled from its parts: the middleware every request passes
// (middleware.ts), /graphql, the REST routers (routers/, each mounting the middleware of the
// routes it serves: body limits, API keys, cache headers, work budgets), the FHIR terminology
// service (src/fhir), /openapi.json and /docs (openapi.ts), health and problem pages
// (routers/serviceInfo.ts), the error answers (errors.ts), and the caches in front of it all (caches.ts).
import { createGraphQLServer } from '../graphql/yoga.ts';
import type { Services } from '../services/scope.ts';
import type { App, AppOptions } from './options.ts';
import { middlewareList } from './middleware.ts';
import { withWarmAnswers } from './caches.ts';
import { bodyLimits } from './bodyLimits.ts';
import { noRoute, onError } from './errors.ts';
import { allowedMethods } from './allowedMethods.ts';
import { createRouter, mountOpenApi } from './openapi.ts';
import { narrativeRouter } from './routers/narrative.ts';
import { catalogRouter } from './routers/catalog.ts';
import { serviceInfoRouter } from './routers/serviceInfo.ts';
import { createFhirRouter } from '../fhir/router.ts';
import { refusalsAsOutcomes } from '../fhir/refusals.ts';
import { smqRouter } from './routers/smqs.ts';
import { codedDataRouter } from './routers/codedData.ts';
import { IMPACT_BODY_BYTES } from '../config.ts';
import { mountExplorer } from './explorer.ts';
import { graphiqlPage } from './graphiqlPage.ts';

export { SUPPORTED_API_VERSIONS } from './requestHeaders.ts';
export type { App, AppOptions } from './options.ts';

export function createApp(services: Services, opts: AppOptions = {}): App {
  const yoga = createGraphQLServer(services, opts.graphql);
  const app = createRouter();
  // Outermost on /fhir: the middleware's own refusals are written for FHIR clients, as OperationOutcomes.
  for (const path of ['/fhir', '/fhir/*']) app.use(path, refusalsAsOutcomes());
  for (const middleware of middlewareList(services.log, opts)) app.use('*', middleware);
  app.onError(onError);
  const limits = bodyLimits({ ordinary: opts.maxBodyBytes ?? 1024 * 1024, uploads: opts.maxImpactBodyBytes ?? IMPACT_BODY_BYTES });

  // Every method: Yoga answers the ones it does not serve with 405 and Allow.
  const graphiql = graphiqlPage(yoga);
  app.use('/graphql', limits.ordinary);
  app.all('/graphql', async (c) => {
    const context = { requestId: c.get('requestId'), log: c.get('log'), usedVersions: new Set<string>(), clientIp: c.get('clientIp'), warmUp: c.env?.warmUp };
    if (graphiql.wanted(c.req.raw)) return graphiql.answer(c.req.raw, context);
    // X-Terminology-Version comes with the result (releaseHeaderPlugin), cached or not.
    return yoga.handleRequest(c.req.raw, context);
  });

  // Mounting order is the order of the paths in /openapi.json.
  const deps = { yoga };
  app.route('/', narrativeRouter(deps, services.prisma, limits));
  app.route('/', catalogRouter(deps));
  app.route('/', smqRouter(deps, services.prisma, services.codedWork, limits));
  app.route('/', codedDataRouter(deps, services.prisma, services.codedWork, limits));
  app.use('/fhir/*', limits.ordinary);
  app.route('/fhir', createFhirRouter(services));
  mountOpenApi(app);
  mountExplorer(app); // before `/`: browsers get the explorer's HTML there, API clients the JSON index
  app.route('/', serviceInfoRouter(opts));
  // After every route, so it runs only for the requests none answered (404, 405): see bodyLimits.ts.
  app.use('*', limits.ordinary);
  // Every route is mounted: the methods each path is served with come from this table (405 + Allow).
  app.notFound(noRoute(allowedMethods(app.routes, { options: Boolean(opts.corsOrigins?.length) })));

  const handle = (req: Request, env: unknown) => Promise.resolve(app.fetch(req, env as never));
  return { app, yoga, ...withWarmAnswers(handle, services, opts) };
}
