// One narrative never freezes the server: the shipped CLI (the bundle, and the sources through
// tsx) codes narratives on worker threads, so liveness and catalog reads keep answering while
// a long label is coded; pathological one-word descriptions answer at once; a task over its
// time budget answers TIMEOUT and a full queue SERVICE_UNAVAILABLE, both with Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, withStoreDb } from '../helpers/cli.ts';
import { createApiKey } from '../../src/domain/apiKeys.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';

interface Narrative {
  server: ServerProcess;
  key: string;
}

/** A fresh store with an API key (made in this process: test/cli/keys.test.ts runs `keys create`), then `terminology serve` on it. */
async function startWithKey(env: Record<string, string>): Promise<Narrative> {
  const fresh = await freshStore('demo');
  const { key } = await withStoreDb(fresh, (db) => createApiKey(db.prisma, 'pool'));
  const store = { TERMINOLOGY_DATA_DIR: fresh.dataDir!, TERMINOLOGY_REPORT_LOADER: '1', RATE_LIMIT_PER_MINUTE: '0', AI_RATE_LIMIT_PER_MINUTE: '0' };
  const server = await startServerProcess({ ...store, SEARCH_INDEX_WARM_DELAY_MS: '-1', ...env });
  return { server, key };
}

function post(n: Narrative, route: string, body: unknown): Promise<Response> {
  return fetch(n.server.url + route, { method: 'POST', headers: { 'X-API-Key': n.key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t };
}

/** A legitimate, long product label (~600 KB): seconds of coding work. */
// Each section also names three words of its own that no vocabulary holds (letters from its
// number): the engine remembers what it has looked up, so a label repeating one section would
// cost little after the first and no longer keep a worker busy.
const oddWord = (n: number) => Array.from({ length: 8 }, (_, k) => String.fromCharCode(97 + ((n * 7 + k * 11 + Math.floor(n / (k + 1))) % 26))).join('');
const LONG_LABEL = Array.from(
  { length: 3_000 }, // ≈ 900 KB: under MAX_LABEL (1,000,000 characters) and the default body limit
  (_, i) =>
    `ADVERSE REACTIONS\n${i + 1}.1 Clinical Trials Experience\nThe most common adverse reactions (incidence of at least 5%) were nausea, vomiting, ` +
    `diarrhea, headache, dizziness, fatigue and rash; also ${oddWord(3 * i)}, ${oddWord(3 * i + 1)} and ${oddWord(3 * i + 2)}. ` +
    'Serious hepatotoxicity and myocardial infarction were reported; no cases of seizure occurred.\n\n',
).join('');

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

describe('coding engine on worker threads (bundled CLI)', () => {
  let n: Narrative;
  beforeAll(async () => {
    // The shipped command runs the bundle only while it is newer than the sources (the test
    // run's global setup has just built it).
    n = await startWithKey({ NLP_WORKERS: '2', NLP_MAX_QUEUE: '0', NLP_TIMEOUT_MS: '60000' });
    expect(n.server.logs()).toContain('running dist/cli.mjs');
    // The release's vocabulary is loaded and built on first use; measured apart.
    const first = await timed(() => post(n, '/classify', { description: 'vomiting' }));
    expect(first.value.status).toBe(200);
    console.log(`first narrative request (vocabulary load and build): ${Math.round(first.ms)} ms`);
  }, 120_000);
  afterAll(async () => {
    await n?.server.stop();
  });

  it('answers a 100k-character one-word description and an 80k one-word label at once', async () => {
    for (const [route, size] of [['/classify', 100_000], ['/labels/classify', 80_000]] as const) {
      const r = await timed(() => post(n, route, { description: 'x'.repeat(size) }));
      expect(r.value.status).toBe(200);
      const body = (await r.value.json()) as { results: { terminologyCodes: unknown[] } };
      expect(body.results.terminologyCodes).toEqual([]);
      expect(r.ms).toBeLessThan(2_000);
    }
  });

  it('keeps /health/live and GET /versions fast while a long label is coded', async () => {
    await fetch(n.server.url + '/versions');
    // The same probes first with nothing running: the suite shares the machine with other
    // files, so the bound is relative to what a probe costs right now, not an absolute figure.
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) idle.push((await timed(() => fetch(n.server.url + '/health/live'))).ms);
    let done = false;
    const heavy = timed(() => post(n, '/labels/classify', { description: LONG_LABEL })).finally(() => (done = true));
    const live: number[] = [];
    const versions: number[] = [];
    while (!done) {
      const a = await timed(() => fetch(n.server.url + '/health/live'));
      expect(a.value.status).toBe(200);
      live.push(a.ms);
      const b = await timed(() => fetch(n.server.url + '/versions'));
      expect(b.value.status).toBe(200);
      versions.push(b.ms);
      await new Promise((r) => setTimeout(r, 20));
    }
    const h = await heavy;
    expect(h.value.status).toBe(200);
    expect(((await h.value.json()) as { results: { terminologyCodes: unknown[] } }).results.terminologyCodes.length).toBeGreaterThan(3);
    console.log(`label ${Math.round(h.ms)} ms; ${live.length} probes, p99 live ${Math.round(p99(live))} ms, versions ${Math.round(p99(versions))} ms`);
    // The label kept a worker busy long enough for the probes to mean something (the engine
    // codes ~1 MB in about half a second since issue 18: the bounds below are relative to it).
    expect(h.ms).toBeGreaterThan(300);
    expect(live.length).toBeGreaterThan(10);
    // Blocked, a probe waited for the whole label (seconds). The residue is the request's own
    // main-thread work (body parsing, the codes' hierarchy) on a shared two-core machine.
    const bound = Math.max(150, 5 * p99(idle));
    expect(bound).toBeLessThan(h.ms / 2);
    expect(p99(live)).toBeLessThan(bound);
    expect(p99(versions)).toBeLessThan(bound);
  }, 90_000);

  it('refuses at once with 503 SERVICE_UNAVAILABLE and Retry-After when every worker is busy', async () => {
    // Three long labels at once on two workers with no queue: one is refused at once.
    const all = await Promise.all([1, 2, 3].map(() => timed(() => post(n, '/labels/classify', { description: LONG_LABEL }))));
    const refused = all.filter((r) => r.value.status === 503);
    const coded = all.filter((r) => r.value.status === 200);
    expect(refused).toHaveLength(1);
    expect(coded).toHaveLength(2);
    const r = refused[0]!;
    expect(r.value.headers.get('retry-after')).toBe('1');
    const body = (await r.value.json()) as { code: string; type: string; requestId: string };
    expect(body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', type: '/problems/service-unavailable' });
    expect(body.requestId).toBeTruthy();
    expect(r.ms).toBeLessThan(Math.min(...coded.map((c) => c.ms)) / 2);
  }, 90_000);

  it('stops on SIGTERM with its workers (exit 0)', async () => {
    expect(await n.server.stop()).toBe(0);
    expect(n.server.logs()).toContain('"msg":"stopped"');
  }, 30_000);
});

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
