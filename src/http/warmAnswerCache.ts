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
//
// On Node's request (serveNode) a warm answer is synchronous while the release list is
// cached, and its ~20 kept headers go to writeHead as a flat list built when the answer is
// kept: a header object copied per request cost ~20% of a replay (issue 18, round 2).
import { negotiatedLanguageKey } from '../domain/languageCacheKey.ts';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { ReleaseCatalog } from '../domain/catalog.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import type { Logger } from '../logger.ts';
import { requestIdFrom } from './requestId.ts';
import type { RateLimiter, RateLimitDecision } from './rateLimit.ts';
import { headerThreshold } from './rateLimitHeaders.ts';
import { jsonTextOf } from '../rest/context.ts';
import { counts, memoryGauges } from '../observability/signals.ts';

export interface WarmAnswerCacheOptions {
  /** Total bytes of bodies kept. */
  maxBytes?: number;
  /** Bounds staleness after `import --replace` by another process (PostgreSQL mode). */
  ttlMs?: number;
}

interface Entry {
  // A Buffer body (Node writes it without converting) and a plain header object (for the Fetch path).
  body: Buffer;
  headers: Record<string, string>;
  etag: string;
  /**
   * writeHead's flat [name, value, …] lists for Node's response, the kept headers in order,
   * then x-request-id (its value, the last slot but two for 200 and the last for 304, is
   * written per request: writeHead reads the list synchronously and keeps nothing of it),
   * then content-length for 200; 304 has no content type.
   */
  head200: string[];
  head304: string[];
}

/** If-None-Match names the kept ETag (or *): 304. */
function notModified(hit: Entry, ifNoneMatch: string | null): boolean {
  return ifNoneMatch !== null && ifNoneMatch.split(',').some((t) => t.trim() === hit.etag || t.trim() === '*');
}

/** A kept answer's headers with this request's id, for a Response. */
function answer(hit: Entry, requestId: string | null, ifNoneMatch: string | null): { status: 200 | 304; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...hit.headers, 'x-request-id': requestIdFrom(requestId) };
  if (notModified(hit, ifNoneMatch)) {
    delete headers['content-type'];
    return { status: 304, headers };
  }
  return { status: 200, headers };
}

/** Replayed unless refused or near the limit: the chain then answers, with the count already taken. */
function replays(d: RateLimitDecision): boolean {
  return d.allowed && d.remaining > headerThreshold(d.limit);
}

