// The shipped server (`terminology serve`, default configuration) against requests that are
// well-formed but costly (issue 27): each attack runs while a probe client polls GET /versions,
// and every attack must be answered or refused in the documented shape within 10 s; the server
// writes nothing but JSON log lines, none above info for a client's mistake.
//
// As in hostile.test.ts, the server trusts X-Forwarded-For from loopback and each request names
// its own client address, so the default 120/min limit does not turn the attacks into 429s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { Socket } from 'node:net';
import { usingPostgres } from '../helpers/db.ts';
import type { ServerProcess } from '../helpers/server.ts';
import { timedTurn, type Turn } from '../helpers/cpuWait.ts';
import { clientAddresses, startShippedWithKey, type ShippedWithKey } from '../helpers/shippedWithKey.ts';

let shipped: ShippedWithKey;
let server: ServerProcess;
let key = '';
/** A client address of its own for every request (see the header comment). */
const nextClient = clientAddresses();

beforeAll(async () => {
  shipped = await startShippedWithKey('hostile-cost');
  ({ server, key } = shipped);
}, 180_000);
afterAll(async () => {
  await shipped?.stop();
});

interface Answer {
  status: number;
  /** The body decoded on first read: an attack's multi-megabyte answers are decoded after the probe stops, not on its thread inside the window. */
  readonly text: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

function answer(status: number, body: Buffer, headers: http.IncomingHttpHeaders, ms: number): Answer {
  let text: string | undefined;
  return {
    status,
    headers,
    ms,
    get text() {
      return (text ??= body.toString('utf8'));
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** Sockets already given the no-op error listener below. */
const guarded = new WeakSet<Socket>();

/** `keepBytes`: keep only the answer's first bytes (an attack's reports of megabytes are read off the socket, not gathered on the probe's thread). */
function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; keepBytes?: number } = {}, via = agent): Promise<Answer> {
  const url = new URL(server.url);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: init.method ?? 'GET', agent: via, headers: { 'X-Forwarded-For': nextClient(), ...init.headers }, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (d: Buffer) => {
          if (kept >= (init.keepBytes ?? Infinity)) return;
          chunks.push(d);
          kept += d.length;
        });
        res.on('end', () => resolve(answer(res.statusCode!, Buffer.concat(chunks), res.headers, performance.now() - t0)));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${path.slice(0, 80)}`)));
    // The socket may fail after the answer (EPIPE writing the rest of a refused upload): the answer counts.
    // Once per socket: a kept-alive socket serves many requests (a listener each passed Node's limit of 10).
    req.on('socket', (socket) => {
      if (guarded.has(socket)) return;
      guarded.add(socket);
      socket.on('error', () => undefined);
    });
    // A server that answers before the upload ends may reset the connection: what it sent is still read above.
    req.on('error', (e) => reject(new Error(`${e.message} (${init.method ?? 'GET'} ${path.slice(0, 80)})`)));
    req.end(init.body);
  });
}

const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(path, { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': key, ...headers }, body: JSON.stringify(body) });
const csv = (path: string, body: string | Buffer, keepBytes?: number) => send(path, { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': key }, body, keepBytes });

/** A probe's turns, each as seen and less the CPU wait meanwhile (test/helpers/cpuWait.ts), sorted. */
interface Probed {
  seen: number[];
  own: number[];
  /** The turn with the longest own time: how long the serving thread ran in it, and each thread's CPU wait (what a failure needs to be read). */
  worst?: Turn<unknown>;
}

/** Runs `attack` while a probe polls GET /versions; the probe's turns. */
async function underProbe(attack: () => Promise<void>): Promise<Probed> {
  const seen: number[] = [];
  const own: number[] = [];
  let worst: Turn<unknown> | undefined;
  let done = false;
  const probe = (async () => {
    while (!done) {
      const turn = await timedTurn(server.serverPid, () => send('/versions', {}, probeAgent));
      seen.push(turn.seenMs);
      own.push(turn.ownMs);
      if (!worst || turn.ownMs > worst.ownMs) worst = turn;
      expect(turn.value.status).toBe(200);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  try {
    await attack();
  } finally {
    done = true;
    await probe;
  }
  const byValue = (a: number, b: number) => a - b;
  return { seen: seen.sort(byValue), own: own.sort(byValue), worst };
}

const quantile = (l: number[], q: number) => l[Math.min(l.length - 1, Math.floor(q * l.length))] ?? 0;

/**
 * The probe's targets while an attack runs: p99 ≤ 100 ms and max ≤ 500 ms, on each turn less the
 * time the server's serving thread (or this client's) waited for a CPU meanwhile — on a host shared
 * with other work that wait, not the server's, makes the long turns (the rule of
 * uploads-probe.test.ts; bench/results.md). As in hostile.test.ts, a bound is four times the probe's
 * own idle figure when that is higher. The turn as seen is reported beside it and held to ≤ 2 s, so a
 * stall the wait would excuse cannot grow unseen. Each database's pass runs this file alone, after
 * every other file of the suite (vitest.config.ts ALONE).
 */
const PROBE_P99_MS = 100;
const PROBE_MAX_MS = 500;
const SEEN_MAX_MS = 2_000;
let idle = { p99: 0, max: 0 };
function checkProbe(label: string, probed: Probed) {
  const { own, seen, worst } = probed;
  const p99 = quantile(own, 0.99);
  const max = quantile(own, 1);
  const anatomy = worst ? `; longest turn: serving thread ran ${worst.runMs[0].toFixed(0)} ms, waited ${worst.waitMs[0].toFixed(0)} ms for a CPU, the probe's thread ran ${worst.runMs[1].toFixed(0)} ms and waited ${worst.waitMs[1].toFixed(0)} ms` : '';
  const figures = `${label}: probe ${own.length} requests, less the CPU wait p99 ${p99.toFixed(0)} ms, max ${max.toFixed(0)} ms (as seen: p99 ${quantile(seen, 0.99).toFixed(0)}, max ${quantile(seen, 1).toFixed(0)} ms${anatomy})`;
  results.push(figures);
  expect(own.length).toBeGreaterThan(0);
  expect(p99, `probe p99: ${figures}`).toBeLessThanOrEqual(Math.max(PROBE_P99_MS, 4 * idle.p99));
  expect(max, `probe max: ${figures}`).toBeLessThanOrEqual(Math.max(PROBE_MAX_MS, 4 * idle.max));
  expect(quantile(seen, 1), `max as seen: ${figures}`).toBeLessThanOrEqual(SEEN_MAX_MS);
}

/** The documented shapes: a problem JSON, or GraphQL errors with code, status and requestId. */
function expectDocumented(a: Answer, status: number, code: string) {
  expect(a.ms, `${status} ${code} took ${a.ms.toFixed(0)} ms`).toBeLessThan(10_000);
  const body = JSON.parse(a.text);
  if (Array.isArray(body.errors)) expect(body.errors[0].extensions, a.text.slice(0, 300)).toMatchObject({ code, status, requestId: expect.any(String) });
  else expect(body, a.text.slice(0, 300)).toMatchObject({ code, status, requestId: expect.any(String) });
  if (status === 503) expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
}

const CODES = ['10047848', '90301218', '10028813', '10043649', '1'];
const codeList = (n: number) => Array.from({ length: n }, (_, i) => ({ code: CODES[i % CODES.length]!, term: 'Watering eyes' }));
const results: string[] = [];

describe('the shipped server under costly requests', () => {
  it('probe baseline', async () => {
    // Warmed first: the first answers compile the route (JIT, caches), and a slow one would
    // raise the idle figure, and with it the 4× bound, for every attack below.
    for (let k = 0; k < 20; k++) await send('/versions', {}, probeAgent);
    // GraphQL's first answers compile its parse, validation and refusal paths (a slow host's first
    // hostile document ran one 106 ms turn cold, 53 ms warm): warmed with small documents, so an
    // attack below is measured for what it costs, not for the process's first GraphQL request.
    const small = Array.from({ length: 2 }, (_, i) => `a${i}: validateCodes(codes: $c) { summary { items } }`).join(' ');
    for (let k = 0; k < 3; k++) {
      expect((await json('/graphql', { query: '{ versions { totalCount } }' })).status).toBe(200);
      expectDocumented(await json('/graphql', { query: `query($c: [CodeListItemInput!]!) { ${small} }`, variables: { c: codeList(2) } }), 400, 'VALIDATION_ERROR');
    }
    const l: number[] = [];
    for (let k = 0; k < 50; k++) l.push((await timedTurn(server.serverPid, () => send('/versions', {}, probeAgent))).ownMs);
    l.sort((a, b) => a - b);
    idle = { p99: quantile(l, 0.99), max: quantile(l, 1) };
  });

  it('GraphQL: aliases of coded-data fields, forms, mutations and JSON literals are refused at once; the logs stay JSON', async () => {
    const c = codeList(10_000);
    const aliases = Array.from({ length: 10 }, (_, i) => `a${i}: validateCodes(codes: $c) { summary { items } items { code exists pt { code } } }`).join(' ');
    const latencies = await underProbe(async () => {
      for (let k = 0; k < 3; k++) expectDocumented(await json('/graphql', { query: `query($c: [CodeListItemInput!]!) { ${aliases} }`, variables: { c } }), 400, 'VALIDATION_ERROR');
      const form = await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `query=${encodeURIComponent('{ versions { totalCount } }')}` });
      expect(form.status).toBe(415);
      expectDocumented(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
      for (const query of ['mutation { __typename }', 'subscription { __typename }']) expectDocumented(await json('/graphql', { query }), 400, 'VALIDATION_ERROR');
      const literal = await json('/graphql', { query: '{ impact(input: {from: "5.0", to: "5.0.1", rowsData: [{rowId: "r1", code: "10047848"}]}) { summary { rowsValid } } }' });
      expect(JSON.parse(literal.text).data.impact.summary.rowsValid).toBe(1);
    });
    checkProbe('graphql', latencies);
    // Give the logger a moment, then read what the process wrote: JSON lines only, and the
    // client mistakes above at info at most.
    await new Promise((r) => setTimeout(r, 200));
    const lines = server.logs().split('\n').filter(Boolean);
    const notJson = lines.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson.slice(0, 3)).toEqual([]);
    expect(lines.map((l) => JSON.parse(l)).filter((l) => l.level > 30).map((l) => l.msg)).toEqual([]);
  });

