// The benchmark suite: the real server (`terminology serve`, a child process) on three
// chained synthetic full-size releases imported by the real CLI, loaded over loopback by wrk
// (a native load generator, pinned on its own core) for every throughput figure, and by
// sequential latency loops from this process. Embedded (PGlite) always; also PostgreSQL
// when DATABASE_URL is set (a fresh database is created there and dropped).
// Every throughput figure is a ratio of medians against a bare node:http server answering
// the same captured bytes, measured alternately with the service in the same run
// (bare, service, bare, service, …) and pinned to the same core.
//
//   npm run bench                       # full size; writes bench/results.md
//                                       #   (about 9 min with PostgreSQL on 2 cores); needs wrk (and haproxy for the scale-out row): apt-get install wrk haproxy
//   npm run bench:quick                 # = --quick: scale 0.02, autocannon in this process (no native
//                                       #   tools), 1 round, targets not enforced; prints the table only
//   npm run bench -- --json out.json    # raw results too
//   npm run bench -- --scenario many-releases [--releases N]   # issue 32: bench/manyReleases.ts
// Options: --modes embedded,postgresql  --scale N  --duration S (main wrk runs)  --rounds N (alternations)
//          --connections N (default 32; uncached lookups use 16)
//          --only codes,search,fhir,graphql,changes,classify,labels,cold,scaleout
//          --cpu-prof DIR (the server runs with node --cpu-prof; profiles in DIR/<mode>/)
//          --out PATH (markdown; default bench/results.md, none with --quick)
// The scale-out row (PostgreSQL only) also needs REDIS_URL (the shared rate-limit store).
// Results also record how busy the machine was with other processes (bench/lib/noise.ts).
// Exit code: 0 when the suite ran (targets met or not), 1 when something broke
// (server did not start, a request failed or answered outside 2xx, a child failed), 2 usage
// (including a missing wrk).
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.ts';
import { loadRelease } from '../src/importer/import.ts';
import { cleanupAll, killAllSync, makeTempDir, onCleanup, processMemoryMb, removeTempDir, runToEnd, spawnTracked, stopChild, type Tracked } from './lib/procs.ts';
import { BenchRequestError, capture, interleavedLatencyLoops, latencyLoop, request, type Req } from './lib/http.ts';
import { runAutocannon, runWrk, writePaths, type LoadResult, type LoadSpec } from './lib/load.ts';
import { ensureTool, pidsByComm, pinned, pinPlan, which, withCpu, type Cpu, type PinPlan } from './lib/pinning.ts';
import { detailCode, longNarratives, narratives, productLabel, searchQueries, shuffle, VERSIONS, writeReleases, type BenchData } from './lib/data.ts';
import { startHaproxy } from './lib/haproxy.ts';
import { cpuQuota, type CpuQuota } from './lib/cpuQuota.ts';
import { NoiseSampler } from './lib/noise.ts';
import { consoleTable, cpuBusy, loadAverage, machineInfo, markdown, type ModeReport, type Row } from './lib/report.ts';
import type { InProcessResult } from './lib/inprocess.ts';
import { codes100Query, SUBTREE_QUERY } from './lib/queries.ts';
import { createFreshPostgres } from './lib/pgdb.ts';
import { startServe, type Server } from './lib/service.ts';
import { median } from './lib/stats.ts';

// `--scenario many-releases` is a suite of its own with its own options (bench/manyReleases.ts, issue 32).
if (process.argv.slice(2).some((a) => a === '--scenario' || a.startsWith('--scenario='))) {
  const { runManyReleases } = await import('./manyReleases.ts');
  process.exit(await runManyReleases(process.argv.slice(2)));
}

type Mode = 'embedded' | 'postgresql';
const GROUPS = ['codes', 'search', 'fhir', 'graphql', 'changes', 'classify', 'labels', 'cold', 'scaleout'] as const;

const OPTIONS = {
  quick: { type: 'boolean', default: false },
  json: { type: 'string' },
  out: { type: 'string' },
  modes: { type: 'string' },
  scale: { type: 'string' },
  duration: { type: 'string' },
  rounds: { type: 'string' },
  connections: { type: 'string', default: '32' },
  only: { type: 'string' },
  'cpu-prof': { type: 'string' },
} as const;
const parsed = (() => {
  try {
    return parseArgs({ options: OPTIONS });
  } catch (e) {
    return usage((e as Error).message);
  }
})();
const args = parsed.values;

const quick = args.quick!;
const scale = Number(args.scale ?? (quick ? 0.02 : 1));
const connections = Number(args.connections);
const rounds = Number(args.rounds ?? (quick ? 1 : 3));
const only = new Set((args.only ?? GROUPS.join(',')).split(',').map((s) => s.trim()));
for (const g of only) if (!(GROUPS as readonly string[]).includes(g)) usage(`--only: unknown group '${g}' (${GROUPS.join(', ')})`);
const modes: Mode[] = (args.modes ?? (process.env.DATABASE_URL ? 'embedded,postgresql' : 'embedded')).split(',').map((s) => s.trim()) as Mode[];
for (const m of modes) if (m !== 'embedded' && m !== 'postgresql') usage(`--modes: unknown mode '${m}'`);
if (modes.includes('postgresql') && !process.env.DATABASE_URL) usage('--modes postgresql needs DATABASE_URL (an admin URL: a fresh database is created beside it)');
if (!(scale > 0) || !(connections > 0) || !(rounds >= 1)) usage('--scale, --connections and --rounds must be positive');

/** Durations and counts: bounded everywhere, so the suite always ends. */
// A quick run's info rows and warm-ups last no longer than its main runs (--duration).
const quickS = Number(args.duration ?? 2);
const P = quick
  ? { mainS: quickS, sideS: Math.min(1, quickS), warmS: Math.min(0.5, quickS / 2), coldRestarts: 1, loop: 30, loopMs: 1_000, warmN: 3, gqlN: 5, codes100N: 3, labelN: 3, labelWarm: 1, migrateFirst: false, watchdogMs: 5 * 60_000, cliMs: 120_000 }
  : { mainS: Number(args.duration ?? 5), sideS: 3, warmS: 2, coldRestarts: 3, loop: 300, loopMs: 30_000, warmN: 20, gqlN: 30, codes100N: 40, labelN: 20, labelWarm: 2, migrateFirst: true, watchdogMs: 40 * 60_000, cliMs: 10 * 60_000 };
/** Client addresses the limiter sees (X-Forwarded-For behind TRUST_PROXY), and the limit: high enough that a run measures the limiter's cost, never its 429s. */
const XFF_ADDRESSES = 20_000;
const LIMIT_PER_MINUTE = '1000000';
const UNCACHED_CONNECTIONS = 16;
const LABEL_BYTES = 100_000;
const cliPath = path.join(projectRoot, 'bin/terminology.mjs');

function usage(msg: string): never {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(2);
}
const log = (s: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const r1 = (x: number) => Math.round(x * 10) / 10;
const ms = (x: number) => (x >= 100 ? `${Math.round(x)} ms` : `${r1(x)} ms`);

// ---- process hygiene: nothing may outlive the benchmark --------------------------------
let finishing = false;
async function abort(code: number, why: string): Promise<never> {
  if (!finishing) {
    finishing = true;
    log(why);
    await cleanupAll().catch(() => {});
  }
  process.exit(code);
}
process.on('exit', () => killAllSync());
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => void abort(130, `${sig}: stopping children and cleaning up`));
process.on('uncaughtException', (e) => void abort(1, `uncaught: ${e.stack ?? e}`));
process.on('unhandledRejection', (e) => void abort(1, `unhandled rejection: ${(e as Error)?.stack ?? e}`));
setTimeout(() => void abort(1, `watchdog: the suite exceeded ${P.watchdogMs / 60_000} min`), P.watchdogMs).unref();

