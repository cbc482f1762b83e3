// Issue 32 (codepage): the first code page after a start, with the server's own log (info) and each line's time since
// the spawn: which warm-up step ran when. Starts REPO's built CLI on a bench/groupViewsStore.ts store (PostgreSQL).
//   npx tsx bench/firstCodePageLog.ts REPO STORE_DIR DATABASE_URL CODE VERSION [SETTLE_MS=0]
import { spawn } from 'node:child_process';
import path from 'node:path';
const [repo = '', store = '', url = '', code, version, settle = '0'] = process.argv.slice(2);
const port = 40000 + Math.floor(Math.random() * 5000);
const t0 = performance.now();
const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), TERMINOLOGY_DATA_DIR: path.join(store, 'store'), TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', DATABASE_URL: url };
const p = spawn(process.execPath, [path.join(repo, 'bin/terminology.mjs'), 'serve'], { env });
const lines: string[] = [];
const onData = (b: Buffer) => { for (const l of b.toString().split('\n')) if (l.trim()) lines.push(`${Math.round(performance.now() - t0)} ${l.slice(0, 260)}`); };
p.stdout.on('data', onData); p.stderr.on('data', onData);
for (;;) { try { const r = await fetch(`http://127.0.0.1:${port}/versions`); if (r.ok) break; } catch {} await new Promise((r) => setTimeout(r, 20)); }
lines.push(`${Math.round(performance.now() - t0)} --- listening`);
await new Promise((r) => setTimeout(r, Number(settle)));
const w = performance.now();
lines.push(`${Math.round(w - t0)} --- first request`);
const r = await fetch(`http://127.0.0.1:${port}/codes/${code}?version=${version}`); await r.text();
lines.push(`${Math.round(performance.now() - t0)} --- first oldest code page ${Math.round(performance.now() - w)} ms status ${r.status}`);
await new Promise((r) => setTimeout(r, 3000));
p.kill('SIGTERM');
await new Promise((r) => p.on('exit', r));
console.log(lines.join('\n'));
