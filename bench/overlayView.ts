// Code pages through the overlay view (src/domain/releaseIndex/overlayView.ts, issue 32 step 2)
// measured on a chain of synthetic releases (the generator's realistic changes), embedded store,
// each import storing its index snapshot (the newest whole, the older ones deltas over it). Each
// way runs in a fresh child process (`node --expose-gc`), the ways alternated per round:
//   views — the newest's index loaded from its snapshot (the server's warm-up), every other
//           release's code pages through its view (its delta row read on first use);
//   whole — every release's whole index loaded (SEARCH_INDEX_RELEASES = n): today's way to have
//           every release indexed;
//   sql   — views off: an old release's code pages by SQL (the behaviour before this change).
// Per child: RSS after a collection once the newest is warm and once every release served a code
// page; the first code page on the oldest release after the start (wall and the process's CPU,
// PGlite included); then uncached GET /codes/{code} (no response cache, a new code each) on the
// oldest and the latest release interleaved, in process: p50 of each. Then search (issue 32: through
// the view's search part, overlaySearch.ts): the first search on the oldest, every release searched
// once (heap + arrays then), and GET /codes?q= on the oldest and the latest interleaved: CPU p50 of
// each (queries cut from the latest's names: a word, a prefix, a name with a letter dropped).
//
// With --baseline DIR (a copy of another version of the repository, e.g. main's `git archive` with
// src/generated and node_modules beside it) the way "base" runs that copy's own child in the views
// way, alternated with this tree's ways in the same run: a same-run baseline for a change to the
// view. --ways picks the ways run (default views,whole,sql; plus base when --baseline is given).
//
//   npx tsx bench/overlayView.ts [--releases 6] [--scale 0.1] [--rounds 2] [--requests 200] [--baseline DIR] [--ways views,base]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { importRelease } from '../src/importer/import.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { compose } from '../src/compose.ts';
import { createApp } from '../src/http/app.ts';
import { writeManyReleases } from './lib/manyData.ts';
import { removeTempDir } from './lib/procs.ts';
import { cpuMs, median } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    releases: { type: 'string', default: '6' },
    scale: { type: 'string', default: '0.1' },
    rounds: { type: 'string', default: '2' },
    requests: { type: 'string', default: '200' },
    child: { type: 'string' },
    store: { type: 'string' },
    plan: { type: 'string' },
    baseline: { type: 'string' },
    ways: { type: 'string' },
  },
});

type Mode = 'views' | 'whole' | 'sql';
/** A way of the parent: a mode of this tree's child, or 'base' (the baseline copy's child in the views mode). */
type Way = Mode | 'base';
interface Plan {
  releases: { id: number; version: string }[];
  /** Per request: a PT or LLT code held by both the oldest and the latest release. */
  codes: number[];
  /** Per search: a query cut from one of the latest release's names. */
  queries: string[];
}
interface Result {
  mode: Mode;
  rssWarmMb: number;
  rssAllMb: number;
  heapWarmMb: number;
  heapAllMb: number;
  /** The process's first code page (on the latest), before the first on the oldest. */
  firstLatest: { wall: number; cpu: number };
  cacheMb: number;
  viewCount: number;
  first: { wall: number; cpu: number };
  p50Old: number;
  p50New: number;
  /** The same pages' CPU time (this process, PGlite included): the host's load moves it far less than wall time. */
  cpuP50Old: number;
  cpuP50New: number;
  /** Whether the oldest's first code page was answered through its view (the read within the wait), and views served in all. */
  firstByView: boolean;
  viewsServed: number;
  /** Search: the oldest's first, heap + arrays once every release searched, cache's estimate then, CPU p50 per search. */
  firstSearch: { wall: number; cpu: number };
  heapSearchMb: number;
  cacheSearchMb: number;
  searchCpuOld: number;
  searchCpuNew: number;
  /** Whether the oldest release's whole index was loaded by the end. */
  oldestMaterialised: boolean;
}

/** After a full collection: RSS, and the JavaScript heap plus typed arrays' memory (what the indexes hold; PGlite's WebAssembly memory is in RSS only). */
const memory = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: (m.heapUsed + m.external) / 2 ** 20 };
};

