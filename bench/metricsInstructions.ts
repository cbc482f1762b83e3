// `npm run bench:metrics -- --instructions`: the cost of metrics and traces as instructions per warm
// answer, counted by valgrind's callgrind — far less moved by the machine's load than wrk's throughput
// or CPU time per request, which swing by ±10–25 % on a shared host (bench/results.md › Cost of the
// metrics, session 14). Not wholly independent of it: work done by elapsed time within a request
// (the Date header once a second, timers re-armed, GC heuristics) grows as valgrind runs slower, so
// only servers of one run whose windows took similar times compare. Needs valgrind (`apt-get install valgrind`) and PostgreSQL (DATABASE_URL: a
// fresh database beside the one it names, dropped afterwards; the embedded store's WebAssembly would
// take minutes to start under valgrind).
//
// Method. The three servers of the wrk run (off, metrics, metrics + traces at --ratio) start under
// callgrind with instrumentation off, from the bundle, each as `node --max-old-space-size=512
// bin/terminology.mjs serve` (what `terminology serve` runs by default, without the Node 20 wrapper
// process). Each gets the same 100 GraphQL requests as in the wrk run, then --warmup warm answers
// (`GET /codes/{code}`, replayed by the warm-answer cache, 8 connections) at valgrind's uninstrumented
// speed, so that V8 has tiered up the hot code; then instrumentation goes on, --warmup / 4 more
// requests let callgrind re-translate the code and V8 settle, and --windows windows of --requests
// requests are each counted from a zeroing of the counters to a dump (--out DIR keeps the dumps, per
// server, for callgrind_annotate). Per request: Node's main thread
// (JavaScript, the event loop, its share of GC and compilation) and all threads (V8's concurrent
// compiler and GC helpers too). Successive windows show whether the counts are steady.
//
// What runs by time rather than per request is inflated by valgrind's slowdown (~50×), so it is put
// back on a per-request footing: the metrics servers are scraped once per --scrape-every requests
// (4,000 by default: 6 × the full-speed rate of one a second at ~25k req/s, conservative) instead of
// every second; the traced server's batch timer is set out
// of reach (OTEL_BSP_SCHEDULE_DELAY=600000), so batches are exported when 512 spans fill them, as
// they are at full speed (≈ 2,500 sampled spans a second at 10 %) — with the SDK's 5 s timer a slow
// server would export a handful of spans at a time (session 13). Each server's idle instructions per
// second (a window with no requests) times a window's wall time is taken off its count. The median
// window is reported: one with a major GC, a burst of compilation or a batch export stands out.
// Window w starts in the three servers at once (a barrier), so what the host does during it hits
// all three alike; the ratios are also given window by window (off's window w over this server's),
// with their median and range, and the ratio of the median windows with the range the windows allow.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Agent, request as httpRequest } from 'node:http';
import { projectRoot } from '../src/paths.ts';
import { spawnUnderCallgrind, type ThreadInstructions, type UnderCallgrind } from './lib/callgrind.ts';
import { observedEnvs, SERVER_NAMES, startOtlpSink, type OtlpSink, type ServerName } from './lib/observedServers.ts';
import { ensureTool } from './lib/pinning.ts';
import { createFreshPostgres } from './lib/pgdb.ts';
import { cleanupAll, freePort, makeTempDir, spawnTracked, stopChild, type Tracked } from './lib/procs.ts';
import { median } from './lib/stats.ts';

export interface InstructionsOptions {
  ratio: number;
  calibrate: boolean;
  warmup: number;
  requests: number;
  windows: number;
  scrapeEvery: number;
  /** Where callgrind's dumps are written and kept (for callgrind_annotate); a temporary directory, removed, when undefined. */
  out?: string;
  /** Extra node flags for the servers (`--perf-basic-prof`: JIT frames named in /tmp/perf-PID.map, read by bench/lib/jitNames.ts). */
  nodeFlags?: string[];
  log: (s: string) => void;
}

export const PATH = '/codes/10047700';
export const CONNECTIONS = 8;
const IDLE_MS = 10_000;
export const HEAP_FLAG = '--max-old-space-size=512';

/** A counted window: instructions per request, and its wall time. */
interface Window {
  main: number;
  all: number;
  ms: number;
}

interface Server {
  name: ServerName;
  base: string;
  metrics?: string;
  vg: UnderCallgrind;
}

