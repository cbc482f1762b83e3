// What the service says about itself: health probes, the problem-type pages that error
// answers link to, and the index at /.
import { Hono } from 'hono';
import type { AppEnv } from '../../transport/appEnv.ts';
import { problem, problemTypes, sendProblem } from '../../transport/problem.ts';
import type { AppOptions } from '../options.ts';

export function serviceInfoRouter(opts: Pick<AppOptions, 'isShuttingDown' | 'ready' | 'rateLimit'>): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.get('/health/live', (c) => c.json({ status: 'ok' }));
  // 200 while the service can answer, even with the rate-limit store degraded (requests are
  // then counted per process); 503 when stopping or the database does not answer.
  router.get('/health/ready', async (c) => {
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
  router.get('/problems/:slug', (c) => {
    const t = problemTypes.find((p) => p.slug === c.req.param('slug'));
    return t ? c.json(t) : c.notFound();
  });
  router.get('/', (c) =>
    c.json({
      service: 'Terminology Explorer',
      graphql: '/graphql',
      rest: ['/versions', '/codes', '/codes/{code}', '/codes/{code}/changes', '/versions/{toVersionId}/changes', 'POST /identify', 'POST /classify', 'POST /labels/classify', 'POST /impact', 'POST /codes/validate', 'POST /codes/analyse', '/smqs', '/smqs/{code}', 'POST /smqs/{code}/apply', '/versions/{toVersionId}/smq-changes'],
      openapi: '/openapi.json',
      docs: '/docs',
    }),
  );
  return router;
}
