// Keeps the snapshot-delta measurement (bench/snapshotDelta.ts, issue 32) working: on the smallest
// data (3 releases at scale 0.01, two languages each) it must import every release into both
// stores and print every table with figures, the delta store holding one whole snapshot and
// deltas, the baseline only whole ones. On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
// No target is checked here: figures come from full runs written to bench/results.md.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { projectRoot } from '../../src/paths.ts';

const run = (env: NodeJS.ProcessEnv) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bench/snapshotDelta.ts', '--releases', '3', '--scale', '0.01', '--rounds', '1'],
      { cwd: projectRoot, env, timeout: 300_000, maxBuffer: 4 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`snapshotDelta failed: ${err.message}\n${stderr.slice(-3000)}`)) : resolve(stdout)),
    ),
  );

describe('bench/snapshotDelta.ts', () => {
  it('measures both stores and prints every table, on each database', async () => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'TEST_DB', 'TERMINOLOGY_DATA_DIR', 'REDIS_URL'].includes(k)));
    const envs = [base, ...(process.env.TEST_DATABASE_URL ? [{ ...base, DATABASE_URL: process.env.TEST_DATABASE_URL }] : [])];
    for (const env of envs) {
      const out = await run(env);
      expect(out).toMatch(/^(embedded|postgresql): 3 releases 90\.0 → 90\.2/);
      expect(out).toMatch(/\| deltas \(this branch\) \| [\d.]+ MB \| [\d.]+ MB \| [\d.]+× \| -?[\d.]+ MB \| -?\d+ % \| [\d.]+ MB, [\d.]+ MB \(1 whole of 3\) \|/);
      expect(out).toMatch(/\| every snapshot whole \(before\) \| .* \(3 whole of 3\) \|/);
      for (const v of ['90.1', '90.2']) expect(out).toMatch(new RegExp(`\\| ${v.replace('.', '\\.')} \\| delta over 90\\.0 \\| \\d+ ms \\| \\d+ ms \\| [\\d.]+× \\|`));
      expect(out).toMatch(/\| 90\.2 \| delta \d+ kB \| \d+ ms \| \d+ ms \| [\d.]+× \|/);
    }
  }, 600_000);
});
