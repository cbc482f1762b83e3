// The `terminology` command runs the prebuilt bundle while it is fresh, the sources otherwise.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';

const bin = path.join(projectRoot, 'bin/terminology.mjs');
const run = (env: Record<string, string>) =>
  spawnSync(process.execPath, [bin, 'releases', '--help'], { env: { ...process.env, TERMINOLOGY_REPORT_LOADER: '1', ...env }, encoding: 'utf8', timeout: 60_000 });

describe('CLI loader', () => {
  it('runs dist/cli.mjs when it is newer than every source, and the same commands from source on request', () => {
    // Rebuild if the working tree has newer sources (the build replaces files atomically).
    const first = run({});
    if (!first.stderr.includes('dist/cli.mjs')) execFileSync(process.execPath, [path.join(projectRoot, 'scripts/build.mjs')], { timeout: 60_000 });
    const bundled = run({});
    expect(bundled.status).toBe(0);
    expect(bundled.stderr).toContain('running dist/cli.mjs');
    const source = run({ TERMINOLOGY_NO_BUNDLE: '1' });
    expect(source.status).toBe(0);
    expect(source.stderr).toContain('running src through tsx');
    expect(source.stdout).toBe(bundled.stdout);
    expect(bundled.stdout).toContain('releases');
  }, 120_000);
});
