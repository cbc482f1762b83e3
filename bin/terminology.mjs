#!/usr/bin/env node
// The `terminology` command. Runs the prebuilt bundle (dist/cli.mjs, `npm run build`) when it
// is newer than every source file, else the TypeScript sources through tsx's loader — so an
// edited checkout never runs stale code, and an installed one starts fast.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { restartWithHeapLimit } from './heap-limit.mjs';
import { newestMtime } from './newest.mjs';

// `serve` runs with V8's heap bounded by MEMORY_BUDGET_MB: Node is started again with the flag
// (bin/heap-limit.mjs), and this process only waits for that one.
if (restartWithHeapLimit()) await new Promise(() => {});

const bundle = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const src = fileURLToPath(new URL('../src', import.meta.url));

const fresh = process.env.TERMINOLOGY_NO_BUNDLE !== '1' && existsSync(bundle) && statSync(bundle).mtimeMs >= newestMtime(src);
if (process.env.TERMINOLOGY_REPORT_LOADER === '1') process.stderr.write(`terminology: running ${fresh ? 'dist/cli.mjs' : 'src through tsx'}\n`);
let main;
if (fresh) {
  ({ main } = await import('../dist/cli.mjs'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/index.ts'));
}
await main(process.argv);
