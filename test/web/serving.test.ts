// How the explorer is served: `/` negotiates between the explorer's HTML and the JSON index,
// hashed assets are immutable (gzip when accepted), the HTML carries a strict CSP, the
// JavaScript stays within its 150 KB gzipped budget, and its typed documents match codegen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { prefersHtml, webDir } from '../../src/http/explorer.ts';
import { buildExplorer } from './build.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
let t: TestApp;

beforeAll(async () => {
  buildExplorer();
  t = await createTestApp({ readOnly: true });
});
afterAll(async () => {
  await t?.cleanup();
});

describe('GET / content negotiation', () => {
  it('a browser gets the explorer page, with a strict CSP and no caching', async () => {
    const res = await t.request('/', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')).toMatch(/accept/i);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const html = await res.text();
    expect(html).toMatch(/<script type="module" src="\/explorer\/assets\/app-[A-Z0-9]{8}\.js"><\/script>/);
    // No inline script anywhere (the CSP would block it) and nothing from another origin.
    expect(html.match(/<script[^>]*>/g)!.every((s) => /src="\//.test(s))).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
    // Deep links are the same page.
    expect(await (await t.request('/?code=10001723&tab=history', { headers: { accept: BROWSER_ACCEPT } })).text()).toBe(html);
  });

  it('API clients keep the JSON index (no Accept, */*, application/json)', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const res = await t.request('/', accept ? { headers: { accept } } : {});
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('vary')).toMatch(/accept/i);
      expect((await res.json()).graphql).toBe('/graphql');
    }
  });

  it('prefersHtml reads q-values', () => {
    expect(prefersHtml(BROWSER_ACCEPT)).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('text/html;q=0.2, application/json')).toBe(false);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
    expect(prefersHtml(undefined)).toBe(false);
  });
});

describe('assets', () => {
  it('hashed files are immutable, typed, gzip-encoded when accepted; unknown names are 404', async () => {
    const html = await (await t.request('/', { headers: { accept: 'text/html' } })).text();
    const js = /src="([^"]+\.js)"/.exec(html)![1]!;
    const css = /href="([^"]+\.css)"/.exec(html)![1]!;
    const plain = await t.request(js);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const source = await plain.text();
    const gz = await t.request(js, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toMatch(/accept-encoding/i);
    expect((await t.request(css)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(source.length).toBeGreaterThan(1000);
    for (const bad of ['/explorer/assets/app.js', '/explorer/assets/..%2Fpackage.json', '/explorer/assets/app-AAAAAAAA.js', '/explorer/assets/index.html']) {
      const res = await t.request(bad);
      expect(res.status, bad).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
  });

  it('the JavaScript shipped is within 150 KB gzipped', () => {
    const dir = path.join(webDir, 'assets');
    const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/src="\/explorer\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(1);
    // Every script the page loads (one bundle, no lazy chunks today): gzip them here, at level 9.
    const jsFiles = readdirSync(dir).filter((f) => scripts.includes(f));
    const gzipped = jsFiles.reduce((n, f) => n + gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
    console.info(`explorer JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(150 * 1024);
  });
});

// The web target's codegen drift is checked with the REST one in test/graphql/schema-drift.test.ts.

// The bundle's server serving the explorer from dist/web (page, CSP, an immutable asset, JSON
// for API clients): test/shipped/product.test.ts, on the server it already starts.
