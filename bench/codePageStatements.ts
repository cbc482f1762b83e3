// Issue 32 (codepage): the SQL statements and time of an uncached code page, per release, in process
// over a store of bench/groupViewsStore.ts — the server's composition and start-up warming, every
// statement counted (as test/helpers/app.ts counts them). Oldest and latest interleaved, one code each.
//   DATABASE_URL=… npx tsx bench/codePageStatements.ts STORE_DIR [CODES=60] [SETTLE_MS=6000]
// Prints one JSON line: per release the median statements and ms per page, and the statements' shapes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { openMigrated } from '../src/db/open.ts';
import { compose } from '../src/compose.ts';
import { createApp } from '../src/http/app.ts';
import { createLogger } from '../src/logger.ts';
import { warmBeforeListening } from '../src/startupWarming.ts';

const [root, codesStr = '60', settleStr = '6000'] = process.argv.slice(2);
if (!root) throw new Error('usage: codePageStatements.ts STORE_DIR [CODES] [SETTLE_MS]');
const inputs = JSON.parse(readFileSync(path.join(root, 'inputs.json'), 'utf8')) as { codes: number[] };
const config = loadConfig({ ...process.env, TERMINOLOGY_DATA_DIR: path.join(root, 'store'), TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' });
const log = createLogger('warn');
let sqls: string[] = [];
const db = await openMigrated(config, { onQuery: (s) => sqls.push(s), onReplicaQuery: (s) => sqls.push(s) });
const composed = compose(config, db, log);
const app = createApp(composed.services, composed.appOptions);
const warming = await warmBeforeListening(config, db, composed.services, log, () => false);
warming.afterListening();
const get = async (p: string) => {
  sqls = [];
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await app.fetch(new Request(`http://bench${p}`));
  const body = await res.text();
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, status: res.status, statements: sqls, body };
};
const versions = (JSON.parse((await get('/versions?limit=100')).body).results as any[]).map((v) => v.versionId ?? v.version ?? v.id);
const latest = versions[0], oldest = versions[versions.length - 1];
const first = { oldest: await get(`/codes/${inputs.codes[5]}?version=${oldest}`), latest: await get(`/codes/${inputs.codes[5]}?version=${latest}`) };
await new Promise((r) => setTimeout(r, Number(settleStr)));
const n = Number(codesStr);
const per: Record<string, { ms: number[]; cpu: number[]; statements: number[]; shapes: Map<string, number> }> = {};
for (const v of [oldest, latest]) per[v] = { ms: [], cpu: [], statements: [], shapes: new Map() };
for (let i = 0; i < n; i++) {
  for (const v of i % 2 ? [latest, oldest] : [oldest, latest]) {
    const r = await get(`/codes/${inputs.codes[10 + i]}?version=${v}`);
    if (r.status !== 200) throw new Error(`${r.status} ${r.body.slice(0, 300)}`);
    const p = per[v]!;
    p.ms.push(r.ms);
    p.cpu.push(r.cpuMs);
    p.statements.push(r.statements.length);
    for (const s of r.statements) {
      const shape = s.replace(/\s+/g, ' ').slice(0, 110);
      p.shapes.set(shape, (p.shapes.get(shape) ?? 0) + 1);
    }
  }
}
const q = (a: number[], f: number) => { const x = [...a].sort((m, k) => m - k); return Math.round(x[Math.min(x.length - 1, Math.floor(f * x.length))]! * 100) / 100; };
const out: any = {
  store: root,
  loadavg: readFileSync('/proc/loadavg', 'utf8').trim(),
  first: { oldestMs: Math.round(first.oldest.ms * 10) / 10, oldestStatements: first.oldest.statements.length, latestMs: Math.round(first.latest.ms * 10) / 10, latestStatements: first.latest.statements.length },
};
for (const [v, p] of Object.entries(per)) {
  out[v === oldest ? 'oldest' : 'latest'] = {
    version: v,
    n: p.ms.length,
    p50: q(p.ms, 0.5),
    p95: q(p.ms, 0.95),
    cpuMs: { p50: q(p.cpu, 0.5), p95: q(p.cpu, 0.95) },
    statementsPerPage: { p50: q(p.statements, 0.5), max: Math.max(...p.statements), mean: Math.round((p.statements.reduce((a, b) => a + b, 0) / p.ms.length) * 100) / 100 },
    shapes: Object.fromEntries([...p.shapes].sort((a, b) => b[1] - a[1])),
  };
}
console.log(JSON.stringify(out, null, process.env.PRETTY ? 2 : undefined));
warming.stop();
await composed.close();
await db.close();
process.exit(0);
