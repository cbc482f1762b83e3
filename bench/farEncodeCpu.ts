// The changes worker's computation (encodeRanged.ts: ranged read, describing, JSON text, listing
// order) run in this thread with one tree's code, the process's CPU and wall time per run: the JS
// work of a far pair without the worker's start, HTTP or the store (issue 32, helper farpair). Run
// once per tree, alternately (A B B A), each process warmed first on the pair two releases apart.
//   DATABASE_URL=… node --expose-gc --import tsx bench/farEncodeCpu.ts SRC LABEL [FROM=90.0] [TO=last] [RUNS=2]
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { openMigrated } from '../src/db/open.ts';

const [src, label, fromV = '90.0', toV, runs = '2'] = process.argv.slice(2);
if (!src || !label) throw new Error('usage: farEncodeCpu.ts SRC LABEL [FROM] [TO] [RUNS]');
const db = await openMigrated({ databaseUrl: process.env.DATABASE_URL, dataDir: '/nonexistent', poolSize: 4 });
try {
  const list = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
  const f = list.find((r) => r.version === fromV)!;
  const ti = toV ? list.findIndex((r) => r.version === toV) : list.length - 1;
  const t = list[ti]!;
  const near = list[ti - 2]!;
  const from = { id: f.id, version: f.version };
  const to = { id: t.id, version: t.version };
  const mod = await import(path.resolve(src, 'domain/changes/encodeRanged.ts'));
  const opts = { overlap: true, termOrder: true, list: true };
  await mod.encodeChangesFromRanges(db.prisma, { id: near.id, version: near.version }, to, opts);
  const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
  /** This thread's CPU alone (its task's utime + stime: GC helper threads not counted). */
  const threadCpu = () => { const s = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'); const x = s.slice(s.lastIndexOf(')') + 2).split(' '); return (Number(x[11]) + Number(x[12])) * 10; };
  for (let r = 0; r < Number(runs); r++) {
    globalThis.gc?.();
    const [c0, t0, w0] = [cpu(), threadCpu(), performance.now()];
    const e = await mod.encodeChangesFromRanges(db.prisma, from, to, opts);
    console.log(JSON.stringify({ label, run: r, pair: `${from.version} → ${to.version}`, wallMs: Math.round(performance.now() - w0), cpuMs: Math.round(cpu() - c0), threadCpuMs: Math.round(threadCpu() - t0), n: e.off.length - 1, bytes: e.text.byteLength, load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] }));
  }
} finally {
  await db.close();
}
