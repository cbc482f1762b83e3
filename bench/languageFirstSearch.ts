// The first search on an older release in a non-primary language (issue 32, round 3 of the
// performance work): on the demo store (three releases, each with German and Japanese names),
// embedded, the server's warm-up done (the newest release's index from its snapshot, one primary
// search on it), then GET /codes?q=a&limit=100&lang=de&version=<oldest> while a probe client asks
// GET /versions?limit=100 back to back. Per round, in a fresh child process over a fresh copy of
// the store (nothing of a previous round cached, the same snapshots the import wrote): the first
// request's wall time and the process's CPU meanwhile (PGlite included), the probe's turns during
// it (longest, count), the event loop's longest block (monitorEventLoopDelay) and the process's
// CPU across the longest gap between two 1 ms timer callbacks (the longest turn's cost, which the
// host's load moves far less than its wall time). CPU figures are what to compare across runs on
// a loaded host; walls are shown beside. --warm-paths first runs the same request on the middle
// release: the code compiled, the oldest's indexes still cold (what a first use costs beyond data).
//
// --bundle: the product as shipped instead (bin/terminology.mjs serve, the bundle dist/cli.mjs;
// `node scripts/build.mjs` first), a process per round on a fresh copy of the store, its event
// loop's turns recorded from inside by a preloaded monitor (bench/lib/turnMonitor.mjs: the serving
// thread's CPU and run-queue wait per turn, schedstat), the probe from the moment it listens. Two
// windows: the start's warm-up (from listening until its last "warmed" log line, + 250 ms) and the
// first request after it. --base DIR: another checkout's bundle (e.g. the commit before, `git
// archive` + node_modules linked + `node scripts/build.mjs`) as a same-run baseline, rounds
// alternated (A B B A …; more --base: rotated). --prof DIR: each server's CPU profile with its
// windows and turns, to read what the longest turn ran.
//
//   npx tsx bench/languageFirstSearch.ts [--rounds 5] [--lang de] [--q a] [--snapshots yes|no] [--warm-paths] [--prof DIR] [--log]
//   npx tsx bench/languageFirstSearch.ts --bundle [--base DIR …] [--rounds 4] [--lang de] [--q a] [--snapshots yes|no] [--prof DIR]
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { ensureDemoReleases } from '../src/importer/demo.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { compose } from '../src/compose.ts';
import { createApp } from '../src/http/app.ts';
import { removeTempDir } from './lib/procs.ts';
import { cpuMs, median } from './lib/stats.ts';
import { get, longestIn, nowUs, processCpuMs, rssMb, startProbe, startShipped, type ProbeTurn } from './lib/shippedTurns.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    lang: { type: 'string', default: 'de' },
    q: { type: 'string', default: 'a' },
    /** Whether the store holds the language's index snapshots (a start after the first: yes; the first start after the import: no). */
    snapshots: { type: 'string', default: 'yes' },
    /** Run the same request once on the middle release first (the code paths compiled, the oldest's indexes still cold). */
    'warm-paths': { type: 'boolean', default: false },
    /** A directory for each child's V8 CPU profile (--cpu-prof) and its round's result (the windows are of the profile's clock). */
    prof: { type: 'string' },
    /** The child's log (index loads with their source and time) on stdout. */
    log: { type: 'boolean', default: false },
    /** The shipped bundle (bin/terminology.mjs serve) instead of the sources in process. */
    bundle: { type: 'boolean', default: false },
    /** With --bundle: another checkout whose bundle is a same-run baseline (may be given more than once). */
    base: { type: 'string', multiple: true },
    child: { type: 'string' },
    out: { type: 'string' },
  },
});

interface Result {
  wall: number;
  cpu: number;
  status: number;
  probeMax: number;
  probes: number;
  blockMax: number;
  /** The process's CPU (ms) across the longest gap between two 1 ms timer callbacks: a turn's cost, less moved by the host's load than its wall time. */
  turnCpuMax: number;
}

