// Cross-cutting HTTP protection: per-client rate limits, body size limit, CORS and
// security headers. Every refusal is the documented problem JSON.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../transport/appEnv.ts';
import { problem, sendProblem } from '../transport/problem.ts';
import type { RateLimiter } from './rateLimit.ts';
import { headerThreshold } from './rateLimitHeaders.ts';

/** Peer address from the Node adapter's bindings (undefined outside a real server). */
export function incomingAddress(env: unknown): string | undefined {
  return (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

export function socketAddress(c: Context): string | undefined {
  return incomingAddress(c.env);
}

export function rateLimitMiddleware(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Load-balancer probes are never limited.
    if (c.req.path.startsWith('/health/')) return next();
    const ip = c.get('clientIp');
    // Counted already when the warm-answer cache in front could not serve it (caches.ts).
    let d = c.env?.takenRateDecision;
    try {
      d ??= limiter.consumeNow(ip) ?? (await limiter.consume(ip));
    } catch (err) {
      // The limiter's store failing must not take the API down: let the request through.
      c.get('log').warn({ err: { message: (err as Error).message } }, 'rate limiter unavailable; request not counted');
      return next();
    }
    const resetSeconds = Math.ceil(d.resetMs / 1000);
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(d.limit),
      'X-RateLimit-Remaining': String(d.remaining),
      'X-RateLimit-Reset': String(resetSeconds),
    };
    if (!d.allowed) {
      return sendProblem(
        c,
        problem('RATE_LIMITED', `Too many requests: at most ${d.limit} per minute. Retry after ${resetSeconds} s.`, c.get('requestId'), undefined, {
          retryAfter: resetSeconds,
          limit: d.limit,
          reset: Math.ceil((Date.now() + d.resetMs) / 1000),
        }),
        { ...headers, 'Retry-After': String(resetSeconds) },
      );
    }
    await next();
    if (d.remaining <= headerThreshold(d.limit)) for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}

export function bodyLimitMiddleware(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    // Answered at once, before the body is read (a declared Content-Length over the limit): the
    // connection is not reused, and what is left of the upload is discarded after the answer
    // (closeIfBodyUnread in middleware.ts), not before it.
    onError: (c) => sendProblem(c, problem('PAYLOAD_TOO_LARGE', `Request body exceeds ${maxBytes} bytes.`, c.get('requestId'), { body: [`must be at most ${maxBytes} bytes`] }), {
        Connection: 'close',
      }),
  });
}

const CORS_EXPOSED = ['X-Request-Id', 'X-Terminology-Version', 'X-API-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag', 'X-AI-Notice'];

const CORS_HEADERS = ['Content-Type', 'Accept', 'X-API-Version', 'X-Terminology-Version', 'X-Request-Id', 'If-None-Match'];

export function corsMiddleware(origins: string[]): MiddlewareHandler<AppEnv> {
  const any = origins.includes('*');
  const named = origins.filter((o) => o !== '*');
  const preflightOf = (origin: string | string[], key: boolean) =>
    cors({ origin, allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: key ? [...CORS_HEADERS, 'X-API-Key'] : CORS_HEADERS, exposeHeaders: CORS_EXPOSED, maxAge: 600 });
  // `*` is for the public catalog: a page on any site may read it, but may not send an API key
  // (X-API-Key is left out of its preflight answer, so a browser never sends one cross-site and
  // keyed routes stay same-origin). Origins named in CORS_ORIGINS may send the key.
  const keyed = named.length ? preflightOf(named, true) : undefined;
  const open = any ? preflightOf('*', false) : undefined;
  const preflight: MiddlewareHandler<AppEnv> = (c, next) => (keyed && named.includes(c.req.header('origin') ?? '') ? keyed(c, next) : (open ?? keyed!)(c, next));
  const exposed = CORS_EXPOSED.join(',');
  // Other requests get the headers hono's cors() gives them, set on the answer after the route:
  // set before it (as cors() does), they make hono rebuild the route's Response around its body
  // stream — a stream tee and a Fetch Response per request.
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    const origin = c.req.header('origin') ?? '';
    const allowed = any ? '*' : origins.includes(origin) ? origin : null;
    if (allowed) c.res.headers.set('Access-Control-Allow-Origin', allowed);
    c.res.headers.set('Access-Control-Expose-Headers', exposed);
    if (!any) c.res.headers.append('Vary', 'Origin');
  };
}

export function securityHeadersMiddleware(): MiddlewareHandler<AppEnv> {
  // No Content-Security-Policy here: GraphiQL and the docs page run inline scripts.
  return secureHeaders({ contentSecurityPolicy: undefined, crossOriginEmbedderPolicy: false, crossOriginResourcePolicy: 'cross-origin' });
}
