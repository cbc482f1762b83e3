// Builds the CLI bundle (dist/cli.mjs) before any test runs: tests that start
// `terminology` as a user does must run the bundle built from these sources, as an
// installed checkout does, not the tsx fallback of an edited one.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

export default function setup() {
  execFileSync(process.execPath, [path.join(projectRoot, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