  it('CSV: a 30 MB line of empty fields is refused early, on /impact and SMQ application', async () => {
    const line = Buffer.concat([Buffer.from('rowId,code\nr1,10047848,'), Buffer.alloc(30 * 1024 * 1024 - 30, ',')]);
    const latencies = await underProbe(async () => {
      for (const path of ['/impact?from=5.0&to=5.0.1', '/smqs/90500005/apply']) expectDocumented(await csv(path, line), 400, 'VALIDATION_ERROR');
    });
    checkProbe('csv line', latencies);
  });

  it('coded-data uploads beyond the budget are refused with 503 and Retry-After; those admitted are answered', async () => {
    // Encoded once; of the answers (six impact reports of 20,000 rows) only the first 64 KB kept, checked after the probe stops:
    // inside the window this process's own work ran 134 ms in one probe turn (PostgreSQL, CI, session 18).
    const rows = Buffer.from(`rowId,code\n${Array.from({ length: 20_000 }, (_, i) => `r${i},${CODES[i % CODES.length]}`).join('\n')}`);
    const statuses: number[] = [];
    let answers: Answer[] = [];
    const latencies = await underProbe(async () => {
      answers = await Promise.all(Array.from({ length: 12 }, (_, i) => csv(`/impact?from=5.0&to=5.0.1&validateOnly=${i % 2 === 0}`, rows, 64 * 1024)));
    });
    for (const a of answers) {
      statuses.push(a.status);
      if (a.status === 503) expectDocumented(a, 503, 'SERVICE_UNAVAILABLE');
      else expect(a.status, a.text.slice(0, 200)).toBe(200);
    }
    expect(statuses.filter((s) => s === 503).length, String(statuses)).toBeGreaterThan(0);
    checkProbe(`uploads ${statuses.join(',')}`, latencies);
  });

