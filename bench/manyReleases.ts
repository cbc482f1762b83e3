// Scenario "many releases" (issue 32): N consecutive synthetic releases (the generator's
// realistic changes between each, a second language each by default) imported one after the
// other by the real CLI into a fresh store, then the real server on that store. It measures
// what grows with the number of hosted releases. Every figure has a same-run baseline:
//   storage and import time of the last release against the same release imported alone into a
//   fresh store (the issue's "one release"), and each further release against the first's;
//   uncached lookups and searches on the oldest release against the latest, interleaved per input;
//   the change set first → last, first time against the stored pair (another page) and a warm replay;
//   server RSS after touching every release against RSS at start; and a second server keeping
//   every release's index (SEARCH_INDEX_RELEASES=N), what "every release indexed" costs today.
//
//   npm run bench -- --scenario many-releases [--releases 24] [--scale 1] [--languages 2]
//                    [--modes embedded,postgresql] [--loop 200] [--out bench/results.md] [--json out.json]
//                    [--import-until HH:MM]   (UTC: stop importing in time, measure the releases hosted)
// PostgreSQL runs when DATABASE_URL is set (a fresh database beside it, dropped afterwards).
// The results replace the "Many releases" section of bench/results.md (--out none: print only).
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { projectRoot } from '../src/paths.ts';
import { cleanupAll, killAllSync, makeTempDir, onCleanup, processMemoryMb, removeTempDir, runToEnd, stopChild } from './lib/procs.ts';
import { capture, interleavedLatencyLoops, request, type LatencyStats, type Req } from './lib/http.ts';
import { searchQueries, shuffle } from './lib/data.ts';
import { writeManyReleases, type ManyData } from './lib/manyData.ts';
import { createFreshPostgres } from './lib/pgdb.ts';
import { startServe, type Server } from './lib/service.ts';
import { NoiseSampler } from './lib/noise.ts';
import { cpuBusy, loadAverage, machineInfo } from './lib/report.ts';
import { median } from './lib/stats.ts';

type Mode = 'embedded' | 'postgresql';
const SECTION = '## Many releases (bench/manyReleases.ts, issue 32)';
const cliPath = path.join(projectRoot, 'bin/terminology.mjs');
const CLI_TIMEOUT_MS = 15 * 60_000;

interface Row {
  id: string;
  scenario: string;
  measured: string;
  target: string;
  met: boolean | null;
  values?: unknown;
}

interface ModeResult {
  mode: Mode;
  rows: Row[];
  errors: string[];
  notes: string[];
  raw: Record<string, unknown>;
}

