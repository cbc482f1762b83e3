// How much a request may send. Each router mounts the limit of the routes it serves, ahead of
// their other middleware: the ordinary limit (MAX_BODY_BYTES), or for the uploads of coded data
// (POST /impact, POST /smqs/{code}/apply: 100,000 coded rows) the larger MAX_IMPACT_BODY_BYTES.
// createApp mounts the ordinary limit once more after every route, for the requests no route
// answers (404, 405): an over-long upload to a wrong path is drained and refused with 413 too.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../transport/appEnv.ts';
import { bodyLimitMiddleware } from './protection.ts';

export interface BodyLimits {
  /** The most any request may send (and what a coded list counts when its length is not declared). */
  bytes: { ordinary: number; uploads: number };
  ordinary: MiddlewareHandler<AppEnv>;
  /** For an upload route: the larger limit on its POST, the ordinary one on any other method (refused by the route anyway). */
  uploads: MiddlewareHandler<AppEnv>;
}

export function bodyLimits(bytes: BodyLimits['bytes']): BodyLimits {
  // Only bodies need a size check: on GET/HEAD it would make the Node adapter build a body stream for nothing.
  const withBody = (limit: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> => (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next));
  const ordinary = withBody(bodyLimitMiddleware(bytes.ordinary));
  const upload = bodyLimitMiddleware(bytes.uploads);
  return { bytes, ordinary, uploads: (c, next) => (c.req.method === 'POST' ? upload(c, next) : ordinary(c, next)) };
}