  it('public coded lists beyond the budget are refused with 503; no key needed, a smaller budget', async () => {
    const body = { codes: codeList(2_000) };
    const statuses: number[] = [];
    const latencies = await underProbe(async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => send('/codes/validate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })));
      for (const a of answers) {
        statuses.push(a.status);
        if (a.status === 503) expectDocumented(a, 503, 'SERVICE_UNAVAILABLE');
        else expect(a.status, a.text.slice(0, 200)).toBe(200);
      }
    });
    expect(statuses.filter((s) => s === 503).length, String(statuses)).toBeGreaterThan(0);
    checkProbe(`lists ${statuses.join(',')}`, latencies);
  });

  it('one client looping public lists within its rate limit does not hold up the probe (defect 4: p99 1.1 s before)', async () => {
    // Before: 10,000 codes without a key held the serving thread ~1 s per call. Now a public list
    // has at most MAX_PUBLIC_CODE_LIST (2,000) items, worked in slices; a longer one is refused at once.
    const client = { 'X-Forwarded-For': '10.254.0.1', 'content-type': 'application/json' };
    const full = JSON.stringify({ codes: codeList(2_000) });
    const statuses: number[] = [];
    const latencies = await underProbe(async () => {
      const over = await send('/codes/validate', { method: 'POST', headers: client, body: JSON.stringify({ codes: codeList(10_000) }) });
      expectDocumented(over, 400, 'VALIDATION_ERROR');
      // Back to back, one at a time, as the client did (10 calls: well within 120/min).
      for (let k = 0; k < 10; k++) {
        const a = await send(k % 2 ? '/codes/analyse' : '/codes/validate', { method: 'POST', headers: client, body: full });
        statuses.push(a.status);
        expect(a.status, a.text.slice(0, 200)).toBe(200);
      }
    });
    checkProbe('public list loop', latencies);
  });

