// Issue 28: every name-bearing REST route takes `lang` (and Accept-Language) and says which
// language its names are in (Content-Language, Vary: Accept-Language); every GraphQL root field
// that returns names takes `language`. The routes and fields are enumerated from /openapi.json
// and from introspection: a new one without language support — or without a sample request
// here — fails this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(); // the demo releases: en (primary), de, ja
  key = (await createApiKey(t.db.prisma, 'language-coverage')).key;
});
afterAll(async () => {
  await t?.cleanup();
});

/** Routes that return no names, and why. */
const NO_NAMES: Record<string, string> = {
  'GET /versions': 'releases only: each lists its languages, no concept names',
};
/** Routes that take lang (checked: LANGUAGE_NOT_FOUND) but whose answers hold no names: no Content-Language. */
const LANG_WITHOUT_NAMES: Record<string, string> = {
  'POST /identify': 'events are spans of the narrative, no terminology names',
};
/** GraphQL root fields without `language`, and why. */
const NO_LANGUAGE_ARG: Record<string, string> = {
  versions: 'releases only (no concept names)',
  version: 'a release; its name-bearing fields (changes, smqChanges) take language themselves',
  node: 'Relay refetch by global id: names follow Accept-Language',
  nodes: 'Relay refetch by global id: names follow Accept-Language',
};

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
/** One request per route (path with its query, and init); the query is extended with lang. */
const samples = (): Record<string, [string, RequestInit?]> => ({
  'GET /codes': ['/codes?q=nausea'],
  'GET /codes/{code}': ['/codes/10028813'],
  'GET /codes/{code}/changes': ['/codes/10028813/changes?against=5.0'],
  'GET /versions/{toVersionId}/changes': ['/versions/5.0.1/changes'],
  'GET /smqs': ['/smqs'],
  'GET /smqs/{code}': ['/smqs/90500001'],
  'GET /versions/{toVersionId}/smq-changes': ['/versions/5.0.1/smq-changes'],
  'POST /smqs/{code}/apply': ['/smqs/90500005/apply', json({ rows: [{ rowId: '1', code: '10002218' }] })],
  'POST /impact': ['/impact', json({ from: '5.0', to: '5.0.1', rows: [{ rowId: '1', code: '10028813' }] })],
  'POST /codes/validate': ['/codes/validate', json({ codes: ['10028813'] })],
  'POST /codes/analyse': ['/codes/analyse', json({ codes: ['10028813'] })],
  'POST /identify': ['/identify', json({ description: 'The patient had nausea and a headache after the first dose.' })],
  'POST /classify': ['/classify', json({ description: 'Severe nausea after the first dose.' })],
  'POST /labels/classify': ['/labels/classify', json({ description: 'Adverse reactions: nausea, vomiting and headache were reported in clinical trials.' })],
});

async function routes(): Promise<string[]> {
  const doc = (await t.json('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path]) => !path.startsWith('/fhir/')) // FHIR: displayLanguage (test/rest/languageChanges.test.ts)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
}

describe('every name-bearing REST route', () => {
  it('documents lang in /openapi.json', async () => {
    const doc = (await t.json('/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    const missing = (await routes())
      .filter((r) => !(r in NO_NAMES))
      .filter((r) => {
        const [method, path] = r.split(' ') as [string, string];
        return !(doc.paths[path]![method.toLowerCase()]!.parameters ?? []).some((p) => p.in === 'query' && p.name === 'lang');
      });
    expect(missing).toEqual([]);
  });

  it('answers in the language of lang, else of Accept-Language, with Content-Language and Vary: Accept-Language', async () => {
    const SAMPLES = samples();
    const all = (await routes()).filter((r) => !(r in NO_NAMES));
    expect(all.filter((r) => !(r in SAMPLES))).toEqual([]);
    for (const r of all) {
      const [path, init] = SAMPLES[r]!;
      const withLang = (lang: string) => `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
      const byQuery = await t.json(withLang('ja'), { ...init, headers: { ...(init?.headers as Record<string, string>), 'accept-language': 'de' } });
      expect([r, byQuery.status]).toEqual([r, 200]);
      if (r in LANG_WITHOUT_NAMES) {
        expect([r, byQuery.headers.get('content-language')]).toEqual([r, null]);
        expect([r, (await t.json(withLang('fr'), init)).body.code]).toEqual([r, 'LANGUAGE_NOT_FOUND']);
        continue;
      }
      expect([r, byQuery.headers.get('content-language')]).toEqual([r, 'ja']);
      expect([r, byQuery.headers.get('vary') ?? '']).toEqual([r, expect.stringMatching(/Accept-Language/)]);
      const byHeader = await t.json(path, { ...init, headers: { ...(init?.headers as Record<string, string>), 'accept-language': 'de-DE;q=0.9, fr' } });
      expect([r, byHeader.headers.get('content-language')]).toEqual([r, 'de']);
      const notHosted = await t.json(withLang('fr'), init);
      expect([r, notHosted.status, notHosted.body.code]).toEqual([r, 404, 'LANGUAGE_NOT_FOUND']);
    }
  });
});

describe('every GraphQL root field that returns names', () => {
  it('takes a language argument', async () => {
    const r = await t.graphql('{ __schema { queryType { fields { name args { name } } } } }');
    const fields = r.body.data.__schema.queryType.fields as { name: string; args: { name: string }[] }[];
    const missing = fields.filter((f) => !(f.name in NO_LANGUAGE_ARG) && !f.args.some((a) => a.name === 'language')).map((f) => f.name);
    expect(missing).toEqual([]);
    // The exemptions still exist (a stale entry would hide a renamed field).
    for (const name of Object.keys(NO_LANGUAGE_ARG)) expect(fields.map((f) => f.name)).toContain(name);
  });
});
