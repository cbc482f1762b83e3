import { it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';

async function lagOf(label: string, fn: () => Promise<unknown>) {
  let max = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 5);
    last = now;
  }, 5);
  const t0 = performance.now();
  await fn();
  max = Math.max(max, performance.now() - last - 5);
  clearInterval(timer);
  console.log(`${label}: ${(performance.now() - t0).toFixed(0)} ms, max block ${max.toFixed(0)} ms`);
}

it('lag', async () => {
  const t = await createTestApp();
  const key = (await createApiKey(t.db.prisma, 'k')).key;
  const codes = Array.from({ length: 10_000 }, (_, i) => ({ code: ['10047848', '90301218', '10028813', '1'][i % 4]!, term: 'Watering eyes' }));
  for (let k = 0; k < 1; k++) {
    await lagOf('validate 10k', async () => { const r = await t.request('/codes/validate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ codes }) }); console.log('resp', performance.now() - (globalThis as any).__T); return r.text(); });
    await lagOf('analyse 10k', async () => (await t.request('/codes/analyse', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ codes, allPaths: true }) })).text());
    await lagOf('gql validate 10k', async () => t.graphql('query($c: [CodeListItemInput!]!) { validateCodes(codes: $c) { summary { items } items { code exists level term pt { code term } primaryPath { code term level } issues } } }', { c: codes }));
    const csv = 'rowId,code,term\n' + Array.from({ length: 100_000 }, (_, i) => `r${i},${['10047848', '90301218', '10028813', '1'][i % 4]},Watering eyes`).join('\n');
    await lagOf('impact 100k csv', async () => (await t.request('/impact?from=5.0&to=5.0.1', { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key }, body: csv })).text());
    await lagOf('impact 100k validateOnly', async () => (await t.request('/impact?from=5.0&to=5.0.1&validateOnly=true', { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key }, body: csv })).text());
    const smqCsv = 'rowId,code,caseId\n' + Array.from({ length: 100_000 }, (_, i) => `r${i},${['10047848', '90301218', '10028813', '1'][i % 4]},c${i % 1000}`).join('\n');
    await lagOf('smq apply 100k', async () => (await t.request('/smqs/90500005/apply', { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': key }, body: smqCsv })).text());
  }
  await t.cleanup();
}, 300_000);