function sourceDigest(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (name === 'generated') continue;
      if (statSync(p).isDirectory()) walk(p);
      else h.update(path.relative(projectRoot, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(path.join(projectRoot, 'src'));
  return h.digest('hex').slice(0, 16);
}

// ---- the service under test -----------------------------------------------------------
function modeEnv(mode: Mode, dataDir: string, databaseUrl: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    TERMINOLOGY_DATA_DIR: dataDir,
    TERMINOLOGY_DEMO: 'false',
    // The limiter on, as deployed, with the bench's clients behind a trusted proxy (loopback).
    RATE_LIMIT_PER_MINUTE: LIMIT_PER_MINUTE,
    TRUST_PROXY: '127.0.0.1',
    AI_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
  };
  // The lexical engine, the process-local rate limiter, no replicas: only what is measured.
  for (const k of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'REDIS_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'PORT', 'NODE_OPTIONS']) delete env[k];
  if (mode === 'postgresql') env.DATABASE_URL = databaseUrl;
  return env;
}

/** `terminology serve`, pinned on `cpu` when given (bench/lib/service.ts). */
const startService = (env: NodeJS.ProcessEnv, opts: { cpuProfDir?: string; cpu?: Cpu } = {}): Promise<Server> => startServe(env, { ...opts, timeoutMs: quick ? 60_000 : 120_000 });

/** Resolves once the server logged its warm-up (LOG_LEVEL=info), or throws after `timeoutMs`. */
async function warmedUp(s: Server, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!/warmed the latest release/.test(s.proc.stdout.toString() + s.proc.stderr.toString())) {
    if (performance.now() > deadline) throw new Error(`the server did not log its warm-up within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startBare(dir: string, routes: { path: string; body: Buffer; contentType: string }[], cpu: Cpu | undefined): Promise<{ base: string; proc: Tracked }> {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    routes: routes.map((r, i) => {
      const file = path.join(dir, `body-${i}.bin`);
      writeFileSync(file, r.body);
      return { path: r.path, file, contentType: r.contentType };
    }),
    // Uncached lookups rotate over every code: the bare server answers each with the captured detail.
    fallback: 0,
  };
  const manifestPath = path.join(dir, 'manifest.json');
  writeFileSync(manifestPath, JSON.stringify(manifest));
  let port: number | undefined;
  const [cmd, argv] = pinned(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'bench/lib/bare-server.ts'), manifestPath], cpu);
  const proc = spawnTracked(cmd, argv, {
    cwd: projectRoot,
    env: { ...process.env, NODE_OPTIONS: '' },
    onStdoutLine: (line) => {
      const m = /"port":(\d+)/.exec(line);
      if (m) port = Number(m[1]);
    },
  });
  const t0 = performance.now();
  while (port === undefined) {
    if (proc.child.exitCode !== null) throw new Error(`the bare server exited: ${proc.stderr.toString().slice(-2000)}`);
    if (performance.now() - t0 > 30_000) throw new Error('the bare server did not start within 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { base: `http://127.0.0.1:${port}`, proc };
}

// ---- throughput: the same load on the bare server and the service, alternately -----------
const pathLists = new Map<string, string[]>();
let wrkPath: string | undefined;
const pin: PinPlan = quick ? { note: 'quick run: autocannon in the bench process, no pinning' } : pinPlan();

function drive(spec: LoadSpec): Promise<LoadResult> {
  return quick || !wrkPath ? runAutocannon(spec, spec.pathsFile ? pathLists.get(spec.pathsFile) : undefined) : runWrk(wrkPath, spec, pin.load);
}

interface Alternation {
  svc: LoadResult[];
  bare: LoadResult[];
  svcRps: number;
  bareRps: number;
  /** Median service req/s over median bare req/s. */
  ratio: number;
  svcP99: number;
  bareP99: number;
  /** Share of one core used by each process during its own runs (mean over rounds). */
  cpu: Record<string, number>;
  /** Spread of the service's rounds: (max − min) / median. */
  spread: number;
}

/**
 * `rounds` × (bare run, service run), after one warm-up run each. `spec(side, round)` may
 * vary per round (uncached lookups move on through the code list). Each side's processes'
 * CPU is sampled over its own runs: a side at 1.0 of its core is CPU-bound there.
 */
async function alternate(
  sides: { svc: { base: string; pids: Record<string, number | number[] | undefined> }; bare: { base: string; pids: Record<string, number | number[] | undefined> } },
  spec: (side: 'svc' | 'bare', round: number) => LoadSpec,
  opts: { rounds: number; warmS: number },
): Promise<Alternation> {
  const at = (side: 'svc' | 'bare', r: number): LoadSpec => {
    const s = spec(side, r);
    return { ...s, url: s.url.startsWith('http') ? s.url : sides[side].base + s.url };
  };
  if (opts.warmS > 0) {
    await drive({ ...at('bare', -1), durationS: opts.warmS });
    await drive({ ...at('svc', -1), durationS: opts.warmS });
  }
  const out = { svc: [] as LoadResult[], bare: [] as LoadResult[] };
  const cpu: Record<string, number[]> = {};
  for (let r = 0; r < opts.rounds; r++) {
    for (const side of ['bare', 'svc'] as const) {
      const { result, cpu: c } = await withCpu(sides[side].pids, () => drive(at(side, r)));
      out[side].push(result);
      // Core shares are kept per side: the service side's as core0, core1…, the baseline's as 'baseline core0'…
      for (const [k, v] of Object.entries(c)) (cpu[side === 'bare' && k.startsWith('core') ? `baseline ${k}` : k] ??= []).push(v);
    }
  }
  const svcRps = median(out.svc.map((x) => x.rps));
  const bareRps = median(out.bare.map((x) => x.rps));
  const rpsS = out.svc.map((x) => x.rps);
  return {
    ...out,
    svcRps,
    bareRps,
    ratio: svcRps / bareRps,
    svcP99: r1(median(out.svc.map((x) => x.latencyMs.p99))),
    bareP99: r1(median(out.bare.map((x) => x.latencyMs.p99))),
    cpu: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 100) / 100])),
    spread: Math.round(((Math.max(...rpsS) - Math.min(...rpsS)) / svcRps) * 100) / 100,
  };
}

/** CPU µs per request of a side: its processes' core share over its req/s. */
function cpuPerReq(a: Alternation, side: 'svc' | 'bare'): number | undefined {
  const keys = Object.keys(a.cpu).filter((k) => !k.startsWith('core') && !k.startsWith('baseline') && (side === 'bare' ? k === 'bare' || k.startsWith('one-process') : k !== 'bare' && !k.startsWith('one-process')));
  const rps = side === 'svc' ? a.svcRps : a.bareRps;
  if (!keys.length || !rps) return undefined;
  return Math.round((keys.reduce((n, k) => n + a.cpu[k]!, 0) * 1e6) / rps);
}

/** "12,345 req/s = 52% of bare (23,456 req/s) …": medians, spread, CPU per request and core shares. */
function altText(a: Alternation): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const cs = cpuPerReq(a, 'svc');
  const cb = cpuPerReq(a, 'bare');
  const byCpu = cs && cb ? `; by CPU per request ${cs} µs vs bare ${cb} µs = ${Math.round((cb / cs) * 100)}% of bare` : '';
  return `${n(a.svcRps)} req/s = ${Math.round(a.ratio * 100)}% of bare (${n(a.bareRps)} req/s); p99 ${a.svcP99} ms (bare ${a.bareP99} ms); medians of ${a.svc.length} alternated round(s), service rounds spread ${Math.round(a.spread * 100)}%${byCpu}; CPU shares ${Object.entries(a.cpu)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`;
}

/** The measured cause of a throughput shortfall: CPU per request of each side, and whether the service's core was its own. */
function throughputCause(a: Alternation): string {
  const cs = cpuPerReq(a, 'svc');
  const cb = cpuPerReq(a, 'bare');
  const svcCpu = Object.entries(a.cpu).filter(([k]) => k !== 'bare' && !k.startsWith('core') && !k.startsWith('baseline') && !k.startsWith('one-process')).reduce((n, [, v]) => n + v, 0);
  const core = pin.server !== undefined ? a.cpu[`core${pin.server}`] : undefined;
  const parts = [`the service took ${cs ?? '?'} µs of CPU per request against the bare server's ${cb ?? '?'} µs (same bytes, same pinned core)`];
  if (svcCpu >= 0.85) parts.push(`it was CPU-bound (${r1(svcCpu)} of its core): the ratio is that per-request CPU`);
  else if (core !== undefined && core - svcCpu > 0.25) parts.push(`its core was ${Math.round(core * 100)}% busy but only ${Math.round(svcCpu * 100)}% was the service: other processes on this shared machine took the rest, so the req/s ratio is noise-bound and the CPU-per-request ratio is the better figure`);
  else parts.push(`it used only ${r1(svcCpu)} of its core: it waited (database, event loop stalls or the load generator)`);
  return parts.join('; ');
}

/**
 * Two `terminology serve` processes on the same PostgreSQL database and Redis (the shared
 * limiter) behind haproxy round-robin, against one process behind an identical haproxy,
 * alternated. wrk and both proxies are pinned on CPU 0 ("aside"); the servers, PostgreSQL
 * and Redis are not pinned: with two cores, the second process has only what the load
 * generator, the proxy and the database leave — the CPU of every process is reported.
 */
/**
 * Two server processes behind haproxy (round robin) against one behind the same proxy, both
 * on one PostgreSQL and the shared Redis limiter. `serverEnv` adds to the servers' environment.
 */
