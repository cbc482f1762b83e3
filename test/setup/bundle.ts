// Builds the CLI bundle (dist/cli.mjs) before any test runs: tests that start
// `terminology` as a user does must run the bundle built from these sources, as an
// installed checkout does, not the tsx fallback of an edited one. A child process, so the
// store templates build meanwhile (global.ts). Skipped when every output is newer than every
// source and build script (a fresh clone: `npm install` has just built it): the build is ~3.4 s
// of CPU (esbuild's threads) on the run's critical path. Dependencies are not compared, as
// bin/terminology.mjs does not: `npm install` builds the bundle again whenever it changes them
// (postinstall), and may write package-lock.json after its postinstall, so the lock's time would say nothing.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { newestMtime } from '../../bin/newest.mjs';
import { projectRoot } from '../../src/paths.ts';

/** Whether each output exists and is newer than every input (paths relative to the checkout). */
export function builtFrom(outputs: string[], inputs: string[]): boolean {
  const at = (p: string) => path.join(projectRoot, p);
  if (!outputs.every((o) => existsSync(at(o)))) return false;
  const oldest = Math.min(...outputs.map((o) => statSync(at(o)).mtimeMs));
  return inputs.every((i) => newestMtime(at(i)) <= oldest);
}

/** What the web explorer's bundle is built from, and its last output (scripts/build-web.mjs writes index.html last). */
export const WEB_INPUTS = ['web/src', 'web/index.html', 'scripts/build-web.mjs'];
export const WEB_OUTPUT = 'dist/web/index.html';
/** The CLI's entry bundles and the shipped empty store, built from the migrations too (scripts/build.mjs, src/db/seedStore.ts). */
const CLI_OUTPUTS = ['dist/cli.mjs', 'dist/nlp-worker.mjs', 'dist/otlp-export-worker.mjs', 'dist/store-seed/manifest.json'];
const CLI_INPUTS = ['src', 'prisma/migrations', 'scripts/build.mjs', 'scripts/chunk-retention.mjs'];

export default function buildBundle(): Promise<void> {
  if (builtFrom([...CLI_OUTPUTS, WEB_OUTPUT], [...CLI_INPUTS, ...WEB_INPUTS])) return Promise.resolve();
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [path.join(projectRoot, 'scripts', 'build.mjs')], (err, stdout, stderr) => {
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      if (err) reject(new Error(`building the bundle failed: ${err.message}`));
      else resolve();
    }),
  );
}
