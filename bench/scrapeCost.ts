// What one /metrics scrape costs the serving process, by part (issue 30; bench/results.md › Cost of the
// metrics, session 20). In-process: the service's own registry (src/observability/metrics.ts with the
// GraphQL plugin's histograms), its series filled as a warm server's are (the routes and operations the
// fair-share bench sends, or --series wide: a replica that has seen many routes, statuses and operations),
// then, for each metric, the CPU of its collect and values (`get()`) and of its rendering to text,
// and the whole `registry.metrics()`; a GC observer's cost per collection (allocation loops with and
// without prom-client's `gc` PerformanceObserver). CPU time of this process (process.cpuUsage(), every
// thread), medians over --rounds rounds of --scrapes scrapes, so a loaded host moves the figures less
// than wall-clock would.
//
//   npx tsx bench/scrapeCost.ts [--scrapes 200 --rounds 7 --series bench|wide]
//
// --server: the same over real HTTP, on servers started from the bundle (one per checkout of --roots, this one
// by default; metrics on, METRICS_PORT) pinned to CPU 1 and warmed as the fair-share bench warms them: per round
// and server, the CPU of every thread of the process (/proc/PID/task/*/schedstat) over an idle spell (no requests,
// no scrapes) and over --scrapes scrapes one after the other (keep-alive), the idle rate taken off: CPU per
// scrape, the HTTP exchange included; then wrk for --load-s seconds: garbage collections per 1,000 warm answers
// (the GC observer's callbacks), from the servers' own nodejs_gc_duration_seconds_count.
//
//   npx tsx bench/scrapeCost.ts --server [--roots DIR,DIR --scrapes 100 --rounds 5 --load-s 10]
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import type { Registry } from 'prom-client';
import { graphqlMetricsPlugin } from '../src/graphql/metricsPlugin.ts';
import { Metrics } from '../src/observability/metrics.ts';
import { timings } from '../src/observability/signals.ts';
import { threadCpuNs } from './lib/fairShare.ts';
import { runWrk } from './lib/load.ts';
import { mixedWarmUp, startObserved, type ObservedServer } from './lib/observedServers.ts';
import { ensureTool, pinPlan, which } from './lib/pinning.ts';
import { cleanupAll, freePort, runToEnd, stopChild } from './lib/procs.ts';
import { cpuMs, median } from './lib/stats.ts';
import { projectRoot } from '../src/paths.ts';

const { values: args } = parseArgs({
  options: {
    scrapes: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '7' },
    series: { type: 'string', default: 'bench' },
    server: { type: 'boolean', default: false },
    roots: { type: 'string' },
    'load-s': { type: 'string', default: '10' },
  },
});
const SCRAPES = Number(args.scrapes);
const ROUNDS = Number(args.rounds);
const WIDE = args.series === 'wide';

/** The registry's own renderer (not in prom-client's typings: Registry.metrics() calls it per metric). */
type Renderer = Registry & { getMetricsAsString(m: unknown): Promise<string> };
interface Part {
  name: string;
  get(): Promise<unknown> | unknown;
}

