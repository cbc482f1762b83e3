// Issue 27 defect 3 at its own scale: 20 clients each uploading a 100,000-row CSV to POST /impact
// at once (with a key; then the same with validateOnly=true), while a probe client sends GET
// /versions every 100 ms. Each client retries a 503 after its Retry-After until answered or the
// phase ends, so the server is kept at its upload bound for the whole phase. The probe's p99 must
// stay ≤ 100 ms and its max ≤ 500 ms (the issue's targets), or four times its idle figures (measured
// on the same server just before) when those are higher. Each turn is held to these less the time
// the server's serving thread waited for a CPU meanwhile (Linux schedstat; test/helpers/cpuWait.ts):
// on a host with more runnable threads than cores that wait, not the server's work, made the long
// turns (bench/results.md). The probe client's own thread may wait too: the larger wait is taken
// off. Both the turn as the client saw it and what is left are reported.
//
// A paired A/B when UPLOADS_PROBE_BASE names another checkout (its bin/terminology.mjs; e.g. the
// commit before a change, extracted with `git archive`, node_modules linked): both servers run,
// and the phases alternate between them (A, B, B, A, …) in one run. Only this checkout's server
// is held to the targets. Minutes of CPU: in `npm run test:bench` (vitest.config.ts BENCH), not
// npm test (test/shipped/hostile-cost.test.ts runs a scaled-down form there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { usingPostgres } from '../helpers/db.ts';
import { clientAddresses, startShippedWithKey, type ShippedWithKey } from '../helpers/shippedWithKey.ts';
import { lessWait, threadCpu, timedTurn } from '../helpers/cpuWait.ts';

const CLIENTS = Number(process.env.UPLOADS_PROBE_CLIENTS ?? 20);
const ROWS = Number(process.env.UPLOADS_PROBE_ROWS ?? 100_000);
const PHASE_MS = Number(process.env.UPLOADS_PROBE_PHASE_S ?? 40) * 1000;
const ROUNDS = Number(process.env.UPLOADS_PROBE_ROUNDS ?? 1);
const BASE = process.env.UPLOADS_PROBE_BASE;

const CODES = ['10047848', '90301218', '10028813', '10043649', '1'];
const nextClient = clientAddresses();

interface Side {
  label: string;
  shipped: ShippedWithKey;
}
const sides: Side[] = [];

beforeAll(async () => {
  sides.push({ label: 'this', shipped: await startShippedWithKey('uploads-probe') });
  if (BASE) sides.unshift({ label: `base ${path.basename(BASE)}`, shipped: await startShippedWithKey('uploads-probe-base', {}, 0, path.join(BASE, 'bin/terminology.mjs')) });
}, 300_000);
afterAll(async () => {
  for (const s of sides) await s.shipped.stop();
  // UPLOADS_PROBE_LOGS=<dir>: each server's log lines, for a run to be explained afterwards.
  const dir = process.env.UPLOADS_PROBE_LOGS;
  if (dir) for (const s of sides) writeFileSync(path.join(dir, `${s.label.replace(/\W+/g, '-')}-${usingPostgres ? 'postgres' : 'pglite'}-${s.shipped.server.serverPid}.log`), s.shipped.server.logs());
});

interface Answer {
  status: number;
  bytes: number;
  retryAfter: number;
  ms: number;
  /** Why there was no answer (status -1). */
  error?: string;
  /** The request went out on a kept-alive connection (status -1: it may have crossed the server's close). */
  reused?: boolean;
}

const guarded = new WeakSet<object>();

