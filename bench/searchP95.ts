// Search CPU per query on the newest full-size release's in-memory index (issue 32's "search p95 ≤
// 15 ms"), without a server: the 24-release chain of bench/groupViewsStore.ts (bench/lib/manyData.ts's
// generator, seed 42) is generated once and the newest's concept rows and the query mix (exact names,
// 5-letter prefixes and typos of the oldest's names: bench/lib/data.ts searchQueries, all three kinds
// whole) cached under DIR. A child process per tree builds the index from the rows (names only: no
// hierarchy, which search without filters does not read) with that tree's src, runs every query
// (limit 20, the REST default) for ROUNDS rounds and reports each query's CPU. With --baseline DIR2
// the same child runs on DIR2's src too, alternated A B B A: a same-run baseline, and every query's
// page (codes, match, order, scores, total) compared between the two.
//
//   npx tsx bench/searchP95.ts --dir /tmp/sp95 [--releases 24] [--scale 1] [--rounds 5] [--runs 2] [--baseline /work/main]
//   npx tsx bench/searchP95.ts --dir /tmp/sp95 --profile   (one child of this tree under --cpu-prof, slow queries only)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { searchQueries } from './lib/data.ts';
import { median } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/search-p95' },
    releases: { type: 'string', default: '24' },
    scale: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '5' },
    runs: { type: 'string', default: '2' },
    baseline: { type: 'string' },
    child: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});

interface Row {
  level: string;
  code: number;
  name: string;
  name_norm: string;
  current: boolean;
  pt_code: number | null;
  primary_soc_code: number | null;
  soc_abbrev: string | null;
  intl_order: number | null;
}

interface Inputs {
  releases: number;
  scale: number;
  llts: number;
  queries: { q: string; kind: string }[];
}

const LEVELS = ['SOC', 'HLGT', 'HLT', 'PT', 'LLT'];

/** The newest release's concept rows as ReleaseIndex.load reads them (level, code order), and the query mix. */
async function prepare(dir: string): Promise<void> {
  const { generateRelease } = await import('../tools/synthetic/generate.ts');
  const { normalizeName } = await import('../src/domain/text.ts');
  const { manyVersions } = await import('./lib/manyData.ts');
  const n = Number(values.releases);
  const scale = Number(values.scale);
  let prev: ReturnType<typeof generateRelease> | undefined;
  let oldest: typeof prev;
  for (const version of manyVersions(n)) {
    prev = generateRelease({ seed: 42, version, scale, changesFrom: prev });
    oldest ??= prev;
    process.stderr.write(`generated ${version} (${prev.llts.length} LLTs)\n`);
  }
  const r = prev!;
  const io = new Map(r.socs.map((s) => [s.code, s.intlOrd]));
  const row = (level: string, code: number, name: string, extra: Partial<Row> = {}): Row => ({
    level, code, name, name_norm: normalizeName(name), current: true, pt_code: null, primary_soc_code: null, soc_abbrev: null, intl_order: null, ...extra,
  });
  const rows: Row[] = [
    ...r.socs.map((s) => row('SOC', s.code, s.name, { soc_abbrev: s.abbrev || null, intl_order: io.get(s.code) ?? null })),
    ...r.hlgts.map((s) => row('HLGT', s.code, s.name)),
    ...r.hlts.map((s) => row('HLT', s.code, s.name)),
    ...r.pts.map((s) => row('PT', s.code, s.name, { primary_soc_code: s.socCode })),
    ...r.llts.map((s) => row('LLT', s.code, s.name, { pt_code: s.ptCode, current: s.current })),
  ];
  rows.sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || a.code - b.code);
  const q = searchQueries(oldest!, 200);
  const queries = [...q.exact.map((x) => ({ q: x, kind: 'exact' })), ...q.prefix.map((x) => ({ q: x, kind: 'prefix' })), ...q.misspelt.map((x) => ({ q: x, kind: 'typo' }))];
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'rows.json'), JSON.stringify(rows));
  writeFileSync(path.join(dir, 'inputs.json'), JSON.stringify({ releases: n, scale, llts: r.llts.length, queries } satisfies Inputs));
}