function fill(metrics: Metrics): void {
  const http = (method: string, route: string, status_class: string, surface: string, n: number) => {
    const d = metrics.httpDuration.series({ method, route, status_class, surface });
    const q = metrics.httpRequestSize.series({ surface });
    const r = metrics.httpResponseSize.series({ surface });
    for (let i = 0; i < n; i++) {
      d.observe(0.0004 + (i % 50) * 0.0003);
      q.observe(method === 'POST' ? 120 : 0);
      r.observe(900 + (i % 7) * 100);
    }
  };
  // The fair-share bench's servers: warm GETs of one code, the mixed warm-up's GraphQL POSTs, the start's own requests.
  http('GET', '/codes/:code', '2xx', 'rest', 1000);
  http('POST', '/graphql', '2xx', 'graphql', 100);
  http('GET', '/health', '2xx', 'service', 5);
  if (WIDE) {
    const routes: [string, string, string][] = [
      ['GET', '/codes/:code', 'rest'], ['GET', '/codes/:code/children', 'rest'], ['GET', '/search', 'rest'], ['GET', '/smqs', 'rest'],
      ['GET', '/smqs/:id', 'rest'], ['POST', '/classify', 'rest'], ['POST', '/identify', 'rest'], ['POST', '/impact', 'rest'],
      ['GET', '/fhir/CodeSystem/$lookup', 'fhir'], ['GET', '/fhir/ValueSet/$expand', 'fhir'], ['GET', '/fhir/metadata', 'fhir'],
      ['GET', '/', 'explorer'], ['GET', '/assets/:file', 'explorer'], ['GET', 'unmatched', 'service'], ['GET', '/releases', 'rest'],
    ];
    for (const [m, r, s] of routes) for (const c of ['2xx', '4xx']) http(m, r, c, s, 50);
    http('POST', '/graphql', '4xx', 'graphql', 10);
    http('POST', '/graphql', '5xx', 'graphql', 1);
    http('GET', '/codes/:code', 'aborted', 'rest', 1);
  }
  timings.dbQuery?.(0.002, true);
  timings.dbQuery?.(0.05, false);
  timings.indexLoad?.('snapshot', 0.3, 1_000_000);
  if (WIDE) for (const e of ['identify', 'classify', 'severity', 'label']) timings.engineTask?.(e, 0.02, 'ok');
}

/** The GraphQL plugin's histograms, filled through its own hooks as /graphql and REST operations fill them. */
function fillGraphql(registry: Registry): void {
  const plugin = graphqlMetricsPlugin(registry) as Required<{ onExecute: (a: unknown) => { onExecuteDone: (a: unknown) => void } }>;
  const ops = WIDE ? ['CodeDetail', 'SearchCodes', 'Classify', 'Impact', 'ExplorerCode', 'ExplorerSearch', 'other', 'anonymous'] : ['CodeDetail', 'anonymous'];
  for (const name of ops) {
    for (const inProcess of [true, false]) {
      const document = { kind: 'Document', definitions: [{ kind: 'OperationDefinition', operation: 'query', name: name === 'anonymous' ? undefined : { kind: 'Name', value: name } }] };
      const hooks = plugin.onExecute({ args: { document, operationName: undefined, contextValue: { inProcess } } });
      hooks.onExecuteDone({ result: {} });
    }
  }
}

async function cpuOf(n: number, f: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = cpuMs();
  for (let i = 0; i < n; i++) await f();
  return (cpuMs() - t0) / n;
}

/**
 * What prom-client's `gc` collector (a PerformanceObserver of 'gc' entries, a labelled Histogram observation for
 * each) costs per garbage collection: the same allocation loop (a fixed number of iterations) in fresh child Nodes
 * with a 1 MB semi-space, so that scavenges come every few hundred µs, without any observer and with the
 * collector's; the CPU difference over the collections the observed child counted. The variants alternate,
 * `rounds` children of each.
 */
function gcProbe(rounds: number): { plainMs: number[]; observedMs: number[]; gcs: number[] } {
  const script = `
    import { PerformanceObserver } from 'node:perf_hooks';
    import { createRequire } from 'node:module';
    const { Histogram } = createRequire(${JSON.stringify(`${projectRoot}/`)})('prom-client');
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
    let gcs = 0;
    if (process.argv.at(-1) === 'observed') {
      const h = new Histogram({ name: 'gc_probe', help: 'probe', labelNames: ['kind'], buckets: [0.001, 0.01, 0.1, 1, 2, 5], registers: [] });
      new PerformanceObserver((list) => { gcs += list.getEntries().length; const e = list.getEntries()[0]; h.observe(Object.assign({ kind: 'minor' }, {}), e.duration / 1000); }).observe({ entryTypes: ['gc'] });
    }
    let keep = [];
    for (let n = 0; n < 600; n++) {
      for (let i = 0; i < 2000; i++) keep.push({ a: i, b: [i] });
      keep = [];
      await new Promise((r) => setImmediate(r));
    }
    const g0 = gcs;
    const t0 = cpu();
    for (let n = 0; n < 6000; n++) {
      for (let i = 0; i < 2000; i++) keep.push({ a: i, b: [i] });
      keep = [];
      await new Promise((r) => setImmediate(r));
    }
    const ms = cpu() - t0;
    await new Promise((r) => setTimeout(r, 50)); // the last entries delivered
    console.log(JSON.stringify({ ms, gcs: gcs - g0 }));`;
  const one = (variant: string) => {
    const r = spawnSync(process.execPath, ['--max-semi-space-size=1', '--input-type=module', '-e', script, variant], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`gc probe: ${r.stderr}`);
    return JSON.parse(r.stdout) as { ms: number; gcs: number };
  };
  const out = { plainMs: [] as number[], observedMs: [] as number[], gcs: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    out.plainMs.push(one('plain').ms);
    const o = one('observed');
    out.observedMs.push(o.ms);
    out.gcs.push(o.gcs);
  }
  return out;
}

