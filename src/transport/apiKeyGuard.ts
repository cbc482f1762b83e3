// The API-key check of the routes that need a key (narratives, coded data, SMQ application),
// before anything else, and the AI notice header on what they answer.
import type { MiddlewareHandler } from 'hono';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { verifyApiKey } from '../domain/apiKeys.ts';
import { AI_NOTICE } from '../assessment/notice.ts';
import type { AppEnv } from './appEnv.ts';
import { problem, sendProblem } from './problem.ts';

/** 401 before any validation: a caller without a key learns nothing about the payload rules. */
export function requireApiKey(prisma: PrismaClient, opts: { aiNotice?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const presented = c.req.header('x-api-key');
    const id = await verifyApiKey(prisma, presented);
    if (!id) {
      return sendProblem(
        c,
        problem('UNAUTHORIZED', presented ? 'The X-API-Key is not valid (unknown, malformed or revoked).' : 'This endpoint needs an API key: send X-API-Key: sk-….', c.get('requestId')),
        { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' },
      );
    }
    c.set('apiKeyId', id);
    await next();
    if (opts.aiNotice !== false) c.res.headers.set('X-AI-Notice', AI_NOTICE);
  };
}