async function child(store: string, out: string): Promise<void> {
  const db = await openDatabase({ dataDir: store, poolSize: 4 });
  const env = { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', NLP_WORKERS: '0' };
  const composed = compose(loadConfig(env), db, createLogger(values.log ? 'info' : 'silent'), { catalogTtlMs: 600_000 });
  const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
  const releases = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
  const oldest = releases[0]!;
  const latest = releases.at(-1)!;
  const get = async (p: string) => {
    const res = await app.fetch(new Request(`http://bench${p}`));
    await res.text();
    return res.status;
  };
  // The server's warm-up: the newest's index from its snapshot, a primary search and the probe's own first answer.
  await composed.services.catalog.searchIndexes.loadSnapshot(latest.id, db.prisma);
  await get(`/codes?q=${values.q}&limit=100&version=${encodeURIComponent(latest.version)}`);
  await get('/versions?limit=100');
  if (values['warm-paths']) await get(`/codes?q=${encodeURIComponent(values.q!)}&limit=100&lang=${values.lang}&version=${encodeURIComponent(releases[1]!.version)}`);
  const h = monitorEventLoopDelay({ resolution: 1 });
  let done = false;
  const turns: number[] = [];
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      await get('/versions?limit=100');
      turns.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 1));
    }
  })();
  h.enable();
  // Every loop turn long enough to delay a 1 ms timer: the CPU spent across it.
  let turnCpuMax = 0;
  let lastCpu = cpuMs();
  let lastAt = Number(process.hrtime.bigint() / 1000n);
  let longest: [number, number] = [0, 0];
  const tick = setInterval(() => {
    const c = cpuMs();
    const at = Number(process.hrtime.bigint() / 1000n);
    if (c - lastCpu > turnCpuMax) [turnCpuMax, longest] = [c - lastCpu, [lastAt, at]];
    lastCpu = c;
    lastAt = at;
  }, 1);
  const c0 = cpuMs();
  const h0 = Number(process.hrtime.bigint() / 1000n);
  const t0 = performance.now();
  const status = await get(`/codes?q=${encodeURIComponent(values.q!)}&limit=100&lang=${values.lang}&version=${encodeURIComponent(oldest.version)}`);
  const wall = performance.now() - t0;
  const cpu = cpuMs() - c0;
  done = true;
  clearInterval(tick);
  h.disable();
  await probe;
  const r: Result & { /** µs of the monotonic clock (a --cpu-prof profile's timestamps) */ window?: [number, number]; longest?: [number, number] } = { window: [h0, Number(process.hrtime.bigint() / 1000n)], longest, wall, cpu, status, probeMax: Math.max(...turns), probes: turns.length, blockMax: h.max / 1e6, turnCpuMax };
  writeFileSync(out, JSON.stringify(r));
  await composed.close();
  await db.close();
}

