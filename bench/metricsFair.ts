// `npm run bench:metrics -- --fair`: the cost of metrics and traces as simultaneous fair-share rounds,
// for a machine where servers measured one after the other differ by more than the costs (a 2-core VM:
// rounds of one server spread ±30 %, bench/results.md › Session 16, wrk on a quiet host).
//
// Method. Four servers start alike from the bundle on the demo store: metrics off, off again (an A/A
// control in every run: its ratio to "off" is the run's noise floor), metrics on, metrics on with traces
// sampled at --ratio (OTLP/HTTP protobuf to a sink in this process). All four are pinned to the same core
// and each is in a cgroup of its own with equal cpu.shares, so the kernel gives each PROCESS — all its
// threads, the traces' export worker and V8's helpers included — an equal share of that core while all
// are busy. In each round four wrk processes (one per server, on the other core with this process, same
// connections and duration) start together; each server is CPU-bound on its share, so what the host
// does in those seconds (steal, other tenants, frequency) hits the four alike. Per round and server:
// requests answered (wrk), the group's CPU time (cpuacct.usage, ns) and each thread's
// (/proc/PID/task/TID/schedstat). Three ratios to "off" of the same round:
//   - throughput: req/s over off's req/s (equal shares make it the inverse ratio of CPU per request);
//   - whole process: requests per CPU-second of the group over off's (independent of how fair the
//     shares were: the figure to read);
//   - serving thread: requests per CPU-second of Node's main thread over off's (where the request path's
//     cost sits; the rest, GC helpers, compiler and the export worker, is reported per request apart).
// Servers change groups and wrk's start order rotates from round to round. Reported: the median of the
// per-round ratios with a percentile-bootstrap 95 % interval, and each group's CPU share over the baseline's
// (the fairness check: ~100 %). The interval is over rounds of the same processes: a process's own luck
// (A/A a few per cent off 100 % for a whole run) shows only across runs, so repeat runs and read them together.
//
//   npm run bench:metrics -- --fair [--rounds 30 --duration 5 --connections 32 --ratio 0.1 --calibrate --scrape-every 60000 --json FILE]   (60 s the default since session 24)
//   npm run bench:metrics -- --fair --compare DIR   (the traces slot: DIR's bundle with metrics on, traces off)
//   npm run bench:metrics -- --fair --compare DIR --compare-traced   (traces on in both: this checkout's in the "metrics" slot, DIR's in the traces slot)
//   npm run bench:metrics -- --fair --pool A.json,B.json,… [--skip N]   (runs written by --json, read together; with --compare, the two slots round by round too)
//
// Needs root (cgroup v1 cpu and cpuacct controllers), taskset, 2+ cores and wrk.
import { writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { fairGroups, coreJiffies, loadAverage, medianWithInterval, pooledMedianWithInterval, threadCpuNs, type FairGroup } from './lib/fairShare.ts';
import { runWrk, type LoadResult } from './lib/load.ts';
import { mixedWarmUp, observedEnvs, scraping, startObserved, startOtlpSink, type ObservedServer } from './lib/observedServers.ts';
import { ensureTool, pinPlan, which } from './lib/pinning.ts';
import { alive, cleanupAll, runToEnd, stopChild } from './lib/procs.ts';
import { median } from './lib/stats.ts';

export interface FairOptions {
  ratio: number;
  /** All four servers off (an A/A/A/A run). */
  calibrate: boolean;
  /**
   * Another checkout whose bundle runs in the traces slot with metrics on and traces off: two versions of the
   * metrics compared in the same rounds (this checkout's in the "metrics on" slot).
   */
  compare?: string;
  /** With `compare`: both slots run with traces on too (this checkout's in the "metrics on" slot), two versions of the traces compared. */
  compareTraced?: boolean;
  /**
   * The metrics servers' scrape interval, ms. Default 4,000: each server has a quarter of a core, so per request that is
   * what a server on a core of its own scraped every second pays; 60,000 stands for Prometheus's usual 15 s.
   */
  scrapeEveryMs?: number;
  rounds: number;
  durationS: number;
  connections: number;
  /** Writes every round's raw figures there (JSON). */
  json?: string;
  log: (s: string) => void;
}

const PATH = '/codes/10047700';
const IDLE_MS = 8_000;
type Name = 'off' | 'offAgain' | 'on' | 'traces';
const NAMES: readonly Name[] = ['off', 'offAgain', 'on', 'traces'];

/** One server's figures in one round. */
export interface FairSample {
  group: string;
  requests: number;
  rps: number;
  p99Ms: number;
  /** CPU time of its group (every thread of the process), ns. */
  groupNs: number;
  /** CPU time of Node's main thread (tid = pid), ns. */
  mainNs: number;
  /** CPU time of its other threads (V8's helpers, libuv, the export worker), ns. */
  otherNs: number;
}

export interface FairRound {
  load1: number;
  /** From the first wrk's start to the last one's end, s. */
  wallS?: number;
  /** Share of the servers' core that was busy and that the hypervisor stole, over the round. */
  coreBusy: number;
  coreSteal: number;
  servers: Record<Name, FairSample>;
}

export async function measureFair(o: FairOptions): Promise<FairRound[]> {
  const pin = pinPlan();
  if (pin.server === undefined || pin.load === undefined) throw new Error(`--fair needs two cores and taskset: ${pin.note}`);
  const groups = fairGroups('bench-fair', NAMES.length);
  if (typeof groups === 'string') throw new Error(`--fair: ${groups}`);
  // wrk and this process in a group of larger shares: on a busy host a starved load generator leaves the servers
  // idle part of the time (no longer CPU-bound), the faster one most. It takes only what it needs (~0.3 core).
  const loadGroup = fairGroups('bench-fair-load', 1, 4096);
  if (typeof loadGroup === 'string') {
    for (const g of groups) g.remove();
    throw new Error(`--fair: ${loadGroup}`);
  }
  loadGroup[0]!.add(process.pid); // the children it spawns (wrk, the servers before they are placed) start there
  const wrk = await ensureTool('wrk', o.log);
  // This process (the sink, the scrapes, the bookkeeping) beside wrk, off the servers' core.
  const taskset = which('taskset');
  if (taskset) await runToEnd(taskset, ['-a', '-cp', pin.load, String(process.pid)], { timeoutMs: 10_000 });
  const serverCore = Number(pin.server);
  const sink = await startOtlpSink();
  const stops: (() => void)[] = [];
  let serversOfRun: Partial<Record<Name, ObservedServer>> | undefined;
  try {
    const envs = await observedEnvs(sink.url, o.ratio, o.calibrate);
    const comparing = o.compare !== undefined && !o.calibrate;
    const traced = comparing && o.compareTraced;
    const envOf: Record<Name, Record<string, string>> = {
      off: envs.off,
      offAgain: envs.off,
      on: traced ? envs.traces : envs.on,
      // Another call: metrics ports of its own.
      traces: traced ? (await observedEnvs(sink.url, o.ratio, false)).traces : comparing ? (await observedEnvs(sink.url, 0, false)).on : envs.traces,
    };
    const servers = {} as Record<Name, ObservedServer>;
    serversOfRun = servers;
    // The start order rotates from run to run, a precaution: the first server started idles longest before the
    // rounds (V8 may shrink an idle heap); in the runs so far it was not consistently the slower one.
    const first = process.pid % NAMES.length;
    for (let k = 0; k < NAMES.length; k++) {
      const n = NAMES[(first + k) % NAMES.length]!;
      servers[n] = await startObserved(n, envOf[n], pin.server, comparing && n === 'traces' ? o.compare : undefined);
    }
    // Group g holds server (g + round) % n: a group that the kernel favoured would favour each server in turn.
    let placed = {} as Record<Name, FairGroup>;
    const groupOf = (n: Name) => placed[n];
    const place = (round: number) => {
      const at = {} as Record<Name, FairGroup>;
      placed = at;
      NAMES.forEach((n, k) => {
        at[n] = groups[(k + round) % groups.length]!;
        at[n].add(servers[n].pid);
      });
      return at;
    };
    place(0);
    for (const n of NAMES) {
      await runWrk(wrk, { url: `${servers[n].base}${PATH}`, connections: o.connections, durationS: 2 }, pin.load);
      await mixedWarmUp(servers[n].base);
    }
    // Scraped every NAMES.length seconds by default: each server runs on 1/NAMES.length of a core, so per request this
    // is what a server on a whole core scraped every second (Prometheus's usual interval is 15 s: conservative) pays.
    for (const n of NAMES) stops.push(scraping(servers[n].metrics, o.scrapeEveryMs ?? NAMES.length * 1000));
    // What each server uses per second with no requests (timers: the event-loop-delay monitor; the scrapes), ns/s.
    // Each server here has 1/NAMES.length of a core, so such per-second costs weigh NAMES.length times more per
    // request than on a core of its own; the report also gives the ratios with this rate taken off each round.
    const idleNsPerS = {} as Record<Name, number>;
    {
      const g0 = NAMES.map((n) => groupOf(n).usageNs());
      const w0 = performance.now();
      await new Promise((r) => setTimeout(r, IDLE_MS));
      const wall = (performance.now() - w0) / 1000;
      NAMES.forEach((n, k) => (idleNsPerS[n] = (groupOf(n).usageNs() - g0[k]!) / wall));
      o.log(`idle: ${NAMES.map((n) => `${n} ${(idleNsPerS[n] / 1e6).toFixed(2)} ms/s`).join(', ')}`);
    }
    const rounds: FairRound[] = [];
    // Round 0 is a warm-up (the four loaded together for the first time), not reported.
    for (let r = 0; r <= o.rounds; r++) {
      const at = place(r);
      const order = NAMES.map((_, k) => NAMES[(k + r) % NAMES.length]!);
      const load1 = loadAverage();
      const core0 = coreJiffies(serverCore);
      const g0 = Object.fromEntries(NAMES.map((n) => [n, at[n].usageNs()])) as Record<Name, number>;
      const t0 = Object.fromEntries(NAMES.map((n) => [n, threadCpuNs(servers[n].pid)])) as Record<Name, Map<number, number>>;
      const w0 = performance.now();
      const runs = order.map((n) => runWrk(wrk, { url: `${servers[n].base}${PATH}`, connections: o.connections, durationS: o.durationS }, pin.load).then((res) => [n, res] as const));
      const results = Object.fromEntries(await Promise.all(runs)) as Record<Name, LoadResult>;
      const wallS = (performance.now() - w0) / 1000;
      const core1 = coreJiffies(serverCore);
      const sample = {} as Record<Name, FairSample>;
      for (const n of NAMES) {
        const t1 = threadCpuNs(servers[n].pid);
        let mainNs = 0;
        let otherNs = 0;
        for (const [tid, ns] of t1) {
          const used = ns - (t0[n].get(tid) ?? 0);
          if (tid === servers[n].pid) mainNs += used;
          else otherNs += used;
        }
        const res = results[n];
        sample[n] = { group: at[n].name, requests: res.requests, rps: res.rps, p99Ms: res.latencyMs.p99, groupNs: at[n].usageNs() - g0[n], mainNs, otherNs };
      }
      const total = core1 && core0 ? core1.total - core0.total : 0;
      const round: FairRound = {
        load1,
        wallS,
        coreBusy: total ? (core1!.busy - core0!.busy) / total : Number.NaN,
        coreSteal: total ? (core1!.steal - core0!.steal) / total : Number.NaN,
        servers: sample,
      };
      const f = (n: Name) => `${n} ${Math.round(sample[n].rps)} req/s ${((sample[n].groupNs / 1e3) / sample[n].requests).toFixed(1)} µs/req (main ${((sample[n].mainNs / 1e3) / sample[n].requests).toFixed(1)})`;
      o.log(`round ${r}${r === 0 ? ' (warm-up)' : ''}: load ${load1}, core ${Math.round(round.coreBusy * 100)} % busy, steal ${Math.round(round.coreSteal * 100)} %; ${NAMES.map(f).join('; ')}`);
      if (r > 0) rounds.push(round);
    }
    if (o.json) writeFileSync(o.json, JSON.stringify({ options: { ...o, log: undefined }, startedFirst: NAMES[first], idleNsPerS, sinkExports: sink.exports, rounds }, null, 1));
    report(rounds, o, sink.exports, idleNsPerS);
    for (const n of NAMES) await stopChild(servers[n].proc.child);
    return rounds;
  } catch (e) {
    // A failed round says which server stopped (exit code or signal) and what it last wrote: wrk only sees refused sockets.
    for (const n of NAMES) {
      const child = serversOfRun?.[n]?.proc.child;
      if (child && !alive(child)) o.log(`${n} (pid ${child.pid}) exited: code ${child.exitCode}, signal ${child.signalCode}; its last output:\n${serversOfRun![n]!.proc.stderr.toString().slice(-2_000)}`);
    }
    throw e;
  } finally {
    for (const s of stops) s();
    await cleanupAll();
    sink.close();
    for (const g of [...groups, ...loadGroup]) {
      try {
        g.remove();
      } catch (e) {
        o.log(`cgroup ${g.name} not removed: ${(e as Error).message}`);
      }
    }
  }
}

/**
 * Per-round ratios of a server to the same round's baseline: "off" for the A/A server itself (the noise floor),
 * the geometric mean of the two "off" servers for the others — two processes, so that one server's own luck (its
 * JIT's choices, its memory layout: the A/A ratio stays a few per cent off 100 % for a whole run) weighs half.
 */
export function fairRatios(rounds: readonly FairRound[], n: Name, idleNsPerS?: Record<Name, number>): Record<'throughput' | 'process' | 'main' | 'share' | 'busy', number[]> {
  // Requests per CPU-second less the server's idle rate over the round: what a request costs itself.
  const busy = (r: FairRound, m: Name) => r.servers[m].requests / (r.servers[m].groupNs - (idleNsPerS?.[m] ?? 0) * (r.wallS ?? 0));
  const base = (r: FairRound, f: (s: FairSample) => number) => (n === 'offAgain' ? f(r.servers.off) : Math.sqrt(f(r.servers.off) * f(r.servers.offAgain)));
  const ratio = (f: (s: FairSample) => number) => rounds.map((r) => f(r.servers[n]) / base(r, f));
  return {
    throughput: ratio((s) => s.rps),
    process: ratio((s) => s.requests / s.groupNs),
    main: ratio((s) => s.requests / s.mainNs),
    share: ratio((s) => s.groupNs),
    busy: rounds.map((r) => busy(r, n) / (n === 'offAgain' ? busy(r, 'off') : Math.sqrt(busy(r, 'off') * busy(r, 'offAgain')))),
  };
}

function labels(compare: string | undefined, traced: boolean | undefined, ratio: number): Record<Name, string> {
  const t = `metrics + traces ${Math.round(ratio * 1000) / 10} %`;
  if (compare && traced) return { off: 'off', offAgain: 'off again (A/A)', on: `${t}, this checkout`, traces: `${t}, ${compare}` };
  return { off: 'off', offAgain: 'off again (A/A)', on: 'metrics on', traces: compare ? `metrics on, ${compare}` : t };
}

function report(rounds: readonly FairRound[], o: FairOptions, exports: number, idle: Record<Name, number>): void {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const ci = (xs: number[]) => {
    const m = medianWithInterval(xs, median);
    return `**${pct(m.median)}** (${pct(m.low)}–${pct(m.high)})`;
  };
  const us = (rs: readonly FairRound[], n: Name, k: 'groupNs' | 'mainNs' | 'otherNs') => median(rs.map((r) => r.servers[n][k] / 1e3 / r.servers[n].requests)).toFixed(1);
  const label: Record<Name, string> = o.calibrate
    ? { off: 'off', offAgain: 'off again (A/A)', on: 'off ("metrics" slot)', traces: 'off ("traces" slot)' }
    : labels(o.compare, o.compareTraced, o.ratio);
  const loads = rounds.map((r) => r.load1);
  const out = [
    `| server (baseline: off's for the A/A server, the two off servers' geometric mean for the others) | req/s / baseline | req per CPU-second of the process / baseline | req per CPU-second of the main thread / baseline | the process's, less its idle rate | CPU share / baseline | CPU per request: process, main thread, other threads |`,
    `|---|---|---|---|---|---|---|`,
    `| off | – | – | – | – | – | ${us(rounds, 'off', 'groupNs')}, ${us(rounds, 'off', 'mainNs')}, ${us(rounds, 'off', 'otherNs')} µs |`,
    ...NAMES.filter((n) => n !== 'off').map((n) => {
      const r = fairRatios(rounds, n, idle);
      return `| ${label[n]} | ${ci(r.throughput)} | ${ci(r.process)} | ${ci(r.main)} | ${ci(r.busy)} | ${pct(median(r.share))} | ${us(rounds, n, 'groupNs')}, ${us(rounds, n, 'mainNs')}, ${us(rounds, n, 'otherNs')} µs |`;
    }),
    '',
    `${rounds.length} simultaneous rounds of ${o.durationS} s (medians of the per-round ratios, bootstrap 95 % intervals), wrk 1 thread × ${o.connections} connections per server; ` +
      `load average ${Math.min(...loads)}–${Math.max(...loads)}; the servers' core busy ${pct(median(rounds.map((r) => r.coreBusy)))}, stolen ${pct(median(rounds.map((r) => r.coreSteal)))} (medians); metrics scraped every ${(o.scrapeEveryMs ?? NAMES.length * 1000) / 1000} s; the sink received ${exports} exports; idle ${NAMES.map((n) => `${n} ${(idle[n] / 1e6).toFixed(2)}`).join(', ')} ms of CPU a second`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

/** Runs written by --json, read together: each run's medians, and the pooled median with a two-level bootstrap interval (runs, then rounds). */
export function poolFair(files: readonly string[], skip = 0): void {
  const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { options: { calibrate: boolean; ratio: number; durationS: number; connections: number; compare?: string; compareTraced?: boolean; scrapeEveryMs?: number }; rounds: FairRound[]; sinkExports: number; idleNsPerS?: Record<Name, number> });
  // --skip N: each run's first N rounds left out (the servers' code still warming up under the shared load).
  for (const r of runs) r.rounds = r.rounds.slice(skip);
  const calibrate = runs.every((r) => r.options.calibrate);
  if (!calibrate && runs.some((r) => r.options.calibrate)) throw new Error('--pool: A/A runs (--calibrate) and real runs are pooled apart');
  const compare = runs[0]!.options.compare;
  if (!calibrate && runs.some((r) => r.options.compare !== compare)) throw new Error('--pool: runs with and without --compare (or with another one) are pooled apart');
  // Runs written before --scrape-every scraped every 4 s.
  const every = (r: (typeof runs)[number]) => r.options.scrapeEveryMs ?? NAMES.length * 1000;
  if (runs.some((r) => every(r) !== every(runs[0]!))) throw new Error('--pool: runs with other scrape intervals are pooled apart');
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const label: Record<Name, string> = calibrate
    ? { off: 'off', offAgain: 'off again (A/A)', on: 'off ("metrics" slot)', traces: 'off ("traces" slot)' }
    : labels(compare, runs[0]!.options.compareTraced, runs[0]!.options.ratio);
  const cell = (n: Name, k: 'throughput' | 'process' | 'main' | 'busy') => {
    const per = runs.filter((r) => k !== 'busy' || r.idleNsPerS).map((r) => fairRatios(r.rounds, n, r.idleNsPerS)[k]);
    if (!per.length) return '–';
    const m = pooledMedianWithInterval(per, median);
    return `**${pct(m.median)}** (${pct(m.low)}–${pct(m.high)}); runs ${per.map((xs) => pct(median(xs))).join(', ')}`;
  };
  // With --compare: the two metrics-on slots against each other, round by round (no off server in the ratio): the A/B of two versions.
  const slots = (k: 'throughput' | 'process' | 'main') => {
    const f = (s: FairSample) => (k === 'throughput' ? s.rps : s.requests / (k === 'process' ? s.groupNs : s.mainNs));
    const per = runs.map((r) => r.rounds.map((x) => f(x.servers.traces) / f(x.servers.on)));
    const m = pooledMedianWithInterval(per, median);
    return `**${pct(m.median)}** (${pct(m.low)}–${pct(m.high)}); runs ${per.map((xs) => pct(median(xs))).join(', ')}`;
  };
  const ab = compare && !calibrate ? [`| ${label.traces} / ${label.on}, same round | ${slots('throughput')} | ${slots('process')} | ${slots('main')} | – |`] : [];
  const loads = runs.flatMap((r) => r.rounds.map((x) => x.load1));
  const out = [
    `| server | req/s / baseline | req per CPU-second of the process / baseline | req per CPU-second of the main thread / baseline | the process's, less its idle rate (runs that measured it) |`,
    `|---|---|---|---|---|`,
    ...NAMES.filter((n) => n !== 'off').map((n) => `| ${label[n]} | ${cell(n, 'throughput')} | ${cell(n, 'process')} | ${cell(n, 'main')} | ${cell(n, 'busy')} |`),
    ...ab,
    '',
    `${runs.length} runs (fresh processes each) of ${runs.map((r) => r.rounds.length).join(', ')} simultaneous rounds${skip ? ` (the first ${skip} of each left out)` : ''}, metrics scraped every ${every(runs[0]!) / 1000} s; pooled median of the per-round ratios, two-level bootstrap 95 % interval (runs, then rounds); load average ${Math.min(...loads)}–${Math.max(...loads)}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}
