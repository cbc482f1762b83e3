// The HTTP application: /graphql (Yoga + GraphiQL), the REST routes, /openapi.json,
// /docs, health and problem-type pages, with request ids and the shared error shape.
import { OpenAPIHono } from '@hono/zod-openapi';
import { etag } from 'hono/etag';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { CATALOG_PATHS, Replay, type ReplayOptions } from './replay.ts';
import type { Context } from 'hono';
import { createGraphQLServer, type GraphQLOptions, type GraphQLServer } from '../graphql/yoga.ts';
import type { Services } from '../services/scope.ts';
import type { AppEnv } from '../rest/context.ts';
import { problem, problemFromError, problemTypes, sendProblem } from '../rest/problem.ts';
import { ProblemError } from '../rest/execute.ts';
import { zodErrors } from '../rest/validation.ts';
import { requestIdFrom } from './requestId.ts';
import { requestHeadersMiddleware } from './requestHeaders.ts';
import { clip } from '../domain/clientText.ts';
import { mountDocs } from './docs.ts';
import { registerVersions } from '../rest/routes/versions.ts';
import { registerCodes } from '../rest/routes/codes.ts';
import { registerCode } from '../rest/routes/code.ts';
import type { RateLimiter } from './rateLimit.ts';
import type { TrustProxy } from './clientIp.ts';
import { bodyLimitMiddleware, corsMiddleware, incomingAddress, rateLimitMiddleware, securityHeadersMiddleware, socketAddress } from './protection.ts';
import { clientIp } from './clientIp.ts';
import { requireApiKey } from '../rest/narrative.ts';
import { registerIdentify } from '../rest/routes/identify.ts';
import { registerClassify } from '../rest/routes/classify.ts';
import { registerLabels } from '../rest/routes/labels.ts';
import { registerReleaseChanges } from '../rest/routes/releaseChanges.ts';
import { registerCodeChanges } from '../rest/routes/codeChanges.ts';
import { registerImpact } from '../rest/routes/impact.ts';
import { registerCodeLists } from '../rest/routes/codeLists.ts';
import { IMPACT_BODY_BYTES } from '../services/limits.ts';

export { SUPPORTED_API_VERSIONS } from './requestHeaders.ts';

export interface AppOptions {
  graphql?: GraphQLOptions;
  rateLimit?: { limiter: RateLimiter; trustProxy: TrustProxy };
  /** Which proxies' X-Forwarded-For to honour when there is no rate limiter. */
  trustProxy?: TrustProxy;
  /** Allowed CORS origins ('*' = any); empty = no CORS headers. */
  corsOrigins?: string[];
  securityHeaders?: boolean;
  maxBodyBytes?: number;
  /** Body limit of POST /impact (uploads of up to 100,000 coded rows); default 32 MB. */
  maxImpactBodyBytes?: number;
  /** Replay of catalog GET answers (default on: 64 MB, 60 s); false disables it. */
  responseCache?: ReplayOptions | false;
  /** True once SIGTERM arrived: readiness fails and connections are not kept alive. */
  isShuttingDown?: () => boolean;
  /** Called by /health/ready; resolves when the service can answer. */
  ready?: () => Promise<boolean>;
}

export interface App {
  app: OpenAPIHono<AppEnv>;
  yoga: GraphQLServer;
  /** The Fetch handler; the Node adapter passes its bindings (the socket) as `env`. */
  fetch: (req: Request, env?: unknown) => Response | Promise<Response>;
}