async function main(): Promise<void> {
  if (values.child) return child(values.child, values.out!);
  const work = mkdtempSync(path.join(tmpdir(), 'bench-lang-first-'));
  try {
    const pristine = path.join(work, 'store');
    const db = await openDatabase({ dataDir: pristine, poolSize: 4 });
    await migrate(db);
    await ensureDemoReleases(db);
    if (values.snapshots === 'yes') {
      // A server's earlier life: each release searched in the language, its snapshots written.
      const composed = compose(loadConfig({ LOG_LEVEL: 'silent', NLP_WORKERS: '0' }), db, createLogger('silent'));
      const app = createApp(composed.services, composed.appOptions);
      for (const r of await db.prisma.release.findMany()) {
        await (await app.fetch(new Request(`http://bench/codes?q=${encodeURIComponent(values.q!)}&limit=100&lang=${values.lang}&version=${encodeURIComponent(r.version)}`))).text();
      }
      await composed.services.catalog.searchIndexes.flushed();
      await composed.close();
    }
    const oldest = (await db.prisma.release.findFirst({ orderBy: { ordinal: 'asc' } }))!.version;
    await db.close();
    if (values.bundle) return await shippedRounds(work, pristine, oldest);
    const results: Result[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      const store = path.join(work, `round-${round}`);
      cpSync(pristine, store, { recursive: true });
      const out = path.join(work, `round-${round}.json`);
      const self = fileURLToPath(import.meta.url);
      await new Promise<void>((resolve, reject) => {
        const p = spawn(process.execPath, [...(values.prof ? ['--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', values.prof] : []), ...process.execArgv, self, '--child', store, '--out', out, '--lang', values.lang!, '--q', values.q!, ...(values['warm-paths'] ? ['--warm-paths'] : []), ...(values.log ? ['--log'] : [])], { stdio: 'inherit' });
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}`))));
      });
      const r = JSON.parse(readFileSync(out, 'utf8')) as Result;
      results.push(r);
      process.stdout.write(
        `round ${round + 1}: ${r.status}, wall ${r.wall.toFixed(0)} ms, CPU ${r.cpu.toFixed(0)} ms; probe ${r.probes} turns, longest ${r.probeMax.toFixed(0)} ms; event loop longest block ${r.blockMax.toFixed(0)} ms (CPU across it ≤ ${r.turnCpuMax.toFixed(0)} ms)\n`,
      );
      if (values.prof) writeFileSync(path.join(values.prof, `round-${round}.json`), JSON.stringify(r));
      removeTempDir(store);
    }
    const m = (f: (r: Result) => number) => median(results.map(f)).toFixed(0);
    process.stdout.write(
      `median of ${results.length}: wall ${m((r) => r.wall)} ms, CPU ${m((r) => r.cpu)} ms, probe longest ${m((r) => r.probeMax)} ms, block longest ${m((r) => r.blockMax)} ms, longest turn's CPU ${m((r) => r.turnCpuMax)} ms\n`,
    );
  } finally {
    removeTempDir(work);
  }
}

interface ShippedResult {
  side: string;
  status: number;
  /** The first request: wall, and the server process's CPU meanwhile (every thread; 10 ms ticks). */
  wall: number;
  cpu: number;
  /** Its longest turn: the serving thread's CPU across it, the process's, the wall. */
  turnRun: number;
  turnCpu: number;
  turnWall: number;
  /** The probe's longest turn while it ran: as seen, and less the serving thread's run-queue wait. */
  probeWall: number;
  probeOwn: number;
  /** The same during the start's warm-up (listening → its last "warmed" line + 250 ms). */
  warmTurnRun: number;
  warmTurnCpu: number;
  warmProbeWall: number;
  warmProbeOwn: number;
  warmMs: number;
  /** The part of the warm-up after the latest release's (this checkout's older-release warm-up; a base's 250 ms idle): its longest turn, the process's CPU across it, the probe's longest less its wait. */
  olderTurnRun: number;
  olderTurnCpu: number;
  olderCpu: number;
  olderProbeOwn: number;
  /** The server's RSS (MB) when the warm-up is over, before the request. */
  rss: number;
}

/** The line after which a start's warm-up is over: this checkout's, or a base's (whose last warm-up line is the latest release's). */
const WARM_DONE = /^warmed the load paths of an older release|^older-release load paths not warmed/;
const BASE_WARM_DONE = /^warmed the latest release/;

async function shippedRound(side: string, bin: string, warmDone: RegExp, store: string, out: string, oldest: string): Promise<ShippedResult> {
  const prof = values.prof ? ['--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', path.join(values.prof, path.basename(out, '.json'))] : [];
  const s = await startShipped(bin, { TERMINOLOGY_DATA_DIR: store, TERMINOLOGY_DEMO: 'false', RATE_LIMIT_PER_MINUTE: '0', NLP_WORKERS: '0' }, out, prof);
  try {
    const probe = startProbe(s);
    // The latest release's warm-up ends first (both ways); what follows until warmDone is the older release's.
    await s.logged(BASE_WARM_DONE);
    const tLatest = nowUs();
    const cLatest = processCpuMs(s.pid);
    await s.logged(warmDone);
    const olderCpu = warmDone === BASE_WARM_DONE ? 0 : processCpuMs(s.pid) - cLatest;
    await new Promise((r) => setTimeout(r, 250));
    const rss = rssMb(s.pid);
    const c0 = processCpuMs(s.pid);
    const t0 = nowUs();
    const status = await get(`${s.url}/codes?q=${encodeURIComponent(values.q!)}&limit=100&lang=${values.lang}&version=${encodeURIComponent(oldest)}`);
    const t1 = nowUs();
    const cpu = processCpuMs(s.pid) - c0;
    await new Promise((r) => setTimeout(r, 100));
    const probes = await probe.stop();
    const turns = await s.turns();
    // With --prof: the windows and turns beside the server's CPU profile (written at its exit), to read the longest turn's functions.
    if (values.prof) writeFileSync(path.join(values.prof, `${path.basename(out, '.json')}.windows.json`), JSON.stringify({ listenedAt: s.listenedAt, request: [t0, t1], turns }));
    const own = (p: ProbeTurn) => Math.max(0, p.wallMs - p.waitMs);
    const turn = longestIn(turns, t0, t1, (t) => t.runMs);
    const warmTurn = longestIn(turns, s.listenedAt, t0, (t) => t.runMs);
    const olderTurn = longestIn(turns, tLatest, t0, (t) => t.runMs);
    const pr = longestIn(probes, t0, t1, own);
    const warmPr = longestIn(probes, s.listenedAt, t0, own);
    return {
      side, status, wall: (t1 - t0) / 1000, cpu,
      turnRun: turn?.runMs ?? 0, turnCpu: turn?.cpuMs ?? 0, turnWall: turn?.wallMs ?? 0,
      probeWall: Math.max(0, ...probes.filter((p) => p.to > t0 && p.from < t1).map((p) => p.wallMs)), probeOwn: pr ? own(pr) : 0,
      warmTurnRun: warmTurn?.runMs ?? 0, warmTurnCpu: warmTurn?.cpuMs ?? 0,
      warmProbeWall: Math.max(0, ...probes.filter((p) => p.from < t0).map((p) => p.wallMs)), warmProbeOwn: warmPr ? own(warmPr) : 0,
      warmMs: (t0 - s.listenedAt) / 1000,
      olderTurnRun: olderTurn?.runMs ?? 0, olderTurnCpu: olderTurn?.cpuMs ?? 0, olderCpu,
      olderProbeOwn: Math.max(0, ...probes.filter((p) => p.to > tLatest && p.from < t0).map(own)),
      rss,
    };
  } finally {
    await s.stop();
  }
}

async function shippedRounds(work: string, pristine: string, oldest: string): Promise<void> {
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // A checkout without the older-release warm-up ends its warm-up with the latest release's line.
  const side = (dir: string, label: string) => ({ side: label, bin: path.join(dir, 'bin', 'terminology.mjs'), warmDone: existsSync(path.join(dir, 'src', 'services', 'olderReleaseWarming.ts')) ? WARM_DONE : BASE_WARM_DONE });
  const sides = [side(here, 'this'), ...(values.base ?? []).map((d) => side(path.resolve(d), path.basename(path.resolve(d))))];
  const results: ShippedResult[] = [];
  const f = (x: number) => x.toFixed(0);
  process.stdout.write(`load average at start: ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
  for (let round = 0; round < Number(values.rounds); round++) {
    // A B, B A, … (more sides: rotated): no side always first after another's exit.
    const order = sides.length === 2 ? (round % 2 ? [sides[1]!, sides[0]!] : sides) : sides.map((_, k) => sides[(k + round) % sides.length]!);
    for (const sd of order) {
      const store = path.join(work, `round-${round}-${sd.side}`);
      cpSync(pristine, store, { recursive: true });
      const r = await shippedRound(sd.side, sd.bin, sd.warmDone, store, path.join(work, `turns-${round}-${sd.side}.json`), oldest);
      results.push(r);
      process.stdout.write(
        `round ${round + 1} ${r.side}: ${r.status}, wall ${f(r.wall)} ms, server CPU ${f(r.cpu)} ms; longest turn: thread CPU ${f(r.turnRun)} ms (process ${f(r.turnCpu)}, wall ${f(r.turnWall)}); probe longest ${f(r.probeWall)} ms (${f(r.probeOwn)} less run-queue wait) | warm-up ${f(r.warmMs)} ms: longest turn thread CPU ${f(r.warmTurnRun)} ms (process ${f(r.warmTurnCpu)}), probe longest ${f(r.warmProbeWall)} ms (${f(r.warmProbeOwn)}), RSS then ${f(r.rss)} MB | older-release warm-up: CPU ${f(r.olderCpu)} ms, longest turn thread CPU ${f(r.olderTurnRun)} ms (process ${f(r.olderTurnCpu)}), probe longest less wait ${f(r.olderProbeOwn)} ms; load ${loadavg()[0]!.toFixed(1)}\n`,
      );
      removeTempDir(store);
    }
  }
  for (const sd of sides) {
    const rs = results.filter((r) => r.side === sd.side);
    const m = (g: (r: ShippedResult) => number) => f(median(rs.map(g)));
    process.stdout.write(
      `median of ${rs.length} (${sd.side}): first request wall ${m((r) => r.wall)} ms, server CPU ${m((r) => r.cpu)} ms, longest turn thread CPU ${m((r) => r.turnRun)} ms (process ${m((r) => r.turnCpu)}), probe longest ${m((r) => r.probeWall)} ms (${m((r) => r.probeOwn)} less wait) | warm-up: longest turn thread CPU ${m((r) => r.warmTurnRun)} ms (process ${m((r) => r.warmTurnCpu)}), probe longest ${m((r) => r.warmProbeWall)} ms (${m((r) => r.warmProbeOwn)}), RSS then ${m((r) => r.rss)} MB | older-release warm-up: CPU ${m((r) => r.olderCpu)} ms, longest turn thread CPU ${m((r) => r.olderTurnRun)} ms (process ${m((r) => r.olderTurnCpu)}), probe longest less wait ${m((r) => r.olderProbeOwn)} ms\n`,
    );
  }
}

await main();
