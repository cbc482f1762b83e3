// Releases never change once imported, so a catalog answer for (URL, release) can be
// kept and replayed: warm GETs skip GraphQL and the database entirely. The key holds
// the resolved release (the latest one when none is named), so a newly imported
// release is never hidden; entries also expire after a TTL, which bounds staleness
// after `import --replace` in another process (PostgreSQL mode).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../rest/context.ts';
import type { ReleaseCatalog } from '../domain/catalog.ts';

export interface ResponseCacheOptions {
  /** Total bytes of bodies kept. */
  maxBytes?: number;
  ttlMs?: number;
}

interface Entry {
  body: ArrayBuffer;
  headers: [string, string][];
}

const KEPT_HEADERS = ['content-type', 'x-terminology-version', 'etag'];

export function responseCache(catalog: ReleaseCatalog, opts: ResponseCacheOptions = {}): MiddlewareHandler<AppEnv> {
  const cache = new LRUCache<string, Entry>({
    maxSize: opts.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (e) => e.body.byteLength + 200,
    ttl: opts.ttlMs ?? 60_000,
  });
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const url = new URL(c.req.url);
    const params = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const latest = (await catalog.latest())?.version ?? '-';
    const key = `${url.pathname}?${new URLSearchParams(params).toString()}|${c.req.header('x-terminology-version') ?? ''}|${latest}`;
    const hit = cache.get(key);
    if (hit) return new Response(hit.body, { status: 200, headers: hit.headers });
    await next();
    if (c.res.status !== 200) return;
    const body = await c.res.clone().arrayBuffer();
    // A strong validator computed once; the ETag middleware then answers If-None-Match without hashing.
    const etag = `"${createHash('sha1').update(new Uint8Array(body)).digest('base64url')}"`;
    c.res.headers.set('ETag', etag);
    const headers = KEPT_HEADERS.map((h) => [h, c.res.headers.get(h)] as const).filter((x): x is [string, string] => x[1] !== null);
    cache.set(key, { body, headers });
  };
}