/** One request; the answer is counted, not kept (a full report is ~110 MB). */
function send(base: string, pathname: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer; agent?: http.Agent; timeoutMs?: number } = {}): Promise<Answer> {
  const url = new URL(base);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathname, method: init.method ?? 'GET', agent: init.agent, headers: { 'X-Forwarded-For': nextClient(), ...init.headers } }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode!, bytes, retryAfter: Number(res.headers['retry-after'] ?? 0), ms: performance.now() - t0 }));
      res.on('error', (e) => resolve({ status: -1, bytes, retryAfter: 0, ms: performance.now() - t0, error: e.message }));
    });
    req.setTimeout(init.timeoutMs ?? 120_000, () => req.destroy(new Error('timeout')));
    // An upload refused before its body is read may see the socket fail while sending: the answer counts.
    req.on('socket', (s) => {
      if (!guarded.has(s)) s.on('error', () => undefined);
      guarded.add(s);
    });
    req.on('error', (e) => resolve({ status: -1, bytes: 0, retryAfter: 0, ms: performance.now() - t0, error: e.message, reused: req.reusedSocket }));
    req.end(init.body);
  });
}

interface Probed {
  /** Each turn as the client saw it (a timeout counts as 30 s), sorted. */
  seen: number[];
  /** Each turn less the time the server's serving thread (or, when longer, this client's thread) waited for a CPU meanwhile, sorted. */
  own: number[];
  /** The serving thread over the probing: ms on a CPU, ms waiting for one (undefined: not Linux). */
  thread?: { runMs: number; waitMs: number };
  /** Turns without an answer at the first try: the status or error, and after how long. */
  failed: string[];
  /** The three slowest turns less the wait, each with both threads' CPU and waits. */
  slowest: string[];
}

/** GET /versions every 100 ms (the issue's probe) until `done`. */
async function probe(base: string, serverPid: number, done: () => boolean): Promise<Probed> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const seen: number[] = [];
  const own: number[] = [];
  const failed: string[] = [];
  const turns: { own: number; text: string }[] = [];
  const first = threadCpu(serverPid);
  while (!done()) {
    const turn = await timedTurn(serverPid, async () => {
      const a = await send(base, '/versions', { agent, timeoutMs: 30_000 });
      // A kept-alive connection the server closed as the request went out (its idle timer ran first
      // after a stall): an HTTP client retries such a GET (RFC 9112 §9.3.1). The turn counts both tries.
      if (a.status === -1 && a.reused) {
        const again = await send(base, '/versions', { agent, timeoutMs: Math.max(1, 30_000 - a.ms) });
        failed.push(`${a.error} after ${a.ms.toFixed(0)} ms on a kept-alive connection, retried: ${again.error ?? again.status} after ${again.ms.toFixed(0)} ms more`);
        return { ...again, ms: a.ms + again.ms };
      }
      if (a.status !== 200) failed.push(`${a.error ?? a.status} after ${a.ms.toFixed(0)} ms`);
      return a;
    });
    const a = turn.value;
    const ms = a.status === 200 ? a.ms : 30_000;
    seen.push(ms);
    const waits = turn.waitMs;
    const left = lessWait(ms, waits);
    own.push(left);
    const ran = turn.runMs;
    turns.push({ own: left, text: `${left.toFixed(0)} (seen ${ms.toFixed(0)}: server ran ${ran[0]!.toFixed(0)}, waited ${waits[0]!.toFixed(0)}; client ran ${ran[1]!.toFixed(0)}, waited ${waits[1]!.toFixed(0)})` });
    await new Promise((r) => setTimeout(r, 100));
  }
  agent.destroy();
  const last = threadCpu(serverPid);
  const byValue = (a: number, b: number) => a - b;
  return { seen: seen.sort(byValue), own: own.sort(byValue), thread: first && last ? { runMs: last.runMs - first.runMs, waitMs: last.waitMs - first.waitMs } : undefined, failed, slowest: turns.sort((a, b) => b.own - a.own).slice(0, 3).map((t) => t.text) };
}

const q = (l: number[], p: number) => l[Math.min(l.length - 1, Math.floor(p * l.length))] ?? NaN;
const fmt = (l: number[]) => `n ${l.length}, p50 ${q(l, 0.5).toFixed(0)}, p99 ${q(l, 0.99).toFixed(0)}, max ${q(l, 1).toFixed(0)} ms`;
const fmtProbed = (p: Probed) =>
  `${fmt(p.seen)}; less the CPU wait ${fmt(p.own)}` + (p.thread ? `; serving thread ${(p.thread.runMs / 1000).toFixed(1)} s on a CPU, ${(p.thread.waitMs / 1000).toFixed(1)} s waiting for one` : '') + `; slowest ${p.slowest.join(', ')} ms` + (p.failed.length ? `; not answered at once: ${p.failed.join(', ')}` : '');

