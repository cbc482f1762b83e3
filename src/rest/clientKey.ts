// API-key check of the endpoints that take a client's coded data (POST /smqs/{code}/apply):
// as the narrative endpoints' (401 before the body is validated, the key id handed to the
// operation), without the AI notice — nothing there is AI-generated.
import type { MiddlewareHandler } from 'hono';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { verifyApiKey } from '../domain/apiKeys.ts';
import type { AppEnv } from './context.ts';
import { problem, sendProblem } from './problem.ts';

export function requireClientKey(prisma: PrismaClient): MiddlewareHandler<AppEnv> {
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
  };
}
