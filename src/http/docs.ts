// /docs: Swagger UI for the REST layer, served from the swagger-ui-dist package
// (no CDN: the service and its docs work offline).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { onceCompressed, staticResponse } from './compressedBodies.ts';

const require = createRequire(import.meta.url);
const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Terminology Explorer — REST API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
  </script>
</body>
</html>`;

export function mountDocs(app: Hono<any>): void {
  const page = onceCompressed(async () => ({ body: PAGE, type: 'text/html; charset=utf-8' }));
  // Read and compressed on first use, then kept (the bundle is ~1.5 MB, ~0.4 MB gzipped).
  const assets = new Map(Object.entries(ASSETS).map(([file, type]) => [file, onceCompressed(async () => ({ body: await readFile(path.join(assetsDir, file)), type }))]));
  app.get('/docs', async (c) => staticResponse(c.req.raw, await page(), 'no-cache'));
  app.get('/docs/assets/:file', async (c) => {
    const asset = assets.get(c.req.param('file'));
    if (!asset) return c.notFound();
    return staticResponse(c.req.raw, await asset(), 'public, max-age=86400');
  });
}
