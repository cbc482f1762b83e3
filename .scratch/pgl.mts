import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { readFileSync } from 'node:fs';
const dist = '/work/wt-suite/node_modules/@electric-sql/pglite/dist/';
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
let load: Blob;
async function one(label: string, opts: any) {
  const t = performance.now(), c = cpu();
  const p = await PGlite.create({ extensions: { pg_trgm }, loadDataDir: load, ...opts });
  const t1 = performance.now(), c1 = cpu();
  await p.query('select 1');
  await p.close();
  console.log(label, 'create', Math.round(t1 - t), 'cpu', Math.round(c1 - c), 'total cpu', Math.round(cpu() - c));
}
// make a dump first
{
  const p = await PGlite.create({ dataDir: '/tmp/st/m/pglite', extensions: { pg_trgm } });
  const { writeFileSync } = await import('node:fs');
  writeFileSync('/tmp/st/dump.tar', Buffer.from(await (await p.dumpDataDir('none')).arrayBuffer()));
  await p.close();
}
load = new Blob([readFileSync("/tmp/st/dump.tar")]);
for (let i = 0; i < 3; i++) await one("plain", {});
const c = cpu();
const mod = await WebAssembly.compile(readFileSync(dist + 'pglite.wasm'));
const fsBundle = new Blob([readFileSync(dist + 'pglite.data')]);
console.log('compile cpu', Math.round(cpu() - c));
for (let i = 0; i < 3; i++) await one('cached', { pgliteWasmModule: mod, fsBundle });
