// /openapi.json is generated from the route definitions and describes every endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { miniSpec } from '../helpers/medascii.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ fixtures: [miniSpec('1.0')] });
});
afterAll(async () => {
  await t?.cleanup();
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with every documented endpoint, its parameters and the error object', async () => {
    const { status, body: doc } = await t.json('/openapi.json');
    expect(status).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    // The FHIR endpoints are listed too; test/fhir checks them.
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/fhir/')).sort()).toEqual(
      ['/classify', '/codes', '/codes/{code}', '/codes/{code}/changes', '/identify', '/labels/classify', '/versions', '/versions/{toVersionId}/changes',
        '/smqs', '/smqs/{code}', '/smqs/{code}/apply', '/versions/{toVersionId}/smq-changes', '/impact', '/codes/validate', '/codes/analyse'].sort(),
    );
    const names = (path: string, method = 'get') => (doc.paths[path][method].parameters ?? []).map((p: { name: string }) => p.name).sort();
    expect(names('/codes')).toEqual(['changeType', 'hlgt', 'hlt', 'lang', 'level', 'limit', 'llt', 'page', 'q', 'soc', 'version']);
    expect(names('/codes/{code}')).toEqual(['code', 'lang', 'synonymsLimit', 'synonymsPage', 'version']);
    expect(names('/codes/{code}/changes')).toEqual(['against', 'code', 'lang', 'version']);
    expect(names('/versions/{toVersionId}/changes')).toEqual(['changeType', 'fromVersionId', 'hlgt', 'hlt', 'lang', 'level', 'limit', 'llt', 'page', 'soc', 'toVersionId']);
    expect(doc.paths['/classify'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(doc.paths['/classify'].post.security).toEqual([{ apiKey: [] }]);
    // The safety-data workflows: impact takes JSON or a CSV upload and answers JSON or CSV.
    expect(Object.keys(doc.paths['/impact'].post.requestBody.content).sort()).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(doc.paths['/impact'].post.responses['200'].content).sort()).toEqual(['application/json', 'text/csv']);
    expect(doc.paths['/impact'].post.security).toEqual([{ apiKey: [] }]);
    expect(names('/impact', 'post')).toEqual(['format', 'from', 'impactedOnly', 'lang', 'to', 'validateOnly']);
    expect(doc.paths['/codes/validate'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(doc.paths['/codes/analyse'].post.responses['200']).toBeDefined();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.schemas.Problem.properties).toHaveProperty('requestId');
    expect(doc.paths['/codes/{code}'].get.responses['404']).toBeDefined();
    // Uploads of coded rows refuse other media types with 415 (src/http/routers/codedData.ts).
    for (const path of ['/impact', '/smqs/{code}/apply']) expect(doc.paths[path].post.responses['415'], path).toBeDefined();
  });

  it('changes only on purpose: the whole document, key order included, is kept beside this test', async () => {
    // The app is assembled from routers (src/http/routers/) whose registries merge on mounting;
    // a regrouping must not move or drop anything. After a deliberate change: npx vitest run -u.
    const { body: doc } = await t.json('/openapi.json');
    await expect(`${JSON.stringify(doc, null, 2)}\n`).toMatchFileSnapshot('./openapi.snapshot.json');
  });
});
