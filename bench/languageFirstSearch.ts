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
//   npx tsx bench/languageFirstSearch.ts [--rounds 5] [--lang de] [--q a] [--snapshots yes|no] [--warm-paths] [--prof DIR] [--log]
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    await db.close();
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

await main();
