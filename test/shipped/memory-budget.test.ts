// The shipped server's memory under 50,000 distinct searches (issue 27 defect 6): every cache is
// bounded in bytes under one budget (MEMORY_BUDGET_MB, default 1,024 MB), so the process's peak
// RSS stays under it however many distinct questions arrive — before the budget, 50,000
// distinct searches took a full-size server from 1.0 to 3.0 GB.
//
// Default configuration (the budget's default), a few keep-alive clients, each request from a
// client address of its own (TRUST_PROXY=127.0.0.1 and X-Forwarded-For, as in hostile.test.ts)
// so the rate limit does not answer for the caches. Four in five are REST searches, one in five
// a distinct GraphQL document (the document and result caches).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { ServerProcess } from '../helpers/server.ts';
import { clientAddresses, startShippedWithKey, type ShippedWithKey } from '../helpers/shippedWithKey.ts';

/** MEMORY_BUDGET_MB's default (README › Configuration). */
const BUDGET_MB = 1024;
const SEARCHES = Number(process.env.MEMORY_SEARCHES ?? 50_000);
const CLIENTS = 6;

let shipped: ShippedWithKey;
let server: ServerProcess;
const nextClient = clientAddresses();

beforeAll(async () => {
  shipped = await startShippedWithKey('memory-budget');
  server = shipped.server;
}, 180_000);
afterAll(async () => {
  await shipped?.stop();
});

/** Resident set now and at its peak (Linux /proc), in MB. */
function rss(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const WORDS = ['eye', 'water', 'cold', 'pain', 'head', 'nausea', 'rash', 'fever', 'cough', 'liver', 'heart', 'skin', 'blood', 'renal', 'bone', 'loose', 'runs'];

/** The k-th search: REST with a distinct `q`, or (every fifth) a GraphQL document of its own. */
function search(k: number): { path: string; method: string; body?: string; headers: Record<string, string> } {
  const q = `${WORDS[k % WORDS.length]} ${k}`;
  const headers: Record<string, string> = { 'X-Forwarded-For': nextClient() };
  if (k % 5 !== 4) return { path: `/codes?q=${encodeURIComponent(q)}&limit=${1 + (k % 50)}`, method: 'GET', headers };
  const query = `{ codes(q: ${JSON.stringify(q)}, first: ${1 + (k % 20)}) { totalCount edges { node { code { code term level } match { code level score } } } } }`;
  return { path: '/graphql', method: 'POST', body: JSON.stringify({ query }), headers: { ...headers, 'content-type': 'application/json' } };
}

function send(agent: http.Agent, r: ReturnType<typeof search>): Promise<{ status: number; text: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: r.path, method: r.method, agent, headers: r.headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${r.path.slice(0, 80)}`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

describe('memory budget', () => {
  it(`${SEARCHES} distinct searches keep the server's peak RSS under MEMORY_BUDGET_MB (${BUDGET_MB} MB)`, async () => {
    const pid = server.child.pid!;
    if (!existsSync(`/proc/${pid}/status`)) return; // RSS is read from Linux's /proc
    const before = rss(pid);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const statuses = new Map<number, number>();
    let next = 0;
    let graphqlChecked = false;
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rss(pid).now), 1_000);
    try {
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < SEARCHES) {
            const k = next++;
            const a = await send(agent, search(k));
            statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
            if (a.status !== 200) throw new Error(`search ${k}: ${a.status} ${a.text.slice(0, 200)}`);
            if (!graphqlChecked && k % 5 === 4) {
              expect(JSON.parse(a.text).data.codes.totalCount).toEqual(expect.any(Number));
              graphqlChecked = true;
            }
          }
        }),
      );
    } finally {
      clearInterval(sampler);
      agent.destroy();
    }
    const after = rss(pid);
    console.log(
      `memory-budget: ${SEARCHES} searches; RSS ${before.now.toFixed(0)} MB before, ${after.now.toFixed(0)} MB after, peak ${after.peak.toFixed(0)} MB ` +
        `(budget ${BUDGET_MB} MB; samples every 10 s: ${samples.filter((_, i) => i % 10 === 0).map((s) => s.toFixed(0)).join(', ')})`,
    );
    expect(statuses.get(200)).toBe(SEARCHES);
    expect(after.peak, `peak RSS ${after.peak.toFixed(0)} MB`).toBeLessThan(BUDGET_MB);
    // Still serving.
    expect((await send(new http.Agent(), { path: '/health/ready', method: 'GET', headers: {} })).status).toBe(200);
  }, 600_000);
});
