// Uploads of coded rows as CSV (POST /impact, POST /smqs/{code}/apply): the content type
// test and the request body as a byte stream for the CSV reader (src/domain/impact/csv.ts).
import type { Context } from 'hono';
import type { AppEnv } from '../transport/appEnv.ts';

export const isCsv = (contentType: string | undefined): boolean => !!contentType && /^\s*text\/csv\b/i.test(contentType);

/** Body bytes as a stream (the body limit already wraps it). */
export async function* bodyChunks(c: Context<AppEnv>): AsyncGenerator<Uint8Array> {
  const body = c.req.raw.body;
  if (!body) return;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}