async function child(mode: Mode, store: string, plan: Plan): Promise<Result> {
  const n = plan.releases.length;
  const oldest = plan.releases[0]!;
  const latest = plan.releases.at(-1)!;
  const env = { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', NLP_WORKERS: '0', SEARCH_INDEX_RELEASES: String(mode === 'whole' ? n : 2) };
  const db = await openDatabase({ dataDir: store, poolSize: 4 });
  const composed = compose(loadConfig(env), db, createLogger('silent'), { catalogTtlMs: 600_000 });
  const app = createApp(composed.services, { ...composed.appOptions, responseCache: false, graphql: { ...composed.appOptions.graphql, resultCache: false } });
  const indexes = composed.services.catalog.searchIndexes;
  indexes.useViews = mode === 'views';
  // Counts the views the loaders got (bench only: the product keeps no such counter).
  let viewsServed = 0;
  const view = indexes.view.bind(indexes);
  indexes.view = async (id, d) => {
    const v = await view(id, d);
    if (v) viewsServed++;
    return v;
  };
  await composed.services.catalog.releases();
  // The server's warm-up: the newest release's index from its snapshot.
  await indexes.loadSnapshot(latest.id, db.prisma);
  const warm = memory();
  let next = 0;
  const page = async (version: string) => {
    const code = plan.codes[next++ % plan.codes.length]!;
    const res = await app.fetch(new Request(`http://bench/codes/${code}?version=${version}`));
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${res.status} ${body.slice(0, 200)}`);
  };
  const firstOf = async (version: string) => {
    const c0 = cpuMs();
    const t0 = performance.now();
    await page(version);
    return { wall: performance.now() - t0, cpu: cpuMs() - c0 };
  };
  // The request path's own first-time costs fall on the latest's page; then the oldest's first.
  const firstLatest = await firstOf(latest.version);
  const before = viewsServed;
  const first = await firstOf(oldest.version);
  const firstByView = viewsServed > before;
  // Every release serving code pages: through views, or (whole) each release's index loaded.
  for (const r of plan.releases) {
    if (mode === 'whole') await indexes.get(r.id, db.prisma);
    await page(r.version);
  }
  const all = memory();
  const cacheMb = indexes.bytes() / 2 ** 20;
  const old: number[] = [];
  const cur: number[] = [];
  const oldCpu: number[] = [];
  const curCpu: number[] = [];
  const timed = async (version: string, into: number[]) => {
    const c = cpuMs();
    const t = performance.now();
    await page(version);
    into.push(performance.now() - t);
    (into === old ? oldCpu : curCpu).push(cpuMs() - c);
  };
  for (let k = 0; k < Number(values.requests); k++) {
    // Interleaved, the order alternating, so drift and noise fall on both alike.
    if (k % 2) {
      await timed(oldest.version, old);
      await timed(latest.version, cur);
    } else {
      await timed(latest.version, cur);
      await timed(oldest.version, old);
    }
  }
  // Search on every release: the oldest first (its view's search part made then, in 'views').
  let nextQ = 0;
  const search = async (version: string) => {
    const q = plan.queries[nextQ++ % plan.queries.length]!;
    const res = await app.fetch(new Request(`http://bench/codes?q=${encodeURIComponent(q)}&version=${version}&limit=20`));
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${res.status} ${body.slice(0, 200)}`);
  };
  const s0 = cpuMs();
  const t0 = performance.now();
  await search(oldest.version);
  const firstSearch = { wall: performance.now() - t0, cpu: cpuMs() - s0 };
  for (const r of plan.releases) await search(r.version);
  const searched = memory();
  const cacheSearchMb = indexes.bytes() / 2 ** 20;
  const sOld: number[] = [];
  const sNew: number[] = [];
  const timedSearch = async (version: string, into: number[]) => {
    const c = cpuMs();
    await search(version);
    into.push(cpuMs() - c);
  };
  for (let k = 0; k < Number(values.requests); k++) {
    if (k % 2) {
      await timedSearch(oldest.version, sOld);
      await timedSearch(latest.version, sNew);
    } else {
      await timedSearch(latest.version, sNew);
      await timedSearch(oldest.version, sOld);
    }
  }
  const searchPart = {
    firstSearch, heapSearchMb: searched.heap, cacheSearchMb, searchCpuOld: median(sOld), searchCpuNew: median(sNew),
    oldestMaterialised: indexes.peek(oldest.id) !== undefined,
  };
  const result: Result = { ...searchPart, mode, rssWarmMb: warm.rss, rssAllMb: all.rss, heapWarmMb: warm.heap, heapAllMb: all.heap, firstLatest, cacheMb, viewCount: indexes.viewCount(), first, p50Old: median(old), p50New: median(cur), cpuP50Old: median(oldCpu), cpuP50New: median(curCpu), firstByView, viewsServed };
  await composed.close();
  await db.close();
  return result;
}

function runChild(way: Way, store: string, planFile: string): Promise<Result> {
  const self = way === 'base' ? path.resolve(values.baseline!, 'bench/overlayView.ts') : fileURLToPath(import.meta.url);
  const mode: Mode = way === 'base' ? 'views' : way;
  return new Promise((resolve, reject) => {
    // The child runs in its own tree (tsx resolves that tree's src from the script's path).
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--child', mode, '--store', store, '--plan', planFile, '--requests', String(values.requests)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: path.dirname(path.dirname(self)),
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as Result);
      else reject(new Error(`child ${way} exited ${code}: ${out.slice(-500)}`));
    });
  });
}

async function main() {
  const n = Number(values.releases);
  const scale = Number(values.scale);
  const dir = mkdtempSync(path.join(tmpdir(), 'overlay-view-'));
  const store = path.join(dir, 'store');
  try {
    const db = await openDatabase({ dataDir: store, poolSize: 4 });
    await migrate(db);
    const data = await writeManyReleases(path.join(dir, 'data'), n, { scale, languages: 1 });
    const releases: Plan['releases'] = [];
    for (const d of data.dirs) releases.push({ id: (await importRelease(db, d.en)).releaseId, version: d.version });
    const layout = await db.prisma.$queryRawUnsafe<{ version: string; base: string | null; bytes: number }[]>(
      `SELECT r.version, b.version AS base, s.bytes FROM release r JOIN release_index_snapshot s ON s.release_id = r.id LEFT JOIN release b ON b.id = s.base_release_id ORDER BY r.ordinal`,
    );
    const codes = (
      await db.prisma.$queryRawUnsafe<{ code: number }[]>(
        `SELECT o.code FROM concept_at($1) o JOIN concept_at($2) l ON l.level = o.level AND l.code = o.code WHERE o.level IN ('PT', 'LLT') ORDER BY md5(o.code::text) LIMIT 2000`,
        releases[0]!.id,
        releases.at(-1)!.id,
      )
    ).map((r) => r.code);
    // Queries from the latest's names (every level): a word of 4+ letters, a 6-letter prefix, the name with a letter dropped.
    const names = (await db.prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM concept_at($1) ORDER BY md5(code::text || level::text) LIMIT 300`, releases.at(-1)!.id)).map((r) => r.name);
    const queries = names.map((n, k) => {
      if (k % 3 === 0) return n.split(/\s+/).find((w) => w.length >= 4) ?? n;
      if (k % 3 === 1) return n.slice(0, 6);
      const d = Math.floor(n.length / 2);
      return n.slice(0, d) + n.slice(d + 1);
    });
    const [{ entries } = { entries: 0 }] = await db.prisma.$queryRawUnsafe<{ entries: number }[]>('SELECT count(*)::int AS entries FROM concept_at($1)', releases.at(-1)!.id);
    await db.close();
    const planFile = path.join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify({ releases, codes, queries } satisfies Plan));
    process.stdout.write(
      `embedded: ${n} releases ${data.versions[0]} → ${data.versions.at(-1)}, scale ${scale} (latest ${entries} entries); snapshots: ` +
        layout.map((l) => `${l.version} ${l.base ? `Δ over ${l.base}` : 'whole'} ${(l.bytes / 2 ** 20).toFixed(2)} MB`).join(', ') +
        `\n${values.rounds} rounds, ways alternated; ${values.requests} code pages per release and way, interleaved oldest/latest\n`,
    );
    const results: Record<Way, Result[]> = { views: [], whole: [], sql: [], base: [] };
    const order = (values.ways?.split(',') ?? ['views', 'whole', 'sql', ...(values.baseline ? ['base'] : [])]) as Way[];
    if (order.includes('base') && !values.baseline) throw new Error('the way base needs --baseline DIR');
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const mode of round % 2 ? [...order].reverse() : order) {
        const r = await runChild(mode, store, planFile);
        results[mode].push(r);
        process.stdout.write(
          `    round ${round + 1} ${mode}: heap+arrays +${(r.heapAllMb - r.heapWarmMb).toFixed(1)} MB, RSS +${(r.rssAllMb - r.rssWarmMb).toFixed(0)} MB, first oldest ${r.first.wall.toFixed(0)} ms (CPU ${r.first.cpu.toFixed(0)}${r.firstByView ? ', by its view' : ''}), p50 oldest ${r.p50Old.toFixed(2)} latest ${r.p50New.toFixed(2)} ms, CPU p50 oldest ${r.cpuP50Old.toFixed(2)} latest ${r.cpuP50New.toFixed(2)} ms; ${r.viewsServed} view answers; search: first on oldest CPU ${r.firstSearch.cpu.toFixed(0)} ms, heap + arrays +${(r.heapSearchMb - r.heapWarmMb).toFixed(1)} MB, CPU p50 oldest ${r.searchCpuOld.toFixed(2)} latest ${r.searchCpuNew.toFixed(2)} ms${r.oldestMaterialised ? ', oldest materialised' : ''}\n`,
        );
      }
    }
    const m = (xs: Result[], f: (r: Result) => number) => median(xs.map(f));
    for (const mode of order) {
      const r = results[mode];
      process.stdout.write(
        `  ${mode.padEnd(5)}: RSS warm ${m(r, (x) => x.rssWarmMb).toFixed(0)} MB, every release served ${m(r, (x) => x.rssAllMb).toFixed(0)} MB ` +
          `(+${m(r, (x) => x.rssAllMb - x.rssWarmMb).toFixed(0)} MB), heap + arrays +${m(r, (x) => x.heapAllMb - x.heapWarmMb).toFixed(1)} MB ` +
          `(cache ${m(r, (x) => x.cacheMb).toFixed(1)} MB estimated, ${r[0]!.viewCount} views); ` +
          `first code page (latest) wall ${m(r, (x) => x.firstLatest.wall).toFixed(1)} ms, CPU ${m(r, (x) => x.firstLatest.cpu).toFixed(1)} ms, then the oldest's: wall ${m(r, (x) => x.first.wall).toFixed(1)} ms, CPU ${m(r, (x) => x.first.cpu).toFixed(1)} ms; ` +
          `p50 oldest ${m(r, (x) => x.p50Old).toFixed(2)} ms, latest ${m(r, (x) => x.p50New).toFixed(2)} ms = ${m(r, (x) => x.p50Old / x.p50New).toFixed(2)}×; ` +
          `CPU p50 oldest ${m(r, (x) => x.cpuP50Old).toFixed(2)} ms, latest ${m(r, (x) => x.cpuP50New).toFixed(2)} ms = ${m(r, (x) => x.cpuP50Old / x.cpuP50New).toFixed(2)}×; ` +
          `search: first on the oldest wall ${m(r, (x) => x.firstSearch.wall).toFixed(1)} ms, CPU ${m(r, (x) => x.firstSearch.cpu).toFixed(1)} ms, every release searched: heap + arrays +${m(r, (x) => x.heapSearchMb - x.heapWarmMb).toFixed(1)} MB ` +
          `(cache ${m(r, (x) => x.cacheSearchMb).toFixed(1)} MB estimated), CPU p50 oldest ${m(r, (x) => x.searchCpuOld).toFixed(2)} ms, latest ${m(r, (x) => x.searchCpuNew).toFixed(2)} ms = ${m(r, (x) => x.searchCpuOld / x.searchCpuNew).toFixed(2)}×` +
          `${r.some((x) => x.oldestMaterialised) ? ' (oldest materialised)' : ''}\n`,
      );
    }
    const v = results.views;
    const w = results.whole;
    const s = results.sql;
    const b = results.base;
    if (v.length && b.length) {
      // Per round: this tree's views against the baseline's, the two children of the round side by side.
      const per = (f: (r: Result) => number) => v.map((x, k) => (b[k] ? f(x) / f(b[k]!) : NaN)).map((r) => r.toFixed(2)).join(', ');
      process.stdout.write(
        `  views / base per round: search CPU p50 oldest ${per((x) => x.searchCpuOld)}, latest ${per((x) => x.searchCpuNew)}, oldest/latest ${per((x) => x.searchCpuOld / x.searchCpuNew)}; ` +
          `first search on the oldest CPU ${per((x) => x.firstSearch.cpu)}; heap + arrays added once searched ${per((x) => x.heapSearchMb - x.heapWarmMb)}\n`,
      );
    }
    if (!v.length || !w.length || !s.length) return;
    process.stdout.write(
      `  views / whole: RSS added ${(m(v, (x) => x.rssAllMb - x.rssWarmMb) / m(w, (x) => x.rssAllMb - x.rssWarmMb)).toFixed(2)}×, ` +
        `heap + arrays added ${(m(v, (x) => x.heapAllMb - x.heapWarmMb) / m(w, (x) => x.heapAllMb - x.heapWarmMb)).toFixed(2)}×, ` +
        `oldest CPU p50 ${(m(v, (x) => x.cpuP50Old) / m(w, (x) => x.cpuP50Old)).toFixed(2)}×; views / sql: oldest CPU p50 ${(m(v, (x) => x.cpuP50Old) / m(s, (x) => x.cpuP50Old)).toFixed(2)}×, ` +
        `first page wall ${(m(v, (x) => x.first.wall) / m(s, (x) => x.first.wall)).toFixed(2)}×, CPU ${(m(v, (x) => x.first.cpu) / m(s, (x) => x.first.cpu)).toFixed(2)}×; ` +
        `search, views / whole: heap + arrays added ${(m(v, (x) => x.heapSearchMb - x.heapWarmMb) / m(w, (x) => x.heapSearchMb - x.heapWarmMb)).toFixed(2)}×, oldest CPU p50 ${(m(v, (x) => x.searchCpuOld) / m(w, (x) => x.searchCpuOld)).toFixed(2)}×\n`,
    );
  } finally {
    removeTempDir(dir);
  }
}

if (values.child) {
  const plan = JSON.parse(readFileSync(values.plan!, 'utf8')) as Plan;
  const r = await child(values.child as Mode, values.store!, plan);
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exit(0);
} else await main();