export function createApp(services: Services, opts: AppOptions = {}): App {
  const yoga = createGraphQLServer(services, opts.graphql);
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const errors = zodErrors(result.error);
        const detail = Object.entries(errors).map(([k, v]) => `${k}: ${v.join('; ')}`).join(' | ');
        return sendProblem(c, problem('VALIDATION_ERROR', detail || 'Invalid request.', c.get('requestId'), errors));
      }
    },
  });

  app.use('*', async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    c.set('log', services.log.child({ requestId }));
    const started = performance.now();
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    c.res.headers.set('X-API-Version', '1');
    // Method, route pattern and status only: paths and query strings carry client text.
    // Errors and slow requests at info; the rest at debug (one log line per cached hit
    // would cost more than the hit itself).
    const ms = Math.round(performance.now() - started);
    const log = c.get('log');
    const level = c.res.status >= 400 || ms >= 1000 ? 'info' : 'debug';
    if (log.isLevelEnabled(level)) log[level]({ method: c.req.method, route: routePath(c, -1), status: c.res.status, ms }, 'request');
  });

  if (opts.securityHeaders !== false) app.use('*', securityHeadersMiddleware());
  if (opts.corsOrigins?.length) app.use('*', corsMiddleware(opts.corsOrigins));
  if (opts.isShuttingDown) {
    app.use('*', async (c, next) => {
      await next();
      if (opts.isShuttingDown!()) c.res.headers.set('Connection', 'close');
    });
  }
  const trustProxy = opts.rateLimit?.trustProxy ?? opts.trustProxy ?? { kind: 'none' as const };
  app.use('*', async (c, next) => {
    c.set('clientIp', clientIp(socketAddress(c), c.req.header('x-forwarded-for'), trustProxy));
    await next();
  });
  if (opts.rateLimit) app.use('*', rateLimitMiddleware(opts.rateLimit.limiter));
  // Only bodies need a size check: on GET/HEAD it would make the Node adapter build a body stream for nothing.
  const limitBody = bodyLimitMiddleware(opts.maxBodyBytes ?? 1024 * 1024);
  const limitImpactBody = bodyLimitMiddleware(opts.maxImpactBodyBytes ?? IMPACT_BODY_BYTES);
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : c.req.path === '/impact' ? limitImpactBody(c, next) : limitBody(c, next)));

  app.use('*', requestHeadersMiddleware());

  // Releases are immutable: a strong ETag lets clients revalidate with If-None-Match (304);
  // warm answers are replayed from memory in front of this chain (replay.ts).
  app.use('*', async (c, next) => {
    if (c.req.method === 'GET' && CATALOG_PATHS.test(c.req.path)) return etag()(c, next);
    await next();
  });

  app.onError((err, c) => {
    const requestId = c.get('requestId') ?? requestIdFrom(undefined);
    if (err instanceof ProblemError) return sendProblem(c, { ...err.problem, requestId });
    // Hono's own refusals (malformed JSON body, …) are the client's mistake.
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 413 ? 'PAYLOAD_TOO_LARGE' : err.status === 401 ? 'UNAUTHORIZED' : err.status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
      const detail = err.message || 'Malformed request.';
      return sendProblem(c, problem(code, detail, requestId, code === 'VALIDATION_ERROR' ? { body: [detail] } : undefined));
    }
    const p = problemFromError(err, requestId);
    if (p.code === 'INTERNAL_ERROR') c.get('log')?.error({ err: { message: err.message, stack: err.stack } }, 'unhandled error');
    return sendProblem(c, p);
  });
  app.notFound((c) => sendProblem(c, problem('NOT_FOUND', `No route for ${clip(c.req.method)} ${clip(c.req.path)}. See /docs.`, c.get('requestId'))));

  // Every method: Yoga answers the ones it does not serve with 405 and Allow.
  app.all('/graphql', async (c) => {
    // X-Terminology-Version comes with the result (releaseHeaderPlugin), cached or not.
    return yoga.handleRequest(c.req.raw, { requestId: c.get('requestId'), log: c.get('log'), usedVersions: new Set<string>(), clientIp: c.get('clientIp') });
  });

  const deps = { yoga };
  for (const path of ['/identify', '/classify', '/labels/classify']) app.use(path, requireApiKey(services.prisma));
  app.use('/impact', requireApiKey(services.prisma, { aiNotice: false }));
  registerIdentify(app, deps);
  registerClassify(app, deps);
  registerLabels(app, deps);
  registerVersions(app, deps);
  registerCodes(app, deps);
  registerCode(app, deps);
  registerCodeChanges(app, deps);
  registerReleaseChanges(app, deps);
  registerImpact(app, deps);
  registerCodeLists(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'sk-… key from `terminology keys create`; required by the narrative endpoints.',
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Terminology Explorer',
      version: '1',
      description:
        'Browse, search and compare releases of a five-level adverse-event terminology (SOC → HLGT → HLT → PT → LLT). ' +
        'Every REST route is one GraphQL operation on /graphql. Release selection: `version` parameter, else the ' +
        '`X-Terminology-Version` header, else the latest release.',
    },
  });
  mountDocs(app);

  app.get('/health/live', (c) => c.json({ status: 'ok' }));
  // 200 while the service can answer, even with the rate-limit store degraded (requests are
  // then counted per process); 503 when stopping or the database does not answer.
  app.get('/health/ready', async (c) => {
    if (opts.isShuttingDown?.()) return sendProblem(c, problem('SERVICE_UNAVAILABLE', 'Shutting down.', c.get('requestId'), undefined, { checks: { shutdown: 'in progress' } }), { 'Retry-After': '5' });
    const [database, rateLimitStore] = await Promise.all([
      (opts.ready ?? (async () => true))().then((ok) => (ok ? 'ok' : 'unavailable'), () => 'unavailable'),
      opts.rateLimit?.limiter.storeState?.(),
    ]);
    const checks = { database, ...(rateLimitStore ? { rateLimitStore } : {}) };
    return database === 'ok'
      ? c.json({ status: 'ready', checks })
      : sendProblem(c, problem('SERVICE_UNAVAILABLE', 'Not ready: the database does not answer.', c.get('requestId'), undefined, { checks }), { 'Retry-After': '5' });
  });
  app.get('/problems/:slug', (c: Context<AppEnv>) => {
    const t = problemTypes.find((p) => p.slug === c.req.param('slug'));
    return t ? c.json(t) : c.notFound();
  });
  app.get('/', (c) =>
    c.json({
      service: 'Terminology Explorer',
      graphql: '/graphql',
      rest: ['/versions', '/codes', '/codes/{code}', '/codes/{code}/changes', '/versions/{toVersionId}/changes', 'POST /identify', 'POST /classify', 'POST /labels/classify', 'POST /impact', 'POST /codes/validate', 'POST /codes/analyse'],
      openapi: '/openapi.json',
      docs: '/docs',
    }),
  );

  const handle = (req: Request, env: unknown) => Promise.resolve(app.fetch(req, env as never));
  if (opts.responseCache === false) return { app, yoga, fetch: handle };
  const replay = new Replay(
    {
      catalog: services.catalog,
      log: services.log,
      limiter: opts.rateLimit?.limiter,
      clientIp: (req, env) => clientIp(incomingAddress(env), req.headers.get('x-forwarded-for') ?? undefined, trustProxy),
      corsAnyOrigin: !opts.corsOrigins?.length || opts.corsOrigins.includes('*'),
      isShuttingDown: opts.isShuttingDown,
    },
    opts.responseCache,
  );
  return { app, yoga, fetch: (req, env) => replay.handle(req, env, () => handle(req, env)) };
}
