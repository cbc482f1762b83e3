// Search CPU through an overlay view (src/domain/releaseIndex/overlaySearch.ts, issue 32), without
// the request path around it: one process holds the newest release's index, the oldest's whole index
// and the oldest's view over the newest, and runs the same searches (cut from the newest's names as
// bench/overlayView.ts cuts them: a word, a 6-letter prefix, the name with a letter dropped; limit 20)
// on the view, on the oldest's whole index (the same answers) and on the newest's index, in passes
// alternating their order; median pass CPU of each. With --baseline DIR (another version of the
// repository: its src/generated and node_modules beside it) each run also runs the same child on
// DIR's src, alternated with this tree's: a same-run baseline for a change to the view's search.
//
//   npx tsx bench/overlaySearchCpu.ts [--releases 6] [--scale 0.1] [--runs 3] [--passes 12] [--baseline DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { writeManyReleases } from './lib/manyData.ts';
import { removeTempDir } from './lib/procs.ts';
import { cpuMs, median } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    releases: { type: 'string', default: '6' },
    scale: { type: 'string', default: '0.1' },
    runs: { type: 'string', default: '3' },
    passes: { type: 'string', default: '12' },
    baseline: { type: 'string' },
    child: { type: 'string' },
    store: { type: 'string' },
  },
});

interface Result {
  searches: number;
  view: number;
  whole: number;
  latest: number;
}

/** In the tree `tree` (its src): the passes over the three indexes. */
async function child(tree: string, store: string): Promise<Result> {
  const src = (p: string) => pathToFileURL(path.join(tree, 'src', p)).href;
  const { openDatabase } = (await import(src('db/client.ts'))) as typeof import('../src/db/client.ts');
  const { ReleaseIndex } = (await import(src('domain/releaseIndex/releaseIndex.ts'))) as typeof import('../src/domain/releaseIndex/releaseIndex.ts');
  const { overlayOf } = (await import(src('domain/releaseIndex/overlay.ts'))) as typeof import('../src/domain/releaseIndex/overlay.ts');
  const { OverlayView } = (await import(src('domain/releaseIndex/overlayView.ts'))) as typeof import('../src/domain/releaseIndex/overlayView.ts');
  const { searchOn } = (await import(src('domain/releaseIndex/search.ts'))) as typeof import('../src/domain/releaseIndex/search.ts');
  const db = await openDatabase({ dataDir: store, poolSize: 4 });
  const ids = (await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release ORDER BY ordinal')).map((r) => r.id);
  const latest = await ReleaseIndex.load(db.prisma, ids.at(-1)!);
  const oldest = await ReleaseIndex.load(db.prisma, ids[0]!);
  const view = OverlayView.of(latest, await overlayOf(latest, oldest))!.search();
  const names: string[] = [];
  for (let i = 0; i < latest.size; i += Math.max(1, Math.floor(latest.size / 300))) names.push(latest.name[i]!);
  const queries = names.map((n, k) => {
    if (k % 3 === 0) return n.split(/\s+/).find((w) => w.length >= 4) ?? n;
    if (k % 3 === 1) return n.slice(0, 6);
    const d = Math.floor(n.length / 2);
    return n.slice(0, d) + n.slice(d + 1);
  });
  const indexes = { view, whole: oldest, latest } as const;
  const pass = async (ix: (typeof indexes)[keyof typeof indexes]) => {
    const c = cpuMs();
    for (const q of queries) await searchOn(db.prisma, ix, q, {}, 0, 20);
    return cpuMs() - c;
  };
  const took: Record<keyof typeof indexes, number[]> = { view: [], whole: [], latest: [] };
  const order = ['view', 'whole', 'latest'] as const;
  for (let p = 0; p < Number(values.passes); p++) {
    for (const k of p % 2 ? [...order].reverse() : order) took[k].push(await pass(indexes[k]));
  }
  await db.close();
  // The first two passes of each warm the code up.
  const m = (xs: number[]) => median(xs.slice(2));
  return { searches: queries.length, view: m(took.view), whole: m(took.whole), latest: m(took.latest) };
}

function runChild(tree: string, store: string): Promise<Result> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', self, '--child', tree, '--store', store, '--passes', String(values.passes)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as Result);
      else reject(new Error(`child ${tree} exited ${code}: ${out.slice(-500)}`));
    });
  });
}

async function main() {
  const { openDatabase } = await import('../src/db/client.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const { importRelease } = await import('../src/importer/import.ts');
  const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const dir = mkdtempSync(path.join(tmpdir(), 'overlay-search-cpu-'));
  const store = path.join(dir, 'store');
  try {
    const db = await openDatabase({ dataDir: store, poolSize: 4 });
    await migrate(db);
    const data = await writeManyReleases(path.join(dir, 'data'), Number(values.releases), { scale: Number(values.scale), languages: 1 });
    for (const d of data.dirs) await importRelease(db, d.en);
    await db.close();
    const trees = values.baseline ? { this: here, base: path.resolve(values.baseline) } : { this: here };
    const results: Record<string, Result[]> = { this: [], base: [] };
    process.stdout.write(`embedded: ${data.versions.length} releases ${data.versions[0]} → ${data.versions.at(-1)}, scale ${values.scale}; ${values.runs} runs, trees alternated\n`);
    for (let r = 0; r < Number(values.runs); r++) {
      const names = Object.keys(trees) as (keyof typeof trees)[];
      for (const name of r % 2 ? names.reverse() : names) {
        const x = await runChild(trees[name]!, store);
        results[name]!.push(x);
        process.stdout.write(
          `    run ${r + 1} ${name}: ${x.searches} searches a pass, median pass CPU: view ${x.view.toFixed(0)} ms, oldest's whole index ${x.whole.toFixed(0)} ms, latest ${x.latest.toFixed(0)} ms; view / whole ${(x.view / x.whole).toFixed(2)}, view / latest ${(x.view / x.latest).toFixed(2)}\n`,
        );
      }
    }
    for (const name of Object.keys(trees)) {
      const xs = results[name]!;
      const m = (f: (x: Result) => number) => median(xs.map(f)).toFixed(2);
      process.stdout.write(`  ${name}: view / oldest's whole index ${m((x) => x.view / x.whole)}×, view / latest ${m((x) => x.view / x.latest)}× (medians over runs)\n`);
    }
    if (values.baseline) {
      const per = results.this!.map((x, k) => (x.view / x.whole / (results.base![k]!.view / results.base![k]!.whole)).toFixed(2));
      process.stdout.write(`  this / base, view / whole per run: ${per.join(', ')}\n`);
    }
  } finally {
    removeTempDir(dir);
  }
}

if (values.child) {
  const r = await child(values.child, values.store!);
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exit(0);
} else await main();
