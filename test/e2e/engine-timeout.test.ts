// A coding task over its time budget answers TIMEOUT (503, Retry-After) on REST and GraphQL
// alike, and its worker is replaced — on the shipped CLI run from the sources through tsx, whose
// workers start from the sources too. Split from test/e2e/engine-pool.test.ts, which runs alone
// because it measures probe latency: here the budget is the server's own clock, and the one bound
// (the refusal within 3 s of a 300 ms budget) leaves room for another file on the other core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_LABEL, post, startWithKey, timed, type Narrative } from '../helpers/narrativeServer.ts';

describe('coding engine time budget (sources through tsx)', () => {
  let n: Narrative;
  beforeAll(async () => {
    n = await startWithKey({ TERMINOLOGY_NO_BUNDLE: '1', NLP_WORKERS: '1', NLP_TIMEOUT_MS: '300' });
    expect(n.server.logs()).toContain('running src through tsx');
  }, 120_000);
  afterAll(async () => {
    await n?.server.stop();
  });

  it('codes a narrative on a worker started from the sources (its vocabulary build is not counted)', async () => {
    const r = await post(n, '/classify', { description: 'The patient vomited twice.' });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { results: { terminologyCodes: { value: { term: string } }[] } };
    expect(body.results.terminologyCodes[0]?.value.term).toBe('Vomiting');
  }, 60_000);

  it('answers 503 TIMEOUT past the budget, on REST and GraphQL alike, and the next request is served', async () => {
    const rest = await timed(() => post(n, '/labels/classify', { description: LONG_LABEL }));
    expect(rest.value.status).toBe(503);
    expect(rest.value.headers.get('retry-after')).toBe('1');
    expect(rest.value.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await rest.value.json()) as { code: string; type: string; status: number; retryAfter: number };
    expect(problem).toMatchObject({ code: 'TIMEOUT', type: '/problems/timeout', status: 503, retryAfter: 1 });
    expect(rest.ms).toBeLessThan(3_000);

    const gql = await fetch(n.server.url + '/graphql', {
      method: 'POST',
      headers: { 'X-API-Key': n.key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query($d: String!) { classifyLabel(input: { description: $d }) { requestId } }', variables: { d: LONG_LABEL } }),
    });
    const result = (await gql.json()) as { errors: { extensions: { code: string; status: number } }[] };
    expect(result.errors[0]!.extensions).toMatchObject({ code: 'TIMEOUT', status: 503 });

    // The aborted worker was replaced: a short narrative is coded again.
    const after = await post(n, '/classify', { description: 'headache' });
    expect(after.status).toBe(200);
  }, 60_000);
});
