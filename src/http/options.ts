// What createApp is given and what it returns; its own module so that the parts of the app
// (middleware.ts, caches.ts, routers/) read the options without importing app.ts.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { GraphQLOptions, GraphQLServer } from '../graphql/yoga.ts';
import type { AppEnv } from '../transport/appEnv.ts';
import type { TrustProxy } from '../net/trustProxy.ts';
import type { RateLimiter } from './rateLimit.ts';
import type { WarmAnswerCache, WarmAnswerCacheOptions } from './warmAnswerCache.ts';

export interface AppOptions {
  graphql?: GraphQLOptions;
  rateLimit?: { limiter: RateLimiter; trustProxy: TrustProxy };
  /** Which proxies' X-Forwarded-For to honour when there is no rate limiter. */
  trustProxy?: TrustProxy;
  /** Allowed CORS origins ('*' = any); empty = no CORS headers. */
  corsOrigins?: string[];
  securityHeaders?: boolean;
  maxBodyBytes?: number;
  /** Body limit of POST /impact (uploads of up to 100,000 coded rows); default IMPACT_BODY_BYTES. */
  maxImpactBodyBytes?: number;
  /** The warm answer cache of catalog GETs (default on: 64 MB, 60 s); false disables it. */
  responseCache?: WarmAnswerCacheOptions | false;
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
  /** The warm answer cache in front of `fetch` (absent when disabled); nodeListener.ts serves from it first. */
  warmAnswers?: WarmAnswerCache;
}
