#!/usr/bin/env node
// Where a test run's CPU went, by module or package, from the .cpuprofile files V8 writes with
// --cpu-prof (README › Testing › Profile: `NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR" npm test`
// profiles the runner, its workers and every Node process they start).
// Self time is attributed to the frame that ran; "inclusive" to each named activity on the stack
// (a sample counts once per activity however deep it recurses).
//   node scripts/cpu-profile-summary.mjs DIR [--top N] [--by package|file|function]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const dir = args[0];
if (!dir) {
  console.error('usage: node scripts/cpu-profile-summary.mjs DIR [--top N] [--by package|file|function]');
  process.exit(2);
}
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i > 0 ? args[i + 1] : dflt;
};
const top = Number(opt('--top', 40));
const by = opt('--by', 'package');

/** A frame's owner: a package under node_modules, a folder of this repository, Node's internals, or V8's pseudo-frames. */
function owner(url, fn) {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return 'node:internals';
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + 14).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (u.startsWith('wasm://')) return 'wasm (PGlite)';
  const m = u.match(/\/(src|test|web|bin|dist|tools|bench|scripts)\/(.*)$/);
  if (!m) return u;
  if (m[1] === 'dist' || m[1] === 'bin') return `${m[1]}/ (bundle)`;
  const parts = m[2].split('/');
  return `${m[1]}/${parts.length > 1 ? parts[0] + '/' : parts[0]}`;
}

// Activities named by a function on the stack (inclusive time): what a run repeats. PGlite's
// bundle is minified; callMain is Emscripten's entry of a WebAssembly program: in dist/index.js
// the PostgreSQL backend's start, in its other chunk initdb (a new cluster).
const pglite = (u) => u.includes('@electric-sql/pglite/');
const ACTIVITIES = [
  ['PGlite initdb (a new cluster)', (f, u) => f === 'callMain' && pglite(u) && !u.endsWith('/index.js')],
  ['PGlite backend start', (f, u) => f === 'callMain' && pglite(u) && u.endsWith('/index.js')],
  ['PGlite SQL (execProtocol)', (f, u) => f === 'execProtocolRawSync' && pglite(u)],
  ['PGlite file system calls (file-backed stores)', (f, u) => /^(___syscall_|_fd_)/.test(f) && pglite(u)],
  ['PGlite dumpDataDir / loadDataDir (tar)', (f, u) => /^(dumpDataDir|dumpTar|loadTar|loadDataDir)$/.test(f) && pglite(u)],
  ['Prisma client (queries, adapter)', (f, u) => /@prisma\/client|pglite-prisma-adapter|@prisma\/adapter-pg/.test(u)],
  ['GraphQL schema build (Pothos toSchema)', (f) => f === 'toSchema'],
  ['yoga creation', (f) => f === 'createYoga'],
  ['graphql execution (graphql, graphql-jit)', (f, u) => /node_modules\/(graphql|graphql-jit)\//.test(u)],
  ['importRelease (importer)', (f) => f === 'importRelease'],
  ['release index: snapshot load', (f) => /^(unpackIndex|deserializeIndex|deserializeLanguageIndex|deserializeDelta|materialise)$/.test(f)],
  ['release index: build (from rows, languages)', (f) => /^(build|forLanguage|buildLanguageIndex)$/.test(f)],
  ['buildVocabulary (NLP)', (f) => f === 'buildVocabulary'],
  ['JS compile (module loading)', (f) => /^(compileSourceTextModule|wrapSafe|compileForInternalLoader|compileFunction)$/.test(f)],
  ['vite module runner / transforms (vitest)', (f, u) => /node_modules\/(vite|vitest|rolldown|@vitest)\//.test(u)],
  ['TypeScript compiler (type checks in tests)', (f, u) => /node_modules\/typescript\//.test(u)],
  ['GC', (f) => f === '(garbage collector)'],
];

/** What kind of process a profile is of: by file name (file-profile.ts, cpu-prof.mjs) or what ran in it. */
function kindOf(file, prof) {
  if (file.startsWith('file.')) return 'test file (worker, in-process)';
  const fns = new Set(prof.nodes.map((n) => n.callFrame.functionName));
  if (file.startsWith('terminology')) return fns.has('startServer') ? 'terminology serve' : 'terminology (other commands)';
  if (file.startsWith('build-templates')) return 'store templates';
  return file.replace(/\.\d+\.cpuprofile$/, '');
}

const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
const self = new Map();
const incl = new Map();
const perProcess = [];
const kinds = new Map();
let total = 0;
for (const f of files) {
  let prof;
  try {
    prof = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
  } catch {
    continue;
  }
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n) => {
    const { url, functionName } = n.callFrame;
    if (by === 'file') return url ? url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|src|test|web)\//, '$1/') : functionName || '(native)';
    if (by === 'function') return `${functionName || '(anonymous)'} ${owner(url, functionName)}`;
    return owner(url, functionName);
  };
  const actCache = new Map();
  const activitiesOf = (id) => {
    let a = actCache.get(id);
    if (a) return a;
    const n = nodes.get(id);
    const up = parent.has(id) ? activitiesOf(parent.get(id)) : new Set();
    a = new Set(up);
    for (const [name, test] of ACTIVITIES) if (test(n.callFrame.functionName, n.callFrame.url)) a.add(name);
    actCache.set(id, a);
    return a;
  };
  let procTotal = 0;
  const procMain = new Map();
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = (prof.timeDeltas[i] ?? 0) / 1000; // ms
    const n = nodes.get(prof.samples[i]);
    if (n.callFrame.functionName === '(idle)') continue;
    procTotal += dt;
    const k = key(n);
    self.set(k, (self.get(k) ?? 0) + dt);
    procMain.set(k, (procMain.get(k) ?? 0) + dt);
    for (const a of activitiesOf(n.id)) incl.set(a, (incl.get(a) ?? 0) + dt);
  }
  total += procTotal;
  const kind = kindOf(f, prof);
  const kd = kinds.get(kind) ?? { n: 0, ms: 0 };
  kinds.set(kind, { n: kd.n + 1, ms: kd.ms + procTotal });
  const topOwner = [...procMain].sort((a, b) => b[1] - a[1])[0];
  perProcess.push([f, procTotal, topOwner ? `${topOwner[0]} ${(topOwner[1] / 1000).toFixed(1)} s` : '']);
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const pct = (ms) => `${((100 * ms) / total).toFixed(1)} %`;
console.log(`${files.length} profiles, ${s(total)} of sampled CPU (idle excluded)\n`);
console.log(`| ${by} | self | share |\n|---|---|---|`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${k} | ${s(v)} | ${pct(v)} |`);
console.log(`\n| activity (inclusive) | CPU | share |\n|---|---|---|`);
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1])) console.log(`| ${k} | ${s(v)} | ${pct(v)} |`);
console.log(`\n| process kind | profiles | CPU | share |\n|---|---|---|---|`);
for (const [k, v] of [...kinds].sort((a, b) => b[1].ms - a[1].ms)) console.log(`| ${k} | ${v.n} | ${s(v.ms)} | ${pct(v.ms)} |`);
console.log(`\n| process profile | CPU | largest owner |\n|---|---|---|`);
for (const [f, v, t] of perProcess.sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${f} | ${s(v)} | ${t} |`);
