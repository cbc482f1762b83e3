// Import benchmark: a synthetic full-size release (27 SOC / 337 HLGT / 1,737 HLT /
// 26,000 PT / 85,000 LLT) imported by the real CLI into a fresh store, reporting time
// and peak RSS. Same-run baseline: reading + validating the same folder without writing,
// so the write cost is also reported as a ratio (these machines are noisy).
//
//   npm run bench:import [-- --scale 1] [-- --keep DIR]
// With DATABASE_URL set, the import goes to that PostgreSQL database instead of PGlite.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateRelease, writeMedAscii } from '../tools/synthetic/generate.ts';
import { loadRelease } from '../src/importer/import.ts';
import { projectRoot } from '../src/paths.ts';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, seed: { type: 'string', default: '42' } } });
const scale = Number(values.scale);
const work = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
const dir = path.join(work, '90.0');
await writeMedAscii(generateRelease({ seed: Number(values.seed), version: '90.0', scale }), dir);

const t0 = performance.now();
const model = loadRelease(dir);
const readMs = performance.now() - t0;

const env = { ...process.env, TERMINOLOGY_DATA_DIR: path.join(work, 'store'), TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn' };
const mode = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
if (mode === 'postgresql') {
  console.log('note: importing into DATABASE_URL; drop release 90.0 afterwards if needed');
}
// Migrate first so the measured run is the import alone (a fresh PGlite store's
// initialisation has its own, separate cost).
spawnSync(process.execPath, [path.join(projectRoot, 'bin/terminology.mjs'), 'migrate'], { env, stdio: 'ignore' });
const t1 = performance.now();
const r = spawnSync(process.execPath, [path.join(projectRoot, 'bin/terminology.mjs'), 'import', dir, '--replace'], { env, encoding: 'utf8' });
const wallMs = performance.now() - t1;
if (r.status !== 0) {
  console.error(r.stderr);
  process.exit(1);
}
const peak = Number(/peak memory (\d+) MB/.exec(r.stdout)?.[1] ?? NaN);
const importMs = Number(/in ([\d.]+) s/.exec(r.stdout)?.[1] ?? NaN) * 1000;
const rows = model.concepts.length + model.links.length + model.paths.length;
console.log(
  JSON.stringify(
    {
      scenario: 'import of a synthetic release',
      mode,
      scale,
      counts: model.counts,
      rows,
      readAndValidateMs: Math.round(readMs),
      importMs: Math.round(importMs),
      processWallMs: Math.round(wallMs),
      ratioImportToRead: Math.round((importMs / readMs) * 10) / 10,
      peakRssMb: peak,
      targets: { importMs: 60_000, peakRssMb: 1024 },
      met: importMs <= 60_000 && peak <= 1024,
      node: process.version,
    },
    null,
    2,
  ),
);
rmSync(work, { recursive: true, force: true });