const log = (s: string) => process.stderr.write(`[many-releases ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const ms = (x: number) => (x >= 100 ? `${Math.round(x)} ms` : `${r1(x)} ms`);
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const phaseText = (p: Record<string, number>) => Object.entries(p).map(([k, v]) => `${k} ${v}`).join(', ') || '–';

/**
 * Bytes of every file under `dir` (the embedded store: PGlite's data files, index snapshot
 * copies), but its write-ahead log: a few recycled 16 MB segments that do not grow with releases.
 */
function dirBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'pg_wal') continue;
    const p = path.join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    n += st.isDirectory() ? dirBytes(p) : st.size;
  }
  return n;
}

async function pgBytes(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url, statement_timeout: 60_000, connectionTimeoutMillis: 10_000 });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>('SELECT pg_database_size(current_database())::text AS n');
    return Number(r.rows[0]!.n);
  } finally {
    await c.end();
  }
}

function modeEnv(dataDir: string, databaseUrl: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', TERMINOLOGY_DATA_DIR: dataDir, TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', AI_RATE_LIMIT_PER_MINUTE: '0' };
  for (const k of ['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'REDIS_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'PORT', 'NODE_OPTIONS', 'SEARCH_INDEX_RELEASES', 'TRUST_PROXY']) delete env[k];
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/** `terminology serve` (the built bundle); cold start = spawn → first 200 on GET /versions. */
const startServer = (env: NodeJS.ProcessEnv): Promise<Server> => startServe(env, { timeoutMs: 180_000 });

/**
 * The serving process's memory. On Node 20 (no process.execve) `terminology serve` is a ~40 MB
 * wrapper that starts the server again as its child with --max-old-space-size (bin/heap-limit.mjs):
 * the wrapper's own RSS says nothing about the server's, so its child is measured when it has one.
 */
function serverMemoryMb(pid: number | undefined) {
  if (pid === undefined) return undefined;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = (() => {
      try {
        return readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        return '';
      }
    })();
    // Fields after the command's closing parenthesis: state, ppid, …
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) return processMemoryMb(Number(name));
  }
  return processMemoryMb(pid);
}

/**
 * A first search may answer 503 (PostgreSQL: the SQL search of a release not indexed yet
 * cancelled by DATABASE_QUERY_TIMEOUT_MS on a loaded machine): recorded, then asked again
 * after its Retry-After, so one refusal does not end the mode's measurements.
 */
async function captureRetrying(base: string, r: Req, timeoutMs: number, refused: string[]) {
  const t0 = performance.now();
  for (let attempt = 1; ; attempt++) {
    const x = await request(base, r, { timeoutMs });
    if (x.status >= 200 && x.status <= 299) return { ...x, ms: performance.now() - t0 };
    if (x.status !== 503 || attempt >= 3) throw new Error(`GET ${r.path.slice(0, 120)} answered ${x.status}: ${x.body.toString('utf8').slice(0, 300)}`);
    refused.push(`GET ${r.path.slice(0, 100)} answered 503 after ${Math.round(x.ms)} ms (attempt ${attempt}): ${x.body.toString('utf8').slice(0, 160)}`);
    await new Promise((ok) => setTimeout(ok, 5_000));
  }
}

const parseSeconds = (stdout: string) => Number(/ in ([\d.]+) s/.exec(stdout)?.[1] ?? NaN);

/**
 * An import by the CLI, with the time of each of its phases: its plain progress lines (stderr,
 * not a terminal) say when it starts writing, computes the change sets, commits, writes the
 * index snapshot; each phase lasts until the next line of another phase. Says where an import's
 * time goes as releases accumulate.
 */
async function importTimed(dir: string, env: NodeJS.ProcessEnv) {
  const marks: [string, number][] = [];
  const phaseOf = (line: string) =>
    /: reading /.test(line) ? 'read+validate' : /: writing \d/.test(line) ? 'write' : /computing changes/.test(line) ? 'changes' : /: committing/.test(line) ? 'commit' : /index snapshot/.test(line) ? 'index snapshot' : /comparing/.test(line) ? 'compare with hosted' : undefined;
  const t0 = performance.now();
  const r = await runToEnd(process.execPath, [cliPath, 'import', dir], {
    env,
    cwd: projectRoot,
    timeoutMs: CLI_TIMEOUT_MS,
    onStderrLine: (line) => {
      const ph = phaseOf(line);
      if (ph && marks[marks.length - 1]?.[0] !== ph) marks.push([ph, performance.now()]);
    },
  });
  const end = t0 + r.wallMs;
  const phases: Record<string, number> = {};
  marks.forEach(([ph, at], i) => (phases[ph] = r1(((phases[ph] ?? 0) * 1000 + ((marks[i + 1]?.[1] ?? end) - at)) / 1000)));
  return { ...r, seconds: parseSeconds(r.stdout), phases };
}

/** A release imported as the only one: a fresh store (database) of its own, migrated, then the release (and its second language); dropped after. */
async function importAlone(mode: Mode, d: ManyData['dirs'][number], work: string) {
  const pgdb = mode === 'postgresql' ? await createFreshPostgres(process.env.DATABASE_URL!) : undefined;
  const unregister = pgdb ? onCleanup(pgdb.drop) : undefined;
  const dataDir = path.join(work, mode, 'alone');
  try {
    const env = modeEnv(dataDir, pgdb?.url);
    const storage = () => (pgdb ? pgBytes(pgdb.url) : Promise.resolve(dirBytes(dataDir)));
    const mig = await runToEnd(process.execPath, [cliPath, 'migrate'], { env, cwd: projectRoot, timeoutMs: CLI_TIMEOUT_MS });
    if (mig.code !== 0) throw new Error(`terminology migrate (alone) failed (${mig.code}): ${mig.stderr.slice(-2000)}`);
    const empty = await storage();
    const a = await importTimed(d.en, env);
    if (a.code !== 0) throw new Error(`import ${d.version} alone failed (${a.timedOut ? 'timed out' : `exit ${a.code}`}): ${a.stderr.slice(-2000)}`);
    let secondS: number | undefined;
    if (d.de) {
      const b = await importTimed(d.de, env);
      if (b.code !== 0) throw new Error(`import ${d.version} (de) alone failed (${b.timedOut ? 'timed out' : `exit ${b.code}`}): ${b.stderr.slice(-2000)}`);
      secondS = b.seconds;
    }
    return { version: d.version, primaryS: a.seconds, secondS, phases: a.phases, storageBytes: (await storage()) - empty };
  } finally {
    if (pgdb) {
      await pgdb.drop();
      unregister?.();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Inputs shared by both modes: codes hosted by the oldest and the latest release, and search queries of the oldest. */
interface Inputs {
  codes: number[];
  queries: string[];
}

function inputs(data: ManyData, loop: number): Inputs {
  const latest = new Set([...data.latest.pts.map((p) => p.code), ...data.latest.llts.map((l) => l.code)]);
  const both = [...new Set([...data.oldest.pts.map((p) => p.code), ...data.oldest.llts.map((l) => l.code)])].filter((c) => latest.has(c));
  const q = searchQueries(data.oldest, loop);
  // Exact names, prefixes and typos in turn: search's three paths, one p95.
  const queries: string[] = [];
  for (let i = 0; i < loop; i++) {
    const kind = [q.exact, q.prefix, q.misspelt][i % 3]!;
    const x = kind[Math.floor(i / 3) % Math.max(1, kind.length)];
    if (x) queries.push(x);
  }
  return { codes: shuffle(both, 11), queries };
}

async function runMode(mode: Mode, all: ManyData, work: string, opts: { loop: number; importUntil?: number }): Promise<ModeResult> {
  const res: ModeResult = { mode, rows: [], errors: [], notes: [], raw: {} };
  const row = (x: Row) => {
    res.rows.push(x);
    log(`${mode}: ${x.scenario}: ${x.measured}${x.met === false ? '  (target missed)' : ''}`);
  };
  const noise = new NoiseSampler();
  noise.start();
  // With --import-until, fewer releases may be imported than generated: everything after the
  // imports runs on those hosted (`data`, `n`, `last` narrowed then).
  let data = all;
  let n = data.versions.length;
  const first = data.versions[0]!;
  let last = data.versions[n - 1]!;
  let pgdb: Awaited<ReturnType<typeof createFreshPostgres>> | undefined;
  let unregister: (() => void) | undefined;
  let server: Server | undefined;
  try {
    if (mode === 'postgresql') {
      pgdb = await createFreshPostgres(process.env.DATABASE_URL!);
      unregister = onCleanup(pgdb.drop);
    }
    const dataDir = path.join(work, mode, 'store');
    const env = modeEnv(dataDir, pgdb?.url);
    const storage = () => (pgdb ? pgBytes(pgdb.url) : Promise.resolve(dirBytes(dataDir)));
    const mig = await runToEnd(process.execPath, [cliPath, 'migrate'], { env, cwd: projectRoot, timeoutMs: CLI_TIMEOUT_MS });
    if (mig.code !== 0) throw new Error(`terminology migrate failed (${mig.code}): ${mig.stderr.slice(-2000)}`);
    const empty = await storage();

    // -- imports, one release (and its second language) after the other
    const imports: { version: string; primaryS: number; secondS?: number; wallS: number; storageBytes: number; phases: Record<string, number>; secondPhases?: Record<string, number> }[] = [];
    for (const d of data.dirs) {
      const t0 = performance.now();
      const prev = imports[imports.length - 1];
      // Stop when the next import (as long as the last) would end after --import-until: the
      // server's measurements still need their time. At least two releases are imported.
      if (opts.importUntil !== undefined && prev && imports.length >= 2 && Date.now() + prev.wallS * 1000 > opts.importUntil) {
        res.notes.push(`Imports stopped by --import-until after ${imports.length} of ${data.dirs.length} generated releases (the next would have ended after ${new Date(opts.importUntil).toISOString().slice(11, 16)} UTC); everything below is on the ${imports.length} releases hosted.`);
        log(`${mode}: stopping imports after ${imports.length} releases (--import-until)`);
        break;
      }
      const a = await importTimed(d.en, env);
      if (a.code !== 0) throw new Error(`import ${d.version} failed (${a.timedOut ? 'timed out' : `exit ${a.code}`}): ${a.stderr.slice(-2000)}${a.stdout.slice(-500)}`);
      let secondS: number | undefined;
      let secondPhases: Record<string, number> | undefined;
      if (d.de) {
        const b = await importTimed(d.de, env);
        if (b.code !== 0) throw new Error(`import ${d.version} (de) failed (${b.timedOut ? 'timed out' : `exit ${b.code}`}): ${b.stderr.slice(-2000)}${b.stdout.slice(-500)}`);
        secondS = b.seconds;
        secondPhases = b.phases;
      }
      const imp = { version: d.version, primaryS: a.seconds, secondS, wallS: r1((performance.now() - t0) / 1000), storageBytes: (await storage()) - empty, phases: a.phases, secondPhases };
      imports.push(imp);
      log(`${mode}: imported ${d.version}: ${imp.primaryS} s${secondS !== undefined ? ` + ${secondS} s (de)` : ''}; store ${mb(imp.storageBytes)} MB; phases ${JSON.stringify(a.phases)}`);
    }
    res.raw.imports = imports;
    if (imports.length < n) {
      n = imports.length;
      data = { ...data, versions: data.versions.slice(0, n), dirs: data.dirs.slice(0, n) };
      last = data.versions[n - 1]!;
    }
    // The baseline the issue names: release N imported as the only release (a fresh store, same
    // CLI, right after the chain): "one release's storage" and "its import time as the only
    // release". Releases grow (the generator adds codes), so the first release is a smaller one.
    const alone = await importAlone(mode, data.dirs[n - 1]!, work);
    res.raw.alone = alone;
    log(`${mode}: ${last} alone: ${alone.primaryS} s${alone.secondS !== undefined ? ` + ${alone.secondS} s (de)` : ''}; store ${mb(alone.storageBytes)} MB; phases ${JSON.stringify(alone.phases)}`);
    const one = imports[0]!.storageBytes;
    const all = imports[n - 1]!.storageBytes;
    const further = n > 1 ? (all - one) / (n - 1) : NaN;
    row({
      id: 'storage',
      scenario: `storage of ${n} releases (${data.dirs[0]!.de ? 'two languages each, ' : ''}the migrated empty store subtracted; ${pgdb ? 'pg_database_size' : 'files of the store but its WAL'}) against release ${n} (${last}) imported alone into a fresh store, and against the first (${first})`,
      measured: `all ${n}: ${mb(all)} MB = **${r2(all / alone.storageBytes)}× release ${n} alone** (${mb(alone.storageBytes)} MB), ${r1(all / one)}× the first (${mb(one)} MB); each further release ${mb(further)} MB = ${Math.round((further / alone.storageBytes) * 100)}% of release ${n} alone, ${Math.round((further / one) * 100)}% of the first`,
      target: '≤ 2.5× one release (at 24); each further ≤ 15%',
      met: n >= 24 ? all / alone.storageBytes <= 2.5 && further / alone.storageBytes <= 0.15 : further / alone.storageBytes <= 0.15,
      values: { oneBytes: one, aloneBytes: alone.storageBytes, allBytes: all, furtherBytes: further },
    });
    const imp0 = imports[0]!;
    const impN = imports[n - 1]!;
    const tot = (x: { primaryS: number; secondS?: number }) => x.primaryS + (x.secondS ?? 0);
    const lastThird = imports.slice(Math.max(1, Math.floor((2 * n) / 3)));
    row({
      id: 'import',
      scenario: `import of release ${n} (${last}) after ${n - 1} others against the same release imported alone into a fresh store, and against the first (${first}) (CLI, ${data.dirs[0]!.de ? 'primary + second language' : 'one language'})`,
      measured: `release ${n} ${r1(tot(impN))} s = **${r2(tot(impN) / tot(alone))}× alone** (${r1(tot(alone))} s), ${r2(tot(impN) / tot(imp0))}× the first (${r1(tot(imp0))} s); median of releases ${n - lastThird.length + 1}–${n}: ${r1(median(lastThird.map(tot)))} s; all: ${imports.map((x) => r1(tot(x))).join(', ')} s; phases of the primary language's import (wall s), first ${phaseText(imp0.phases)}, last ${phaseText(impN.phases)}, alone ${phaseText(alone.phases)}`,
      target: '≤ 1× its import alone, independent of N',
      met: tot(impN) <= tot(alone),
      values: { imports: imports.map((x) => ({ version: x.version, primaryS: x.primaryS, secondS: x.secondS, phases: x.phases, secondPhases: x.secondPhases })), alone },
    });

    // The import's last phase: the release's index built from rows and stored as a snapshot;
    // since round 6 that also stores again the open group's older snapshots over the new newest
    // (docs/storage.md: up to KEYFRAME_EVERY − 1 of them), so it grows within a group of 8
    // and drops when a group closes. The first import's (nothing to rebase) is the baseline.
    const snap = imports.map((x) => x.phases['index snapshot'] ?? NaN);
    const snapRest = snap.slice(1).filter((x) => Number.isFinite(x));
    row({
      id: 'index-snapshot',
      scenario: `the import's index phase (build from rows, store the snapshot, rebase the open group onto it), release by release, against the first import's (nothing to rebase)`,
      measured: `first ${r1(snap[0]!)} s; further: median ${r1(median(snapRest))} s = ${r2(median(snapRest) / snap[0]!)}×, max ${r1(Math.max(...snapRest))} s = ${r2(Math.max(...snapRest) / snap[0]!)}×; all: ${snap.map(r1).join(', ')} s`,
      target: 'not a target of its own (part of the import time)',
      met: null,
      values: snap,
    });

    // -- the server on N releases, the default configuration
    const input = inputs(data, opts.loop);
    const half = Math.floor(input.codes.length / 2);
    const lookupCodes = input.codes.slice(0, Math.min(opts.loop + 10, half));
    const spareCodes = input.codes.slice(half);
    server = await startServer(env);
    const startRss = serverMemoryMb(server.proc.child.pid)?.rssMb ?? NaN;
    const firstOld = await capture(server.base, { path: `/codes/${spareCodes[0]}?version=${first}` }, 60_000);
    const firstNew = await capture(server.base, { path: `/codes/${spareCodes[1]}?version=${last}` }, 60_000);
    row({
      id: 'first-request',
      scenario: `first requests after start: GET /codes/{code} on the oldest (${first}), then on the latest (${last}), sent as soon as GET /versions answered (cold start ${ms(server.coldStartMs)})`,
      measured: `oldest ${ms(firstOld.ms)}, latest ${ms(firstNew.ms)}`,
      target: '≤ 150 ms each',
      met: firstOld.ms <= 150 && firstNew.ms <= 150,
      values: { oldestMs: firstOld.ms, latestMs: firstNew.ms, coldStartMs: server.coldStartMs, rssAtStartMb: startRss },
    });

    // Lookups: the same codes on both releases, interleaved per code (each answer uncached:
    // the release is part of the cache key). The oldest is not indexed yet (the SQL path).
    const pairs = (v1: string, v2: string, paths: string[]) => paths.map((p): [Req, Req] => [{ path: `${p}${p.includes('?') ? '&' : '?'}version=${v1}` }, { path: `${p}${p.includes('?') ? '&' : '?'}version=${v2}` }]);
    const lookups = pairs(first, last, lookupCodes.map((c) => `/codes/${c}`));
    const [lo, ll] = await interleavedLatencyLoops(server.base, lookups.slice(10), { warmupPairs: lookups.slice(0, 10), maxMs: 60_000 });
    res.raw.lookups = { oldest: lo, latest: ll };
    row({
      id: 'lookup',
      scenario: `GET /codes/{code} uncached, oldest vs latest release (${lo.n} codes hosted by both, each asked once per release, interleaved; the oldest not indexed: default SEARCH_INDEX_RELEASES)`,
      measured: `p50 oldest ${ms(lo.p50)} vs latest ${ms(ll.p50)} = ${r1(lo.p50 / ll.p50)}× (p95 ${ms(lo.p95)} vs ${ms(ll.p95)})`,
      target: 'p50 ≤ 1 ms each; oldest ≤ 1.2× latest',
      met: lo.p50 <= 1 && ll.p50 <= 1 && lo.p50 / ll.p50 <= 1.2,
      values: { oldest: lo, latest: ll },
    });

    // Search: first query on each (the oldest builds its index now), then distinct queries interleaved.
    const qp = (q: string) => `/codes?q=${encodeURIComponent(q)}`;
    const refused: string[] = [];
    const sFirstOld = await captureRetrying(server.base, { path: `${qp(`${input.queries[0]} x`)}&version=${first}` }, 120_000, refused);
    const sFirstNew = await captureRetrying(server.base, { path: `${qp(`${input.queries[0]} x`)}&version=${last}` }, 120_000, refused);
    const searches = pairs(first, last, input.queries.map(qp));
    const [so, sl] = await interleavedLatencyLoops(server.base, searches.slice(5), { warmupPairs: searches.slice(0, 5), maxMs: 60_000 });
    res.raw.search = { firstOldestMs: sFirstOld.ms, firstLatestMs: sFirstNew.ms, oldest: so, latest: sl };
    row({
      id: 'search',
      scenario: `GET /codes?q= (exact names, prefixes, typos in turn; ${so.n} distinct queries per release, interleaved), oldest vs latest; first search of each after start`,
      measured: `p95 oldest ${ms(so.p95)} vs latest ${ms(sl.p95)} = ${r1(so.p95 / sl.p95)}×; first search oldest ${ms(sFirstOld.ms)} (builds or loads its index), latest ${ms(sFirstNew.ms)}`,
      target: 'p95 ≤ 15 ms; first ≤ 150 ms',
      met: so.p95 <= 15 && sl.p95 <= 15 && sFirstOld.ms <= 150 && sFirstNew.ms <= 150,
      values: res.raw.search,
    });

    // Changes between the first and the last release (not neighbours): computed on first request.
    const chPath = `/versions/${last}/changes?fromVersionId=${first}`;
    const ch1 = await capture(server.base, { path: chPath }, 300_000);
    const ch2 = await capture(server.base, { path: `${chPath}&page=2` }, 60_000);
    const ch3 = await capture(server.base, { path: chPath }, 60_000);
    const counts = (JSON.parse(ch1.body.toString('utf8')) as { changes?: Record<string, number> }).changes;
    res.raw.changes = { firstMs: ch1.ms, storedMs: ch2.ms, replayMs: ch3.ms, counts };
    row({
      id: 'changes',
      scenario: `GET /versions/${last}/changes?fromVersionId=${first}: first time (computed and stored), then page 2 (the stored set), then page 1 again (warm answer)`,
      measured: `first ${ms(ch1.ms)}; stored ${ms(ch2.ms)} (${r1((ch2.ms / ch1.ms) * 100)}% of the first); warm ${ms(ch3.ms)}; ${counts ? `${counts.added} added, ${counts.updated} updated, ${counts.retired} retired` : ''}`,
      target: 'first ≤ 3 s; after ≤ 50 ms',
      met: ch1.ms <= 3_000 && ch2.ms <= 50,
      values: res.raw.changes,
    });

    // Every release touched (a lookup and a search each): RSS with the default LRU of indexes.
    const touch = async (s: Server) => {
      const firstSearch: number[] = [];
      for (const [i, v] of data.versions.entries()) {
        await capture(s.base, { path: `/codes/${spareCodes[2 + i]}?version=${v}` }, 60_000);
        firstSearch.push((await captureRetrying(s.base, { path: `${qp(input.queries[i % input.queries.length]!)}&version=${v}` }, 120_000, refused)).ms);
      }
      return firstSearch;
    };
    await touch(server);
    const rssAll = serverMemoryMb(server.proc.child.pid);
    row({
      id: 'rss',
      scenario: `server RSS after a lookup and a search on every one of the ${n} releases (default: ${2} indexes kept) against RSS at start`,
      measured: `${rssAll?.rssMb} MB (start ${startRss} MB; peak ${rssAll?.hwmMb} MB)`,
      target: mode === 'embedded' ? '≤ 1 GB (all indexed)' : '≤ 700 MB (all indexed)',
      met: null,
      values: { startRss, ...rssAll },
    });
    await stopChild(server.proc.child, 20_000);
    server = undefined;

    // A second server keeping every release's index: today's cost of "every release fast".
    server = await startServer({ ...env, SEARCH_INDEX_RELEASES: String(n) });
    const start2 = serverMemoryMb(server.proc.child.pid)?.rssMb ?? NaN;
    const loads = await touch(server);
    const rssIx = serverMemoryMb(server.proc.child.pid);
    const lookups2 = pairs(first, last, spareCodes.slice(n + 2, n + 2 + opts.loop + 10).map((c) => `/codes/${c}`));
    const [io, il] = await interleavedLatencyLoops(server.base, lookups2.slice(10), { warmupPairs: lookups2.slice(0, 10), maxMs: 60_000 });
    res.raw.allIndexed = { startRss: start2, rss: rssIx, firstSearchMs: loads, oldest: io, latest: il };
    row({
      id: 'rss-all-indexed',
      scenario: `SEARCH_INDEX_RELEASES=${n}: every release's index loaded by its first search (snapshot or rows), then RSS, then uncached lookups oldest vs latest (${io.n} codes, interleaved)`,
      measured: `RSS ${rssIx?.rssMb} MB (start ${start2} MB: ${Math.round(((rssIx?.rssMb ?? NaN) - start2) / n)} MB per release); first search per release median ${ms(median(loads))} (max ${ms(Math.max(...loads))}); lookups p50 oldest ${ms(io.p50)} vs latest ${ms(il.p50)} = ${r1(io.p50 / il.p50)}×`,
      target: mode === 'embedded' ? 'RSS ≤ 1 GB; first ≤ 150 ms; p50 ≤ 1 ms, ≤ 1.2×' : 'RSS ≤ 700 MB; first ≤ 150 ms; p50 ≤ 1 ms, ≤ 1.2×',
      met: (rssIx?.rssMb ?? Infinity) <= (mode === 'embedded' ? 1024 : 700) && Math.max(...loads) <= 150 && io.p50 <= 1 && io.p50 / il.p50 <= 1.2,
      values: res.raw.allIndexed,
    });
    if (refused.length) res.notes.push(`Refused with 503 and asked again: ${refused.join('; ')}.`);
  } catch (e) {
    const msg = (e as Error).stack ?? String(e);
    res.errors.push(msg.slice(0, 2000));
    log(`${mode}: ERROR ${msg.slice(0, 2000)}`);
  } finally {
    if (server) await stopChild(server.proc.child, 20_000);
    if (pgdb) {
      await pgdb.drop().catch((e: Error) => res.errors.push(`dropping the PostgreSQL database: ${e.message}`));
      unregister?.();
    }
    const nz = noise.stop();
    if (nz) {
      res.raw.noise = nz;
      res.notes.push(`Other processes used ${nz.othersCpuS} CPU-seconds during this mode's ${nz.seconds} s (${Math.round((nz.othersCpuS / Math.max(1, nz.seconds)) * 100)}% of one core on average${nz.top.length ? `; most: ${nz.top.map((t) => `\`${t.what.slice(0, 60)}\` ${t.cpuS} s`).join(', ')}` : ''}).`);
    }
  }
  return res;
}