/** The log line the server prints once it is ready to answer warm requests, waited for. */
export async function ready(proc: Tracked, name: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = proc.stderr.toString();
    if (/warmed the latest release/.test(out)) return out;
    if (proc.child.exitCode !== null) throw new Error(`${name} exited:\n${out.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${out.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function baseEnv(port: number, databaseUrl: string, dir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', TERMINOLOGY_DATA_DIR: dir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', LOG_FORMAT: 'json', RATE_LIMIT_PER_MINUTE: '1000000' };
}

/** One request over `agent`, its body read whole: the status. Sent again once when a kept-alive socket
 *  was closed under it (the server closes connections idle for 5 s, as between two phases). */
export async function request(url: string, agent: Agent, post?: string): Promise<number> {
  try {
    return await requestOnce(url, agent, post);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ECONNRESET' && (e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
    return requestOnce(url, agent, post);
  }
}

function requestOnce(url: string, agent: Agent, post?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, method: post ? 'POST' : 'GET', headers: post ? { 'content-type': 'application/json' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(post);
  });
}

/** `n` warm answers over CONNECTIONS keep-alive connections, every one checked; a scrape of `metrics` every `scrapeEvery`. */
export async function drive(agent: Agent, base: string, n: number, metrics: string | undefined, scrapeEvery: number, sent = { n: 0 }): Promise<void> {
  let next = 0;
  const one = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      // Counted over the server's whole run (`sent`), so that a scrape comes every `scrapeEvery` requests across phases.
      if (metrics && ++sent.n % scrapeEvery === 0) await request(metrics, agent);
      const status = await request(`${base}${PATH}`, agent);
      if (status !== 200) throw new Error(`${base}${PATH} answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, one));
}

/** Lets `parties` concurrent loops start each round together: wait() resolves once all of them called it. */
class Barrier {
  private waiting: (() => void)[] = [];
  constructor(private readonly parties: number) {}
  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length < this.parties) return;
      const all = this.waiting;
      this.waiting = [];
      for (const r of all) r();
    });
  }
}

