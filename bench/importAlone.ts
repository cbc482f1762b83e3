// The import of one release alone against the same release imported after N-1 others (issue 32's
// target: "import of release N+1 ≤ its import time as the only release, independent of N"), per
// phase, for two checkouts in the same run. N synthetic releases (one language) are generated once;
// for each mode and side (order A B B A by default) bench/snapshotStorageWorker.ts imports the last
// release alone into a fresh store, then after the one before it into another, then all N in order
// into a third; the phases' CPU (the importing process's; PostgreSQL's own work not in it, PGlite's
// is) of the last import of each. Alone is also the process's first import (code not yet compiled
// by the JIT, the store cold): "after 1" is the warm baseline against which "after N-1" shows what
// grows with N.
//
//   npx tsx bench/importAlone.ts --a /work/wt-base --b . [--releases 8] [--scale 0.25]
//        [--modes embedded,postgresql] [--order ABBA] [--json out.json]
// PostgreSQL when DATABASE_URL is set (a fresh database per run, dropped afterwards).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.ts';
import { writeManyReleases } from './lib/manyData.ts';
import { createFreshPostgres } from './lib/pgdb.ts';
import { makeTempDir, removeTempDir, runToEnd } from './lib/procs.ts';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    releases: { type: 'string', default: '8' },
    scale: { type: 'string', default: '0.25' },
    modes: { type: 'string', default: 'embedded,postgresql' },
    order: { type: 'string', default: 'ABBA' },
    json: { type: 'string' },
  },
});
const trees: Record<string, string> = { A: path.resolve(values.a!), B: path.resolve(values.b!) };
const log = (s: string) => process.stderr.write(`[import-alone ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const PHASES = ['read', 'validate', 'write', 'changes', 'commit', 'index'] as const;
type Phases = Record<string, { wallMs: number; cpuMs: number }>;
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const work = makeTempDir('import-alone-');
try {
  const data = await writeManyReleases(path.join(work, 'data'), Number(values.releases), { scale: Number(values.scale), languages: 1, log });
  const lists = { alone: [data.dirs.at(-1)!.en], pair: data.dirs.slice(-2).map((d) => d.en), chain: data.dirs.map((d) => d.en) };
  const runs: { side: string; mode: string; how: keyof typeof lists; phases: Phases; loadavg: string }[] = [];
  for (const mode of values.modes!.split(',')) {
    for (const [i, side] of [...values.order!].entries()) {
      for (const how of ['alone', 'pair', 'chain'] as const) {
        const dirsFile = path.join(work, `${how}.txt`);
        writeFileSync(dirsFile, lists[how].join('\n'));
        const pgdb = mode === 'postgresql' ? await createFreshPostgres(process.env.DATABASE_URL!) : undefined;
        const dataDir = path.join(work, `${mode}-${i}-${how}`);
        mkdirSync(dataDir, { recursive: true });
        try {
          const args = ['--import', 'tsx', path.join(projectRoot, 'bench/snapshotStorageWorker.ts'), '--tree', trees[side]!, '--dirs', dirsFile];
          args.push(...(pgdb ? ['--database-url', pgdb.url] : ['--data-dir', dataDir]));
          const loadavg = readFileSync('/proc/loadavg', 'utf8').slice(0, 14);
          const r = await runToEnd('nice', ['-n', '5', process.execPath, ...args], { cwd: projectRoot, timeoutMs: 3 * 3600_000, env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '' } });
          if (r.code !== 0) throw new Error(`worker failed (${r.code}): ${r.stderr.slice(-3000)}`);
          const steps = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { phases: Phases });
          const phases = steps.at(-1)!.phases;
          runs.push({ side, mode, how, phases, loadavg });
          log(`${mode} ${side} ${how} (${data.versions.at(-1)} as import ${steps.length}; load ${loadavg}): ${PHASES.map((p) => `${p} ${Math.round(phases[p]?.cpuMs ?? 0)}`).join(', ')} ms cpu`);
        } finally {
          await pgdb?.drop();
        }
      }
    }
  }
  // Per mode and side: the median of each phase's CPU, alone and after the others, and their ratio.
  for (const mode of values.modes!.split(',')) {
    for (const side of ['A', 'B']) {
      const of = (how: string, p: string) => median(runs.filter((r) => r.mode === mode && r.side === side && r.how === how).map((r) => r.phases[p]?.cpuMs ?? 0));
      const row = PHASES.map((p) => `${p} ${Math.round(of('alone', p))} / ${Math.round(of('pair', p))} / ${Math.round(of('chain', p))}`).join('; ');
      process.stdout.write(`${mode} ${side}: ${data.versions.at(-1)} alone / after 1 / after ${data.versions.length - 1} others, CPU ms (median): ${row}\n`);
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ releases: data.versions, scale: Number(values.scale), order: values.order, trees, runs }, null, 1));
} finally {
  removeTempDir(work);
}
