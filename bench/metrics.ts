// Cost of the Prometheus metrics and of OpenTelemetry traces on the hottest path: warm lookups
// (GET /codes/{code} replayed by the warm-answer cache), wrk, three server processes started
// alike from the shipped bundle on the demo store — metrics off (default), metrics on
// (METRICS_PORT), and metrics on with traces sampled at 10 % by default (OTLP/HTTP protobuf to a sink in
// this process that accepts and discards) — measured alternately in the same run (off, on,
// traces, off, …), with Prometheus-style scrapes of the metrics server every second during the
// metrics runs. Reports the medians and their ratios to "off", and the server's CPU time per
// answered request (user + system of its process over each run, /proc): on a shared machine
// throughput follows whatever else runs on the server's core, while the CPU a request costs
// does not, so the CPU ratio is the figure that separates the cost from the noise.
//
//   npm run bench:metrics [-- --rounds 5 --duration 5 --connections 32 --ratio 0.1]
//   DATABASE_URL=postgres://… npm run bench:metrics -- --instructions [--warmup 12000 --requests 4000 --windows 5 --out DIR --node-flags=--perf-basic-prof]
//
//   npm run bench:metrics -- --fair [--rounds 30 --duration 5 --connections 32 --ratio 0.1 --calibrate --scrape-every 60000 --json FILE]   (as root; 4000: the stress figure)
//   npm run bench:metrics -- --fair --compare DIR   (as root; the traces slot runs DIR's bundle, metrics on, traces off)
//   npm run bench:metrics -- --fair --compare DIR --compare-traced   (both with traces on: this checkout's in the metrics slot)
//   npm run bench:metrics -- --fair --pool A.json,B.json,… [--skip N]   (runs of --json read together, each one's first N rounds left out)
//
// --fair runs the servers at the same time on one core, each process in a cgroup of equal CPU shares,
// with an A/A control server in every run: ratios measured in the same seconds (bench/metricsFair.ts).
// --instructions counts instructions per warm answer under valgrind's callgrind instead of running
// wrk: a measure the machine's load does not move (bench/metricsInstructions.ts says how).
//
// --ratio sets the traced server's sampling ratio (0.1 is issue 30's case). Its cost is what every
// request pays with traces on plus the ratio times what a sampled request adds; `--ratio 0` measures
// the first alone and `--ratio 1` the second ten times larger than at 0.1, so two runs split the
// cost where noise would hide a tenth of it (bench/results.md › Cost of traces, session 13).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runWrk, type LoadResult } from './lib/load.ts';
import { cpuSeconds, ensureTool, pinPlan, pinned } from './lib/pinning.ts';
import { measureFair, poolFair } from './metricsFair.ts';
import { measureInstructions } from './metricsInstructions.ts';
import { mixedWarmUp, observedEnvs, scraping, startObserved, startOtlpSink } from './lib/observedServers.ts';
import { cleanupAll, stopChild } from './lib/procs.ts';
import { median } from './lib/stats.ts';

// --calibrate: all three servers start with metrics and traces off (an A/A run), so the ratios show
// how far apart identical servers measure on this machine now: the noise floor of the real run.
const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    ratio: { type: 'string', default: '0.1' },
    calibrate: { type: 'boolean', default: false },
    instructions: { type: 'boolean', default: false },
    fair: { type: 'boolean', default: false },
    compare: { type: 'string' },
    'compare-traced': { type: 'boolean', default: false },
    json: { type: 'string' },
    pool: { type: 'string' },
    skip: { type: 'string', default: '0' },
    warmup: { type: 'string', default: '12000' },
    requests: { type: 'string', default: '4000' },
    windows: { type: 'string', default: '5' },
    // The fair-share headline scrapes every 60 s (a whole core every 15 s: README › Metrics); other modes every 4 s.
    'scrape-every': { type: 'string' },
    out: { type: 'string' },
    'node-flags': { type: 'string', default: '' },
  },
});
const rounds = Number(args.rounds ?? (args.fair ? 30 : 5));
const durationS = Number(args.duration);
const connections = Number(args.connections);
const ratio = Number(args.ratio);
if (!(ratio >= 0 && ratio <= 1)) throw new Error(`--ratio must be a number from 0 to 1, not ${args.ratio}`);
const sampled = `traces sampled at ${Math.round(ratio * 1000) / 10} %`;
const log = (s: string) => process.stderr.write(`${s}\n`);
if (args.instructions) {
  await measureInstructions({
    ratio,
    calibrate: args.calibrate,
    warmup: Number(args.warmup),
    requests: Number(args.requests),
    windows: Number(args.windows),
    scrapeEvery: Number(args['scrape-every'] ?? 4000),
    out: args.out,
    nodeFlags: args['node-flags'].split(/\s+/).filter(Boolean),
    log,
  });
  process.exit(0);
}
if (args.fair && args.pool) {
  poolFair(args.pool.split(','), Number(args.skip));
  process.exit(0);
}
if (args.fair) {
  await measureFair({ ratio, calibrate: args.calibrate, compare: args.compare === undefined ? undefined : path.resolve(args.compare), compareTraced: args['compare-traced'], scrapeEveryMs: Number(args['scrape-every'] ?? 60000), rounds, durationS, connections, json: args.json, log });
  process.exit(0);
}
const pin = pinPlan();
const wrk = await ensureTool('wrk', log);
const PATH = '/codes/10047700';

const sink = await startOtlpSink();

