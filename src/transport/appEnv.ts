// What every HTTP surface (REST, FHIR, the app's own middleware) knows about a request: its
// id, its logger, the client's address, once a key guard let it through the API key, and how
// its surface writes refusals (problem JSON unless set). Its bindings (`c.env`) are what the
// caller of the app passes with the request: the Node adapter's request, and a rate-limit
// decision the warm answer cache in front already took (src/http/caches.ts), so that the
// request is counted once.
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../logger.ts';
import type { RefusalRenderer } from './problem.ts';

/** One request counted against a client's per-minute budget (src/http/rateLimit.ts). */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export type AppEnv = {
  // Absent altogether when the app is called without bindings (app.fetch(req) in tests): read with `c.env?.`.
  Bindings: { incoming?: IncomingMessage; takenRateDecision?: RateLimitDecision; /** The start's own warm-up request (src/http/routeWarming.ts): counted nowhere. */ warmUp?: boolean };
  Variables: { requestId: string; log: Logger; clientIp: string; apiKeyId?: string; renderRefusal?: RefusalRenderer };
};
