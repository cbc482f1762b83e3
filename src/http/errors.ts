// What the app answers when a handler throws or no route matches: always the problem JSON.
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../rest/context.ts';
import { problem, problemFromError, sendProblem } from '../rest/problem.ts';
import { ProblemError } from '../rest/execute.ts';
import { clip } from '../domain/clientText.ts';
import { requestIdFrom } from './requestId.ts';

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = c.get('requestId') ?? requestIdFrom(undefined);
  if (err instanceof ProblemError) return sendProblem(c, { ...err.problem, requestId });
  // Hono's own refusals (malformed JSON body, …) are the client's mistake.
  if (err instanceof HTTPException && err.status < 500) {
    const code = err.status === 413 ? 'PAYLOAD_TOO_LARGE' : err.status === 401 ? 'UNAUTHORIZED' : err.status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
    const detail = err.message || 'Malformed request.';
    return sendProblem(c, problem(code, detail, requestId, code === 'VALIDATION_ERROR' ? { body: [detail] } : undefined));
  }
  const p = problemFromError(err, requestId);
  if (p.code === 'INTERNAL_ERROR') c.get('log')?.error({ err: { message: err.message, stack: err.stack } }, 'unhandled error');
  return sendProblem(c, p);
};

export const notFound: NotFoundHandler<AppEnv> = (c: Context<AppEnv>) =>
  sendProblem(c, problem('NOT_FOUND', `No route for ${clip(c.req.method)} ${clip(c.req.path)}. See /docs.`, c.get('requestId')));