try {
  const envs = await observedEnvs(sink.url, ratio, args.calibrate);
  const off = await startObserved('off', envs.off, pin.server);
  const on = await startObserved('on', envs.on, pin.server);
  const traced = await startObserved('traces', envs.traces, pin.server);
  if (args.calibrate) log('calibration (A/A): the "metrics" and "traces" servers run with both off');
  const run = async (base: string, s: number): Promise<LoadResult> => runWrk(wrk, { url: `${base}${PATH}`, connections, durationS: s }, pin.load);
  /** A measured run, with the server's CPU microseconds per answered request over it. */
  const measured = async (server: { base: string; pid?: number }): Promise<LoadResult & { cpuUs: number }> => {
    const before = cpuSeconds(server.pid);
    const r = await run(server.base, durationS);
    const after = cpuSeconds(server.pid);
    return { ...r, cpuUs: before === undefined || after === undefined || r.requests === 0 ? Number.NaN : ((after - before) * 1e6) / r.requests };
  };
  for (const s of [off, on, traced]) {
    await run(s.base, 2); // warm-up (the answer is kept after the first)
    await mixedWarmUp(s.base);
  }
  type Measured = LoadResult & { cpuUs: number };
  const results = { off: [] as Measured[], on: [] as Measured[], traces: [] as Measured[] };
  for (let i = 0; i < rounds; i++) {
    results.off.push(await measured(off));
    let stop = scraping(on.metrics);
    results.on.push(await measured(on));
    stop();
    stop = scraping(traced.metrics);
    results.traces.push(await measured(traced));
    stop();
    const f = (r: Measured) => `${Math.round(r.rps)} req/s ${r.cpuUs.toFixed(1)} µs CPU/req`;
    log(`round ${i + 1}: off ${f(results.off.at(-1)!)}, metrics ${f(results.on.at(-1)!)}, metrics + ${sampled} ${f(results.traces.at(-1)!)}`);
  }
  const cpu = (rs: Measured[]) => median(rs.map((r) => r.cpuUs));
  // Each round's ratio to the "off" run just before it, then their median: drift of the machine's load
  // between rounds cancels out of a pair measured seconds apart.
  const paired = (rs: Measured[]) => median(rs.map((r, i) => r.rps / results.off[i]!.rps));
  const [cpuOff, cpuOn, cpuTraces] = [cpu(results.off), cpu(results.on), cpu(results.traces)];
  const offRps = median(results.off.map((r) => r.rps));
  const onRps = median(results.on.map((r) => r.rps));
  const tracesRps = median(results.traces.map((r) => r.rps));
  const p99 = (rs: LoadResult[]) => median(rs.map((r) => r.latencyMs.p99));
  const scrape = on.metrics ? await (await fetch(on.metrics)).text() : '';
  const counted = /http_server_request_duration_seconds_count\{method="GET",route="\/codes\/:code",status_class="2xx",surface="rest"\} (\d+)/.exec(scrape)?.[1];
  const line = `| warm \`GET /codes/{code}\` (replayed), metrics on (\`METRICS_PORT\`, scraped every second) vs off | ${Math.round(onRps).toLocaleString('en-US')} vs ${Math.round(offRps).toLocaleString('en-US')} req/s = **${((onRps / offRps) * 100).toFixed(1)} %**; p99 ${p99(results.on)} vs ${p99(results.off)} ms | wrk 1 thread, ${connections} connections, ${rounds} alternated rounds of ${durationS} s, medians; ${pin.note}; the "on" server counted ${counted ?? '?'} requests |`;
  process.stdout.write(`${line}\n`);
  const traceLine = `| warm \`GET /codes/{code}\` (replayed), metrics on and ${sampled} (\`OTEL_TRACES_SAMPLER=parentbased_traceidratio\`, \`OTEL_TRACES_SAMPLER_ARG=${ratio}\`, OTLP/HTTP protobuf to a local sink) vs off | ${Math.round(tracesRps).toLocaleString('en-US')} vs ${Math.round(offRps).toLocaleString('en-US')} req/s = **${((tracesRps / offRps) * 100).toFixed(1)} %** (${((tracesRps / onRps) * 100).toFixed(1)} % of metrics alone); p99 ${p99(results.traces)} vs ${p99(results.off)} ms | same run and rounds as above; the sink received ${sink.exports} exports |`;
  process.stdout.write(`${traceLine}\n`);
  // Throughput a CPU-bound server on its own core would reach is the inverse of the CPU per request.
  const pairedLine = `| the same, median of each round's ratio to the "off" run just before it | metrics on **${(paired(results.on) * 100).toFixed(1)} %**; metrics + ${sampled} **${(paired(results.traces) * 100).toFixed(1)} %** | ${rounds} rounds |`;
  process.stdout.write(`${pairedLine}\n`);
  const cpuLine = `| server CPU per warm answer (user + system over each run / requests answered), medians | off ${cpuOff.toFixed(1)} µs; metrics on ${cpuOn.toFixed(1)} µs (throughput bound **${((cpuOff / cpuOn) * 100).toFixed(1)} %** of off); metrics + ${sampled} ${cpuTraces.toFixed(1)} µs (**${((cpuOff / cpuTraces) * 100).toFixed(1)} %**) | same run and rounds; includes the scrapes every second |`;
  process.stdout.write(`${cpuLine}\n`);
  await stopChild(off.proc.child);
  await stopChild(on.proc.child);
  await stopChild(traced.proc.child);
} finally {
  await cleanupAll();
  sink.close();
}
