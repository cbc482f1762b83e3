// What the index snapshots cost a store of many releases, and the import's index phase, for two
// checkouts in the same run (issue 32, session 24: main against a branch). N synthetic releases
// (one language) are generated once; each side imports them in order into a fresh store of each
// mode, in this order of sides per mode: A B B A (the host is shared and noisy). Per import: the
// index phase's wall and CPU (the importing process's; PostgreSQL's own work not in it), the
// store's size, the snapshot table's TOAST and the part of it no live row holds.
//
//   npx tsx bench/snapshotStorage.ts --a /work/wt-base --b . [--releases 10] [--scale 0.25]
//        [--modes embedded,postgresql] [--order ABBA] [--json out.json]
// PostgreSQL when DATABASE_URL is set (a fresh database beside it per run, dropped afterwards).
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
    releases: { type: 'string', default: '10' },
    scale: { type: 'string', default: '0.25' },
    modes: { type: 'string', default: 'embedded,postgresql' },
    order: { type: 'string', default: 'ABBA' },
    json: { type: 'string' },
  },
});
const trees: Record<string, string> = { A: path.resolve(values.a!), B: path.resolve(values.b!) };
const log = (s: string) => process.stderr.write(`[snapshot-storage ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const MB = 2 ** 20;
const r1 = (x: number) => Math.round(x * 10) / 10;

interface Step {
  dir: string;
  wallMs: number;
  cpuMs: number;
  phases: Record<string, { wallMs: number; cpuMs: number }>;
  storage: {
    database: number;
    files?: number;
    fileCopies?: number;
    relations: Record<string, { heap: number; toast: number; indexes: number; total: number }>;
    snapshotLive: number;
    languageSnapshotLive: number;
    snapshots: { id: number; base: number | null; bytes: number }[];
  };
  loadavg: string;
}

const work = makeTempDir('snapshot-storage-');
try {
  const data = await writeManyReleases(path.join(work, 'data'), Number(values.releases), { scale: Number(values.scale), languages: 1, log });
  const dirsFile = path.join(work, 'dirs.txt');
  writeFileSync(dirsFile, data.dirs.map((d) => d.en).join('\n'));
  const runs: { side: string; mode: string; steps: Step[] }[] = [];
  for (const mode of values.modes!.split(',')) {
    for (const [i, side] of [...values.order!].entries()) {
      const pgdb = mode === 'postgresql' ? await createFreshPostgres(process.env.DATABASE_URL!) : undefined;
      const dataDir = path.join(work, `${mode}-${i}`);
      mkdirSync(dataDir, { recursive: true });
      try {
        const args = ['--import', 'tsx', path.join(projectRoot, 'bench/snapshotStorageWorker.ts'), '--tree', trees[side]!, '--dirs', dirsFile];
        args.push(...(pgdb ? ['--database-url', pgdb.url] : ['--data-dir', dataDir]));
        log(`${mode} ${side} (${trees[side]}): importing ${data.dirs.length} releases; load ${readFileSync('/proc/loadavg', 'utf8').slice(0, 14)}`);
        const r = await runToEnd('nice', ['-n', '5', process.execPath, ...args], { cwd: projectRoot, timeoutMs: 3 * 3600_000, env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '' } });
        if (r.code !== 0) throw new Error(`worker failed (${r.code}): ${r.stderr.slice(-3000)}`);
        const steps = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Step);
        runs.push({ side, mode, steps });
        for (const [k, s] of steps.entries()) {
          const st = s.storage;
          const snap = st.relations.release_index_snapshot!;
          log(
            `${mode} ${side} #${k + 1}: index ${r1(s.phases.index?.wallMs ?? NaN)} ms wall ${r1(s.phases.index?.cpuMs ?? NaN)} ms cpu; ` +
              `db ${r1(st.database / MB)} MB${st.files !== undefined ? ` (files ${r1(st.files / MB)}, copies ${r1((st.fileCopies ?? 0) / MB)})` : ''}; snapshots total ${r1(snap.total / MB)} MB, toast ${r1(snap.toast / MB)}, live ${r1(st.snapshotLive / MB)}; load ${s.loadavg}`,
          );
        }
      } finally {
        await pgdb?.drop();
        removeTempDir(dataDir);
      }
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ releases: data.versions, scale: Number(values.scale), order: values.order, trees, runs }, null, 1));
} finally {
  removeTempDir(work);
}