async function main(): Promise<void> {
  const metrics = new Metrics({ store: 'embedded', languages: () => ['en', 'ja'] });
  fillGraphql(metrics.registry);
  fill(metrics);
  const registry = metrics.registry as Renderer;
  const all = registry.getMetricsAsArray() as unknown as Part[];
  const text = await metrics.text();
  const lines = text.split('\n').filter((l) => l && !l.startsWith('#')).length;
  console.log(`registry: ${all.length} metrics, ${lines} series lines, ${text.length} bytes of text (--series ${WIDE ? 'wide' : 'bench'})`);

  const getMs = new Map<string, number[]>();
  const renderMs = new Map<string, number[]>();
  const totals: number[] = [];
  // Warm the code first (a server has scraped a few times before the figures that matter).
  for (let i = 0; i < 50; i++) await metrics.text();
  for (let r = 0; r < ROUNDS; r++) {
    totals.push(await cpuOf(SCRAPES, () => metrics.text()));
    for (const m of all) {
      const g = await cpuOf(SCRAPES, () => m.get());
      const s = await cpuOf(SCRAPES, () => registry.getMetricsAsString(m));
      (getMs.get(m.name) ?? getMs.set(m.name, []).get(m.name)!).push(g);
      (renderMs.get(m.name) ?? renderMs.set(m.name, []).get(m.name)!).push(Math.max(0, s - g));
    }
  }
  const rows = all.map((m) => {
    const series = (text.match(new RegExp(`^${m.name}(_bucket|_sum|_count)?[{ ]`, 'gm')) ?? []).length;
    return { name: m.name, series, get: median(getMs.get(m.name)!), render: median(renderMs.get(m.name)!) };
  });
  rows.sort((a, b) => b.get + b.render - (a.get + a.render));
  console.log(`\nregistry.metrics(), whole scrape: ${(median(totals) * 1000).toFixed(0)} µs of CPU (rounds ${totals.map((t) => (t * 1000).toFixed(0)).join(', ')})`);
  console.log('\n| metric | series lines | collect + values, µs | rendering, µs |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.series} | ${(r.get * 1000).toFixed(1)} | ${(r.render * 1000).toFixed(1)} |`);
  const sum = (k: 'get' | 'render') => rows.reduce((s, r) => s + r[k], 0) * 1000;
  const defaults = rows.filter((r) => /^(nodejs_|process_)/.test(r.name));
  const dsum = defaults.reduce((s, r) => s + r.get + r.render, 0) * 1000;
  console.log(`\nsum of parts: collect ${sum('get').toFixed(0)} µs, rendering ${sum('render').toFixed(0)} µs; prom-client's defaults (nodejs_*, process_*) ${dsum.toFixed(0)} µs`);

  const gc = gcProbe(ROUNDS);
  const perGc = gc.observedMs.map((o, i) => ((o - gc.plainMs[i]!) / gc.gcs[i]!) * 1000);
  console.log(
    `\nGC observer (prom-client's nodejs_gc_duration_seconds): the allocation loop ${median(gc.plainMs).toFixed(0)} ms of CPU without it, ${median(gc.observedMs).toFixed(0)} with it, ${median(gc.gcs)} collections: ` +
      `**${median(perGc).toFixed(1)} µs per GC** (median of the pairs; ${perGc.map((x) => x.toFixed(1)).join(', ')})`,
  );
  metrics.close();
}

const processNs = (pid: number) => [...threadCpuNs(pid).values()].reduce((a, b) => a + b, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** minor/major/… collections so far, from a scrape's text. */
function gcCount(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/^nodejs_gc_duration_seconds_count\{[^}]*\} (\d+)/gm)) n += Number(m[1]);
  return n;
}