/** Per-request headers never replayed. */
const PER_REQUEST = new Set(['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'connection', 'date', 'content-length']);

/**
 * The catalog routes (REST GETs about releases and their SMQs): the only answers kept. Decided here before any
 * routing; the same routes are mounted with the catalog's ETag and Cache-Control (caches.ts).
 */
export const CATALOG_PATHS = /^\/(versions|codes|smqs)(\/|$)/;

export interface WarmAnswerCacheDeps {
  catalog: ReleaseCatalog;
  log: Logger;
  limiter?: RateLimiter | undefined;
  /** Client address of a request (socket + trusted X-Forwarded-For). */
  clientIp: (req: Request, env: unknown) => string;
  clientIpOfNode: (req: IncomingMessage) => string;
  /** True when CORS allows any origin (headers then do not depend on the request). */
  corsAnyOrigin: boolean;
  isShuttingDown?: () => boolean;
}

/**
 * What the chain is given when the cache does not answer: the rate-limit decision taken here, if
 * any, so the request is counted once (AppEnv's bindings: the app's rate limiter reads it).
 */
export type Next = (takenRateDecision?: RateLimitDecision) => Promise<Response>;

/** Node's request behind a Fetch request (the adapter's bindings), if any. */
function incomingOf(env: unknown): IncomingMessage | undefined {
  return (env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

// Targets and hosts the Node adapter (@hono/node-server) uses verbatim in the Request URL.
const PLAIN_TARGET = /^\/[!$&-;=?-\[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** A Node header as Fetch's Headers.get() gives it. */
function headerText(v: string | string[] | undefined): string | null {
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

export class WarmAnswerCache {
  private readonly cache: LRUCache<string, Entry>;
  /** Keys serveNode computed for requests it left to the adapter. */
  private readonly keysOfNode = new WeakMap<IncomingMessage, string>();
  /** Rate decisions serveNode took for requests it left to the adapter (handed on by handle()). */
  private readonly decisionsOfNode = new WeakMap<IncomingMessage, RateLimitDecision>();

  constructor(
    private readonly deps: WarmAnswerCacheDeps,
    opts: WarmAnswerCacheOptions = {},
  ) {
    const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
    this.cache = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (e) => e.body.byteLength + 500,
      ttl: opts.ttlMs ?? 60_000,
    });
    memoryGauges.warmAnswers = { bytes: () => this.cache.calculatedSize, budget: maxBytes };
  }

  /** Serves `req` from memory, or passes it to `next` (and keeps a replayable answer). */
  async handle(req: Request, env: unknown, next: Next): Promise<Response> {
    const incoming = incomingOf(env);
    let taken = incoming && this.decisionsOfNode.get(incoming);
    // The key needs the latest release; if the database cannot say, the chain answers
    // (503 with Retry-After for an outage) and nothing is replayed or kept.
    const key = await this.keyOf(req, incoming).catch(() => undefined);
    if (key === undefined) return next(taken);
    const hit = this.cache.get(key);
    if (hit) {
      const started = this.debugStart();
      const limiter = this.deps.limiter;
      if (limiter) {
        taken ??= await this.decide(limiter, this.deps.clientIp(req, env));
        // Not replayed: refused, near the limit, or the limiter failing (the chain logs that and lets it through).
        if (!taken || !replays(taken)) return next(taken);
      }
      const h = req.headers;
      counts.warmHits++;
      const replay = answer(hit, h.get('x-request-id'), h.get('if-none-match'));
      this.logReplay(replay.status, started);
      return new Response(replay.status === 304 ? null : (hit.body as Uint8Array<ArrayBuffer>), replay);
    }
    counts.warmMisses++;
    const res = await next(taken);
    if (res.status === 200) await this.keep(key, res);
    return res;
  }

  /**
   * The same replay on Node's own request and response, before the Fetch adaptation
   * (Request/Response objects, header copies) — the larger part of a warm answer's cost.
   * True when answered; false leaves the request untouched for the adapter. Only plain
   * targets the adapter would pass through unchanged (no dot segments, percent-decoding
   * or fragment), so the key is the one the Fetch path computes for the same request.
   * Synchronous unless the release list must be read or the count comes from Redis.
   */
  serveNode(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
    return this.replay(req, res, false);
  }

  /**
   * The replay only when it is synchronous: false, with nothing taken (no rate-limit count),
   * when the release list or the count would have to be read from another process. A traced
   * request answered here needs no trace context (src/observability/tracingSdk.ts).
   */
  serveNodeNow(req: IncomingMessage, res: ServerResponse): boolean {
    return this.replay(req, res, true) === true;
  }

  private replay(req: IncomingMessage, res: ServerResponse, now: boolean): boolean | Promise<boolean> {
    const url = req.url ?? '';
    const h = req.headers;
    if (req.method !== 'GET' || !PLAIN_TARGET.test(url) || DOT_SEGMENT.test(url) || !PLAIN_HOST.test(h.host ?? '')) return false;
    // A GET with a body goes through the chain, which closes the connection after it.
    if (h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return false;
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    if (!this.eligible(pathname, h['x-api-version'] !== undefined, h.origin !== undefined)) return false;
    const search = q < 0 ? '' : url.slice(q + 1);
    const versionHeader = headerText(h['x-terminology-version']) ?? '';
    const acceptLanguage = headerText(h['accept-language']);
    const releases = this.deps.catalog.releasesNow();
    if (releases) return this.serveKeyed(req, res, this.keyWith(pathname, search, versionHeader, acceptLanguage, releases), now);
    if (now) return false;
    return this.keyFor(pathname, search, versionHeader, acceptLanguage).then(
      (key) => this.serveKeyed(req, res, key),
      () => false,
    );
  }

  private serveKeyed(req: IncomingMessage, res: ServerResponse, key: string, now = false): boolean | Promise<boolean> {
    const hit = this.cache.get(key);
    if (!hit) return this.leave(req, key);
    const limiter = this.deps.limiter;
    // Counted in Redis: asked asynchronously, so not "now" (the count is taken by the later call).
    if (now && limiter && limiter.store !== 'memory') return false;
    const started = this.debugStart();
    if (!limiter) return this.send(hit, req, res, started);
    // A request tried "now" and left already holds its count (serveNodeNow, then the listener): never counted twice.
    const decided = this.decisionsOfNode.get(req) ?? this.decide(limiter, this.deps.clientIpOfNode(req));
    const sendOrLeave = (d: RateLimitDecision | undefined) => (d && replays(d) ? this.send(hit, req, res, started) : this.leave(req, key, d));
    return decided instanceof Promise ? decided.then(sendOrLeave) : sendOrLeave(decided);
  }

  /**
   * Not answered here, the same request reaches handle() through the adapter: the key is not
   * computed twice, nor the request counted twice (`taken`, handed on to the chain).
   */
  private leave(req: IncomingMessage, key: string, taken?: RateLimitDecision): false {
    this.keysOfNode.set(req, key);
    if (taken) this.decisionsOfNode.set(req, taken);
    return false;
  }

  private send(hit: Entry, req: IncomingMessage, res: ServerResponse, started: number): true {
    const h = req.headers;
    counts.warmHits++;
    const requestId = requestIdFrom(headerText(h['x-request-id']));
    if (notModified(hit, headerText(h['if-none-match']))) {
      const head = hit.head304;
      head[head.length - 1] = requestId;
      res.writeHead(304, head);
      res.end();
      this.logReplay(304, started);
    } else {
      const head = hit.head200;
      head[head.length - 3] = requestId;
      res.writeHead(200, head);
      res.end(hit.body);
      this.logReplay(200, started);
    }
    return true;
  }

  /** The start of a replay for its debug log line (0 when it is not logged: no clock read per request). */
  private debugStart(): number {
    return this.deps.log.isLevelEnabled('debug') ? performance.now() : 0;
  }

  private logReplay(status: number, started: number): void {
    if (this.deps.log.isLevelEnabled('debug')) {
      this.deps.log.debug({ method: 'GET', route: 'replay', status, ms: Math.round(performance.now() - started), replayed: true }, 'request');
    }
  }

  private eligible(pathname: string, apiVersion: boolean, origin: boolean): boolean {
    return CATALOG_PATHS.test(pathname) && !apiVersion && (this.deps.corsAnyOrigin || !origin) && !this.deps.isShuttingDown?.();
  }

  private async keyOf(req: Request, incoming: IncomingMessage | undefined): Promise<string | undefined> {
    if (req.method !== 'GET') return undefined;
    const url = new URL(req.url);
    const h = req.headers;
    if (!this.eligible(url.pathname, h.get('x-api-version') !== null, h.get('origin') !== null)) return undefined;
    return (incoming && this.keysOfNode.get(incoming)) ?? this.keyFor(url.pathname, url.search.slice(1), h.get('x-terminology-version') ?? '', h.get('accept-language') ?? undefined);
  }

  private async keyFor(pathname: string, search: string, versionHeader: string, acceptLanguage: string | null | undefined): Promise<string> {
    return this.keyWith(pathname, search, versionHeader, acceptLanguage, await this.deps.catalog.releases());
  }

  /**
   * (path, sorted query, release header, the languages Accept-Language negotiates — not the raw
   * header: languageCacheKey.ts —, latest release).
   */
  private keyWith(pathname: string, search: string, versionHeader: string, acceptLanguage: string | null | undefined, releases: readonly ReleaseInfo[]): string {
    const query = search === '' ? '' : new URLSearchParams([...new URLSearchParams(search).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
    // The resolved latest release is part of the key: a new import is never hidden.
    return `${pathname}?${query}|${versionHeader}|${negotiatedLanguageKey(acceptLanguage, releases)}|${releases[0]?.version ?? '-'}`;
  }

  /**
   * The limiter's count of this request; undefined when the limiter fails (the chain then counts
   * again, logs the failure and lets the request through). Synchronous unless Redis must answer.
   */
  private decide(limiter: RateLimiter, ip: string): RateLimitDecision | undefined | Promise<RateLimitDecision | undefined> {
    try {
      return limiter.consumeNow(ip) ?? limiter.consume(ip).catch(() => undefined);
    } catch {
      return undefined;
    }
  }

  private async keep(key: string, res: Response): Promise<void> {
    // A REST answer's JSON text is at hand (respond()); only other answers are read back.
    const text = jsonTextOf(res);
    const body = text !== undefined ? Buffer.from(text, 'utf8') : Buffer.from(await res.clone().arrayBuffer());
    let etag = res.headers.get('etag');
    if (etag === null) {
      etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      res.headers.set('etag', etag);
    }
    const headers: Record<string, string> = {};
    const head200: string[] = [];
    const head304: string[] = [];
    res.headers.forEach((v, k) => {
      if (PER_REQUEST.has(k)) return;
      headers[k] = v;
      head200.push(k, v);
      if (k !== 'content-type') head304.push(k, v);
    });
    head200.push('x-request-id', '', 'content-length', String(body.byteLength));
    head304.push('x-request-id', '');
    this.cache.set(key, { body, headers, etag, head200, head304 });
  }
}
