// A GraphQL answer holding a long list is written a slice of it at a time (src/graphql/largeResults.ts)
// through real HTTP: the same JSON text, status and headers as Yoga's one-piece answer, for
// every Accept the negotiation reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listen } from '../helpers/http.ts';

let t: TestApp;
let server: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

// Known, unknown, malformed, non-current, SOC-level and renamed items, over and over: 600 is more than one slice (250).
const MIXED = ['10047848', { code: '90300310', term: 'Runs' }, { code: '10047848', term: 'Watering eyes' }, '99999999', '10043649', '10017947', 'abc'];
const list = (n: number) => Array.from({ length: n }, (_, i) => MIXED[i % MIXED.length]!);
const asInput = (items: unknown[]) => items.map((i) => (typeof i === 'string' ? { code: i } : i));

// The REST operation's selection, in its order (src/rest/operations/CodeLists.graphql): the items compare field for field.
const QUERY = `query($c: [CodeListItemInput!]!) { validateCodes(codes: $c, version: "5.0.1") { version summary { items valid unknown nonCurrent termMismatches multiaxial }
  items { position code recordedTerm exists level term current termMatches pt { code term level } primaryPath { code term level } pathCount multiaxial issues } } }`;

async function graphql(items: unknown[], accept?: string) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
    body: JSON.stringify({ query: QUERY, variables: { c: asInput(items) } }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('GraphQL answers with a long list', () => {
  it('are written in slices: the JSON text Yoga would write, the REST answer’s items', async () => {
    const long = await graphql(list(600));
    expect(long.status).toBe(200);
    // Written as a stream (no length known up front), where a short answer has its length.
    expect(long.headers.get('content-length')).toBeNull();
    expect((await graphql(list(3))).headers.get('content-length')).not.toBeNull();
    // Compact JSON as JSON.stringify writes it (parsed and written again, the same text).
    expect(long.text).toBe(JSON.stringify(JSON.parse(long.text)));
    const answer = JSON.parse(long.text);
    expect(Object.keys(answer)).toEqual(['data']);
    const validation = answer.data.validateCodes;
    expect(validation.items).toHaveLength(600);
    expect(validation.summary).toEqual({ items: 600, valid: 172, unknown: 171, nonCurrent: 86, termMismatches: 86, multiaxial: 86 });
    const rest = await fetch(`${server.url}/codes/validate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ version: '5.0.1', codes: list(600) }) });
    expect(validation).toEqual(await rest.json());
  });

  it.each([undefined, '*/*', 'application/json', 'application/graphql-response+json', 'application/json, application/graphql-response+json', 'application/graphql-response+json;q=0.9, application/json', 'text/html, */*'])(
    'Accept %s: the status and headers of the one-piece answer',
    async (accept) => {
      const [long, short] = [await graphql(list(600), accept), await graphql(list(3), accept)];
      expect(long.status).toBe(short.status);
      expect(long.headers.get('content-type')).toBe(short.headers.get('content-type'));
      expect(long.headers.get('x-terminology-version')).toBe('5.0.1');
      expect(short.headers.get('x-terminology-version')).toBe('5.0.1');
    },
  );
});