  it('keyed coded lists of 10,000 items (REST and GraphQL) are answered without holding up the probe', async () => {
    const codes = codeList(10_000);
    // The answers (megabytes each) are parsed and checked after the probe has stopped: parsed during it, the
    // probe's turn would time this process's JSON.parse on the same thread, not the server.
    const answers: { validate: Answer[]; analyse: Answer[]; graphql: Answer[] } = { validate: [], analyse: [], graphql: [] };
    const latencies = await underProbe(async () => {
      for (let k = 0; k < 2; k++) {
        answers.validate.push(await json('/codes/validate', { codes }));
        answers.analyse.push(await json('/codes/analyse', { codes, allPaths: true }));
        answers.graphql.push(
          await json('/graphql', {
            query: 'query($c: [CodeListItemInput!]!) { validateCodes(codes: $c) { summary { items } items { position code exists level term current termMatches pt { code term } primaryPath { code term level } issues } } }',
            variables: { c: codes },
          }),
        );
      }
    });
    for (const v of answers.validate) {
      expect(v.status, v.text.slice(0, 200)).toBe(200);
      const validation = JSON.parse(v.text);
      expect(validation.items).toHaveLength(10_000);
      expect(validation.summary.items).toBe(10_000);
      expect(validation.items[0]).toMatchObject({ position: 1, code: '10047848', exists: true });
    }
    for (const a of answers.analyse) {
      expect(a.status, a.text.slice(0, 200)).toBe(200);
      expect(JSON.parse(a.text).items).toBe(10_000);
    }
    for (const g of answers.graphql) {
      expect(g.status, g.text.slice(0, 200)).toBe(200);
      expect(JSON.parse(g.text).data.validateCodes.items).toHaveLength(10_000);
    }
    expect(answers.validate).toHaveLength(2);
    checkProbe('keyed lists', latencies);
  });

  it('narratives alternating between every hosted release are coded without holding up the probe (vocabularies built off the serving thread)', async () => {
    const versions = (JSON.parse((await send('/versions?limit=100')).text).results as { version: string }[]).map((v) => v.version);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    const latencies = await underProbe(async () => {
      for (let k = 0; k < 3 * versions.length; k++) {
        const version = versions[k % versions.length]!;
        const a = await json('/identify', { description: 'The patient had watering eyes and a headache after the second dose, then vomited.', version });
        expect(a.status, a.text.slice(0, 200)).toBe(200);
        expect(a.headers['x-terminology-version']).toBe(version);
      }
    });
    checkProbe(`narratives over ${versions.length} releases`, latencies);
  });

  it('reports the probe figures and the server is still ready', async () => {
    console.log(`hostile-cost (${usingPostgres ? 'PostgreSQL' : 'PGlite'}; idle probe p99 ${idle.p99.toFixed(0)} ms, max ${idle.max.toFixed(0)} ms): ${results.join('; ')}`);
    expect(JSON.parse((await send('/health/ready')).text).status).toBe('ready');
  });
});
