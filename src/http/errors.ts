// What the app answers when a handler throws or no route matches: always the problem JSON.
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../transport/appEnv.ts';
import { problem, problemFromError, sendProblem } from '../transport/problem.ts';
import { ProblemError } from '../rest/execute.ts';
import { clip } from '../domain/clientText.ts';
import { requestIdFrom } from './requestId.ts';
import type { AllowedMethods } from './allowedMethods.ts';

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = c.get('requestId') ?? requestIdFrom(undefined);
  if (err instanceof ProblemError) return sendProblem(c, { ...err.problem, requestId });
  // Hono's own refusals (malformed JSON body, …) are the client's mistake.
  if (err instanceof HTTPException && err.status < 500) {
    const code = err.status === 413 ? 'PAYLOAD_TOO_LARGE' : err.status === 401 ? 'UNAUTHORIZED' : err.status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
    const detail = err.message || 'Malformed request.';
    return sendProblem(c, problem(code, detail, requestId, code === 'VALIDATION_ERROR' ? { body: [detail] } : undefined));
  }
  // The body stopped arriving (the parser refused what followed, or the client went away):
  // the client's doing, and what it was told (clientError.ts) is a 4xx, so that is what is logged.
  if (bodyCutOff(err, c)) return sendProblem(c, problem('VALIDATION_ERROR', CUT_OFF, requestId, { body: [CUT_OFF] }));
  const p = problemFromError(err, requestId);
  if (p.code === 'INTERNAL_ERROR') c.get('log')?.error({ err: { message: err.message, stack: err.stack } }, 'unhandled error');
  return sendProblem(c, p);
};

const CUT_OFF = 'The request body did not arrive completely.';

/**
 * Whether `err` is a failed read of a request body that stopped arriving: Node's IncomingMessage
 * fails with ECONNRESET "aborted" when the client goes away and with its parser's error (HPE_…)
 * when what follows is not HTTP; the Node adapter hands on that error, or the reason it aborted
 * the request with ("Client connection prematurely closed.", the error's text). Any other error
 * stays what it is, even after the client left: a fault of ours is not the client's 400.
 */
function bodyCutOff(err: unknown, c: Context<AppEnv>): boolean {
  const signal = c.req.raw.signal;
  const reason = signal?.aborted ? signal.reason : undefined;
  const seen = new Set<unknown>();
  for (let e: unknown = err; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (code === 'ECONNRESET' && message === 'aborted') return true;
    if (typeof code === 'string' && code.startsWith('HPE_')) return true;
    if (!signal?.aborted) continue;
    if (e === reason || name === 'AbortError') return true;
    if (message === 'Client connection prematurely closed.' || (typeof reason === 'string' && (String(e) === reason || message === reason))) return true;
  }
  return false;
}

/**
 * No route answered: 405 with `Allow` when the path is served with other methods, else 404.
 * A route that declines its own path (an unknown problem slug or asset) gets 404 too.
 */
export function noRoute(allowedOf: AllowedMethods): NotFoundHandler<AppEnv> {
  return (c: Context<AppEnv>) => {
    const { method, path } = c.req;
    const allowed = allowedOf(path);
    // Hono runs HEAD as GET, so a HEAD that reaches here is a GET the route declined.
    if (allowed.length === 0 || allowed.includes(method)) {
      return sendProblem(c, problem('NOT_FOUND', `No route for ${clip(method)} ${clip(path)}. See /docs.`, c.get('requestId')));
    }
    const allow = allowed.join(', ');
    return sendProblem(c, problem('METHOD_NOT_ALLOWED', `${clip(method)} is not allowed on ${clip(path)}; it is served with ${allow}.`, c.get('requestId')), { Allow: allow });
  };
}
