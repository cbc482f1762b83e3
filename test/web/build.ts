// The explorer's bundle as the tests use it: built from the current web/ sources (esbuild,
// well under a second), so a test never runs against a stale dist/web. Once per worker: its
// test files share this module (vitest's isolate: false) and web/ does not change during a run.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

let built = false;

export function buildExplorer(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(projectRoot, 'scripts', 'build-web.mjs')], { cwd: projectRoot, stdio: 'pipe', timeout: 120_000 });
  built = true;
}