async function scaleOut(
  env: NodeJS.ProcessEnv,
  spec: () => LoadSpec,
  prime: string,
  dir: string,
  serverEnv: NodeJS.ProcessEnv = {},
  quotaCores?: number,
): Promise<string | { two: Alternation; pinning: string; cause: string }> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) return 'REDIS_URL is not set (the two processes share the rate limiter through Redis)';
  const haproxy = which('haproxy');
  if (!haproxy) return 'haproxy is not installed: `apt-get install haproxy`';
  const sEnv = { ...env, ...serverEnv, LOG_LEVEL: 'info', REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `te-bench-${randomBytes(4).toString('hex')}` };
  const started: Tracked[] = [];
  const quotas: CpuQuota[] = [];
  try {
    const s1 = await startService(sEnv);
    started.push(s1.proc);
    const s2 = await startService(sEnv);
    started.push(s2.proc);
    if (quotaCores !== undefined) {
      // Each server in a group of its own, held to the same fraction of a core.
      for (const s of [s1, s2]) {
        const q = cpuQuota(`te-bench-${randomBytes(4).toString('hex')}`, quotaCores);
        if (typeof q === 'string') return q;
        quotas.push(q);
        q.add(s.proc.child.pid!);
      }
    }
    const one = await startHaproxy(haproxy, path.join(dir, 'haproxy-one'), [s1.base], pin.load);
    started.push(one.proc);
    const two = await startHaproxy(haproxy, path.join(dir, 'haproxy-two'), [s1.base, s2.base], pin.load);
    started.push(two.proc);
    // Measured only once both hold the latest release's index and change set (their warm-up's
    // log line): before that an executed lookup reads SQL, and the second process starts later.
    for (const s of [s1, s2]) await warmedUp(s, 120_000);
    for (const s of [s1, s2]) await capture(s.base, { path: prime });
    const pg = pidsByComm('postgres');
    const redis = pidsByComm('redis-server');
    const a = await alternate(
      {
        svc: { base: two.base, pids: { 'server 1': s1.proc.child.pid, 'server 2': s2.proc.child.pid, haproxy: two.proc.child.pid, postgres: pg, redis } },
        bare: { base: one.base, pids: { 'one-process server': s1.proc.child.pid, 'one-process haproxy': one.proc.child.pid, 'one-process postgres': pg, 'one-process redis': redis } },
      },
      spec,
      { rounds, warmS: P.warmS },
    );
    const total = Object.entries(a.cpu).filter(([k]) => !k.startsWith('one-process') && !k.startsWith('core') && !k.startsWith('baseline')).reduce((n, [, v]) => n + v, 0);
    const cores = os.availableParallelism?.() ?? os.cpus().length;
    const busy = Object.entries(a.cpu).filter(([k]) => k.startsWith('core')).reduce((n, [, v]) => n + v, 0);
    const oneServer = a.cpu['one-process server'] ?? 0;
    return {
      two: a,
      pinning:
        (pin.load ? `wrk and haproxy pinned on CPU ${pin.load}, servers, PostgreSQL and Redis unpinned` : pin.note) +
        (quotaCores !== undefined ? `; each server process held to ${quotaCores} of a core (cgroup CPU quota)` : ''),
      cause: quotaCores !== undefined
        ? `each server process was held to ${quotaCores} of a core: the one-process server used ${r1(oneServer)}, the two used ${r1(a.cpu['server 1'] ?? 0)} and ${r1(a.cpu['server 2'] ?? 0)}, and the machine's ${cores} cores were ${r1(busy)} busy in all: ` +
          (a.ratio >= 1.6 ? "the second process added about its budget's throughput: nothing shared (PostgreSQL, Redis, the proxy) bound it" : 'the second process did not add its budget\'s throughput: something shared (proxy, PostgreSQL or Redis) is the bound')
        : `the one-process server used ${r1(oneServer)} of a core; during the two-process runs the servers, haproxy, PostgreSQL and Redis used ${r1(total)} cores and the machine's ${cores} cores were ${r1(busy)} busy in all (wrk, this bench and other processes the rest): ` +
        (oneServer < 0.9
          ? 'one process was not CPU-bound: the load generator and the proxy on their core were the bound, and a second server process cannot raise it'
          : busy >= cores - 0.3
            ? 'the machine was saturated — a second server process can only take CPU from the load generator, the proxy, the database and whatever else runs, so on this machine the ratio is bounded by the core count, not by the service'
            : 'CPU was left over: the bound is elsewhere (proxy or database latency)'),
    };
  } finally {
    for (const t of started.reverse()) await stopChild(t.child, 10_000);
    for (const q of quotas) {
      try {
        q.remove();
      } catch {
        // a process still exiting: the empty group is left behind, harmless
      }
    }
  }
}

// ---- one mode -------------------------------------------------------------------------
interface ModeRaw {
  [key: string]: unknown;
}

function parseImport(stdout: string): { seconds: number; peakMb: number; changes?: string } {
  return {
    seconds: Number(/ in ([\d.]+) s/.exec(stdout)?.[1] ?? NaN),
    peakMb: Number(/peak memory (\d+) MB/.exec(stdout)?.[1] ?? NaN),
    changes: /changes .+/.exec(stdout)?.[0],
  };
}

/** One mode's record: its rows, errors and notes, its raw figures, and how a scenario adds to them. */
interface ModeRun {
  mode: Mode;
  size: string;
  modeDir: string;
  report: ModeReport;
  raw: ModeRaw;
  row(x: Row): void;
  fail(scenario: string, e: unknown): void;
}

/** The service under load (limiter on), its same-bytes baseline, and what the scenario groups request. */
type Stage = Awaited<ReturnType<typeof captureTargets>> &
  ReturnType<typeof codePaths> & {
    server: Server;
    inproc: InProcessResult;
    bareSide: { base: string; pids: { bare: number | undefined } };
    svcSide: (s: Server) => { base: string; pids: { server: number | undefined } };
    auth: Record<string, string>;
  };

async function runMode(mode: Mode, data: BenchData, work: string, readMs: number): Promise<{ report: ModeReport; raw: ModeRaw }> {
  const size = data.scale === 1 ? 'full-size' : `scale-${data.scale}`;
  const report: ModeReport = { mode, rows: [], errors: [], notes: [] };
  const raw: ModeRaw = {};
  const row = (x: Row) => {
    report.rows.push(x);
    log(`${mode}: ${x.scenario}: ${x.measured}${x.met === false ? '  (target missed)' : ''}`);
  };
  const fail = (scenario: string, e: unknown) => {
    if (finishing) return; // interrupted: abort() is cleaning up and will exit
    const msg = `${scenario}: ${(e as Error).message ?? String(e)}`;
    report.errors.push(msg.slice(0, 2000));
    report.rows.push({ id: scenario, scenario, measured: 'ERROR (see below)', target: '', met: null });
    log(`${mode}: ERROR ${msg.slice(0, 2000)}`);
  };
  const modeDir = path.join(work, mode);
  mkdirSync(modeDir, { recursive: true });
  const noise = new NoiseSampler();
  noise.start();

  let pgdb: Awaited<ReturnType<typeof createFreshPostgres>> | undefined;
  let unregister: (() => void) | undefined;
  if (mode === 'postgresql') {
    pgdb = await createFreshPostgres(process.env.DATABASE_URL!);
    unregister = onCleanup(pgdb.drop);
    report.notes.push('PostgreSQL: a fresh database on the DATABASE_URL server, dropped afterwards.');
  }
  const env = modeEnv(mode, path.join(modeDir, 'store'), pgdb?.url);
  let server: Server | undefined;
  let bare: { base: string; proc: Tracked } | undefined;
  const run: ModeRun = { mode, size, modeDir, report, raw, row, fail };
  try {
    await importReleases(run, env, data, readMs);
    const inproc = await measureInProcess(run, env, data, pgdb?.url);

    // -- the server: three full-size releases, limiter on, pinned beside the load generator
    server = await startService(env, { cpuProfDir: args['cpu-prof'] ? path.resolve(args['cpu-prof'], mode) : undefined, cpu: pin.server });
    log(`${mode}: server ready in ${ms(server.coldStartMs)} at ${server.base}`);
    const targets = await captureTargets(run, server, data);
    bare = await startBare(path.join(modeDir, 'bare'), targets.captured, pin.server);
    const stage: Stage = {
      ...targets,
      ...codePaths(run, data.latest, targets.code),
      server,
      inproc,
      bareSide: { base: bare.base, pids: { bare: bare.proc.child.pid } },
      svcSide: (s: Server) => ({ base: s.base, pids: { server: s.proc.child.pid } }),
      auth: { 'x-api-key': inproc.apiKey },
    };
    if (only.has('codes')) await codesGroup(run, stage);
    if (only.has('search')) await searchGroup(run, stage);
    if (only.has('fhir')) await fhirGroup(run, stage);
    const subtreeReq = only.has('graphql') ? await graphqlGroup(run, stage) : undefined;
    if (only.has('changes')) await changesGroup(run, stage);
    if (only.has('classify')) await classifyGroup(run, stage);
    if (only.has('labels')) await labelsGroup(run, stage);
    serverMemoryRow(run, server);
    await stopChild(server.proc.child, 20_000);
    if (server.proc.child.exitCode !== 0) report.notes.push(`The server exited with code ${server.proc.child.exitCode} on SIGTERM.`);
    const stopped = server;
    server = undefined;

    if (only.has('graphql') || only.has('codes')) await limiterOffGroup(run, stage, env, subtreeReq);
    if (bare) {
      await stopChild(bare.proc.child, 2_000);
      bare = undefined;
    }

    if (only.has('cold')) await coldStartGroup(run, env);
    if (only.has('scaleout') && mode === 'postgresql') await scaleOutGroup(run, stage, env);
    const warnLines = stopped.proc.stderr
      .toString()
      .split('\n')
      .filter((l) => /"level":(40|50|60)/.test(l));
    if (warnLines.length) report.notes.push(`The server logged ${warnLines.length} warn/error line(s); last: \`${warnLines[warnLines.length - 1]!.slice(0, 300)}\``);
  } catch (e) {
    fail('setup', e);
  } finally {
    if (bare) await stopChild(bare.proc.child, 2_000);
    if (server) {
      await stopChild(server.proc.child, 20_000);
      const code = server.proc.child.exitCode;
      if (code !== 0 && code !== null) report.notes.push(`The server exited with code ${code} on SIGTERM.`);
    }
    if (pgdb) {
      await pgdb.drop().catch((e: Error) => report.errors.push(`dropping the PostgreSQL database: ${e.message}`));
      unregister?.();
    }
    const n = noise.stop();
    if (n) {
      raw.noise = n;
      const share = n.othersCpuS / Math.max(1, n.seconds);
      report.notes.push(
        `${share > 0.1 ? '**Noisy run:** ' : ''}other processes used ${n.othersCpuS} CPU-seconds during this mode's ${n.seconds} s ` +
          `(${Math.round(share * 100)}% of one core on average${n.top.length ? `; most: ${n.top.map((t) => `\`${t.what}\` ${t.cpuS} s`).join(', ')}` : ''}); ` +
          `PostgreSQL server processes ${n.postgresCpuS} CPU-seconds.`,
      );
    }
  }
  return { report, raw };
}

