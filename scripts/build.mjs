// Bundles the TypeScript sources into dist/cli.mjs (dependencies stay external), so the
// `terminology` command starts without transpiling ~150 modules at run time (tsx took
// about 3 s of a 4 s cold start). bin/terminology.mjs uses the bundle only while it is
// newer than every file under src/; otherwise it runs the sources through tsx.
// Runs at `npm install` (postinstall, after prisma generate) and by `npm run build`.
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { pruneChunks } from './chunk-retention.mjs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const result = await build({
  write: false,
  // The coding engine's worker thread is a second entry: src/assessment/enginePool.ts loads
  // dist/nlp-worker.mjs from beside the bundle.
  entryPoints: [
    { in: path.join(root, 'src/cli/index.ts'), out: 'cli' },
    { in: path.join(root, 'src/assessment/nlpWorker.ts'), out: 'nlp-worker' },
    // The OTLP trace exporter's thread: src/observability/workerExporter.ts loads dist/otlp-export-worker.mjs.
    { in: path.join(root, 'src/observability/exportWorker.ts'), out: 'otlp-export-worker' },
    // The changes worker (a far change set computed off the serving thread): src/domain/changes/offThread.ts loads dist/changes-worker.mjs.
    { in: path.join(root, 'src/domain/changes/offThreadWorker.ts'), out: 'changes-worker' },
  ],
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  // Shared code in chunks: a command loads only what it imports (`keys` or `import` never
  // load the HTTP server, GraphQL or the engine's dependencies, which `serve` imports lazily).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies are bundled too: a start then reads a few files instead of ~1,200 modules
  // resolved one by one in node_modules. External stay those that load files of their own
  // beside their code (PGlite's wasm and data, also the older PGlite a store upgrade loads, Prisma's query compiler, piscina's worker, pino's
  // transports), pg (an optional native module), and the build and dev tools.
  external: ['@electric-sql/pglite', 'pglite-pg17', '@prisma/*', 'piscina', 'pino', 'pg', 'esbuild', 'tsx', 'prisma'],
  // Bundled CommonJS calls require() for Node's built-ins: give the ES modules one.
  banner: { js: "import { createRequire as __teCreateRequire } from 'node:module'; const require = __teCreateRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
});
// Each file written under a temporary name and renamed: a CLI starting meanwhile never
// imports a half-written bundle.
for (const f of result.outputFiles) {
  mkdirSync(path.dirname(f.path), { recursive: true });
  const tmp = `${f.path}.${process.pid}.tmp`;
  writeFileSync(tmp, f.contents);
  renameSync(tmp, f.path);
}
// Chunks of earlier builds (their names carry a content hash) go once three newer builds no
// longer use them: a running server may still import them lazily (scripts/chunk-retention.mjs).
const chunks = path.join(root, 'dist', 'chunks');
pruneChunks(chunks, result.outputFiles.map((f) => path.relative(chunks, f.path)).filter((f) => !f.startsWith('..')));
// The web explorer's bundle (dist/web), served at / by src/http/explorer.ts.
await (await import('./build-web.mjs')).buildWeb();
// The empty embedded store (src/db/seedStore.ts): initdb and the migrations run here once, not at
// each new store's first start. Rebuilt only when the PGlite version or the migrations changed.
{
  const { tsImport } = await import('tsx/esm/api');
  const { buildSeed } = await tsImport('../src/db/seedStore.ts', import.meta.url);
  await buildSeed();
}
