// Session 24 A/B probe (issue 32): one server — REPO's built CLI, so main's worktree and a branch's run
// alike — on a store of bench/groupViewsStore.ts; PHASES=pairs: uncached code pages, then searches,
// oldest vs latest interleaved, then code pages again; PHASES=all: every release in turn (a code page
// and a search each, ROUNDS rounds). Per phase: release_index_evictions_total (METRICS_PORT), the
// release indexes' estimated bytes (memory_cache_bytes), the server's CPU (/proc stat) and RSS. One JSON line.
//   npx tsx bench/groupViewsProbe.ts REPO STORE_DIR LABEL [MEMORY_BUDGET_MB=320] [PHASES=pairs,all] …
// Session 24 ran main and the branch alternately (A B B A) per budget: bench/results.md. Session 25: on a
// PostgreSQL store (DATABASE_URL=… as a KEY=VALUE), and `first`: the first requests after the settle. Session 26:
// PHASES=changes (the far pair oldest → latest), VmHWM per phase.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { spawnTracked, freePort, stopChild } from './lib/procs.ts';
import { request, interleavedLatencyLoops } from './lib/http.ts';
const [repo, root, label, ...envPairs] = process.argv.slice(2);
if (!repo || !root || !label) throw new Error('usage: groupViewsProbe.ts REPO STORE_DIR LABEL [KEY=VALUE …]');
const extra = Object.fromEntries(envPairs.map((p) => p.split('=') as [string, string]));
const inputs = JSON.parse(readFileSync(path.join(root, 'inputs.json'), 'utf8')) as { codes: number[]; queries: string[] };
const port = await freePort();
const mport = await freePort();
const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(mport), TERMINOLOGY_DATA_DIR: path.join(root, 'store'), TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', AI_RATE_LIMIT_PER_MINUTE: '0', ...extra };
for (const k of ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS', 'SEARCH_INDEX_RELEASES']) if (!(k in extra)) delete env[k];
const proc = spawnTracked(process.execPath, [path.join(repo, 'bin/terminology.mjs'), 'serve'], { env, cwd: repo });
const base = `http://127.0.0.1:${port}`;
process.on('uncaughtException', (e) => { console.error(e); proc.child.kill('SIGTERM'); setTimeout(() => process.exit(1), 3000); });
process.on('unhandledRejection', (e) => { console.error(e); proc.child.kill('SIGTERM'); setTimeout(() => process.exit(1), 3000); });
const t0 = performance.now();
for (;;) { try { if ((await request(base, { path: '/versions' }, { timeoutMs: 2000 })).status === 200) break; } catch {} if (performance.now() - t0 > 120000) throw new Error(proc.stderr.toString()); await new Promise((r) => setTimeout(r, 20)); }
const vs = JSON.parse((await request(base, { path: '/versions?limit=100' })).body.toString());
const list = vs.results as any[];
const versions = list.map((v: any) => v.versionId ?? v.version ?? v.id); if (!versions[0]) console.error(JSON.stringify(list[0]));
const latest = versions[0], oldest = versions[versions.length - 1];
const serverPid = () => { const pid = proc.child.pid!; for (const n of readdirSync('/proc')) { if (!/^\d+$/.test(n)) continue; try { const s = readFileSync(`/proc/${n}/stat`, 'utf8'); if (Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(n); } catch {} } return pid; };
const sp = serverPid();
const cpuMs = () => { const f = readFileSync(`/proc/${sp}/stat`, 'utf8').slice(readFileSync(`/proc/${sp}/stat`, 'utf8').lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${sp}/status`, 'utf8'))![1]) / 1024);
const hwm = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${sp}/status`, 'utf8'))![1]) / 1024);
const metric = async (name: string, label = '') => { const b = (await request(`http://127.0.0.1:${mport}`, { path: '/metrics' })).body.toString(); const m = new RegExp(`^${name}(?:\\{[^}]*${label}[^}]*\\})? (\\S+)`, 'm').exec(b); return m ? Number(m[1]) : NaN; };
const ixMb = async () => Math.round((await metric('memory_cache_bytes', 'cache="releaseIndexes"')) / 2 ** 20 * 10) / 10;
await new Promise((r) => setTimeout(r, Number(extra.SETTLE_MS ?? 4000)));
const out: any = { label, latest, oldest, loadavg: readFileSync('/proc/loadavg', 'utf8').trim(), rssStart: rss(), ixMbStart: await ixMb(), ixBudgetMb: Math.round((await metric('memory_cache_budget_bytes', 'cache="releaseIndexes"')) / 2 ** 20 * 10) / 10 };
const r2 = (x: number) => Math.round(x * 100) / 100;
const phase = async (name: string, fn: () => Promise<any>) => {
  const e0 = await metric('release_index_evictions_total'); const c0 = cpuMs(); const w0 = performance.now();
  const res = await fn();
  out[name] = { ...res, evictions: (await metric('release_index_evictions_total')) - e0, serverCpuMs: cpuMs() - c0, wallMs: Math.round(performance.now() - w0), rss: rss(), hwm: hwm(), ixMb: await ixMb() };
};
const pairs = (paths: string[]) => paths.map((p): [any, any] => [{ path: `${p}${p.includes('?') ? '&' : '?'}version=${oldest}` }, { path: `${p}${p.includes('?') ? '&' : '?'}version=${latest}` }]);
const st = (s: any) => ({ n: s.n, p50: r2(s.p50), p95: r2(s.p95), max: r2(s.max ?? NaN) });
// Session 25: the first requests after the settle, before any phase: a code page and a search on the oldest, then the latest.
{
  const t = async (p: string) => { const w0 = performance.now(); const r = await request(base, { path: p }, { timeoutMs: 120000 }); return { ms: r2(performance.now() - w0), status: r.status }; };
  const c = inputs.codes[5]!, q = encodeURIComponent(inputs.queries[1]!);
  out.first = { codeOldest: await t(`/codes/${c}?version=${oldest}`), searchOldest: await t(`/codes?q=${q}&version=${oldest}`), codeLatest: await t(`/codes/${c}?version=${latest}`), searchLatest: await t(`/codes?q=${q}&version=${latest}`), rss: rss(), ixMb: await ixMb() };
}
const phases = (extra.PHASES ?? 'pairs').split(',');
const nCodes = Number(extra.CODES ?? 200), nQ = Number(extra.QUERIES ?? 60);
if (phases.includes('pairs')) {
await phase('codes', async () => { const [o, l] = await interleavedLatencyLoops(base, pairs(inputs.codes.slice(10, 10 + nCodes).map((c) => `/codes/${c}`)), { warmupPairs: pairs(inputs.codes.slice(0, 10).map((c) => `/codes/${c}`)), maxMs: 60000 }); return { oldest: st(o), latest: st(l) }; });
const qp = (q: string) => `/codes?q=${encodeURIComponent(q)}`;
await phase('search', async () => { const p = pairs(inputs.queries.slice(0, nQ).map(qp)); const [o, l] = await interleavedLatencyLoops(base, p.slice(5), { warmupPairs: p.slice(0, 5), maxMs: 90000, timeoutMs: 120000 }); return { oldest: st(o), latest: st(l) }; });
await phase('codes2', async () => { const [o, l] = await interleavedLatencyLoops(base, pairs(inputs.codes.slice(300, 300 + nCodes).map((c) => `/codes/${c}`)), { maxMs: 60000 }); return { oldest: st(o), latest: st(l) }; });
}
// Session 26: PHASES=changes — the far pair (oldest → latest) first time, then page 2 (stored), then page 1 again, as bench/manyReleases.ts.
if (phases.includes('changes')) {
await phase('changes', async () => {
  const p = `/versions/${latest}/changes?fromVersionId=${oldest}`;
  const t = async (q: string) => { const w0 = performance.now(); const r = await request(base, { path: q }, { timeoutMs: 300000 }); return { ms: r2(performance.now() - w0), status: r.status, body: r.body }; };
  const a = await t(p), b = await t(`${p}&page=2`), c = await t(p);
  return { firstMs: a.ms, storedMs: b.ms, replayMs: c.ms, status: [a.status, b.status, c.status], counts: JSON.parse(a.body.toString()).changes };
});
}
if (phases.includes('all')) {
await phase('all', async () => {
  // Every release in turn, three rounds: a code page and a search on each (the newest apart from the older ones).
  const older: number[] = [], newest: number[] = [], olderSearch: number[] = [], newestSearch: number[] = [];
  let k = 600, bad = 0;
  const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
  for (let round = 0; round < Number(extra.ROUNDS ?? 3); round++) {
    for (const v of versions) {
      const c = await request(base, { path: `/codes/${inputs.codes[k++]}?version=${v}` }, { agent, timeoutMs: 120000 });
      const s = await request(base, { path: `/codes?q=${encodeURIComponent(inputs.queries[k % inputs.queries.length]!)}&version=${v}` }, { agent, timeoutMs: 120000 });
      if (c.status >= 500 || s.status !== 200) bad++;
      (v === latest ? newest : older).push(c.ms);
      (v === latest ? newestSearch : olderSearch).push(s.ms);
    }
  }
  agent.destroy();
  const q = (a: number[], p: number) => { const x = [...a].sort((m, n) => m - n); return r2(x[Math.min(x.length - 1, Math.floor(p * x.length))]!); };
  return { bad, codeOlder: { n: older.length, p50: q(older, 0.5), p95: q(older, 0.95) }, codeNewest: { n: newest.length, p50: q(newest, 0.5), p95: q(newest, 0.95) }, searchOlder: { p50: q(olderSearch, 0.5), p95: q(olderSearch, 0.95) }, searchNewest: { p50: q(newestSearch, 0.5), p95: q(newestSearch, 0.95) }, lastRoundOlderCode: { p50: q(older.slice(-(versions.length - 1)), 0.5) }, lastRoundOlderSearch: { p50: q(olderSearch.slice(-(versions.length - 1)), 0.5), p95: q(olderSearch.slice(-(versions.length - 1)), 0.95) } };
});
}
out.loadavgEnd = readFileSync('/proc/loadavg', 'utf8').trim();
out.hwmEnd = hwm();
await stopChild(proc.child, 20000);
console.log(JSON.stringify(out));
process.exit(0);
