// Builds the CLI bundle (dist/cli.mjs) before any test runs: tests that start
// `terminology` as a user does must run the bundle built from these sources, as an
// installed checkout does, not the tsx fallback of an edited one. A child process, so the
// store templates build meanwhile (global.ts).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

export default function buildBundle(): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [path.join(projectRoot, 'scripts', 'build.mjs')], (err, stdout, stderr) => {
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      if (err) reject(new Error(`building the bundle failed: ${err.message}`));
      else resolve();
    }),
  );
}