/** Imports the releases with the real CLI, before the server (the embedded store is single-process). */
async function importReleases(run: ModeRun, env: NodeJS.ProcessEnv, data: BenchData, readMs: number): Promise<void> {
  const { size, raw, row } = run;
  // -- imports, with the real CLI, before the server (the embedded store is single-process)
  // Migrating first keeps a fresh store's initialisation out of the import's figures (as
  // bench/import.ts does); the quick run saves that process start.
  if (P.migrateFirst) {
    const mig = await runToEnd(process.execPath, [cliPath, 'migrate'], { env, cwd: projectRoot, timeoutMs: P.cliMs });
    if (mig.code !== 0) throw new Error(`terminology migrate failed (${mig.code}): ${mig.stderr.slice(-2000)}`);
    raw.migrateWallMs = Math.round(mig.wallMs);
  }
  const imports: Record<string, unknown>[] = [];
  for (const v of VERSIONS) {
    const r = await runToEnd(process.execPath, [cliPath, 'import', data.dirs[v]], { env, cwd: projectRoot, timeoutMs: P.cliMs });
    if (r.code !== 0) throw new Error(`terminology import ${v} failed (${r.timedOut ? 'timed out' : `exit ${r.code}`}): ${r.stderr.slice(-2000)}${r.stdout.slice(-1000)}`);
    const p = parseImport(r.stdout);
    imports.push({ version: v, importS: p.seconds, processWallS: r1(r.wallMs / 1000), peakRssMb: p.peakMb, changes: p.changes });
  }
  raw.imports = imports;
  const first = imports[0] as { importS: number; processWallS: number; peakRssMb: number };
  row({
    id: 'import',
    scenario: `import of a ${size} release (${VERSIONS[0]}, CLI${P.migrateFirst ? ', into a migrated store' : ', store created by the import'})`,
    measured: `${first.importS} s (process ${first.processWallS} s), peak RSS ${first.peakRssMb} MB; ${r1((first.importS * 1000) / readMs)}× read+validate (${Math.round(readMs)} ms)`,
    target: '≤ 60 s, peak RSS ≤ 1 GB',
    met: first.importS <= 60 && first.peakRssMb <= 1024,
    values: { ...first, readAndValidateMs: Math.round(readMs) },
  });
  for (const imp of imports.slice(1) as { version: string; importS: number; processWallS: number; peakRssMb: number; changes?: string }[]) {
    row({
      id: `import-${imp.version}`,
      scenario: `import of ${imp.version} incl. its change set (info)`,
      measured: `${imp.importS} s (process ${imp.processWallS} s), peak RSS ${imp.peakRssMb} MB; ${imp.changes ?? ''}`,
      target: '–',
      met: null,
      values: imp,
    });
  }

}

/** In-process measurements: SQL statements of the SOC subtree, the change set's first computation, an API key. */
async function measureInProcess(run: ModeRun, env: NodeJS.ProcessEnv, data: BenchData, databaseUrl: string | undefined): Promise<InProcessResult> {
  const { raw, row } = run;
  // -- in-process: SQL statements of the SOC subtree, change-set first computation, API key
  const ip = await runToEnd(
    process.execPath,
    ['--import', 'tsx', path.join(projectRoot, 'bench/lib/inprocess.ts'), JSON.stringify({ databaseUrl, dataDir: env.TERMINOLOGY_DATA_DIR, from: VERSIONS[1], to: VERSIONS[2], narrative: only.has('classify') ? narratives(data.latest, 1)[0] : undefined })],
    { env, cwd: projectRoot, timeoutMs: P.cliMs },
  );
  const line = ip.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (ip.code !== 0 || !line) throw new Error(`in-process measurements failed (${ip.code}): ${ip.stderr.slice(-2000)}`);
  const inproc = JSON.parse(line.slice('RESULT '.length)) as InProcessResult;
  raw.inProcess = { ...inproc, apiKey: undefined };
  if (inproc.changeSet) {
    const c = inproc.changeSet;
    row({
      id: 'changeset',
      scenario: `change set ${VERSIONS[1]} → ${VERSIONS[2]}, first computation (in-process, as bench/changes.ts)`,
      measured: `${c.computeMs >= 1000 ? `${r1(c.computeMs / 1000)} s` : `${c.computeMs} ms`} (${c.counts.added} added, ${c.counts.updated} updated, ${c.counts.retired} retired); ${r1(c.computeMs / c.baselineReadMs)}× reading both releases (${c.baselineReadMs} ms)`,
      target: '≤ 10 s',
      met: c.computeMs <= 10_000,
      values: c,
    });
  }
  return inproc;
}

/** What the scenarios request, and the answers captured for the same-bytes baseline (the first search of the release is a row of its own). */
async function captureTargets(run: ModeRun, server: Server, data: BenchData) {
  const { raw, row, fail } = run;
  const base = server.base;
  const latest = data.latest;

  // -- captures for the same-bytes baseline
  const code = detailCode(latest);
  const detailPath = `/codes/${code}`;
  const queries = searchQueries(latest, P.loop + P.warmN);
  const searchKinds = [
    ['exact', 'an exact LLT name', queries.exact],
    ['prefix', 'the first 5 letters of an LLT name', queries.prefix],
    ['misspelt', 'a one-letter typo of a 9+ letter PT name', queries.misspelt],
  ] as const;
  const qPath = (q: string) => `/codes?q=${encodeURIComponent(q)}`;
  if (only.has('search')) {
    try {
      // The first search of a release loads and indexes its names (src/domain/releaseIndex).
      const first = await capture(base, { path: qPath(`${queries.exact[0]!} first`) }, 120_000);
      raw.searchIndexBuildMs = first.ms;
      row({ id: 'search-first', scenario: 'GET /codes?q= first search of the release, right after start (loads its in-memory index, unless the warm-up 3 s after start already has) (info)', measured: ms(first.ms), target: '–', met: null, values: { ms: first.ms } });
    } catch (e) {
      fail('GET /codes?q= first search', e);
    }
  }
  const throughputPaths = [detailPath, ...(only.has('search') ? searchKinds.map(([, , qs]) => qPath(qs[0]!)) : [])];
  const captured = [];
  for (const p of throughputPaths) {
    const c = await capture(base, { path: p });
    captured.push({ path: p, body: c.body, contentType: c.contentType });
  }
  raw.detail = { code, bytes: captured[0]!.body.length, contentType: captured[0]!.contentType };
  return { base, latest, code, detailPath, queries, searchKinds, qPath, captured };
}

/**
 * Every PT and LLT code of the latest release, shuffled (seeded), as /codes/{code} paths:
 * the last LOOKUP_LOOP are kept for the single-lookup loop, the rest split into a warm-up
 * slice and one slice per round, so no answer is requested twice (nothing cached).
 */
