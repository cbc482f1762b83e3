// The web explorer (web/, bundled into dist/web by scripts/build-web.mjs at install): its
// HTML at `/` for clients that prefer text/html (browsers), and its hashed assets under
// /explorer/assets/. API clients asking `/` for JSON (or anything) still get the JSON index,
// which the next handler answers. The page reads only through the public /graphql endpoint.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Hono, Next } from 'hono';
import { distDir } from '../paths.ts';
import { acceptsGzip } from './compressedBodies.ts';

export const webDir = path.join(distDir, 'web');
const assetsDir = path.join(webDir, 'assets');

// Strict, and only on the explorer's responses: no inline script or style, nothing from
// another origin; the page talks to its own /graphql. (GraphiQL and /docs run inline scripts
// and keep the app-wide headers.)
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
const HASHED = /^[\w-]+-[A-Z0-9]{8}\.(js|css)$/;

/** Quality of `type` in an Accept header (exact, then type/*, then *\/*); 0 when absent. */
export function acceptQuality(accept: string | undefined, type: string): number {
  if (!accept) return 0;
  const [major] = type.split('/');
  let best = -1;
  let specificity = -1;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const spec = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (spec < 0 || spec < specificity) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    if (spec > specificity || quality > best) {
      specificity = spec;
      best = Number.isFinite(quality) ? quality : 0;
    }
  }
  return Math.max(0, best);
}

/** A browser's navigation: text/html named and preferred to JSON (`*\/*` alone is an API client). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept || !/text\/html/i.test(accept)) return false;
  return acceptQuality(accept, 'text/html') > 0 && acceptQuality(accept, 'text/html') >= acceptQuality(accept, 'application/json');
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Terminology Explorer</title></head>
<body><main><h1>Terminology Explorer</h1><p>The web explorer is not built: run <code>npm run build</code>.
The API is up: <a href="/graphql">GraphQL</a>, <a href="/docs">REST reference</a>.</p></main></body></html>`;

// Hashed assets never change; they are kept in memory once read.
const assetCache = new Map<string, Buffer>();

async function readAsset(name: string): Promise<Buffer | undefined> {
  const hit = assetCache.get(name);
  if (hit) return hit;
  try {
    const body = await readFile(path.join(assetsDir, name));
    if (assetCache.size > 64) assetCache.clear();
    assetCache.set(name, body);
    return body;
  } catch {
    return undefined;
  }
}

export function mountExplorer(app: Hono<any>): void {
  app.get('/', async (c: Context, next: Next) => {
    if (!prefersHtml(c.req.header('accept'))) {
      await next();
      c.res.headers.append('Vary', 'Accept');
      return;
    }
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', vary: 'Accept', 'content-security-policy': EXPLORER_CSP };
    try {
      return c.body(await readFile(path.join(webDir, 'index.html')), 200, headers);
    } catch {
      return c.body(NOT_BUILT, 503, headers);
    }
  });

  app.get('/explorer/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = TYPES[path.extname(file)];
    if (!type || !HASHED.test(file)) return c.notFound();
    const gzip = acceptsGzip(c.req.header('accept-encoding'));
    const body = (gzip && (await readAsset(`${file}.gz`))) || undefined;
    const plain = body ? undefined : await readAsset(file);
    if (!body && !plain) return c.notFound();
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
    };
    if (body) headers['content-encoding'] = 'gzip';
    return c.body(new Uint8Array(body ?? plain!), 200, headers);
  });
}

/** For tests: whether the bundle exists. */
export async function explorerBuilt(): Promise<boolean> {
  return stat(path.join(webDir, 'index.html')).then(
    () => true,
    () => false,
  );
}
