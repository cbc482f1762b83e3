// CLI start-up: median wall time of `terminology --help`, of `terminology releases` on an
// embedded store (from the record its last clean close left, and with that record removed, when
// the process must open PGlite itself) and of `releases` while `terminology serve`
// owns that store (answered by the server through its control socket, src/cli/control.ts),
// against a bare `node -e ''` in the same run (the baseline of the ratios).
//   npm run build && npx tsx bench/cli.ts [runs]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 7);
const bin = path.resolve('bin/terminology.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'bench-cli-'));
const env = { ...process.env, TERMINOLOGY_DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', TERMINOLOGY_DEMO: 'false' };

function median(args: string[], before?: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const rows: [string, number][] = [];
rows.push(['node -e "" (baseline)', median(['-e', ''])]);
rows.push(['terminology --help', median([bin, '--help'])]);
// The first open creates the store: not measured.
spawnSync(process.execPath, [bin, 'migrate'], { env });
// Without the record of the last clean close (src/db/storeManifest.ts) the command must start PGlite.
const manifest = path.join(dir, 'data', 'store-manifest.json');
rows.push(['terminology releases (no record: opens the embedded store)', median([bin, 'releases'], () => rmSync(manifest, { force: true }))]);
rows.push(['terminology releases (no server: the record of the last close)', median([bin, 'releases'])]);
// Info logs for the server alone: it says when it listens (the commands measured log at warn).
const server = spawn(process.execPath, [bin, 'serve'], { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'pipe'] });
await new Promise<void>((resolve, reject) => {
  let log = '';
  server.on('close', (code) => reject(new Error(`terminology serve exited (${code}) before listening:\n${log}`)));
  setTimeout(() => reject(new Error(`terminology serve did not listen in 5 min:\n${log}`)), 300_000).unref();
  server.stderr!.on('data', (d) => {
    log += d;
    if (log.includes('is listening')) resolve();
  });
});
rows.push(['terminology releases (server running: control socket)', median([bin, 'releases'])]);
server.kill('SIGTERM');
await new Promise((r) => server.on('close', r));
rmSync(dir, { recursive: true, force: true });

const base = rows[0]![1];
console.log(`| command | median (${runs} runs) | × node start |\n|---|---|---|`);
for (const [name, ms] of rows) console.log(`| ${name} | ${Math.round(ms)} ms | ${(ms / base).toFixed(1)} |`);
