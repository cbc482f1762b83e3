// The explorer's bundle as the tests use it: built from the current web/ sources (esbuild,
// well under a second), so a test never runs against a stale dist/web. Once per worker: its
// test files share this module (vitest's isolate: false) and web/ does not change during a run;
// not at all when dist/web is newer than its sources (the run's setup has just built or
// checked it: test/setup/bundle.ts).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { builtFrom, WEB_INPUTS, WEB_OUTPUT } from '../setup/bundle.ts';

let built = false;

export function buildExplorer(): void {
  if (built) return;
  if (!builtFrom([WEB_OUTPUT], WEB_INPUTS)) execFileSync(process.execPath, [path.join(projectRoot, 'scripts', 'build-web.mjs')], { cwd: projectRoot, stdio: 'pipe', timeout: 120_000 });
  built = true;
}
