// The shipped server with its caches full (issue 27 defect 6). Each cache is bounded in bytes by
// a share of MEMORY_BUDGET_MB, the on-heap ones together within V8's heap limit beside the
// server's own reserve (src/config.ts memoryShares): so a server whose caches are all at their
// bounds evicts, and neither outgrows the budget nor dies of heap exhaustion.
//
// 1. The default budget (1,024 MB): distinct searches with large answers, REST and GraphQL,
//    until the three caches distinct searches fill (whole answers, GraphQL results, parsed
//    documents) are at their bounds and evicting, then as many again: peak RSS under the budget.
//    A shorter form of test/shipped/memory-budget.test.ts (50,000 small distinct searches):
//    what distinct searches add is bounded by those caches, so their being full and evicting is
//    the state the 50,000 reach, sooner. Still ~4,500 requests and 80 s of the server's CPU, so
//    it runs in npm run test:bench beside it (vitest.config.ts).
// 2. The smallest budget (256 MB: a 128 MB heap): every cache filled at once, as far as the demo
//    releases allow (release indexes, change sets, the engine's vocabularies and sources hold
//    what five small releases have), with coded-data jobs held at their class bounds meanwhile:
//    the server stays up and answers.
//
// As in hostile.test.ts, each request names a client address of its own (TRUST_PROXY from
// loopback), so the default 120/min limit does not answer for the caches.
import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { clientAddresses, startShippedWithKey, type ShippedWithKey } from '../helpers/shippedWithKey.ts';
import { usingPostgres } from '../helpers/db.ts';
import { memoryShares } from '../../src/config.ts';
import { JOB_MEMORY_FACTOR } from '../../src/services/codedWork.ts';

const METRICS_TOKEN = 'memory-caches-test-token';
const MB = 1024 * 1024;
const nextClient = clientAddresses();
const running: ShippedWithKey[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
});

interface Answer {
  status: number;
  text: string;
}

function requester(base: string) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  return (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path, method: init.method ?? 'GET', agent, headers: { 'X-Forwarded-For': nextClient(), ...init.headers }, timeout: 120_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`timeout: ${path.slice(0, 80)}`)));
      req.on('error', reject);
      req.end(init.body);
    });
}
type Send = ReturnType<typeof requester>;

