// Warm catalog GETs are replayed from memory without touching the database; the key
// follows the resolved release, so a newly imported release is never hidden.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { importRelease } from '../../src/importer/import.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ fixtures: [miniSpec('1.0')] });
});
afterAll(async () => {
  await t?.cleanup();
});

describe('response cache', () => {
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