function codePaths(run: ModeRun, latest: BenchData['latest'], code: number) {
  const { modeDir } = run;
  const allCodes = shuffle([...new Set([...latest.pts.map((p) => p.code), ...latest.llts.map((l) => l.code)])].filter((c) => c !== code), 7).map((c) => `/codes/${c}`);
  const lookupLoop = allCodes.splice(-Math.min(P.loop + P.warmN, Math.floor(allCodes.length / 4)));
  const codesFile = writePaths(path.join(modeDir, 'codes.txt'), allCodes);
  pathLists.set(codesFile, allCodes);
  const sliceLen = Math.floor(allCodes.length / (rounds + 1));
  return { allCodes, lookupLoop, codesFile, sliceLen };
}

/** GET /codes/{code}: warm with the limiter on, uncached, a single uncached lookup. */
async function codesGroup(run: ModeRun, stage: Stage): Promise<void> {
  const { raw, row, fail } = run;
  const { server, base, code, detailPath, captured, bareSide, svcSide, allCodes, lookupLoop, codesFile, sliceLen } = stage;
  try {
    const spec = (): LoadSpec => ({ url: detailPath, connections, durationS: P.mainS, xff: XFF_ADDRESSES });
    const a = await alternate({ svc: svcSide(server), bare: bareSide }, spec, { rounds, warmS: P.warmS });
    raw.codesWarmOn = a;
    row({
      id: 'codes-warm-on',
      scenario: `GET /codes/{code} warm, limiter on (TRUST_PROXY, ${XFF_ADDRESSES.toLocaleString('en-US')} client addresses in X-Forwarded-For, limit ${Number(LIMIT_PER_MINUTE).toLocaleString('en-US')}/min), ${connections} connections (PT ${code}, ${captured[0]!.body.length} B)`,
      measured: altText(a),
      target: '≥ 50% of bare; p99 ≤ 10 ms',
      met: a.ratio >= 0.5 && a.svcP99 <= 10,
      values: a,
      cause: throughputCause(a),
    });
  } catch (e) {
    fail('GET /codes/{code} warm, limiter on', e);
  }
  try {
    let used = 0;
    let repeats = 0;
    // Warm-up on slice 0, which also sizes the runs: a round must not outrun its slice.
    const warm = await drive({ url: `${base}/codes/x`, connections: UNCACHED_CONNECTIONS, durationS: Math.min(P.warmS, 1), pathsFile: codesFile, offset: 0 });
    await drive({ url: `${bareSide.base}/codes/x`, connections: UNCACHED_CONNECTIONS, durationS: Math.min(P.warmS, 1), pathsFile: codesFile, offset: 0 });
    const durationS = quick ? P.mainS : Math.max(2, Math.min(P.mainS, Math.floor(sliceLen / (Math.max(1, warm.rps) * 1.3))));
    const spec = (side: 'svc' | 'bare', r: number): LoadSpec => ({ url: '/codes/x', connections: UNCACHED_CONNECTIONS, durationS, pathsFile: codesFile, offset: side === 'svc' ? (r + 1) * sliceLen : 0 });
    const a = await alternate({ svc: svcSide(server), bare: bareSide }, spec, { rounds, warmS: 0 });
    for (const r of a.svc) {
      used += r.requests;
      repeats += Math.max(0, r.requests - sliceLen);
    }
    raw.codesUncached = { ...a, distinctCodes: allCodes.length, sliceLen, requested: used, repeats };
    row({
      id: 'codes-uncached',
      scenario: `GET /codes/{code} uncached: ${UNCACHED_CONNECTIONS} connections over ${allCodes.length.toLocaleString('en-US')} distinct PT/LLT codes (shuffled; each round its own slice of ${sliceLen.toLocaleString('en-US')})`,
      measured: `${altText(a)}${repeats ? `; **${repeats} requests repeated a code** (runs longer than a slice)` : '; no code requested twice'}`,
      target: '≥ 3,000 req/s',
      met: a.svcRps >= 3_000,
      values: raw.codesUncached as object,
      cause: throughputCause(a),
    });
  } catch (e) {
    fail('GET /codes/{code} uncached', e);
  }
  try {
    const reqs = lookupLoop.slice(0, P.loop).map((p) => ({ path: p }));
    const warmupReqs = lookupLoop.slice(P.loop).map((p) => ({ path: p }));
    const s = await latencyLoop(base, reqs, { count: reqs.length, warmup: warmupReqs.length, warmupReqs, maxMs: P.loopMs });
    raw.codesLookup = s;
    row({
      id: 'codes-lookup',
      scenario: `GET /codes/{code}, a single uncached lookup (${s.n} distinct codes never requested before, sequential)`,
      measured: `p50 ${ms(s.p50)} (p95 ${ms(s.p95)}, p99 ${ms(s.p99)})`,
      target: 'p50 ≤ 3 ms',
      met: s.p50 <= 3,
      values: s,
      cause: raw.codesUncached ? `under load an uncached lookup cost ${cpuPerReq(raw.codesUncached as Alternation, 'svc') ?? '?'} µs of server CPU (the uncached row); sequential p50 ${ms(s.p50)} is that CPU plus the database round trips` : undefined,
    });
  } catch (e) {
    fail('GET /codes/{code} single lookup', e);
  }
}

/** GET /codes?q=: latency and throughput of each kind of query. */
async function searchGroup(run: ModeRun, stage: Stage): Promise<void> {
  const { raw, row, fail } = run;
  const { server, base, searchKinds, qPath, bareSide, svcSide } = stage;
  for (const [kind, what, qs] of searchKinds) {
    try {
      // Distinct queries, one per request (a search is not answered from any cache).
      const warmupReqs = qs.slice(P.loop).map((q) => ({ path: qPath(q) }));
      const reqs = qs.slice(0, P.loop).map((q) => ({ path: qPath(q) }));
      const s = await latencyLoop(base, reqs, { count: P.loop, warmup: Math.min(P.warmN, warmupReqs.length), warmupReqs, maxMs: P.loopMs });
      raw[`search-${kind}`] = { latency: s, examples: qs.slice(0, 3) };
      row({
        id: `search-${kind}`,
        scenario: `GET /codes?q= ${kind} (${what}; ${s.n} distinct queries, sequential)`,
        measured: `p95 ${ms(s.p95)} (p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}; ${Math.round(s.bytes / 1024)} KB)`,
        target: 'p95 ≤ 15 ms',
        met: s.p95 <= 15,
        values: s,
      });
    } catch (e) {
      fail(`GET /codes?q= ${kind}`, e);
    }
    try {
      const t = await alternate({ svc: svcSide(server), bare: bareSide }, () => ({ url: qPath(qs[0]!), connections, durationS: P.sideS }), { rounds: 1, warmS: 0 });
      raw[`search-${kind}-throughput`] = t;
      row({
        id: `search-${kind}-throughput`,
        scenario: `GET /codes?q= ${kind}, one query repeated, ${connections} connections (info)`,
        measured: altText(t),
        target: '–',
        met: null,
        values: t,
      });
    } catch (e) {
      fail(`GET /codes?q= ${kind}, throughput`, e);
    }
  }
}

/** FHIR operations beside their REST equivalents. */
async function fhirGroup(run: ModeRun, stage: Stage): Promise<void> {
  const { raw, row, fail } = run;
  const { base, latest, queries, qPath } = stage;
  // FHIR beside its REST equivalent, the same distinct inputs for both, interleaved per
  // input: $lookup vs GET /codes/{code} over PTs, $expand?filter= vs GET /codes?q= over
  // the misspelt queries. Target: p95 within 2× of REST.
  const mdr = encodeURIComponent('https://www.meddra.org');
  const vs = encodeURIComponent('https://www.meddra.org?fhir_vs');
  const codes = latest.pts.slice(0, P.loop + P.warmN).map((p) => p.code);
  const pairs = [
    ['lookup', '$lookup', 'GET /codes/{code}', codes.map((c): [string, string] => [`/fhir/CodeSystem/$lookup?system=${mdr}&code=${c}`, `/codes/${c}`])],
    ['expand', '$expand?filter= (misspelt, count 20)', 'GET /codes?q= (misspelt, limit 20)', queries.misspelt.map((q): [string, string] => [`/fhir/ValueSet/$expand?url=${vs}&filter=${encodeURIComponent(q)}&count=20`, `${qPath(q)}&limit=20`])],
  ] as const;
  for (const [id, fhirWhat, restWhat, paths] of pairs) {
    try {
      await capture(base, { path: paths[0]![0] }, 120_000);
      const pair = (x: readonly [string, string]): [Req, Req] => [{ path: x[0] }, { path: x[1] }];
      const [f, r] = await interleavedLatencyLoops(base, paths.slice(0, P.loop).map(pair), {
        warmupPairs: paths.slice(P.loop, P.loop + P.warmN).map(pair),
        maxMs: 2 * P.loopMs,
      });
      const ratio = f.p95 / r.p95;
      raw[`fhir-${id}`] = { fhir: f, rest: r, ratio };
      row({
        id: `fhir-${id}`,
        scenario: `FHIR ${fhirWhat} vs REST ${restWhat} (${f.n} distinct inputs each, sequential, interleaved per input)`,
        measured: `p95 ${ms(f.p95)} vs ${ms(r.p95)} = ${r1(ratio)}× (p50 ${ms(f.p50)} vs ${ms(r.p50)}; ${Math.round(f.bytes / 1024)} KB vs ${Math.round(r.bytes / 1024)} KB)`,
        target: 'p95 ≤ 2× REST',
        met: ratio <= 2,
        values: { fhir: f, rest: r, ratio },
      });
    } catch (e) {
      fail(`FHIR ${fhirWhat}`, e);
    }
  }
}

