// Keeps the benchmark suite working: its quick variant (small data, short runs) must
// complete and report every scenario. Targets are not enforced here: performance claims
// come from full runs of `npm run bench` (wrk, bench/results.md), never from timed tests, so
// this smoke run takes the smallest data that still feeds every scenario (scale 0.01:
// 3 SOCs, ~1,000 LLTs per release) and 0.3-second load runs by autocannon in the bench
// process: it needs neither wrk nor haproxy (PATH is emptied of them to prove it).
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

describe('benchmark suite (quick variant)', () => {
  it('runs end to end and reports every scenario', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'bench-quick-')), 'quick.json');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'TEST_DB', 'TERMINOLOGY_DATA_DIR', 'REDIS_URL'].includes(k)));
    env.PATH = path.dirname(process.execPath); // node only: no wrk, haproxy or taskset
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--scale', '0.01', '--duration', '0.3', '--json', out], { cwd: projectRoot, env, timeout: 900_000, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) =>
        err ? reject(new Error(`bench --quick failed: ${err.message}\n${stderr.slice(-2000)}`)) : resolve(),
      ),
    );
    const report = JSON.parse(readFileSync(out, 'utf8')) as { modes: { mode: string; rows: { id: string; measured: string; values?: { svc?: { tool: string }[] } }[] }[] };
    const embedded = report.modes.find((m) => m.mode === 'embedded')!;
    const ids = embedded.rows.map((r) => r.id);
    for (const id of ['import', 'codes-warm-on', 'codes-uncached', 'codes-lookup', 'codes-warm-off', 'search-exact', 'search-prefix', 'search-misspelt', 'graphql-codes100', 'subtree-repeated', 'subtree-first', 'changeset', 'changes-page', 'classify', 'identify', 'labels', 'rss', 'cold-start']) {
      expect(ids, id).toContain(id);
    }
    // Throughput rows alternate the bare server and the service; the quick variant drives them from Node.
    const warm = embedded.rows.find((r) => r.id === 'codes-warm-on')!;
    expect(warm.values?.svc?.map((x) => x.tool)).toEqual(['autocannon']);
    expect(embedded.rows.every((r) => r.measured && !/error/i.test(r.measured))).toBe(true);
  }, 960_000);
});