const perRequest = (c: ThreadInstructions, n: number) => ({ main: c.main / n, all: c.all / n });
const k = (x: number) => `${(x / 1000).toFixed(1)} k`;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export async function measureInstructions(o: InstructionsOptions): Promise<void> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('--instructions needs DATABASE_URL (postgres://…): the servers run on a fresh PostgreSQL database beside it');
  const valgrind = await ensureTool('valgrind', o.log);
  const pg = await createFreshPostgres(admin);
  const sink: OtlpSink = await startOtlpSink();
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const bin = path.join(projectRoot, 'bin/terminology.mjs');
  try {
    // The demo releases imported once, by a server at full speed.
    {
      const dir = makeTempDir('bench-instr-import-');
      const proc = spawnTracked(process.execPath, [HEAP_FLAG, bin, 'serve'], { env: baseEnv(await freePort(), pg.url, dir) });
      await ready(proc, 'the importing server', 300_000);
      await stopChild(proc.child);
    }
    const envs = await observedEnvs(sink.url, o.ratio, o.calibrate);
    const servers: Server[] = [];
    for (const name of SERVER_NAMES) {
      const port = await freePort();
      // Database timeouts out of reach of valgrind's slowness (a statement of the first answer must not fail).
      const slow = { OTEL_BSP_SCHEDULE_DELAY: '600000', DATABASE_QUERY_TIMEOUT_MS: '600000', DATABASE_CONNECT_TIMEOUT_MS: '600000' };
      const env = { ...baseEnv(port, pg.url, makeTempDir(`bench-instr-${name}-`)), ...envs[name], ...slow };
      const outDir = o.out ? path.join(o.out, name) : makeTempDir(`bench-instr-cg-${name}-`);
      mkdirSync(outDir, { recursive: true });
      const vg = spawnUnderCallgrind(valgrind, process.execPath, [HEAP_FLAG, ...(o.nodeFlags ?? []), bin, 'serve'], env, outDir);
      servers.push({ name, base: `http://127.0.0.1:${port}`, vg });
    }
    for (const s of servers) s.metrics = /"metricsUrl":"([^"]+)"/.exec(await ready(s.vg.proc, s.name, 900_000))?.[1];
    o.log(`three servers up under callgrind${o.calibrate ? ' (calibration: all three with metrics and traces off)' : ''}; warming up`);
    const results = new Map<ServerName, { windows: Window[]; idle: ThreadInstructions; idleMs: number; exports: number[] }>();
    const together = new Barrier(servers.length);
    // Concurrently: instruction counts do not depend on the servers sharing the cores.
    await Promise.all(
      servers.map(async (s) => {
        for (let i = 0; i < 100; i++) {
          await request(`${s.base}/graphql`, agent, JSON.stringify({ query: `{ code(code: "10047700") { name } q${i}: __typename }` }));
        }
        await drive(agent, s.base, 1, undefined, o.scrapeEvery); // the answer kept, before concurrent requests replay it
        const t0 = Date.now();
        const sent = { n: 0 };
        await drive(agent, s.base, o.warmup, s.metrics, o.scrapeEvery, sent);
        o.log(`${s.name}: warm-up of ${o.warmup} requests in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
        await s.vg.control('instrument');
        await drive(agent, s.base, Math.ceil(o.warmup / 4), s.metrics, o.scrapeEvery, sent);
        const windows: Window[] = [];
        const exports: number[] = [];
        for (let w = 0; w < o.windows; w++) {
          // Window w starts in the three servers at once: what the host does meanwhile hits all alike.
          await together.wait();
          await s.vg.control('zero');
          const before = sink.exports;
          const t = Date.now();
          await drive(agent, s.base, o.requests, s.metrics, o.scrapeEvery, sent);
          const ms = Date.now() - t;
          await s.vg.control('dump');
          windows.push({ ...perRequest(s.vg.lastDump(), o.requests), ms });
          if (s.name === 'traces') exports.push(sink.exports - before);
          o.log(`${s.name} window ${w + 1}: ${k(windows.at(-1)!.main)} main thread, ${k(windows.at(-1)!.all)} all threads per request`);
        }
        const t = Date.now();
        await s.vg.control('zero');
        await new Promise((r) => setTimeout(r, IDLE_MS));
        await s.vg.control('dump');
        results.set(s.name, { windows, idle: s.vg.lastDump(), idleMs: Date.now() - t, exports });
      }),
    );
    // What a server runs by time (timers, the event-loop delay monitor) is ~50× more per request under
    // valgrind than at full speed: its idle rate times the window's duration is taken off.
    const corrected = (n: ServerName, w: Window) => {
      const { idle, idleMs } = results.get(n)!;
      return { main: w.main - (idle.main / idleMs) * (w.ms / o.requests), all: w.all - (idle.all / idleMs) * (w.ms / o.requests) };
    };
    // The median window: a window with a major GC or a burst of compilation stands out above the others.
        const typical = (n: ServerName) => {
      const ws = results.get(n)!.windows.map((w) => corrected(n, w));
      return { main: median(ws.map((w) => w.main)), all: median(ws.map((w) => w.all)) };
    };
    const off = typical('off');
    const sampled = `traces sampled at ${Math.round(o.ratio * 1000) / 10} %`;
    const row = (n: ServerName, label: string) => {
      const r = results.get(n)!;
      const x = typical(n);
      const idle = (r.idle.all / r.idleMs) * 1000;
      return `| ${label} | ${r.windows.map((w) => `${k(corrected(n, w).main)} / ${k(corrected(n, w).all)} (${(w.ms / 1000).toFixed(0)} s)`).join('; ')} | ${k(x.main)} / ${k(x.all)}${n === 'off' ? '' : `; **${pct(off.main / x.main)}** / **${pct(off.all / x.all)}**`} | ${k(idle)} instr/s${n === 'traces' && !o.calibrate ? `; ${r.exports.join(', ')} exports in the windows` : ''} |`;
    };
    // Paired by window: window w of every server ran in the same seconds.
    const mains = (n: ServerName) => results.get(n)!.windows.map((w) => corrected(n, w).main);
    const paired = (n: ServerName, label: string) => {
      const a = mains('off');
      const b = mains(n);
      const ratios = a.map((x, i) => x / b[i]!);
      const range = (xs: number[]) => `${pct(Math.min(...xs))}–${pct(Math.max(...xs))}`;
      return `| ${label} | ${ratios.map(pct).join(', ')} | **${pct(median(ratios))}** (${range(ratios)}) | ${pct(median(a) / median(b))} (${pct(Math.min(...a) / Math.max(...b))}–${pct(Math.max(...a) / Math.min(...b))}) |`;
    };
    process.stdout.write(
      [
        `| server | instructions per warm answer less the idle rate, main thread / all threads (wall time), each window of ${o.requests.toLocaleString('en-US')} | median window; off / this (throughput bound): main / all | idle (all threads) |`,
        '|---|---|---|---|',
        row('off', o.calibrate ? 'off (A)' : 'metrics off'),
        row('on', o.calibrate ? 'off (A2)' : 'metrics on'),
        row('traces', o.calibrate ? 'off (A3)' : `metrics + ${sampled}`),
        '',
        `| off / this, main thread | window by window (windows started together) | median of the windows' ratios (min–max) | ratio of the median windows (its range: off's min–max over this one's max–min) |`,
        '|---|---|---|---|',
        paired('on', o.calibrate ? 'off (A2)' : 'metrics on'),
        paired('traces', o.calibrate ? 'off (A3)' : `metrics + ${sampled}`),
        '',
        `callgrind (valgrind), ${o.warmup.toLocaleString('en-US')} warm-up requests uninstrumented + ${Math.ceil(o.warmup / 4).toLocaleString('en-US')} instrumented, ${o.windows} windows; ${CONNECTIONS} connections; a scrape every ${o.scrapeEvery.toLocaleString('en-US')} requests; OTEL_BSP_SCHEDULE_DELAY=600000`,
        '',
      ].join('\n'),
    );
    for (const s of servers) await stopChild(s.vg.proc.child, 60_000);
  } finally {
    agent.destroy();
    sink.close();
    await cleanupAll();
    await pg.drop();
  }
}
