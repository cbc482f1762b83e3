// No secret, key or free text in logs: a server at debug level is sent API keys,
// search text and GraphQL variables carrying sentinels; its logs must contain none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';
import { freshStore } from '../helpers/cli.ts';

const KEY = 'sk-LOGSENTINELkey0123456789abcdefghijklmnop';
const TEXT = 'zanzibarnarrativesentinel';
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({ ...(await freshStore('demo')).env, LOG_LEVEL: 'debug' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('log hygiene', () => {
  it('keeps keys and free text out of the logs at debug level', async () => {
    const headers = { 'X-API-Key': KEY, 'content-type': 'application/json', Authorization: `Bearer ${KEY}` };
    await fetch(`${server.url}/codes?q=${TEXT}`, { headers });
    await fetch(`${server.url}/codes/${TEXT}`, { headers });
    await fetch(`${server.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: 'query($q: String) { codes(q: $q) { totalCount } }', variables: { q: TEXT } }) });
    await fetch(`${server.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: `{ codes(q: "${TEXT}") { totalCount } }` }) });
    await fetch(`${server.url}/graphql`, { method: 'POST', headers, body: `{"query": "${TEXT}` });
    // GraphQL client errors whose messages quote the client's text: an unknown field, a bad
    // variable value, an unknown release (argument and header), a syntax error, a REST release.
    const gql = (query: string, variables?: unknown, extra: Record<string, string> = {}) =>
      fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify({ query, variables }) });
    await gql(`{ versions { ${TEXT} } }`);
    await gql('query($n: Int) { versions(first: $n) { totalCount } }', { n: TEXT });
    await gql(`{ version(version: "${TEXT}") { version } }`);
    await gql('{ version { version } }', undefined, { 'X-Terminology-Version': TEXT });
    await gql(`{ codes(q: "x") { ${TEXT}( } }`);
    await gql(`{ identify(description: "${TEXT}", version: "${TEXT}") { version } }`);
    await fetch(`${server.url}/codes?q=x&version=${TEXT}`, { headers });
    for (const p of ['/identify', '/classify', '/labels/classify']) {
      await fetch(`${server.url}${p}`, { method: 'POST', headers, body: JSON.stringify({ description: `Patient reported ${TEXT} after dosing.` }) });
    }
    await new Promise((r) => setTimeout(r, 300));
    const logs = server.logs();
    expect(logs).toContain('"msg":"request"');
    expect(logs).not.toContain(KEY);
    expect(logs).not.toContain(KEY.slice(3, 20));
    expect(logs).not.toContain(TEXT);
    // Client mistakes are not the server's faults: nothing at error level, and each
    // GraphQL answer with errors is one info line naming its codes and request id.
    const lines = logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const graphqlErrors = lines.filter((l) => l.msg === 'GraphQL answer with client errors');
    expect(graphqlErrors.length).toBeGreaterThanOrEqual(6);
    for (const l of graphqlErrors) expect(l).toMatchObject({ level: 30, requestId: expect.any(String), codes: expect.any(Array) });
  }, 60_000);
});