describe(`${CLIENTS} concurrent ${ROWS.toLocaleString('en')}-row CSV uploads to POST /impact (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  const csv = Buffer.from(`rowId,code,term\n${Array.from({ length: ROWS }, (_, i) => `r${i},${CODES[i % CODES.length]},Watering eyes`).join('\n')}`);
  const lines: string[] = [];

  async function phase(side: Side, validateOnly: boolean) {
    const { server, key } = side.shipped;
    const idleEnd = performance.now() + 5_000;
    const idle = await probe(server.url, server.serverPid, () => performance.now() > idleEnd);
    const end = performance.now() + PHASE_MS;
    let finished = false;
    const probing = probe(server.url, server.serverPid, () => finished);
    const statuses = new Map<number, number>();
    const uploadErrors: string[] = [];
    let answered = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < end) {
          const a = await send(server.url, `/impact?from=5.0&to=5.0.1&validateOnly=${validateOnly}`, { method: 'POST', headers: { 'content-type': 'text/csv', 'X-API-Key': key }, body: csv });
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          if (a.error) uploadErrors.push(`${a.error} after ${a.ms.toFixed(0)} ms`);
          if (a.status === 200) {
            answered++;
            return;
          }
          if (a.status !== 503) return;
          await new Promise((r) => setTimeout(r, a.retryAfter * 1000));
        }
      }),
    );
    finished = true;
    const under = await probing;
    const line = `${side.label}, validateOnly=${validateOnly}: ${answered} uploads answered 200 (statuses ${JSON.stringify(Object.fromEntries(statuses))}${uploadErrors.length ? `; ${uploadErrors.join(', ')}` : ''}); probe idle ${fmtProbed(idle)}; under uploads ${fmtProbed(under)}`;
    lines.push(line);
    console.log(`uploads-probe: ${line}`);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503), line).toEqual([]);
    expect(answered, line).toBeGreaterThan(0);
    return { idle, under };
  }

  for (const validateOnly of [false, true]) {
    it(`validateOnly=${validateOnly}: probe p99 ≤ 100 ms and max ≤ 500 ms`, async () => {
      const mine: number[] = [];
      const idle: number[] = [];
      const seen: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating order: A B, then B A, …
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) {
          const r = await phase(side, validateOnly);
          if (side.label === 'this') {
            mine.push(...r.under.own);
            idle.push(...r.idle.own);
            seen.push(...r.under.seen);
          }
        }
      }
      mine.sort((a, b) => a - b);
      idle.sort((a, b) => a - b);
      seen.sort((a, b) => a - b);
      const figures = `${fmt(mine)} less the CPU wait (as seen: ${fmt(seen)}); idle ${fmt(idle)}`;
      // As in hostile-cost.test.ts: on a host where the idle probe alone is slower, a bound is four
      // times the idle figure (bench/results.md reports both).
      expect(q(mine, 0.99), `p99: ${figures}`).toBeLessThanOrEqual(Math.max(100, 4 * q(idle, 0.99)));
      expect(q(mine, 1), `max: ${figures}`).toBeLessThanOrEqual(Math.max(500, 4 * q(idle, 1)));
      // The turn as the client saw it, CPU wait included, stays bounded too (2 s: session 14's bound before
      // the wait was measured), so a stall the wait-adjusted figure would excuse cannot grow unseen.
      expect(q(seen, 1), `max as seen: ${figures}`).toBeLessThanOrEqual(2_000);
    }, 600_000);
  }

  it('reports', () => {
    console.log(`uploads-probe (${usingPostgres ? 'PostgreSQL' : 'PGlite'}):\n${lines.join('\n')}`);
  });
});
