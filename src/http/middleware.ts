// The middleware every request passes, in order. The order matters: the request id and
// its log line wrap everything (refusals below are logged and carry the id); headers set
// on the way out (security, CORS, Connection) land on refusals too; the client address
// is known before the rate limit counts it; cheap refusals (rate, malformed headers) come
// before any route reads the request. What depends on the route (body limits, API keys, cache
// headers, work budgets) is mounted by the routers on the paths they serve (routers/).
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes, routePath } from 'hono/route';
import type { Logger } from '../logger.ts';
import type { AppEnv } from '../transport/appEnv.ts';
import type { TrustProxy } from '../net/trustProxy.ts';
import type { AppOptions } from './options.ts';
import { requestIdFrom } from './requestId.ts';
import { requestHeadersMiddleware } from './requestHeaders.ts';
import { clientIpFor } from './clientIp.ts';
import { lingerAfterAnswer } from './lingeringClose.ts';
import { corsMiddleware, rateLimitMiddleware, securityHeadersMiddleware, socketAddress } from './protection.ts';

/** Which proxies' X-Forwarded-For to honour: the rate limiter's setting, else the app's, else none. */
export function trustProxyOf(opts: AppOptions): TrustProxy {
  return opts.rateLimit?.trustProxy ?? opts.trustProxy ?? { kind: 'none' };
}

export function middlewareList(log: Logger, opts: AppOptions): MiddlewareHandler<AppEnv>[] {
  return [
    closeIfBodyUnread(),
    requestLog(log),
    ...(opts.securityHeaders !== false ? [securityHeadersMiddleware()] : []),
    ...(opts.corsOrigins?.length ? [corsMiddleware(opts.corsOrigins)] : []),
    ...(opts.isShuttingDown ? [closeWhenShuttingDown(opts.isShuttingDown)] : []),
    clientAddress(trustProxyOf(opts)),
    ...(opts.rateLimit ? [rateLimitMiddleware(opts.rateLimit.limiter)] : []),
    requestHeadersMiddleware(),
  ];
}

/**
 * An answer given before the request body was read (413 from the declared length, 401 without
 * a key, 404, 405, a refused header…) would leave the unread bytes on a keep-alive connection,
 * and the adapter then drops the socket under the client's next request ("socket hang up").
 * Such answers close the connection instead; the client opens a new one. The socket lingers
 * after the answer, discarding the rest of the body (bounded: lingeringClose.ts), so a client
 * that reads only once it has sent everything gets the answer, not a reset. A body a route
 * had started to read (its stream locked) is left to Node's close.
 */
function closeIfBodyUnread(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const length = c.req.header('content-length');
    const hasBody = length !== undefined ? length !== '0' : c.req.header('transfer-encoding') !== undefined;
    if (!hasBody || c.req.raw.bodyUsed) return;
    c.res.headers.set('Connection', 'close');
    if (!c.req.raw.body?.locked) lingerAfterAnswer(c.env?.incoming, LINGER_LIMIT);
  };
}

/** How much of an unread body is discarded after an early answer, and for how long. */
const LINGER_LIMIT = { bytes: 64 * 1024 * 1024, ms: 5_000 };

/** Request id (kept from X-Request-Id when well-formed), a child logger, and one log line per request. */
function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    c.set('log', log.child({ requestId }));
    const started = performance.now();
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    c.res.headers.set('X-API-Version', '1');
    // Method, route pattern and status only: paths and query strings carry client text.
    // Errors and slow requests at info; the rest at debug (one log line per cached hit
    // would cost more than the hit itself).
    const ms = Math.round(performance.now() - started);
    const l = c.get('log');
    const level = c.res.status >= 400 || ms >= 1000 ? 'info' : 'debug';
    if (l.isLevelEnabled(level)) l[level]({ method: c.req.method, route: routeTemplate(c), status: c.res.status, ms }, 'request');
  };
}

/**
 * The route template a request matched: the last matched handler's path (a method's route, else
 * a path mounted for every method, as /graphql is), never that of a middleware mounted for every
 * path (`use('*')`: the body limit after every route, for 404s), which matches every request and
 * would name them all `/*`. Nothing more specific matched (a 404): the last path matched.
 */
function routeTemplate(c: Context<AppEnv>): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i]!.method !== 'ALL') return routes[i]!.path;
  for (let i = routes.length - 1; i >= 0; i--) if (!routes[i]!.path.endsWith('*')) return routes[i]!.path;
  return routePath(c, -1);
}

/** After SIGTERM, connections are not kept alive: clients move to another instance. */
function closeWhenShuttingDown(isShuttingDown: () => boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (isShuttingDown()) c.res.headers.set('Connection', 'close');
  };
}

function clientAddress(trustProxy: TrustProxy): MiddlewareHandler<AppEnv> {
  const clientIp = clientIpFor(trustProxy);
  return async (c, next) => {
    c.set('clientIp', clientIp(socketAddress(c), c.req.header('x-forwarded-for')));
    await next();
  };
}
