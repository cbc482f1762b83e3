// The explorer's bundle as the tests use it: built from the current web/ sources (esbuild,
// well under a second), so a test never runs against a stale dist/web.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

export function buildExplorer(): void {
  execFileSync(process.execPath, [path.join(projectRoot, 'scripts', 'build-web.mjs')], { cwd: projectRoot, stdio: 'pipe' });
}
