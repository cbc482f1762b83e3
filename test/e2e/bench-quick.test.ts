// Keeps the benchmark suite working: its quick variant (small data, short runs) must
// complete and report every scenario. Targets are not enforced here: performance claims
// come from full runs of `npm run bench` (bench/results.md), never from timed tests, so
// this smoke run takes the smallest data that still feeds every scenario (scale 0.01:
// 3 SOCs, ~1,000 LLTs per release) and half-second main load runs.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

describe('benchmark suite (quick variant)', () => {
  it('runs end to end and reports every scenario', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'bench-quick-')), 'quick.json');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'TEST_DB', 'TERMINOLOGY_DATA_DIR'].includes(k)));
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--scale', '0.01', '--duration', '0.5', '--json', out], { cwd: projectRoot, env, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) =>
        err ? reject(new Error(`bench --quick failed: ${err.message}\n${stderr.slice(-2000)}`)) : resolve(),
      ),
    );
    const report = JSON.parse(readFileSync(out, 'utf8')) as { modes: { mode: string; rows: { id: string; measured: string }[] }[] };
    const embedded = report.modes.find((m) => m.mode === 'embedded')!;
    const ids = embedded.rows.map((r) => r.id);
    for (const id of ['import', 'codes-detail', 'search-exact', 'search-prefix', 'search-misspelt', 'graphql-subtree', 'changeset', 'changes-page', 'classify', 'labels', 'rss', 'cold-start']) {
      expect(ids, id).toContain(id);
    }
    expect(embedded.rows.every((r) => r.measured && !/error/i.test(r.measured))).toBe(true);
  }, 300_000);
});