/** GraphQL: 100 codes in one request, the largest SOC's subtree (its request is returned: the limiter-off server sends it first). */
async function graphqlGroup(run: ModeRun, stage: Stage): Promise<Req | undefined> {
  const { raw, row, fail } = run;
  const { base, latest, inproc, code } = stage;
  let subtreeReq: Req | undefined;
  try {
    // 100 distinct PTs per request (aliases), every request a new set: no answer cached.
    const pts = latest.pts.filter((p) => p.code !== code);
    const sets = Array.from({ length: P.codes100N + 2 }, (_, i) => pts.slice(i * 100, i * 100 + 100).map((p) => p.code));
    const reqs = sets.map((set) => ({ method: 'POST' as const, path: '/graphql', headers: { accept: 'application/json' }, body: JSON.stringify({ query: codes100Query(set), variables: { version: VERSIONS[2] } }) }));
    const first = await capture(base, reqs[0]!, 60_000);
    const parsed = JSON.parse(first.body.toString('utf8')) as { errors?: unknown; data?: Record<string, unknown> };
    if (parsed.errors || Object.keys(parsed.data ?? {}).length !== 100) throw new BenchRequestError(`GraphQL 100 codes: ${JSON.stringify(parsed.errors ?? 'not 100 codes').slice(0, 500)}`);
    const s = await latencyLoop(base, reqs.slice(2), { count: P.codes100N, warmup: 1, warmupReqs: [reqs[1]!], maxMs: P.loopMs, timeoutMs: 60_000 });
    raw.graphqlCodes100 = s;
    row({
      id: 'graphql-codes100',
      scenario: `GraphQL: code detail with parents, children and synonyms for 100 distinct PTs in one request (${s.n} requests, each a new set, sequential; ${Math.round(s.bytes / 1024)} KB)`,
      measured: `p50 ${ms(s.p50)} (p95 ${ms(s.p95)}, max ${ms(s.max)})`,
      target: 'p50 ≤ 50 ms',
      met: s.p50 <= 50,
      values: s,
    });
  } catch (e) {
    fail('GraphQL 100 codes', e);
  }
  try {
    const soc = inproc.largestSoc;
    const req: Req = { method: 'POST', path: '/graphql', headers: { accept: 'application/json' }, body: JSON.stringify({ query: SUBTREE_QUERY, variables: { code: soc.code, version: VERSIONS[2] } }) };
    subtreeReq = req;
    const first = await capture(base, req, 120_000);
    const parsed = JSON.parse(first.body.toString('utf8')) as { errors?: unknown };
    if (parsed.errors) throw new BenchRequestError(`GraphQL errors: ${JSON.stringify(parsed.errors).slice(0, 500)}`);
    const s = await latencyLoop(base, [req], { count: P.gqlN, warmup: 2, maxMs: quick ? 5_000 : 60_000, timeoutMs: 120_000 });
    raw.graphqlSubtree = { latency: s, firstMs: first.ms, soc, statements: inproc.subtree };
    row({
      id: 'subtree-repeated',
      scenario: `GraphQL: largest SOC's subtree to LLTs, repeated (SOC ${soc.code}: ${soc.ptPaths} PT paths, ${inproc.subtree.nodes} nodes, ${r1(first.body.length / 1e6)} MB)`,
      measured: `p50 ${ms(s.p50)} (p95 ${ms(s.p95)}); ${inproc.subtree.statements} SQL statements uncached; first request of this query on a server that had served the other scenarios ${ms(first.ms)}; in-process ${inproc.subtree.inProcessMs.join('/')} ms`,
      target: 'p50 ≤ 50 ms',
      met: s.p50 <= 50,
      values: { latency: s, statements: inproc.subtree.statements, firstMs: first.ms },
      cause: `answered by the result cache, yet p50 ${ms(s.p50)} for ${r1(first.body.length / 1e6)} MB: in-process (no socket) repeated requests took ${inproc.subtree.inProcessMs.slice(1).join('/')} ms, so the time is producing and sending the cached answer's bytes, not resolving it`,
    });
  } catch (e) {
    fail('GraphQL subtree', e);
  }
  return subtreeReq;
}

/** GET /versions/{to}/changes pages, and a change set computed on its first request. */
async function changesGroup(run: ModeRun, stage: Stage): Promise<void> {
  const { raw, row, fail } = run;
  const { base } = stage;
  try {
    const to = VERSIONS[2];
    const filters = ['', 'level=PT', 'level=LLT', 'changeType=added', 'changeType=updated', 'changeType=retired', 'level=PT&changeType=updated', 'level=HLT'];
    const perFilter: string[][] = [];
    for (const f of filters) {
      const c = await capture(base, { path: `/versions/${to}/changes?${f ? `${f}&` : ''}limit=50` });
      const total = (JSON.parse(c.body.toString('utf8')) as { results: { meta: { total: number } } }).results.meta.total;
      const pages = Math.max(1, Math.min(60, Math.ceil(total / 50)));
      perFilter.push(Array.from({ length: pages }, (_, i) => `/versions/${to}/changes?${f ? `${f}&` : ''}page=${i + 1}&limit=50`));
    }
    // Round-robin over filters and pages: distinct URLs, every filter, shallow and deep pages.
    const urls: string[] = [];
    for (let i = 0; urls.length < perFilter.reduce((n, p) => n + p.length, 0); i++) for (const p of perFilter) if (p[i]) urls.push(p[i]!);
    const s = await latencyLoop(base, urls.map((u) => ({ path: u })), { count: Math.min(P.loop, Math.max(urls.length, quick ? 1 : 100)), warmup: 0, maxMs: P.loopMs });
    raw.changesPage = { latency: s, distinctUrls: urls.length };
    row({
      id: 'changes-page',
      scenario: `GET /versions/${to}/changes page (baseline ${VERSIONS[1]}; ${s.n} requests over ${urls.length} distinct filter/page URLs, limit 50)`,
      measured: `p95 ${ms(s.p95)} (p50 ${ms(s.p50)}, p99 ${ms(s.p99)})`,
      target: 'p95 ≤ 30 ms',
      met: s.p95 <= 30,
      values: s,
    });
    // A pair that is not consecutive is computed by the server on its first request.
    const c = await capture(base, { path: `/versions/${to}/changes?fromVersionId=${VERSIONS[0]}&limit=50` }, 120_000);
    raw.changesFirstRequest = { ms: c.ms };
    row({
      id: 'changes-first-request',
      scenario: `GET /versions/${to}/changes?fromVersionId=${VERSIONS[0]}: change set computed on first request (info)`,
      measured: ms(c.ms),
      target: '–',
      met: null,
      values: { ms: c.ms },
    });
  } catch (e) {
    fail('changes page', e);
  }
}