async function serverMode(): Promise<void> {
  const roots = args.roots ? args.roots.split(',').map((r) => r.trim()) : [projectRoot];
  const pin = pinPlan();
  const wrk = await ensureTool('wrk', (l) => console.error(l));
  // This process (the scrapes, the bookkeeping) on the load core, off the servers'.
  const taskset = which('taskset');
  if (taskset && pin.load) await runToEnd(taskset, ['-a', '-cp', pin.load, String(process.pid)], { timeoutMs: 10_000 });
  const servers: (ObservedServer & { root: string })[] = [];
  try {
    for (const [i, root] of roots.entries()) servers.push({ ...(await startObserved(`scrape${i}`, { METRICS_PORT: String(await freePort()) }, pin.server, root)), root });
    for (const s of servers) {
      await runWrk(wrk, { url: `${s.base}/codes/10047700`, connections: 32, durationS: 2 }, pin.load);
      await mixedWarmUp(s.base);
      for (let i = 0; i < 20; i++) await (await fetch(s.metrics!)).text();
    }
    const perScrape = servers.map(() => [] as number[]);
    const idle = servers.map(() => [] as number[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, s] of servers.entries()) {
        const i0 = processNs(s.pid);
        const w0 = performance.now();
        await sleep(3_000);
        const idleNsPerMs = (processNs(s.pid) - i0) / (performance.now() - w0);
        const c0 = processNs(s.pid);
        const t0 = performance.now();
        for (let i = 0; i < SCRAPES; i++) await (await fetch(s.metrics!)).text();
        const used = processNs(s.pid) - c0 - idleNsPerMs * (performance.now() - t0);
        perScrape[k]!.push(used / SCRAPES / 1e6);
        idle[k]!.push(idleNsPerMs / 1e3);
      }
      console.error(`round ${r + 1}: ${servers.map((s, k) => `${s.root}: ${perScrape[k]!.at(-1)!.toFixed(2)} ms per scrape, idle ${idle[k]!.at(-1)!.toFixed(2)} ms/s`).join('; ')}`);
    }
    const text = await (await fetch(servers[0]!.metrics!)).text();
    console.log(`\n${text.split('\n').filter((l) => l && !l.startsWith('#')).length} series lines, ${text.length} bytes a scrape`);
    console.log('\n| server | CPU per scrape, ms (median; rounds) | idle, ms of CPU a second | GCs per 1,000 warm answers (req/s under wrk) |\n|---|---|---|---|');
    for (const [k, s] of servers.entries()) {
      const g0 = gcCount(await (await fetch(s.metrics!)).text());
      const w = await runWrk(wrk, { url: `${s.base}/codes/10047700`, connections: 32, durationS: Number(args['load-s']) }, pin.load);
      const gcs = gcCount(await (await fetch(s.metrics!)).text()) - g0;
      console.log(`| ${s.root} | **${median(perScrape[k]!).toFixed(2)}** (${perScrape[k]!.map((x) => x.toFixed(2)).join(', ')}) | ${median(idle[k]!).toFixed(2)} | ${((gcs / w.requests) * 1000).toFixed(2)} (${Math.round(w.rps)} req/s, ${gcs} GCs in ${w.durationS} s) |`);
    }
    for (const s of servers) await stopChild(s.proc.child);
  } finally {
    await cleanupAll();
  }
}

if (args.server) await serverMode();
else await main();
