// GraphiQL's page (~9 MB of HTML with its scripts inline) is the same for every browser:
// Yoga renders it once, and it is served from then on with its gzip form (compressedBodies.ts).
import type { GraphQLServer } from '../graphql/yoga.ts';
import { onceCompressed, staticResponse } from './compressedBodies.ts';

type ServerContext = Parameters<GraphQLServer['handleRequest']>[1];

export function graphiqlPage(yoga: GraphQLServer) {
  let context: ServerContext | undefined;
  const page = onceCompressed(async () => {
    // The request that asks first renders the page (read before any await); none is kept.
    const ctx = context!;
    // Yoga's own rule for a GraphiQL request: a GET that accepts HTML.
    const res = await yoga.handleRequest(new Request('http://localhost/graphql', { headers: { accept: 'text/html' } }), ctx);
    if (res.status !== 200) throw new Error(`GraphiQL page: status ${res.status}`);
    return { body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') ?? 'text/html; charset=utf-8' };
  });
  return {
    /** Yoga's rule (a GET whose Accept names text/html) for rendering GraphiQL instead of executing. */
    wanted: (req: Request) => req.method === 'GET' && (req.headers.get('accept') ?? '').includes('text/html'),
    async answer(req: Request, ctx: ServerContext): Promise<Response> {
      context = ctx;
      try {
        return staticResponse(req, await page(), 'no-cache');
      } finally {
        context = undefined;
      }
    },
  };
}