/** POST /classify and POST /identify, lexical engine. */
async function classifyGroup(run: ModeRun, stage: Stage): Promise<void> {
  const { raw, row, fail } = run;
  const { base, latest, inproc, auth } = stage;
  try {
    const texts = narratives(latest, P.loop + P.warmN + 1);
    const first = await capture(base, { method: 'POST', path: '/classify', headers: auth, body: JSON.stringify({ description: texts[texts.length - 1] }) }, 120_000);
    const provider = (JSON.parse(first.body.toString('utf8')) as { provider?: string }).provider;
    if (provider !== 'lexical') throw new BenchRequestError(`POST /classify used provider '${provider}', expected 'lexical'`);
    const reqs = texts.slice(0, P.loop).map((d) => ({ method: 'POST' as const, path: '/classify', headers: auth, body: JSON.stringify({ description: d }) }));
    const warmupReqs = texts.slice(P.loop, -1).map((d) => ({ method: 'POST' as const, path: '/classify', headers: auth, body: JSON.stringify({ description: d }) }));
    const s = await latencyLoop(base, reqs, { count: P.loop, warmup: warmupReqs.length, warmupReqs, maxMs: P.loopMs });
    raw.classify = { latency: s, firstMs: first.ms };
    row({
      id: 'classify',
      scenario: `POST /classify, lexical engine (${s.n} distinct one-sentence narratives)`,
      measured: `p50 ${ms(s.p50)} (p95 ${ms(s.p95)}, p99 ${ms(s.p99)}; first request ${ms(first.ms)} incl. vocabulary build${inproc.classify ? `; ${inproc.classify.statements} SQL statements per request, counted in-process` : ''})`,
      target: 'p50 ≤ 8 ms, p99 ≤ 25 ms',
      met: s.p50 <= 8 && s.p99 <= 25,
      values: { ...s, firstMs: first.ms },
      cause: `${inproc.classify ? `${inproc.classify.statements} SQL statements per request (counted in-process: the API-key lookup and the audit insert among them); ` : ''}p50 ${ms(s.p50)}, p99 ${ms(s.p99)} over one keep-alive connection`,
    });
  } catch (e) {
    fail('POST /classify', e);
  }
  try {
    // ~2 KB narratives, each distinct (several events, a negation, a history line).
    const texts = longNarratives(narratives(latest, (P.loop + P.warmN + 1) * 8), 2_048);
    const mk = (d: string) => ({ method: 'POST' as const, path: '/identify', headers: auth, body: JSON.stringify({ description: d }) });
    const first = await capture(base, mk(texts[texts.length - 1]!), 120_000);
    const events = (JSON.parse(first.body.toString('utf8')) as { results?: unknown[] }).results?.length ?? 0;
    const n = Math.min(P.loop, texts.length - P.warmN - 1);
    const s = await latencyLoop(base, texts.slice(0, n).map(mk), { count: n, warmup: P.warmN, warmupReqs: texts.slice(n, n + P.warmN).map(mk), maxMs: P.loopMs });
    raw.identify = { latency: s, firstMs: first.ms, chars: texts[0]!.length, events };
    row({
      id: 'identify',
      scenario: `POST /identify, lexical engine (${s.n} distinct ${r1(texts[0]!.length / 1024)} KB narratives; ${events} events in the first answer)`,
      measured: `p50 ${ms(s.p50)} (p95 ${ms(s.p95)}, p99 ${ms(s.p99)}; first request ${ms(first.ms)})`,
      target: 'p50 ≤ 10 ms',
      met: s.p50 <= 10,
      values: { ...s, firstMs: first.ms },
    });
  } catch (e) {
    fail('POST /identify', e);
  }
}

/** POST /labels/classify on a large product label. */
async function labelsGroup(run: ModeRun, stage: Stage): Promise<void> {
  const { raw, row, fail } = run;
  const { base, latest, auth } = stage;
  try {
    const labels = [0, 1, 2].map((v) => productLabel(latest, LABEL_BYTES, v));
    const reqs = labels.map((l) => ({ method: 'POST' as const, path: '/labels/classify', headers: auth, body: JSON.stringify({ description: l }) }));
    const first = await capture(base, reqs[0]!, 120_000);
    const codes = (JSON.parse(first.body.toString('utf8')) as { results?: { terminologyCodes?: unknown[] } }).results?.terminologyCodes?.length ?? 0;
    const s = await latencyLoop(base, reqs, { count: P.labelN, warmup: P.labelWarm, maxMs: quick ? 5_000 : 60_000, timeoutMs: 120_000 });
    raw.labels = { latency: s, firstMs: first.ms, labelChars: labels.map((l) => l.length), codesReturned: codes };
    row({
      id: 'labels',
      scenario: `POST /labels/classify, ${Math.round(labels[0]!.length / 1000)} KB label (3 variants; ${codes} codes returned)`,
      measured: `p50 ${ms(s.p50)} (p95 ${ms(s.p95)}, n ${s.n}; first ${ms(first.ms)})`,
      target: 'p50 ≤ 500 ms',
      met: s.p50 <= 500,
      values: { ...s, firstMs: first.ms },
    });
  } catch (e) {
    fail('POST /labels/classify', e);
  }
}

/** The server's memory after the whole suite. */
function serverMemoryRow(run: ModeRun, server: Server): void {
  const { size, report, raw, row } = run;
  const mem = processMemoryMb(server.proc.child.pid);
  if (mem) {
    raw.serverMemory = mem;
    row({
      id: 'rss',
      scenario: `server RSS after the whole suite, three ${size} releases (VmRSS; VmHWM = peak)`,
      measured: `${mem.rssMb} MB (peak ${mem.hwmMb} MB)`,
      target: '≤ 1 GB',
      met: mem.rssMb <= 1024,
      values: mem,
    });
  } else {
    report.notes.push('Server RSS: /proc/<pid>/status not readable on this platform.');
  }
}

/** A fresh server with the limiter off: the subtree as its very first request, then warm lookups. */
async function limiterOffGroup(run: ModeRun, stage: Stage, env: NodeJS.ProcessEnv, subtreeReq: Req | undefined): Promise<void> {
  const { raw, row, fail } = run;
  const { inproc, detailPath, bareSide, svcSide } = stage;
  const offEnv: NodeJS.ProcessEnv = { ...env, RATE_LIMIT_PER_MINUTE: '0' };
  delete offEnv.TRUST_PROXY;
  const server = await startService(offEnv, { cpu: pin.server });
  try {
    if (only.has('graphql') && subtreeReq) {
      try {
        const first = await capture(server.base, subtreeReq, 120_000);
        const again = await latencyLoop(server.base, [subtreeReq], { count: 3, warmup: 0, maxMs: 30_000, timeoutMs: 120_000 });
        raw.subtreeFirst = { firstMs: first.ms, afterStartMs: server.coldStartMs, then: again };
        row({
          id: 'subtree-first',
          scenario: `GraphQL: largest SOC's subtree, the first request after start (nothing cached; sent as soon as GET /versions answered 200)`,
          measured: `${ms(first.ms)} (the next 3: p50 ${ms(again.p50)})`,
          target: '≤ 400 ms',
          met: first.ms <= 400,
          values: raw.subtreeFirst as object,
          cause: `${inproc.subtree.statements} SQL statements in all (counted in-process), and the in-process first request took ${inproc.subtree.inProcessMs[0]} ms against ${inproc.subtree.inProcessMs[1]} ms repeated: the first request's time is graphql-js resolving and serialising ${inproc.subtree.nodes} nodes (and warming the code paths just after start), not SQL`,
        });
      } catch (e) {
        fail('GraphQL subtree, first after start', e);
      }
    }
    if (only.has('codes')) {
      try {
        const a = await alternate({ svc: svcSide(server), bare: bareSide }, () => ({ url: detailPath, connections, durationS: P.mainS }), { rounds, warmS: P.warmS });
        raw.codesWarmOff = a;
        row({
          id: 'codes-warm-off',
          scenario: `GET /codes/{code} warm, limiter off (RATE_LIMIT_PER_MINUTE=0), one client, ${connections} connections`,
          measured: altText(a),
          target: '≥ 60% of bare',
          met: a.ratio >= 0.6,
          values: a,
          cause: throughputCause(a),
        });
      } catch (e) {
        fail('GET /codes/{code} warm, limiter off', e);
      }
    }
  } finally {
    await stopChild(server.proc.child, 20_000);
  }
}

/** Cold start: spawn → first 200 on GET /versions, unpinned as deployed, several starts. */
async function coldStartGroup(run: ModeRun, env: NodeJS.ProcessEnv): Promise<void> {
  const { mode, size, row } = run;
  const coldStarts: number[] = [];
  for (let i = 0; i < P.coldRestarts; i++) {
    const again = await startService(env);
    coldStarts.push(again.coldStartMs);
    await stopChild(again.proc.child, 20_000);
  }
  const med = median(coldStarts);
  row({
    id: 'cold-start',
    scenario: `cold start to the first 200 on GET /versions, three ${size} releases in the store (${coldStarts.length} start${coldStarts.length > 1 ? 's' : ''}, unpinned)${mode === 'embedded' ? '' : ' (info)'}`,
    measured: coldStarts.length > 1 ? `median ${ms(med)} (starts: ${coldStarts.map((x) => ms(x)).join(', ')})` : ms(med),
    target: mode === 'embedded' ? '≤ 1.5 s' : '–',
    met: mode === 'embedded' ? med <= 1_500 : null,
    values: { coldStartMs: coldStarts.map(Math.round), medianMs: Math.round(med) },
  });
}

/**
 * Scale-out: two processes on one PostgreSQL + Redis behind a round-robin proxy vs one.
 * Warm lookups cost the server less than wrk and haproxy spend on them, so on a small machine
 * that row shows the load generator's bound (info); lookups executed every time (the replay
 * off, every code once per round) make the servers the bound: that is the scaling target.
 */
