// The caches in front of the service, outermost first. Releases never change once
// imported, so an answer about one can be reused; nothing is ever invalidated by name.
//
// 1. WarmAnswerCache (warmAnswerCache.ts): whole HTTP answers to catalog GETs (REST
//    /versions…, /codes…), body and headers, sent again before the Hono app runs.
// 2. The catalog ETag (catalogEtag below): not a store but a validator. The app adds a
//    strong ETag to catalog GET answers and answers If-None-Match with 304; the warm
//    answer cache keeps that ETag with the answer and answers If-None-Match itself.
// 3. The GraphQL result cache (src/graphql/resultCache.ts, a Yoga plugin configured by
//    AppOptions.graphql.resultCache): execution results of catalog queries sent to
//    /graphql. REST routes run their operation in process and skip it: their answers are
//    kept whole by (1) instead.
//
// 4. What clients and shared caches may keep (Cache-Control). Catalog GET answers:
//    `public, no-cache` with `Vary: X-Terminology-Version, Accept-Language` (caches 1 and 3 key on the
//    language Accept-Language negotiates: src/domain/languageCacheKey.ts) — any cache may store them but
//    must revalidate (If-None-Match → 304, cheap), because an answer without an explicit
//    release follows the latest one and `import --replace` can change a release's content.
//    Narrative answers (derived from a client's text) and every error: `no-store`.
//
// Invalidation. Both stores (1, 3) key on the latest release's version (from
// ReleaseCatalog, whose release list is itself cached for catalogTtlMs), so importing a
// new release changes every key at once; the same release imported again with
// `import --replace` by another process is seen when an entry's TTL (60 s) ends. An ETag
// is a hash of the body, so a changed answer has a new tag. Errors are never kept.
import type { MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { etag } from 'hono/etag';
import { jsonTextOf } from '../rest/context.ts';
import type { AppEnv, RateLimitDecision } from '../transport/appEnv.ts';
import type { Services } from '../services/scope.ts';
import type { AppOptions } from './options.ts';
import { WarmAnswerCache } from './warmAnswerCache.ts';
import { clientIpFor } from './clientIp.ts';
import { incomingAddress } from './protection.ts';
import { trustProxyOf } from './middleware.ts';

type Fetch = (req: Request, env: unknown) => Promise<Response>;

function sha1(body: Uint8Array): ArrayBuffer {
  const d = createHash('sha1').update(body).digest();
  return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength) as ArrayBuffer;
}

/** hono's etag digest: SHA-1 in hex, chained per 256 KB (digest = sha1(previous digest ‖ chunk)). */
const DIGEST_CHUNK = 262_144;
export function etagOfText(text: string): string {
  // At most 3 bytes a UTF-16 unit: short texts are one chunk, hashed without a copy.
  if (text.length * 3 < DIGEST_CHUNK) return `"${createHash('sha1').update(text, 'utf8').digest('hex')}"`;
  const bytes = Buffer.from(text, 'utf8');
  let digest: Buffer | undefined;
  for (let at = 0; at < bytes.byteLength; at += DIGEST_CHUNK) {
    const h = createHash('sha1');
    if (digest) h.update(digest);
    digest = h.update(bytes.subarray(at, at + DIGEST_CHUNK)).digest();
  }
  return `"${digest!.toString('hex')}"`;
}

/**
 * Strong ETags and the catalog's Cache-Control and Vary on the GET answers of the routes it is
 * mounted on (routers/catalog.ts; the SMQ list, detail and change sets in routers/smqs.ts): clients revalidate
 * with If-None-Match (304). The warm answer cache keeps the answers of the same paths
 * (CATALOG_PATHS, decided before routing; test/http/routeMiddleware.test.ts checks they agree).
 */
export function catalogEtag(): MiddlewareHandler<AppEnv> {
  // SHA-1 by node:crypto, synchronously: the default (WebCrypto's async digest) cost ~5 % of an
  // uncached code page's CPU (bench/results.md). An answer made by respond() is hashed from its
  // JSON text (the same value hono computes from the body); any other is read back by hono.
  const tag = etag({ generateDigest: sha1 });
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    await tag(c, async () => {
      await next();
      const text = c.res.ok ? jsonTextOf(c.res) : undefined;
      if (text !== undefined && !c.res.headers.has('etag')) c.res.headers.set('ETag', etagOfText(text));
    });
    if (c.res.status < 400) {
      c.res.headers.set('Cache-Control', 'public, no-cache');
      // Names follow Accept-Language when no ?lang= is given (issue 28); the route may have said so already.
      const others = (c.res.headers.get('vary') ?? '').split(',').map((v) => v.trim()).filter((v) => v && !/^(x-terminology-version|accept-language)$/i.test(v));
      c.res.headers.set('Vary', [...others, 'X-Terminology-Version', 'Accept-Language'].join(', '));
    }
  };
}

/** Answers no cache may keep (derived from a client's text). */
export function noStore(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  };
}

/**
 * `handle` behind the warm answer cache (default on: 64 MB, 60 s), unless opts.responseCache
 * is false; the cache is returned too, for the Node fast path (nodeListener.ts).
 */
export function withWarmAnswers(handle: Fetch, services: Pick<Services, 'catalog' | 'log'>, opts: AppOptions): { fetch: Fetch; warmAnswers?: WarmAnswerCache } {
  if (opts.responseCache === false) return { fetch: handle };
  const clientIp = clientIpFor(trustProxyOf(opts));
  const cache = new WarmAnswerCache(
    {
      catalog: services.catalog,
      log: services.log,
      limiter: opts.rateLimit?.limiter,
      clientIp: (req, env) => clientIp(incomingAddress(env), req.headers.get('x-forwarded-for') ?? undefined),
      // Node joins repeated X-Forwarded-For lines with ", " as Headers.get() does.
      clientIpOfNode: (req) => clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'] as string | undefined),
      corsAnyOrigin: !opts.corsOrigins?.length || opts.corsOrigins.includes('*'),
      isShuttingDown: opts.isShuttingDown,
    },
    opts.responseCache,
  );
  // A rate decision the cache took goes to the app with the request's bindings (AppEnv): counted once.
  const chain = (req: Request, env: unknown, taken?: RateLimitDecision) => handle(req, taken ? { ...(env as object | undefined), takenRateDecision: taken } : env);
  return { fetch: (req, env) => cache.handle(req, env, (taken) => chain(req, env, taken)), warmAnswers: cache };
}
