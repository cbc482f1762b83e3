// The methods each path is served with, read from the app's own route table (Hono's
// `app.routes`), so that a request no route takes is answered 405 with `Allow` when the path
// is served with other methods (RFC 9110 §15.5.6), and 404 only when it is not served at all.
import type { RouterRoute } from 'hono/types';
import { SmartRouter } from 'hono/router/smart-router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';

/** The methods a path is served with, in alphabetical order; empty when no route serves it. */
export type AllowedMethods = (path: string) => readonly string[];

/**
 * Compiled once, after every route is mounted. `options`: the CORS middleware answers
 * OPTIONS on every path, which the route table does not show.
 */
export function allowedMethods(routes: readonly RouterRoute[], opts: { options: boolean }): AllowedMethods {
  // The app's own router kind, so a pattern matches here exactly as it does there.
  const router = new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] });
  const added = new Set<string>();
  for (const { method, path } of routes) {
    // ALL entries are middleware, or handlers that answer every method themselves (/graphql).
    if (method === 'ALL' || added.has(`${method} ${path}`)) continue;
    added.add(`${method} ${path}`);
    router.add('ALL', path, method);
  }
  const of = (path: string): readonly string[] => {
    const methods = new Set(router.match('ALL', path)[0].map(([method]) => method));
    if (methods.size === 0) return [];
    // Hono answers HEAD wherever GET is served (the GET route, without the body).
    if (methods.has('GET')) methods.add('HEAD');
    if (opts.options) methods.add('OPTIONS');
    return [...methods].sort();
  };
  of('/'); // builds the matcher now rather than on the first refused request
  return of;
}