interface ChildResult {
  tree: string;
  /** Per query: CPU ms of each round. */
  cpu: number[][];
  /** Per query: its page (the first round's), as JSON. */
  pages: string[];
  buildMs: number;
}

/** In the tree `tree` (its src): the index built from the rows, every query `rounds` times. */
async function child(tree: string, dir: string): Promise<ChildResult> {
  const src = (p: string) => pathToFileURL(path.join(tree, 'src', p)).href;
  const { ReleaseIndex } = (await import(src('domain/releaseIndex/releaseIndex.ts'))) as typeof import('../src/domain/releaseIndex/releaseIndex.ts');
  const { searchOn } = (await import(src('domain/releaseIndex/search.ts'))) as typeof import('../src/domain/releaseIndex/search.ts');
  const rows = JSON.parse(readFileSync(path.join(dir, 'rows.json'), 'utf8')) as Row[];
  const inputs = JSON.parse(readFileSync(path.join(dir, 'inputs.json'), 'utf8')) as Inputs;
  const t0 = performance.now();
  const index = await ReleaseIndex.build(1, rows as Parameters<typeof ReleaseIndex.build>[1]);
  const buildMs = performance.now() - t0;
  // No filters: search never asks the database.
  const db = { $queryRawUnsafe: () => Promise.reject(new Error('no database in this bench')) } as never;
  let queries = inputs.queries;
  if (values.only) {
    const slow = new Set(JSON.parse(readFileSync(values.only, 'utf8')) as string[]);
    queries = queries.filter((x) => slow.has(x.q));
  }
  const cpu: number[][] = queries.map(() => []);
  const pages: string[] = [];
  const rounds = Number(values.rounds);
  // One warm-up round, not counted.
  for (const x of queries) await searchOn(db, index, x.q, {}, 0, 20);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < queries.length; k++) {
      const u = process.cpuUsage();
      const page = await searchOn(db, index, queries[k]!.q, {}, 0, 20);
      const d = process.cpuUsage(u);
      cpu[k]!.push((d.user + d.system) / 1000);
      if (r === 0) pages.push(JSON.stringify(page));
    }
  }
  return { tree, cpu, pages, buildMs };
}

function runChild(tree: string, dir: string, profileDir?: string): Promise<ChildResult> {
  const self = fileURLToPath(import.meta.url);
  const out = path.join(dir, 'child.json');
  const args = ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), self, '--child', tree, '--dir', dir, '--out', out, '--rounds', values.rounds!, ...(values.only ? ['--only', values.only] : [])];
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    p.on('exit', (code) => {
      if (code === 0) resolve(JSON.parse(readFileSync(out, 'utf8')) as ChildResult);
      else reject(new Error(`child ${tree} exited ${code}`));
    });
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
};

/** p50 / p95 / max over every (query, round) sample, and over each query's median. */
function summary(r: ChildResult): { p50: number; p95: number; max: number; medP95: number } {
  const all = r.cpu.flat();
  const med = r.cpu.map((xs) => median(xs));
  return { p50: pct(all, 0.5), p95: pct(all, 0.95), max: Math.max(...all), medP95: pct(med, 0.95) };
}

