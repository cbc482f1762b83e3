// Session 24 A/B (issue 32, older snapshot groups through views): a persistent embedded store of N
// consecutive many-releases releases (bench/lib/manyData.ts, one language) imported by the CLI, and
// the inputs the probe asks (codes hosted by the oldest and the latest, search queries of the oldest).
//   npx tsx bench/groupViewsStore.ts DIR [N=12] [SCALE=0.25]   (then bench/groupViewsProbe.ts)
// STORE_DATABASE_URL=postgres://… : the store in that (empty) PostgreSQL database instead (the
// probe then takes DATABASE_URL=… the same); DIR keeps the generated data and inputs.json.
// LANGUAGES=2: each release also in a second language (imported as German), as bench/manyReleases.ts --languages 2.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/paths.ts';
import { writeManyReleases } from './lib/manyData.ts';
import { runToEnd } from './lib/procs.ts';
import { searchQueries, shuffle } from './lib/data.ts';

const [root, nStr = '12', scaleStr = '0.25'] = process.argv.slice(2);
if (!root) throw new Error('usage: groupViewsStore.ts DIR [N] [SCALE]');
const n = Number(nStr);
const scale = Number(scaleStr);
const cli = path.join(projectRoot, 'bin/terminology.mjs');
const env: NodeJS.ProcessEnv = { ...process.env, TERMINOLOGY_DATA_DIR: path.join(root, 'store'), TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn' };
for (const k of ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS', 'PORT']) delete env[k];
if (process.env.STORE_DATABASE_URL) env.DATABASE_URL = process.env.STORE_DATABASE_URL;
const languages = process.env.LANGUAGES === '2' ? 2 : 1;
const data = await writeManyReleases(path.join(root, 'data'), n, { scale, languages, log: (s) => console.error(s) });
const m = await runToEnd(process.execPath, [cli, 'migrate'], { env, cwd: projectRoot, timeoutMs: 600_000 });
if (m.code !== 0) throw new Error(`migrate: ${m.stderr.slice(-500)}`);
for (const d of data.dirs) {
  const r = await runToEnd(process.execPath, [cli, 'import', d.en], { env, cwd: projectRoot, timeoutMs: 900_000 });
  console.error('import', d.version, r.code, Math.round(r.wallMs), 'ms');
  if (r.code !== 0) throw new Error(r.stderr.slice(-500));
  if (d.de) {
    const b = await runToEnd(process.execPath, [cli, 'import', d.de], { env, cwd: projectRoot, timeoutMs: 900_000 });
    console.error('import', d.version, 'de', b.code, Math.round(b.wallMs), 'ms');
    if (b.code !== 0) throw new Error(b.stderr.slice(-500));
  }
}
const latest = new Set([...data.latest.pts.map((p) => p.code), ...data.latest.llts.map((l) => l.code)]);
const both = [...new Set([...data.oldest.pts.map((p) => p.code), ...data.oldest.llts.map((l) => l.code)])].filter((c) => latest.has(c));
const q = searchQueries(data.oldest, 200);
const queries: string[] = [];
// Exact names, prefixes and typos in turn (as bench/manyReleases.ts).
for (let i = 0; i < 200; i++) {
  const kind = [q.exact, q.prefix, q.misspelt][i % 3]!;
  const x = kind[Math.floor(i / 3) % Math.max(1, kind.length)];
  if (x) queries.push(x);
}
writeFileSync(path.join(root, 'inputs.json'), JSON.stringify({ codes: shuffle(both, 11), queries }));
