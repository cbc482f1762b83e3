// Where the CPU of metrics and traces goes under load, by function (issue 30, session 24): V8 CPU profiles
// (`--cpu-prof`, every thread: the serving one and the traces' export worker) of servers under wrk, read
// only inside the windows where wrk ran against that server, as µs of samples per answered request.
//
//   npx tsx bench/metricsProfile.ts [--servers on,traces] [--windows 4] [--duration 8] [--scrape-every 4000]
//                                   [--scrape-windows] [--dir DIR] [--top 40]
//
// Servers start as the fair-share bench starts them (bench/lib/observedServers.ts), pinned to CPU 1, wrk on
// CPU 0, run one at a time in A B B A order. `--scrape-windows`: every server is scraped every --scrape-every ms
// in odd windows and never in even ones, and the windows' difference per scrape is reported (what a scrape
// costs a loaded server, by function). Samples are V8's (the profiler's clock is the monotonic one this
// process reads, so the windows select them); a sample's time is its delta to the next one, which on a
// shared core includes time the thread was off it: compare servers measured alike, not absolute µs.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runWrk } from './lib/load.ts';
import { mixedWarmUp, observedEnvs, startObserved, startOtlpSink, type ObservedServer } from './lib/observedServers.ts';
import { ensureTool, pinPlan } from './lib/pinning.ts';
import { cleanupAll, makeTempDir, stopChild } from './lib/procs.ts';
import { projectRoot } from '../src/paths.ts';
import { loadAverage, threadCpuNs } from './lib/fairShare.ts';

const { values } = parseArgs({
  options: {
    servers: { type: 'string', default: 'on,traces' },
    windows: { type: 'string', default: '4' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    'scrape-every': { type: 'string', default: '4000' },
    'scrape-windows': { type: 'boolean', default: false },
    ratio: { type: 'string', default: '0.1' },
    dir: { type: 'string' },
    top: { type: 'string', default: '40' },
    interval: { type: 'string', default: '200' },
  },
});

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const PATH = '/codes/10047700';
const log = (s: string) => process.stderr.write(`${s}\n`);
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** A frame's label: function, file (trimmed to the package or src path) and line. */
function label(n: Node): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const file = url.replace(/^.*node_modules\//, '').replace(/^.*\/(dist|src)\//, '$1/').replace(/^file:\/\//, '');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

/** What part a frame belongs to, by its file. */
function part(n: Node): string {
  const u = n.callFrame.url;
  const f = n.callFrame.functionName;
  if (!u) return f.startsWith('(') ? f : '(native)';
  if (u.includes('@opentelemetry')) return 'opentelemetry';
  if (u.includes('prom-client')) return 'prom-client';
  if (/observability|tracing|metrics/i.test(u)) return 'observability (ours)';
  if (u.startsWith('node:')) return `node:${u.slice(5).split('/')[0]}`;
  if (u.includes('node_modules')) return 'other packages';
  return 'app';
}

interface Window {
  server: string;
  from: number;
  to: number;
  requests: number;
  scraped: boolean;
  scrapes: number;
  /** Each scrape's start and end (µs of the monotonic clock), from this process's side. */
  scrapeTimes: [number, number][];
  /** CPU time over the window (/proc schedstat), ns: the serving (main) thread and the whole process. */
  mainNs: number;
  processNs: number;
}

const cpuOf = (pid: number) => {
  const t = threadCpuNs(pid);
  let all = 0;
  for (const v of t.values()) all += v;
  return { main: t.get(pid) ?? 0, all };
};

/** Self time (µs) by label and by part for samples inside `windows`; per thread profile. */
function attribute(p: Profile, windows: readonly Window[]): { byLabel: Map<string, number>; byPart: Map<string, number>; underScrape: number; duringScrape: number } {
  const scrapeTimes = windows.flatMap((w) => w.scrapeTimes ?? []);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // A sample is under a scrape when a frame of its stack is prom-client's registry or the metrics listener.
  const scrapeMemo = new Map<number, boolean>();
  const underScrape = (id: number): boolean => {
    const m = scrapeMemo.get(id);
    if (m !== undefined) return m;
    const n = byId.get(id)!;
    const u = n.callFrame.url;
    const here = (u.includes('prom-client') && /registry|metrics\/|lib\//.test(u)) || /metricsServer|answerScrape|serveMetrics/.test(n.callFrame.functionName);
    const r = here || (parent.has(id) ? underScrape(parent.get(id)!) : false);
    scrapeMemo.set(id, r);
    return r;
  };
  const byLabel = new Map<string, number>();
  const byPart = new Map<string, number>();
  let scrape = 0;
  // Busy samples between a scrape's request and its answer (this process's clock): the scrape's burst, and what requests ran meanwhile.
  let during = 0;
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]!;
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (!windows.some((w) => t >= w.from && t < w.to)) continue;
    const n = byId.get(p.samples[i]!)!;
    // Not CPU: an idle loop, or a pool's worker blocked in Atomics.wait.
    if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === 'atomicsWaitLoop') continue;
    const l = label(n);
    byLabel.set(l, (byLabel.get(l) ?? 0) + dt);
    const k = part(n);
    byPart.set(k, (byPart.get(k) ?? 0) + dt);
    if (underScrape(n.id)) scrape += dt;
    if (scrapeTimes.some(([a, b]) => t >= a && t < b)) during += dt;
  }
  return { byLabel, byPart, underScrape: scrape, duringScrape: during };
}

