// The Node request listener: warm catalog answers straight from Node's request
// (WarmAnswerCache.serveNode), everything else through @hono/node-server's Fetch adapter.
// The adapter builds a Request and reads back a Response for every request; for a warm
// answer that was most of the cost (issue 18).
import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { App } from './options.ts';

type AdapterOptions = NonNullable<Parameters<typeof getRequestListener>[1]>;

export function nodeListener(app: Pick<App, 'fetch' | 'warmAnswers'>, options: AdapterOptions = {}): RequestListener {
  const adapter = getRequestListener(app.fetch, options);
  const warm = app.warmAnswers;
  if (!warm) return adapter;
  return (req: IncomingMessage, res: ServerResponse) => {
    // Nothing was written when serveNode throws or rejects (only before it answers): the adapter answers.
    let served: boolean | Promise<boolean>;
    try {
      served = warm.serveNode(req, res);
    } catch {
      served = false;
    }
    if (served === false) void adapter(req, res);
    else if (served !== true)
      served.then(
        (s) => {
          if (!s) void adapter(req, res);
        },
        () => void adapter(req, res),
      );
  };
}
