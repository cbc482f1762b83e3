import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const req = createRequire(import.meta.url);
const dist = req.resolve('@electric-sql/pglite').replace(/index\.(c?js)$/, '');
const buf = readFileSync(`/tmp/s3/tpl/demo.tar`);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const mode = process.argv[2];
let a = cpu();
const wasm = mode !== 'plain' ? await WebAssembly.compile(readFileSync(dist + 'pglite.wasm')) : undefined;
const bundle = mode === 'both' ? new Blob([readFileSync(dist + 'pglite.data')]) : undefined;
console.log(mode, 'compile', (cpu() - a).toFixed(0));
const blob = new Blob([buf]);
for (let i = 0; i < 4; i++) {
  a = cpu();
  const c = await PGlite.create({ dataDir: 'memory://', extensions: { pg_trgm }, loadDataDir: blob, ...(wasm ? { pgliteWasmModule: wasm } : {}), ...(bundle ? { fsBundle: bundle } : {}) });
  await c.query('select count(*) from concept');
  await c.close();
  console.log(mode, i, (cpu() - a).toFixed(0));
}