function profilesOf(dir: string, pid: number): { thread: string; profile: Profile }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile') && f.split('.')[3] === String(pid))
    .map((f) => ({ thread: `thread ${f.split('.')[4]}`, profile: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Profile }));
}

async function main(): Promise<void> {
  const names = values.servers!.split(',') as ('on' | 'traces' | 'traces0' | 'off')[];
  const nWindows = Number(values.windows);
  const durationS = Number(values.duration);
  const connections = Number(values.connections);
  const scrapeEvery = Number(values['scrape-every']);
  const dir = path.resolve(values.dir ?? makeTempDir('metrics-profile-'));
  mkdirSync(dir, { recursive: true });
  const pin = pinPlan();
  const wrk = await ensureTool('wrk', log);
  const sink = await startOtlpSink();
  // traces0: traces on, nothing sampled (the unsampled path alone).
  const envs = { ...(await observedEnvs(sink.url, Number(values.ratio), false)), traces0: (await observedEnvs(sink.url, 0, false)).traces };
  const nodeOptions = `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=${values.interval}`;
  const servers = new Map<string, ObservedServer>();
  try {
    for (const n of names) {
      // --max-old-space-size set: `serve` runs in this process, no heap-limit child (its pid is the profile's).
      servers.set(n, await startObserved(n, envs[n], pin.server, projectRoot, [...nodeOptions.split(' '), '--max-old-space-size=512']));
    }
    for (const [n, s] of servers) {
      await mixedWarmUp(s.base);
      await runWrk(wrk, { url: s.base + PATH, connections, durationS: 5 }, pin.load);
      log(`${n}: warmed (pid ${s.pid})`);
    }
    const windows: Window[] = [];
    const loads: number[] = [];
    // A B B A: each server's windows sit alike in time.
    const order: string[] = [];
    for (let w = 0; w < nWindows; w++) order.push(...(w % 2 === 0 ? names : [...names].reverse()));
    for (let i = 0; i < order.length; i++) {
      const n = order[i]!;
      const s = servers.get(n)!;
      const scraped = values['scrape-windows'] ? Math.floor(i / names.length) % 2 === 0 : scrapeEvery > 0;
      let scrapes = 0;
      const scrapeTimes: [number, number][] = [];
      let stop = () => {};
      if (scraped && s.metrics) {
        const url = s.metrics;
        const t = setInterval(() => {
          scrapes++;
          const t0 = nowUs();
          void fetch(url)
            .then((r) => r.arrayBuffer())
            .then(() => scrapeTimes.push([t0, nowUs()]))
            .catch(() => undefined);
        }, scrapeEvery);
        stop = () => clearInterval(t);
      }
      const cpu0 = cpuOf(s.pid);
      const from = nowUs();
      const r = await runWrk(wrk, { url: s.base + PATH, connections, durationS }, pin.load);
      const to = nowUs();
      const cpu1 = cpuOf(s.pid);
      stop();
      windows.push({ server: n, from, to, requests: r.requests, scraped, scrapes, scrapeTimes, mainNs: cpu1.main - cpu0.main, processNs: cpu1.all - cpu0.all });
      loads.push(loadAverage());
      const last = windows.at(-1)!;
      log(`${n} window ${i}: ${Math.round(r.rps)} req/s, CPU ${(last.processNs / 1000 / r.requests).toFixed(2)} µs/req (main ${(last.mainNs / 1000 / r.requests).toFixed(2)})${scraped ? `, ${scrapes} scrapes` : ''}, load ${loadAverage()}`);
      await new Promise((res) => setTimeout(res, 500));
    }
    if (values['scrape-windows']) {
      // Each scraped window against the unscraped one beside it (same server, seconds apart): the scraped window's CPU
      // beyond its requests at the neighbour's CPU per request, per scrape.
      for (const n of names) {
        const ws = windows.filter((w) => w.server === n);
        const per: { main: number; all: number }[] = [];
        for (let k = 0; k + 1 < ws.length; k += 2) {
          const [a, b] = ws[k]!.scraped ? [ws[k]!, ws[k + 1]!] : [ws[k + 1]!, ws[k]!];
          if (!a.scrapes) continue;
          per.push({ main: (a.mainNs - (a.requests * b.mainNs) / b.requests) / a.scrapes / 1e6, all: (a.processNs - (a.requests * b.processNs) / b.requests) / a.scrapes / 1e6 });
        }
        const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
        console.log(`## ${n}: CPU per scrape beyond the requests' (pairs of neighbouring windows), ms: main thread ${per.map((p) => p.main.toFixed(1)).join(', ')} (median ${med(per.map((p) => p.main)).toFixed(1)}); process ${per.map((p) => p.all.toFixed(1)).join(', ')} (median ${med(per.map((p) => p.all)).toFixed(1)})`);
      }
    }
    for (const s of servers.values()) await stopChild(s.proc.child, 30_000);
    const top = Number(values.top);
    const results: Record<string, unknown> = { loads, windows };
    const perServer = new Map<string, Map<string, number>>();
    for (const [n, s] of servers) {
      const profiles = profilesOf(dir, s.pid);
      if (profiles.length === 0) log(`${n}: no profile of pid ${s.pid} in ${dir}`);
      const sets: [string, Window[]][] = values['scrape-windows']
        ? [['scraped', windows.filter((w) => w.server === n && w.scraped)], ['unscraped', windows.filter((w) => w.server === n && !w.scraped)]]
        : [['all', windows.filter((w) => w.server === n)]];
      for (const [setName, ws] of sets) {
        const requests = ws.reduce((a, w) => a + w.requests, 0);
        const scrapes = ws.reduce((a, w) => a + w.scrapes, 0);
        const labels = new Map<string, number>();
        console.log(`\n## ${n} (${setName}): ${requests} requests, ${scrapes} scrapes in ${ws.length} windows`);
        for (const { thread, profile } of profiles) {
          const a = attribute(profile, ws);
          const total = [...a.byPart.values()].reduce((x, y) => x + y, 0);
          console.log(`${thread}: ${(total / requests).toFixed(2)} µs/request of busy samples; under a scrape's frames ${(a.underScrape / 1000).toFixed(1)} ms${scrapes ? ` (${(a.underScrape / scrapes / 1000).toFixed(2)} ms a scrape; busy while one was in flight ${(a.duringScrape / scrapes / 1000).toFixed(2)} ms a scrape)` : ''}`);
          for (const [k, v] of [...a.byPart].sort((x, y) => y[1] - x[1]).slice(0, 14)) console.log(`  ${k}: ${(v / requests).toFixed(3)} µs/req`);
          for (const [k, v] of a.byLabel) {
            const key = `${thread === 'thread 0' ? '' : '[worker] '}${k}`;
            labels.set(key, (labels.get(key) ?? 0) + v / requests);
          }
        }
        perServer.set(`${n}/${setName}`, labels);
      }
    }
    // Each set's difference to the first (traces − on, or unscraped − scraped), function by function.
    const keys = [...perServer.keys()];
    const base = perServer.get(keys[0]!)!;
    for (const k of keys.slice(1)) {
      const a = perServer.get(k)!;
      const all = new Set([...a.keys(), ...base.keys()]);
      const diff = [...all].map((l) => [l, (a.get(l) ?? 0) - (base.get(l) ?? 0)] as const).sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
      const sum = diff.reduce((x, [, v]) => x + v, 0);
      console.log(`\n## ${k} − ${keys[0]}: ${sum.toFixed(2)} µs/request in all; the largest differences by function:`);
      for (const [l, v] of diff.slice(0, top)) console.log(`  ${v >= 0 ? '+' : ''}${v.toFixed(3)}  ${l}`);
    }
    writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ windows, loads, pids: Object.fromEntries([...servers].map(([n, s]) => [n, s.pid])) }));
    void results;
  } finally {
    sink.close();
    await cleanupAll();
  }
}

await main();
