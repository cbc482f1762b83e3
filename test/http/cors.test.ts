// CORS defaults (issue 27, defect 11): with CORS_ORIGINS=* (the default) any page may read the
// public catalog, but no page on another origin may send an API key — the preflight leaves
// X-API-Key out, so a browser never sends it cross-site and keyed routes stay same-origin.
// Origins named in CORS_ORIGINS may send it.
import { describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';

let base: string;
serveTestApp((_t, url) => {
  base = url;
}, { readOnly: true });

const preflight = (origin: string, path = '/identify') =>
  fetch(`${base}${path}`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type' } });

describe('CORS by default', () => {
  it('lets any page read the catalog', async () => {
    const res = await fetch(`${base}/versions`, { headers: { Origin: 'https://any.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const pre = await preflight('https://any.example', '/graphql');
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });

  it('lets no page on another origin send an API key', async () => {
    for (const path of ['/identify', '/impact', '/graphql']) {
      const pre = await preflight('https://evil.example', path);
      expect(pre.headers.get('access-control-allow-headers')?.toLowerCase() ?? '', path).not.toContain('x-api-key');
    }
  });
});
