// Keeps the snapshot-delta measurement (bench/snapshotDelta.ts, issue 32) working: on the smallest
// data (3 releases at scale 0.01, two languages each) it must import every release into its three
// stores and print every table with figures: this policy's store the newest whole and deltas
// backwards, round 5's the oldest whole, the baseline only whole ones. On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
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
      // Three stores side by side: this policy (the newest whole, older releases deltas over it), round 5's (the
      // oldest of a group whole) and every snapshot whole.
      expect(out).toMatch(/\| newest whole, deltas backwards \(this branch\) \| [\d.]+ MB \| [\d.]+ MB \| [\d.]+× \| -?[\d.]+ MB \| -?\d+ % \| [\d.]+ MB, [\d.]+ MB \(1 whole of 3\) \|/);
      expect(out).toMatch(/\| oldest of a group whole \(round 5\) \| .* \(1 whole of 3\) \|/);
      expect(out).toMatch(/\| every snapshot whole \(before deltas\) \| .* \(3 whole of 3\) \|/);
      // The newest (90.2) is whole under this policy and the older ones deltas over it; round 5's kept 90.0 whole.
      for (const v of ['90.0', '90.1']) expect(out).toMatch(new RegExp(`\\| ${v.replace('.', '\\.')} \\| delta over 90\\.2 \\| \\d+ ms \\| (whole|delta over 90\\.0) \\| \\d+ ms \\| whole \\| \\d+ ms \\| [\\d.]+×; [\\d.]+× \\|`));
      expect(out).toMatch(/\| 90\.2 \| whole \| \d+ ms \| delta over 90\.0 \| \d+ ms \| whole \| \d+ ms \|/);
      // Language snapshots likewise.
      expect(out).toMatch(/\| 90\.0 \| delta \d+ kB \| \d+ ms \| whole \d+ kB \| \d+ ms \| whole \d+ kB \| \d+ ms \|/);
      expect(out).toMatch(/\| 90\.2 \| whole \d+ kB \| \d+ ms \| delta \d+ kB \| \d+ ms \| whole \d+ kB \| \d+ ms \|/);
    }
  }, 600_000);
});