function markdownSection(o: { date: string; command: string; machine: string; data: string; noise: string; results: ModeResult[]; wallS: number }): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    SECTION,
    '',
    `Produced by \`${o.command}\` on ${o.date} (${o.wallS} s in all). ${o.machine}. ${o.noise}.`,
    '',
    `Data: ${o.data}.`,
    '',
  ];
  for (const r of o.results) {
    lines.push(`### ${r.mode === 'embedded' ? 'Embedded (PGlite)' : 'PostgreSQL'}`, '', '| scenario | measured | target | met? |', '|---|---|---|---|');
    for (const x of r.rows) lines.push(`| ${esc(x.scenario)} | ${esc(x.measured)} | ${esc(x.target)} | ${x.met === null ? 'info' : x.met ? 'yes' : '**no**'} |`);
    for (const e of r.errors) lines.push('', `**Error:** ${esc(e.split('\n')[0]!)}`);
    if (r.notes.length) lines.push('', ...r.notes.map((x) => `- ${x}`));
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * Replaces (or appends) this scenario's section of results.md, leaving every other section as it is.
 * Subsections of the old section that this run does not write (notes and earlier rounds added by
 * hand, such as the ranged-storage round) are kept after the new figures.
 */
export function replaceSection(text: string, section: string): string {
  const parts = text.split(/\n(?=## )/);
  const at = parts.findIndex((p) => p.startsWith(SECTION));
  if (at < 0) {
    parts.push(section.trimEnd() + '\n');
  } else {
    const heading = (sub: string) => sub.split('\n', 1)[0]!.trim();
    const written = new Set(section.split(/\n(?=### )/).slice(1).map(heading));
    const kept = parts[at]!.split(/\n(?=### )/).slice(1).filter((sub) => !written.has(heading(sub)));
    parts[at] = [section.trimEnd(), ...kept.map((sub) => sub.trimEnd())].join('\n\n') + '\n';
  }
  return parts.map((p) => p.trimEnd()).join('\n\n') + '\n';
}

function writeSection(file: string, section: string) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  writeFileSync(file, replaceSection(text, section));
}

export async function runManyReleases(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scenario: { type: 'string' },
        releases: { type: 'string', default: '24' },
        scale: { type: 'string', default: '1' },
        languages: { type: 'string', default: '2' },
        modes: { type: 'string' },
        loop: { type: 'string', default: '200' },
        out: { type: 'string' },
        json: { type: 'string' },
        'import-until': { type: 'string' },
      },
    }));
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    return 2;
  }
  const usage = (m: string) => (process.stderr.write(`bench --scenario many-releases: ${m}\n`), 2);
  if (values.scenario !== 'many-releases') return usage(`unknown scenario '${values.scenario}' (many-releases)`);
  const n = Number(values.releases);
  const scale = Number(values.scale);
  const languages = Number(values.languages);
  const loop = Number(values.loop);
  if (!Number.isInteger(n) || n < 2 || n > 100) return usage('--releases: an integer from 2 to 100');
  if (!(scale > 0 && scale <= 1)) return usage('--scale: more than 0, at most 1');
  if (languages !== 1 && languages !== 2) return usage('--languages: 1 or 2');
  if (!Number.isInteger(loop) || loop < 20) return usage('--loop: an integer ≥ 20');
  // --import-until HH:MM (UTC, today): stop importing once the next import would end after it.
  let importUntil: number | undefined;
  if (values['import-until'] !== undefined) {
    const m = /^(\d{1,2}):(\d{2})$/.exec(values['import-until']);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return usage('--import-until: HH:MM (UTC)');
    const d = new Date();
    importUntil = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), Number(m[1]), Number(m[2]));
  }
  const modes = (values.modes ?? (process.env.DATABASE_URL ? 'embedded,postgresql' : 'embedded')).split(',').map((s) => s.trim()) as Mode[];
  for (const m of modes) if (m !== 'embedded' && m !== 'postgresql') return usage(`--modes: unknown mode '${m}'`);
  if (modes.includes('postgresql') && !process.env.DATABASE_URL) return usage('--modes postgresql needs DATABASE_URL');

  process.on('exit', () => killAllSync());
  const stop = (sig: string) => {
    log(`${sig}: stopping children and cleaning up`);
    void cleanupAll().finally(() => process.exit(130));
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => stop(sig));

  const started = performance.now();
  const busyBefore = await cpuBusy(1_000);
  const loadBefore = loadAverage();
  const b = await runToEnd(process.execPath, [path.join(projectRoot, 'scripts/build.mjs')], { cwd: projectRoot, timeoutMs: 180_000 });
  if (b.code !== 0) return usage(`npm run build failed:\n${b.stderr}`);
  const work = makeTempDir('bench-many-');
  try {
    log(`generating ${n} releases (scale ${scale}, ${languages} language${languages > 1 ? 's' : ''}) in ${work}`);
    const data = await writeManyReleases(path.join(work, 'data'), n, { scale, languages: languages as 1 | 2, log });
    const results: ModeResult[] = [];
    const out = values.out ?? path.join(projectRoot, 'bench/results.md');
    const m = machineInfo();
    // Written after each mode, so a long run stopped in its second mode keeps the first's figures.
    const report = () => {
      const section = markdownSection({
        date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        command: `npm run bench -- ${argv.join(' ')}${process.env.DATABASE_URL ? ' (DATABASE_URL set)' : ''}`,
        machine: `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}`,
        data: `${n} consecutive synthetic releases ${data.versions[0]} → ${data.versions[n - 1]} (seed 42, scale ${scale}, the generator's realistic changes between each; first ${JSON.stringify(data.counts.first)}, last ${JSON.stringify(data.counts.last)})${languages === 2 ? ', each also in a second language (a deterministic pseudo-translation of every name, imported as German)' : ''}, generated in ${Math.round(data.generateMs / 1000)} s and imported by \`terminology import\`, one after the other, into a migrated empty store`,
        noise: `CPU ${busyBefore ?? '?'}% busy in the second before the run; load average ${loadBefore} before, ${loadAverage()} after`,
        results,
        wallS: Math.round((performance.now() - started) / 1000),
      });
      if (out !== 'none') writeSection(out, section);
      return section;
    };
    for (const mode of modes) {
      log(`== ${mode} ==`);
      results.push(await runMode(mode, data, work, { loop, importUntil }));
      report();
    }
    process.stdout.write(`\n${report()}\n`);
    if (out !== 'none') log(`wrote ${out}`);
    if (values.json) writeFileSync(values.json, `${JSON.stringify({ n, scale, languages, versions: data.versions, counts: data.counts, modes: results }, null, 2)}\n`);
    return results.some((r) => r.errors.length) ? 1 : 0;
  } finally {
    await cleanupAll();
    removeTempDir(work);
  }
}
