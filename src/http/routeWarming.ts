// The start's warm-up of the REST routes clients open with (issue 32: the first request after a
// start within 150 ms). A route's first answer in a process runs code nothing ran before: the
// router's and the app's middleware, Yoga's envelope (and its HTTP path for /graphql), graphql-jit compiling the route's
// operation, its zod schemas, Prisma's statements. Measured on the bundle (main thread's CPU,
// demo store): the first request of all 50–65 ms, then 20–25 ms more for each route's first,
// against 1–8 ms warm — about three times that on the slow machine class, over the bound. So
// before the server listens, it asks itself what a client asks first, in process: the answers
// are dropped, and nothing is counted — not by the warm answer cache (the app behind it is
// asked), the rate limit (a decision comes with the request), the GraphQL metrics (`warmUp`)
// nor the HTTP metrics and access log (they sit on the socket's side, or log at debug).
import type { App } from './options.ts';
import type { Logger } from '../logger.ts';
import type { ReleaseCatalog } from '../domain/catalog.ts';
import type { RateLimitDecision } from '../transport/appEnv.ts';

/** The start waits this long at most (checked between requests); what is still running then finishes beside the first requests. */
export const ROUTE_WARM_MAX_MS = 1_500;

const ALLOWED: RateLimitDecision = { allowed: true, limit: Number.MAX_SAFE_INTEGER, remaining: Number.MAX_SAFE_INTEGER, resetMs: 0 };

export interface RouteWarmUp {
  /** The paths asked and each answer's status. */
  asked: { path: string; status: number; ms: number }[];
  ms: number;
}

/**
 * Asks the app the catalog routes a client opens with, on the latest release: the release list, a
 * search, a code page, the same through GraphQL over HTTP, and (when it has a predecessor) the code's and
 * the release's changes against it. The code
 * is the search's first hit, so any store works; an empty one stops after the release list.
 */
export async function warmRoutes(app: Pick<App, 'app'>, isShuttingDown: () => boolean): Promise<RouteWarmUp> {
  const started = performance.now();
  const asked: RouteWarmUp['asked'] = [];
  const ask = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    // A turn of its own each: on the embedded store a request's statements may all resolve as
    // microtasks (PGlite runs on this thread), and the start's bound is a timer.
    await new Promise((r) => setImmediate(r));
    const t0 = performance.now();
    const res = await app.app.fetch(new Request(`http://warm-up${path}`, { ...init, headers: { accept: 'application/json', ...init.headers } }), { warmUp: true, takenRateDecision: ALLOWED });
    const text = await res.text();
    asked.push({ path, status: res.status, ms: Math.round(performance.now() - t0) });
    return res.ok ? JSON.parse(text) : undefined;
  };
  const versions = (await ask('/versions?limit=2')) as { results?: { version: string }[] } | undefined;
  const [latest, previous] = versions?.results ?? [];
  if (latest && !isShuttingDown()) {
    const v = encodeURIComponent(latest.version);
    const found = (await ask(`/codes?q=a&limit=1&version=${v}`)) as { results?: { code: string }[] } | undefined;
    const code = found?.results?.[0]?.code;
    if (code && !isShuttingDown()) await ask(`/codes/${code}?version=${v}`);
    // GraphQL over HTTP (the explorer's and GraphQL clients' way in): Yoga's request path, not a route's operation.
    if (!isShuttingDown()) {
      const query = code ? 'query($c: String!, $v: String) { versions { totalCount } code(code: $c, version: $v) { code term } }' : '{ versions { totalCount } }';
      await ask('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: code ? { c: code, v: latest.version } : {} }) });
    }
    if (previous && !isShuttingDown()) {
      const against = encodeURIComponent(previous.version);
      if (code) await ask(`/codes/${code}/changes?against=${against}&version=${v}`);
      if (!isShuttingDown()) await ask(`/versions/${v}/changes?limit=1`);
    }
  }
  return { asked, ms: Math.round(performance.now() - started) };
}

/**
 * warmRoutes, waited for at most ROUTE_WARM_MAX_MS; a failure is logged, never thrown (the server
 * starts anyway). Once it ends it lets go of what it loaded besides compiled code: the indexes and
 * views of older releases its change routes read (so the index cache holds what it held — the
 * older-release warm-up and a client's first request find it as they would have), and the release
 * list (a release imported right after the start is seen by the first request).
 */
export async function warmRoutesBeforeListening(
  app: Pick<App, 'app'>,
  catalog: Pick<ReleaseCatalog, 'invalidate' | 'releases' | 'searchIndexes'>,
  log: Logger,
  isShuttingDown: () => boolean,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const indexes = catalog.searchIndexes;
  const run = (async () => {
    const releases = await catalog.releases().catch(() => []);
    const heldBefore = new Set(releases.filter((r) => indexes.holds(r.id)).map((r) => r.id));
    try {
      const w = await warmRoutes(app, isShuttingDown);
      log.info({ routes: w.asked.length, statuses: w.asked.map((a) => a.status), each: w.asked.map((a) => a.ms), ms: w.ms }, 'warmed the catalog routes');
    } catch (e) {
      log.warn({ err: { message: (e as Error).message } }, 'route warm-up failed; the first requests compile their routes');
    } finally {
      // Every request above has settled; the newest's index is the start's own (startupWarming.ts).
      for (const r of releases.slice(1)) if (!heldBefore.has(r.id) && indexes.holds(r.id)) indexes.forget(r.id);
      catalog.invalidate();
    }
  })();
  await Promise.race([run, new Promise<void>((resolve) => (timer = setTimeout(resolve, ROUTE_WARM_MAX_MS)))]);
  clearTimeout(timer);
}