async function scaleOutGroup(run: ModeRun, stage: Stage, env: NodeJS.ProcessEnv): Promise<void> {
  const { modeDir, report, raw, row, fail } = run;
  const { detailPath, allCodes, codesFile } = stage;
  const QUOTA_CORES = 0.3;
  const executedSpec = (_side?: 'svc' | 'bare', r = 0): LoadSpec => ({ url: '/codes/x', connections: UNCACHED_CONNECTIONS, durationS: P.mainS, xff: XFF_ADDRESSES, pathsFile: codesFile, offset: Math.max(0, r) * 7919 });
  const variants: { id: string; what: string; spec: (side?: 'svc' | 'bare', r?: number) => LoadSpec; serverEnv: NodeJS.ProcessEnv; quota?: number; target: string; met: (ratio: number) => boolean | null }[] = [
    {
      id: 'scale-out',
      what: `warm GET /codes/{code}, ${connections} connections`,
      spec: (): LoadSpec => ({ url: detailPath, connections, durationS: P.mainS, xff: XFF_ADDRESSES }),
      serverEnv: {},
      target: '– (info: bound by the load generator and proxy on 2 cores)',
      met: () => null,
    },
    {
      id: 'scale-out-executed',
      what: `GET /codes/{code} executed every time (RESPONSE_CACHE_MB=0), ${UNCACHED_CONNECTIONS} connections over ${allCodes.length.toLocaleString('en-US')} distinct codes`,
      spec: executedSpec,
      serverEnv: { RESPONSE_CACHE_MB: '0' },
      // Each server needs a core of its own besides wrk, haproxy, PostgreSQL and Redis: with
      // fewer than 4 cores this row is bound by the machine (its cause says so); the quota row
      // below is a stand-in, not the target.
      target: '≥ 1.6× one process',
      met: (ratio: number) => ratio >= 1.6,
    },
    {
      id: 'scale-out-quota',
      what: `the same executed lookups, each server process held to ${QUOTA_CORES} of a core (a cgroup CPU quota stands in for a core of its own)`,
      // Info, not the target: under a CFS quota a server stalls whenever its budget for the period
      // is spent, and with a closed-loop load generator neither server then uses its whole budget
      // (measured: 0.22–0.29 of 0.3), while 48 connections instead of 16 helped two servers less
      // than they hurt one (1.8× of a worse baseline). A stand-in that shows a second replica adds
      // throughput with nothing shared in the way; the target needs ≥ 4 cores.
      spec: executedSpec,
      serverEnv: { RESPONSE_CACHE_MB: '0' },
      quota: QUOTA_CORES,
      target: '– (info: a stand-in on 2 cores; the target is the row above with ≥ 4 cores)',
      met: () => null,
    },
  ];
  for (const v of variants) {
    try {
      const r = await scaleOut(env, v.spec, detailPath, path.join(modeDir, v.id), v.serverEnv, v.quota);
      if (typeof r === 'string') report.notes.push(`Scale-out not measured: ${r}`);
      else {
        (raw as Record<string, unknown>)[v.id] = r;
        row({
          id: v.id,
          scenario: `two server processes (one PostgreSQL, one Redis: shared limiter on, ${XFF_ADDRESSES.toLocaleString('en-US')} client addresses) behind haproxy round-robin vs one process behind the same proxy: ${v.what}`,
          measured: `${Math.round(r.two.svcRps)} vs ${Math.round(r.two.bareRps)} req/s = ${r1(r.two.ratio)}× (medians of ${r.two.svc.length} alternated rounds; p99 ${r.two.svcP99} vs ${r.two.bareP99} ms); CPU (share of one core, each side over its own runs): ${Object.entries(r.two.cpu).map(([k, c]) => `${k} ${c}`).join(', ')}; ${r.pinning}`,
          target: v.target,
          met: v.met(r.two.ratio),
          values: r,
          cause: r.cause,
        });
      }
    } catch (e) {
      fail(v.id, e);
    }
  }
}

// ---- main -----------------------------------------------------------------------------
const started = performance.now();
const machine = machineInfo();
const digestBefore = sourceDigest();
// Other processes on the machine skew every figure: record how busy it was before we started.
const busyBefore = await cpuBusy(1_000);
const loadBefore = loadAverage();
if (busyBefore !== undefined && busyBefore > 25) log(`warning: the machine is already ${busyBefore}% busy before the benchmark starts; results will be noisy`);
// The CLI runs its prebuilt bundle only while it is newer than the sources: rebuild it, so
// the server measured is the one an installed checkout runs (not tsx transpiling at start).
{
  const b = await runToEnd(process.execPath, [path.join(projectRoot, 'scripts/build.mjs')], { cwd: projectRoot, timeoutMs: 120_000 });
  if (b.code !== 0) usage(`npm run build failed:\n${b.stderr}`);
}
// Every throughput figure of the full run comes from wrk; the quick variant uses autocannon.
if (!quick) {
  try {
    wrkPath = await ensureTool('wrk', log);
  } catch (e) {
    usage((e as Error).message);
  }
  log(`load generator: ${wrkPath}; ${pin.note}`);
}
// The previous results, read before they are overwritten: the "last round" column.
const outPath = args.out ?? (quick ? undefined : path.join(projectRoot, 'bench/results.md'));
const previous = outPath && existsSync(outPath) ? readFileSync(outPath, 'utf8') : undefined;
const work = makeTempDir('bench-run-');
log(`${quick ? 'quick' : 'full'} run: scale ${scale}, modes ${modes.join(', ')}, work dir ${work}`);
let exitCode = 0;
try {
  const data = await writeReleases(path.join(work, 'data'), scale);
  log(`generated ${VERSIONS.join(', ')} in ${data.generateMs} ms: ${JSON.stringify(data.counts[VERSIONS[2]])}`);
  const t0 = performance.now();
  loadRelease(data.dirs[VERSIONS[0]]);
  const readMs = performance.now() - t0;

  const reports: ModeReport[] = [];
  const raws: Record<string, ModeRaw> = {};
  for (const mode of modes) {
    log(`== ${mode} ==`);
    const { report, raw } = await runMode(mode, data, work, readMs);
    if (finishing) await new Promise<never>(() => {}); // interrupted: abort() exits once clean
    reports.push(report);
    raws[mode] = raw;
  }
  const digestAfter = sourceDigest();
  const wallS = (performance.now() - started) / 1000;
  for (const r of reports) {
    if (digestAfter !== digestBefore) r.notes.push(`src/ changed during the run (sha256 ${digestBefore} → ${digestAfter}).`);
    if (quick) r.notes.push('Quick run: scale 0.02 and short runs; targets are not enforced.');
  }
  const countsText = VERSIONS.map((v) => {
    const c = data.counts[v]!;
    return `${v}: ${c.SOC} SOC / ${c.HLGT} HLGT / ${c.HLT} HLT / ${c.PT} PT / ${c.LLT} LLT`;
  }).join('; ');
  const dataText = `synthetic releases ${VERSIONS.join(' → ')} (seed 42, scale ${scale}, realistic changes between each; ${countsText}), imported by \`terminology import\`; scenarios read ${VERSIONS[2]}, the latest`;
  const durations = `${quick ? 'autocannon (in the bench process)' : 'wrk 1 thread'}, ${connections} connections (uncached lookups ${UNCACHED_CONNECTIONS}), ${rounds} alternated round(s) of ${P.mainS} s per side (bare, service, bare, …; ${P.sideS} s × 1 for info rows) after ${P.warmS} s warm-up each; ${pin.note}; latency loops up to ${P.loop} requests / ${P.loopMs / 1000} s over one keep-alive connection`;
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}${process.env.DATABASE_URL ? ' (DATABASE_URL set)' : ''}`;

  process.stdout.write('\n');
  for (const r of reports) process.stdout.write(`${consoleTable(r, !quick)}\n\n`);
  const noise = `CPU ${busyBefore ?? '?'}% busy in the second before the run; load average (1/5/15 min) ${loadBefore} before, ${loadAverage()} after (the suite itself keeps about 2 busy)`;
  const md = markdown({ machine, date: new Date().toISOString(), command, quick, scale, durations, sourceDigest: digestAfter, data: dataText, noise, modes: reports, wallS, previous, label: process.env.BENCH_LABEL });
  if (outPath) {
    writeFileSync(outPath, md);
    log(`wrote ${outPath}`);
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify({ machine, date: new Date().toISOString(), command, quick, scale, connections, params: P, sourceDigest: digestAfter, noise, counts: data.counts, modes: reports, raw: raws, wallS }, null, 2)}\n`);
    log(`wrote ${args.json}`);
  }
  const broken = reports.filter((r) => r.errors.length);
  if (broken.length) {
    exitCode = 1;
    log(`something broke in ${broken.map((r) => r.mode).join(', ')}: exit code 1`);
  } else {
    const missed = reports.flatMap((r) => r.rows.filter((x) => x.met === false).map((x) => `${r.mode}: ${x.id}`));
    log(`done in ${Math.round(wallS)} s; ${missed.length ? `targets missed${quick ? ' (not enforced)' : ''}: ${missed.join(', ')}` : 'all targets met'}`);
  }
} catch (e) {
  log(`failed: ${(e as Error).stack ?? e}`);
  exitCode = 1;
} finally {
  finishing = true;
  await cleanupAll();
  removeTempDir(work);
}
process.exit(exitCode);
