// The `terminology` command runs the prebuilt bundle while it is fresh, the sources otherwise.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

describe('build: chunks of earlier builds', () => {
  it('stay until three newer builds no longer use them (a running server imports some lazily)', async () => {
    // @ts-expect-error: a build script in plain JavaScript
    const { pruneChunks } = (await import('../../scripts/chunk-retention.mjs')) as { pruneChunks: (dir: string, written: string[], keep?: number) => string[] };
    const dir = mkdtempSync(path.join(tmpdir(), 'te-chunks-'));
    try {
      const build = (...names: string[]) => {
        for (const n of names) writeFileSync(path.join(dir, n), n);
        return pruneChunks(dir, names);
      };
      expect(build('shared.mjs', 'tracing-1.mjs')).toEqual([]);
      expect(build('shared.mjs', 'tracing-2.mjs')).toEqual([]);
      expect(build('shared.mjs', 'tracing-3.mjs')).toEqual([]);
      expect(build('shared.mjs', 'tracing-4.mjs')).toEqual([]);
      // The fifth build: the first build's own chunk has not been used by the last four.
      expect(build('shared.mjs', 'tracing-5.mjs')).toEqual(['tracing-1.mjs']);
      expect(readdirSync(dir).sort()).toEqual(['.builds.json', 'shared.mjs', 'tracing-2.mjs', 'tracing-3.mjs', 'tracing-4.mjs', 'tracing-5.mjs']);
      // The same build again is not a newer one; a file no build wrote (a leftover from before the ledger) goes at once.
      writeFileSync(path.join(dir, 'stray.mjs'), '');
      expect(build('shared.mjs', 'tracing-5.mjs')).toEqual(['stray.mjs']);
      expect(build('tracing-5.mjs', 'shared.mjs')).toEqual([]);
      expect(build('shared.mjs', 'tracing-6.mjs')).toEqual(['tracing-2.mjs']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