async function main() {
  const dir = path.resolve(values.dir!);
  if (!existsSync(path.join(dir, 'rows.json'))) await prepare(dir);
  const inputs = JSON.parse(readFileSync(path.join(dir, 'inputs.json'), 'utf8')) as Inputs;
  if (values.only) {
    const slow = new Set(JSON.parse(readFileSync(values.only, 'utf8')) as string[]);
    inputs.queries = inputs.queries.filter((x) => slow.has(x.q));
  }
  const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const f = (x: number) => x.toFixed(2);
  process.stdout.write(`newest of ${inputs.releases} releases at scale ${inputs.scale} (${inputs.llts} LLTs), ${inputs.queries.length} queries × ${values.rounds} rounds, load ${readFileSync('/proc/loadavg', 'utf8').trim()}\n`);
  if (values.profile) {
    const profileDir = path.join(dir, 'profile');
    const r = await runChild(here, dir, profileDir);
    const s = summary(r);
    process.stdout.write(`profile in ${profileDir}: p50 ${f(s.p50)} p95 ${f(s.p95)} max ${f(s.max)} ms\n`);
    return;
  }
  const trees: [string, string][] = values.baseline ? [['A', path.resolve(values.baseline)], ['B', here]] : [['B', here]];
  const results: { label: string; r: ChildResult }[] = [];
  for (let run = 0; run < Number(values.runs); run++) {
    for (const [label, tree] of run % 2 ? [...trees].reverse() : trees) {
      const r = await runChild(tree, dir);
      results.push({ label, r });
      const s = summary(r);
      process.stdout.write(`  ${label} (${tree}): per search CPU p50 ${f(s.p50)} p95 ${f(s.p95)} max ${f(s.max)} ms; p95 of per-query medians ${f(s.medP95)} ms; index build ${r.buildMs.toFixed(0)} ms; load ${readFileSync('/proc/loadavg', 'utf8').trim()}\n`);
    }
  }
  // Per kind and the slowest queries (medians over rounds, each tree's last run); slow.json: the first tree's.
  for (const [label] of trees) {
    const last = results.filter((x) => x.label === label).at(-1)!.r;
    const med = last.cpu.map((xs) => median(xs));
    for (const kind of ['exact', 'prefix', 'typo']) {
      const ks = inputs.queries.map((x, k) => (x.kind === kind ? med[k]! : -1)).filter((v) => v >= 0);
      if (ks.length) process.stdout.write(`  ${label} ${kind}: n ${ks.length}, median-of-rounds p50 ${f(pct(ks, 0.5))} p95 ${f(pct(ks, 0.95))} max ${f(Math.max(...ks))} ms\n`);
    }
    const order = med.map((m, k) => k).sort((a, b) => med[b]! - med[a]!);
    if (label === trees[0]![0]) writeFileSync(path.join(dir, 'slow.json'), JSON.stringify(order.slice(0, 30).map((k) => inputs.queries[k]!.q)));
    for (const k of order.slice(0, 8)) process.stdout.write(`    ${label} ${f(med[k]!)} ms  ${inputs.queries[k]!.kind}  ${JSON.stringify(inputs.queries[k]!.q)}  total ${JSON.parse(last.pages[k]!).total}\n`);
  }
  if (values.baseline) {
    const a = results.find((x) => x.label === 'A')!.r;
    const b = results.find((x) => x.label === 'B')!.r;
    const differ = a.pages.map((p, k) => (p === b.pages[k] ? -1 : k)).filter((k) => k >= 0);
    process.stdout.write(`  pages compared: ${a.pages.length}, differing: ${differ.length}${differ.length ? ` (first: ${JSON.stringify(inputs.queries[differ[0]!]!.q)})` : ''}\n`);
    const ratio = (k: 'p50' | 'p95' | 'max' | 'medP95') => {
      const sa = results.filter((x) => x.label === 'A').map((x) => summary(x.r)[k]);
      const sb = results.filter((x) => x.label === 'B').map((x) => summary(x.r)[k]);
      return `${k} A ${sa.map(f).join(', ')} / B ${sb.map(f).join(', ')}: B/A ${(median(sb) / median(sa)).toFixed(2)}`;
    };
    process.stdout.write(`  ${ratio('p50')}\n  ${ratio('p95')}\n  ${ratio('max')}\n  ${ratio('medP95')}\n`);
    if (differ.length) process.exitCode = 1;
  }
}

if (values.child) {
  const r = await child(values.child, path.resolve(values.dir!));
  writeFileSync(values.out!, JSON.stringify(r));
  process.exit(0);
} else await main();
