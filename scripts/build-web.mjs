// Bundles the web explorer (web/src, Preact) into dist/web: index.html plus hashed assets under
// dist/web/assets (immutable, each also written gzip-compressed as <name>.gz, which the server
// sends to clients that accept gzip). Run by scripts/build.mjs (so at `npm install` and by
// `npm run build`) and by the browser tests before they start, so they never test a stale bundle.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist', 'web');
const assetsDir = path.join(outDir, 'assets');
/** URL prefix of the assets, as served by src/http/explorer.ts. */
export const ASSET_PREFIX = '/explorer/assets/';

function writeAtomic(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
}

export async function buildWeb() {
  const result = await build({
    write: false,
    entryPoints: { app: path.join(root, 'web/src/main.tsx') },
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    // Each interface language but English is a chunk of its own (web/src/i18n.ts imports it when
    // wanted), beside the app in assets/ under a hashed name the server's asset route accepts.
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    // Japanese and Chinese catalogues as UTF-8, not \u escapes (a third smaller); served as UTF-8.
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const written = new Set();
  let js = '';
  let css = '';
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint && o.entryPoint.endsWith('main.tsx'))?.[0];
  for (const f of result.outputFiles) {
    const name = path.basename(f.path);
    if (name.endsWith('.js') && entry && path.basename(entry) === name) js = name;
    else if (name.endsWith('.css')) css = name;
    else if (!name.endsWith('.js')) continue;
    writeAtomic(f.path, f.contents);
    writeAtomic(`${f.path}.gz`, gzipSync(f.contents, { level: constants.Z_BEST_COMPRESSION }));
    written.add(name).add(`${name}.gz`);
  }
  if (!js || !css) throw new Error('web build: expected the app\'s .js entry and one .css output');
  // What the app imports statically (esbuild's shared runtime chunk) is preloaded beside it, so
  // it costs no extra round trip; the catalogues are imported dynamically, only when wanted.
  const imports = result.metafile.outputs[entry].imports.filter((i) => i.kind === 'import-statement').map((i) => path.basename(i.path));
  const preload = imports.map((name) => `<link rel="modulepreload" href="${ASSET_PREFIX}${name}">\n  `).join('');
  const html = readFileSync(path.join(root, 'web/index.html'), 'utf8').replace('%JS%', ASSET_PREFIX + js).replace('%CSS%', ASSET_PREFIX + css).replace('<script type="module"', `${preload}<script type="module"`);
  writeAtomic(path.join(outDir, 'index.html'), html);
  // Assets of earlier builds: a page loaded just before a rebuild may still ask for them, so
  // they are removed only once they are an hour old.
  for (const name of existsSync(assetsDir) ? readdirSync(assetsDir) : []) {
    const file = path.join(assetsDir, name);
    if (!written.has(name) && Date.now() - statSync(file).mtimeMs > 3_600_000) rmSync(file, { force: true });
  }
  return { js, css };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildWeb();
