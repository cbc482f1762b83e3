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
    for (const p of ['/identify', '/classify', '/labels/classify']) {
      await fetch(`${server.url}${p}`, { method: 'POST', headers, body: JSON.stringify({ description: `Patient reported ${TEXT} after dosing.` }) });
    }
    await new Promise((r) => setTimeout(r, 300));
    const logs = server.logs();
    expect(logs).toContain('"msg":"request"');
    expect(logs).not.toContain(KEY);
    expect(logs).not.toContain(KEY.slice(3, 20));
    expect(logs).not.toContain(TEXT);
  }, 60_000);
});