/** Each bounded cache's bytes and budget, from the metrics. */
async function cacheGauges(send: Send): Promise<Record<string, { bytes: number; budget: number }>> {
  const text = (await send('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text;
  const out: Record<string, { bytes: number; budget: number }> = {};
  for (const m of text.matchAll(/^memory_cache_(bytes|budget_bytes)\{cache="(\w+)"\} (\S+)$/gm)) {
    const e = (out[m[2]!] ??= { bytes: 0, budget: 0 });
    e[m[1] === 'bytes' ? 'bytes' : 'budget'] = Number(m[3]);
  }
  return out;
}

/** CPU seconds the process has used (user and system, every thread: Linux /proc). */
function cpuSeconds(pid: number): number {
  if (!existsSync(`/proc/${pid}/stat`)) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resident set now and at its peak (Linux /proc), in MB. */
function rss(pid: number): { now: number; peak: number } | undefined {
  if (!existsSync(`/proc/${pid}/status`)) return undefined;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const LETTERS = 'abcdeghilmnoprstuvy';
/**
 * The k-th distinct search, with a large answer so the caches fill in a few thousand requests:
 * REST (even k) a one-letter query in one release with a page size of its own (tens of KB);
 * GraphQL (odd k) a document of its own with four aliased 200-item searches (its parse and its
 * result hundreds of KB).
 */
function search(k: number, versions: readonly string[]): { path: string; method?: string; body?: string; headers?: Record<string, string> } {
  const n = LETTERS.length;
  const j = Math.floor(k / 2);
  if (k % 2 === 0) {
    const version = versions[Math.floor(j / n) % versions.length]!;
    const limit = 51 + (Math.floor(j / (n * versions.length)) % 50);
    return { path: `/codes?q=${LETTERS[j % n]}&version=${encodeURIComponent(version)}&limit=${limit}` };
  }
  const alias = (a: number) => {
    const q = `${LETTERS[(j + a) % n]}${LETTERS[Math.floor(j / n) % n]}`;
    return `s${a}: codes(q: ${JSON.stringify(q)}, first: ${101 + (Math.floor(j / (n * n)) % 100)}) { totalCount edges { node { code { code term level } match { code term level score } } } }`;
  };
  const query = `{ ${[0, 1, 2, 3].map(alias).join(' ')} }`;
  return { path: '/graphql', method: 'POST', body: JSON.stringify({ query }), headers: { 'content-type': 'application/json' } };
}

const SEARCH_CACHES = ['warmAnswers', 'graphqlResults', 'graphqlDocuments'] as const;
/** A cache's bytes over its budget; parsed documents' budget includes a tenth more for their errors, which searches do not fill. */
function fill(g: Record<string, { bytes: number; budget: number }>, cache: string): number {
  const e = g[cache]!;
  return e.bytes / (cache === 'graphqlDocuments' ? e.budget / 1.1 : e.budget);
}

/**
 * Distinct searches from `clients` keep-alive clients until the search caches are at 90 % of
 * their budgets or more, then a tenth as many again (the caches evicting); how many were sent.
 */
async function fillSearchCaches(send: Send, clients = 6): Promise<number> {
  const versions = (JSON.parse((await send('/versions?limit=100')).text).results as { version: string }[]).map((v) => v.version);
  let next = 0;
  const run = async (until: () => boolean) =>
    Promise.all(
      Array.from({ length: clients }, async () => {
        while (!until()) {
          const k = next++;
          const s = search(k, versions);
          const a = await send(s.path, { method: s.method, body: s.body, headers: s.headers });
          if (a.status !== 200 || a.text.includes('"errors"')) throw new Error(`search ${k}: ${a.status} ${a.text.slice(0, 300)}`);
        }
      }),
    );
  for (let round = 0; ; round++) {
    const g = await cacheGauges(send);
    if (SEARCH_CACHES.every((c) => fill(g, c) >= 0.9)) break;
    if (round > 40) throw new Error(`the search caches did not fill after ${next} searches: ${JSON.stringify(g)}`);
    const target = next + 300;
    await run(() => next >= target);
  }
  const filled = next;
  await run(() => next >= Math.ceil(1.1 * filled));
  return next;
}

// The embedded store only (the budget's default is to fit 1 GB RSS embedded): on PostgreSQL the
// database's memory is another process's, and the server's the same caches.
describe.skipIf(usingPostgres)('the shipped server with its caches full', () => {
  it('at the default budget, distinct searches fill their caches and evict: peak RSS stays under MEMORY_BUDGET_MB', async () => {
    const shipped = await startShippedWithKey('memory-caches', { METRICS_TOKEN });
    running.push(shipped);
    const { server } = shipped;
    const send = requester(server.url);
    const cpu0 = cpuSeconds(server.serverPid);
    const t0 = performance.now();
    const sent = await fillSearchCaches(send);
    const cost = `${((performance.now() - t0) / 1000).toFixed(0)} s, server CPU ${(cpuSeconds(server.serverPid) - cpu0).toFixed(1)} s`;
    const g = await cacheGauges(send);
    for (const c of SEARCH_CACHES) {
      expect(fill(g, c), c).toBeGreaterThanOrEqual(0.9);
      expect(g[c]!.bytes, c).toBeLessThanOrEqual(g[c]!.budget);
    }
    const mem = rss(server.serverPid);
    console.log(`memory-caches (1,024 MB): ${sent} distinct searches (${cost}); RSS ${mem?.now.toFixed(0)} MB, peak ${mem?.peak.toFixed(0)} MB; ${SEARCH_CACHES.map((c) => `${c} ${(g[c]!.bytes / MB).toFixed(1)}/${(g[c]!.budget / MB).toFixed(1)} MB`).join(', ')}`);
    if (mem) expect(mem.peak, `peak RSS ${mem.peak.toFixed(0)} MB`).toBeLessThan(1024);
    expect((await send('/health/ready')).status).toBe(200);
    await shipped.stop();
    running.splice(running.indexOf(shipped), 1);
  }, 1_500_000);

  it('at the smallest budget (256 MB), every cache filled at once with coded-data jobs held: the server stays up and answers', async () => {
    const shares = memoryShares(256);
    // API keys remembered: one more than the share holds (768 bytes each).
    const keyCount = Math.ceil(shares.apiKeys / 768) + 50;
    const shipped = await startShippedWithKey('memory-caches-256', { METRICS_TOKEN, MEMORY_BUDGET_MB: '256' }, keyCount);
    running.push(shipped);
    const { server, key, keys } = shipped;
    // V8's limit: the old space at half the budget, and the young generation.
    expect(server.heapLimitMb).toBeLessThan(256 * 0.75);
    const send = requester(server.url);
    const json = (path: string, body: unknown, k = key) => send(path, { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': k }, body: JSON.stringify(body) });

    const releases = JSON.parse((await send('/versions?limit=100')).text).results as { version: string; languages: string[] }[];
    expect(releases.length).toBeGreaterThanOrEqual(3);
    // Coded-data jobs held meanwhile: keyed uploads at their class bound (two at a time), public lists at theirs.
    const CODES = ['10047848', '90301218', '10028813', '10043649', '1'];
    const uploadBytes = Math.floor((shares.codedUploads / JOB_MEMORY_FACTOR) * 0.45);
    const term = 'x'.repeat(400);
    const upload = `rowId,code,term\n${Array.from({ length: Math.floor(uploadBytes / 425) }, (_, i) => `r${i},${CODES[i % CODES.length]},${term}`).join('\n')}`;
    const list = JSON.stringify({ codes: Array.from({ length: 2_000 }, (_, i) => ({ code: CODES[i % CODES.length]!, term: 'Watering eyes' })) });
    let jobs = true;
    const jobStatuses: number[] = [];
    let jobError: unknown;
    const held = (async () => {
      try {
        while (jobs) {
          const answers = await Promise.all([
            send('/impact?from=5.0&to=5.0.1', { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': key }, body: upload }),
            send('/impact?from=5.0&to=5.0.1&validateOnly=true', { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': key }, body: upload }),
            send('/codes/validate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: list }),
            send('/codes/analyse', { method: 'POST', headers: { 'content-type': 'application/json' }, body: list }),
          ]);
          jobStatuses.push(...answers.map((a) => a.status));
        }
      } catch (e) {
        jobError = e;
      }
    })();
    const t0 = performance.now();
    try {
      await fillSearchCaches(send, 4);
      console.log(`memory-caches (256 MB): search caches full after ${((performance.now() - t0) / 1000).toFixed(0)} s; ${JSON.stringify(await cacheGauges(send))}`);
      // Release indexes (every release, every language it hosts), change sets (every pair), the
      // engine's vocabularies and their sources (a narrative per release).
      for (const { version: v, languages } of releases) {
        for (const lang of languages) expect((await send(`/codes?q=pain&version=${v}&lang=${lang}`)).status).toBe(200);
        // The first release has no earlier one to compare with (400).
        const changes = await send(`/versions/${v}/changes`);
        expect([200, 400], changes.text.slice(0, 200)).toContain(changes.status);
        const identified = await json('/identify', { description: 'Watering eyes and a headache after the second dose.', version: v });
        expect(identified.status, identified.text.slice(0, 200)).toBe(200);
      }
      // Verified API keys beyond their share (the least recently used dropped).
      for (let k = 0; k < keys.length; k += 8) {
        const batch = keys.slice(k, k + 8).map((kk) => json('/impact', { from: '5.0', to: '5.0.1', rows: [{ rowId: 'a', code: '10047848' }], validateOnly: true }, kk));
        for (const a of await Promise.all(batch)) expect([200, 503]).toContain(a.status);
      }
    } catch (e) {
      console.log(`memory-caches (256 MB) failed after ${((performance.now() - t0) / 1000).toFixed(0)} s; RSS ${JSON.stringify(rss(server.serverPid))}; server log tail:\n${server.logs().split('\n').slice(-15).join('\n')}`);
      throw e;
    } finally {
      jobs = false;
      await held;
    }
    if (jobError) throw jobError;
    // Every job was answered or refused in its documented way; some were answered.
    expect(jobStatuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(jobStatuses.filter((s) => s !== 200 && s !== 503), String(jobStatuses)).toEqual([]);
    const g = await cacheGauges(send);
    for (const [c, e] of Object.entries(g)) expect(e.bytes, c).toBeLessThanOrEqual(e.budget);
    for (const c of [...SEARCH_CACHES, 'apiKeys']) expect(fill(g, c), c).toBeGreaterThanOrEqual(0.9);
    for (const c of ['releaseIndexes', 'changeSets', 'engineVocabularies', 'engineSources']) expect(g[c]!.bytes, c).toBeGreaterThan(0);
    console.log(`memory-caches (256 MB, heap ${server.heapLimitMb} MB): ${Object.entries(g).map(([c, e]) => `${c} ${(e.bytes / MB).toFixed(2)}/${(e.budget / MB).toFixed(2)}`).join(', ')}; RSS peak ${rss(server.serverPid)?.peak.toFixed(0)} MB`);
    // Still up and answering, and nothing fatal logged.
    expect(JSON.parse((await send('/health/ready')).text).status).toBe('ready');
    expect(JSON.parse((await send('/codes?q=eye')).text).results.length).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    expect(server.logs()).not.toMatch(/heap out of memory|FATAL ERROR/i);
  }, 1_500_000);
});
