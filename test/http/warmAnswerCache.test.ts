// Warm catalog GETs are replayed from memory, in front of the middleware chain, without
// touching the database; the key follows the resolved release, so a newly imported
// release is never hidden.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { importRelease } from '../../src/importer/import.ts';
import { listen } from '../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ fixtures: [miniSpec('1.0')] });
});
afterAll(async () => {
  await t?.cleanup();
});

describe('warm answer cache (WarmAnswerCache)', () => {
  it('answers a repeated GET without SQL, with the same body, ETag and release header', async () => {
    const first = await t.request('/codes/10047700?synonymsLimit=2');
    const body = await first.text();
    expect(t.queries.length).toBeGreaterThan(0);
    t.queries.length = 0;
    const again = await t.request('/codes/10047700?synonymsLimit=2');
    expect(await again.text()).toBe(body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('x-terminology-version')).toBe('1.0');
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    // Only the release list (for the key) may be read; no hierarchy or concept query.
    expect(t.queries.filter((q) => !q.includes('"release"'))).toEqual([]);
    // Parameter order does not matter.
    await t.request('/codes/10047700?synonymsLimit=2&synonymsPage=1');
    t.queries.length = 0;
    await t.request('/codes/10047700?synonymsPage=1&synonymsLimit=2');
    expect(t.queries.filter((q) => q.includes('concept'))).toEqual([]);
  });

  it('errors are never cached, and If-None-Match still answers 304', async () => {
    expect((await t.request('/codes/99999999')).status).toBe(404);
    const tag = (await t.request('/versions')).headers.get('etag')!;
    expect((await t.request('/versions', { headers: { 'If-None-Match': tag } })).status).toBe(304);
  });

  it('replays every header of the original answer but the request id, over real HTTP', async () => {
    const { url, close } = await listen(t.app);
    try {
      const first = await fetch(`${url}/codes/10028813`);
      const body = new Uint8Array(await first.arrayBuffer());
      t.queries.length = 0;
      const again = await fetch(`${url}/codes/10028813`, { headers: { 'X-Request-Id': 'trace-0123456789' } });
      expect(new Uint8Array(await again.arrayBuffer())).toEqual(body);
      expect(t.queries.filter((q) => q.includes('concept'))).toEqual([]);
      const strip = (h: Headers) => [...h.entries()].filter(([k]) => !['x-request-id', 'date', 'keep-alive', 'connection'].includes(k));
      expect(strip(again.headers)).toEqual(strip(first.headers));
      expect(again.headers.get('content-length')).toBe(String(body.byteLength));
      expect(again.headers.get('x-request-id')).toBe('trace-0123456789');
      for (const h of ['x-content-type-options', 'x-api-version', 'etag', 'x-terminology-version']) expect(again.headers.get(h), h).not.toBeNull();
    } finally {
      await close();
    }
  });

  it('answers If-None-Match from the warm answer (304, no SQL) and leaves unusual requests to the chain', async () => {
    const first = await t.request('/codes/10012735');
    const tag = first.headers.get('etag')!;
    t.queries.length = 0;
    const revalidated = await t.request('/codes/10012735', { headers: { 'If-None-Match': tag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(tag);
    expect(await revalidated.text()).toBe('');
    expect((await t.request('/codes/10012735', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    expect(t.queries.filter((q) => q.includes('concept'))).toEqual([]);
    // An X-API-Version is checked by the chain even when the URL is cached.
    const bad = await t.request('/codes/10012735', { headers: { 'X-API-Version': '2' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe('VALIDATION_ERROR');
  });

  it('a newly imported latest release is served at once', async () => {
    const before = await (await t.request('/codes/10047700')).json();
    expect(before.version).toBe('1.0');
    const spec = miniSpec('2.0');
    spec.pts[0]![1] = 'Vomiting (renamed)';
    await importRelease(t.db, writeFixture(spec));
    const after = await (await t.request('/codes/10047700')).json();
    expect(after).toMatchObject({ version: '2.0', term: 'Vomiting (renamed)' });
    expect((await (await t.request('/codes/10047700?version=1.0')).json()).term).toBe('Vomiting');
  });
});

describe('RESPONSE_CACHE_MB', () => {
  it('0 turns the replay off: every repeated GET is executed again', async () => {
    // An app of its own over the same database: the setting differs, not the data.
    const off = await createTestApp({ over: t, env: { RESPONSE_CACHE_MB: '0' } });
    try {
      expect(off.app.warmAnswers).toBeUndefined();
      const first = await off.request('/codes/10047700');
      off.queries.length = 0;
      const again = await off.request('/codes/10047700');
      expect(await again.text()).toBe(await first.text());
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      // Executed: the concept is read again (this fixture's release has no in-memory index).
      expect(off.queries.filter((q) => q.includes('concept')).length).toBeGreaterThan(0);
    } finally {
      await off.cleanup();
    }
  });
});
