// Middleware on exactly the paths a router's routes serve, whatever the method, ahead of them.
// Not use('*'): routers are mounted at '/', where their '*' would also match every later
// route and every 404.
import type { MiddlewareHandler } from 'hono';
import type { RestApp } from '../../rest/context.ts';
import type { AppEnv } from '../../transport/appEnv.ts';
import { createRouter } from '../openapi.ts';

export function ahead(routes: RestApp, ...middleware: MiddlewareHandler<AppEnv>[]): RestApp {
  const router = createRouter();
  for (const path of new Set(routes.routes.map((r) => r.path))) router.use(path, ...middleware);
  // route() copies the routes and their OpenAPI entries: the document is unchanged.
  return router.route('/', routes);
}
