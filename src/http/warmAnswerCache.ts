// Warm answers to catalog GETs, kept whole and sent again in front of the router (see
// caches.ts for how this relates to the other caches). Releases never change once
// imported, so a 200 answer for (path, sorted query, release header, latest release) can
// be kept and sent again byte for byte. It is kept *whole* — body and every header the
// middleware chain added (security, CORS, API version, ETag, release) — and served
// before the chain runs: that chain (Fetch Request/Response objects, header merging)
// cost ~85% of a cached answer (bench/results.md). Only what differs per request is
// redone here: the request id, the rate-limit count, If-None-Match.
//
// Anything unusual (an X-API-Version to check, a CORS origin to match, shutdown, a
// client near its rate limit) goes through the full chain instead.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ReleaseCatalog } from '../domain/catalog.ts';
import type { Logger } from '../logger.ts';
import { requestIdFrom } from './requestId.ts';
import type { RateLimiter, RateLimitDecision } from './rateLimit.ts';
import { headerThreshold } from './rateLimitHeaders.ts';

export interface WarmAnswerCacheOptions {
  /** Total bytes of bodies kept. */
  maxBytes?: number;
  /** Bounds staleness after `import --replace` by another process (PostgreSQL mode). */
  ttlMs?: number;
}

interface Entry {
  // A Uint8Array body and plain header object: the Node adapter writes them directly.
  body: Uint8Array;
  headers: Record<string, string>;
  etag: string;
}

/** Per-request headers never replayed. */
const PER_REQUEST = new Set(['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'connection', 'date', 'content-length']);

/** The catalog routes (REST GETs about releases): the only answers kept, and the only ones given an ETag. */
export const CATALOG_PATHS = /^\/(versions|codes)(\/|$)/;

export interface WarmAnswerCacheDeps {
  catalog: ReleaseCatalog;
  log: Logger;
  limiter?: RateLimiter | undefined;
  /** Client address of a request (socket + trusted X-Forwarded-For). */
  clientIp: (req: Request, env: unknown) => string;
  /** True when CORS allows any origin (headers then do not depend on the request). */
  corsAnyOrigin: boolean;
  isShuttingDown?: () => boolean;
}

/** A rate decision already taken in front, handed to the rate-limit middleware so a request is counted once. */
export const takenDecisions = new WeakMap<Request, RateLimitDecision>();

export class WarmAnswerCache {
  private readonly cache: LRUCache<string, Entry>;

  constructor(
    private readonly deps: WarmAnswerCacheDeps,
    opts: WarmAnswerCacheOptions = {},
  ) {
    this.cache = new LRUCache({
      maxSize: opts.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (e) => e.body.byteLength + 500,
      ttl: opts.ttlMs ?? 60_000,
    });
  }

  /** Serves `req` from memory, or passes it to `next` (and keeps a replayable answer). */
  async handle(req: Request, env: unknown, next: () => Promise<Response>): Promise<Response> {
    // The key needs the latest release; if the database cannot say, the chain answers
    // (503 with Retry-After for an outage) and nothing is replayed or kept.
    const key = await this.keyOf(req).catch(() => undefined);
    if (key === undefined) return next();
    const hit = this.cache.get(key);
    if (hit) {
      const started = performance.now();
      const served = await this.serve(req, env, hit);
      if (served) {
        if (this.deps.log.isLevelEnabled('debug')) {
          this.deps.log.debug({ method: 'GET', route: 'replay', status: served.status, ms: Math.round(performance.now() - started), replayed: true }, 'request');
        }
        return served;
      }
      return next();
    }
    const res = await next();
    if (res.status === 200) await this.keep(key, res);
    return res;
  }

  private async keyOf(req: Request): Promise<string | undefined> {
    if (req.method !== 'GET') return undefined;
    const url = new URL(req.url);
    if (!CATALOG_PATHS.test(url.pathname)) return undefined;
    const h = req.headers;
    if (h.get('x-api-version') !== null || (!this.deps.corsAnyOrigin && h.get('origin') !== null) || this.deps.isShuttingDown?.()) return undefined;
    const params = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // The resolved latest release is part of the key: a new import is never hidden.
    const latest = (await this.deps.catalog.latest())?.version ?? '-';
    return `${url.pathname}?${new URLSearchParams(params).toString()}|${h.get('x-terminology-version') ?? ''}|${latest}`;
  }

  private async serve(req: Request, env: unknown, hit: Entry): Promise<Response | undefined> {
    if (this.deps.limiter) {
      let d: RateLimitDecision;
      try {
        d = await this.deps.limiter.consume(this.deps.clientIp(req, env));
      } catch {
        return undefined; // the chain logs the store failure and lets the request through
      }
      // Refusals and near-limit headers are the chain's business; the count is taken.
      if (!d.allowed || d.remaining <= headerThreshold(d.limit)) {
        takenDecisions.set(req, d);
        return undefined;
      }
    }
    const headers: Record<string, string> = { ...hit.headers, 'x-request-id': requestIdFrom(req.headers.get('x-request-id')) };
    const inm = req.headers.get('if-none-match');
    if (inm !== null && inm.split(',').some((t) => t.trim() === hit.etag || t.trim() === '*')) {
      delete headers['content-type'];
      return new Response(null, { status: 304, headers });
    }
    return new Response(hit.body as Uint8Array<ArrayBuffer>, { status: 200, headers });
  }

  private async keep(key: string, res: Response): Promise<void> {
    const body = new Uint8Array(await res.clone().arrayBuffer());
    let etag = res.headers.get('etag');
    if (etag === null) {
      etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      res.headers.set('etag', etag);
    }
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!PER_REQUEST.has(k)) headers[k] = v;
    });
    this.cache.set(key, { body, headers, etag });
  }
}
