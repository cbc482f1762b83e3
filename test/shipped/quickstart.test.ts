// The README's Quick start lines — `npm install && npm start` and `npm test` — taken from the
// README's block, each command checked by running what proves it works without re-doing it:
//
// - `npm start` is run as written by test/shipped/readme.test.ts (the server, then the README's
//   steps against it); here: the block still says it, and the script it names exists.
// - `npm install` on a fresh clone: a real install costs minutes and the network, which the suite
//   has not. `npm install --dry-run` in a copy of package.json and package-lock.json (a fresh
//   clone's state: no node_modules) makes npm plan exactly that install — the lock read, every
//   package placed, engines checked — and stop before fetching. `--offline` guarantees the plan
//   comes from the lock, not the registry; `--ignore-scripts` because npm would otherwise run our
//   postinstall (prisma generate + build) in the copy, which has no sources. The postinstall's two
//   steps are checked apart: scripts/build.mjs is what the suite's global setup runs before every
//   run (test/setup/bundle.ts), and the prisma CLI that scripts/prisma-generate.mjs calls is
//   installed. The lock must also be in sync with package.json (its root entry lists the same
//   dependencies), else `npm install` would re-resolve and rewrite it.
// - `npm test`: the script runs vitest with this repository's config; running the whole suite
//   inside the suite is not the point, so `npm test` is run with a file filter matching no file
//   (`--passWithNoTests`): it loads the config and its projects and exits 0.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/cli.ts';
import { ebadengineWarnings, ENGINE_EXCEPTIONS } from '../helpers/engines.ts';
import { usingPostgres } from '../helpers/db.ts';
import { readmeShellBlocks } from '../helpers/readme.ts';
import { projectRoot } from '../../src/paths.ts';

const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));

function sh(command: string, args: string[], cwd: string, timeout = 180_000): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout, env: childEnv({}), maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** The Quick start block's commands: `npm install && npm start  # …` → ['npm install', 'npm start']. */
function quickStartCommands(): string[] {
  const [quick] = readmeShellBlocks();
  return quick!
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean)
    .flatMap((l) => l.split('&&').map((c) => c.trim()));
}

describe.skipIf(usingPostgres)('README › Quick start, each line', () => {
  it('is `npm install`, `npm start`, `npm test`, and the scripts exist', () => {
    expect(quickStartCommands()).toEqual(['npm install', 'npm start', 'npm test']);
    expect(pkg.scripts.start).toBe('node bin/terminology.mjs serve');
    expect(existsSync(path.join(projectRoot, 'bin', 'terminology.mjs'))).toBe(true);
    expect(pkg.scripts.test).toMatch(/^vitest run\b/);
    expect(pkg.scripts.postinstall).toBe('node scripts/prisma-generate.mjs && node scripts/build.mjs');
  });

  it('`npm install` on a fresh clone: npm plans the whole install from the lock alone, without engine warnings', async () => {
    const lock = JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8'));
    const root = lock.packages[''];
    // In sync: npm would otherwise re-resolve against the registry and rewrite the lock.
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
    expect(root.engines).toEqual(pkg.engines);

    const clone = mkdtempSync(path.join(tmpdir(), 'quickstart-'));
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(projectRoot, f), path.join(clone, f));
    const r = await sh('npm', ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], clone);
    expect(r.code, r.out.slice(-3000)).toBe(0);
    const added = Number(/added (\d+) packages/.exec(r.out)?.[1]);
    expect(added).toBeGreaterThan(500);
    expect(ebadengineWarnings(r.out).filter((name) => !(name in ENGINE_EXCEPTIONS))).toEqual([]);
    // The dry run wrote nothing.
    expect(existsSync(path.join(clone, 'node_modules'))).toBe(false);
    expect(readFileSync(path.join(clone, 'package-lock.json'), 'utf8')).toBe(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8'));
  }, 200_000);

  it('the postinstall’s steps: the build script the suite runs first, and the prisma CLI prisma-generate calls', () => {
    expect(existsSync(path.join(projectRoot, 'scripts', 'build.mjs'))).toBe(true);
    expect(readFileSync(path.join(projectRoot, 'test', 'setup', 'bundle.ts'), 'utf8')).toMatch(/'scripts', 'build\.mjs'/);
    expect(readFileSync(path.join(projectRoot, 'scripts', 'prisma-generate.mjs'), 'utf8')).toMatch(/'prisma', 'build', 'index\.js'/);
    expect(existsSync(path.join(projectRoot, 'node_modules', 'prisma', 'build', 'index.js'))).toBe(true);
  });

  it('`npm test` runs vitest with this repository’s config (a filter matching no file: it loads and exits 0)', async () => {
    const r = await sh('npm', ['test', '--', '--passWithNoTests', 'no-such-test-file-quickstart'], projectRoot);
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(r.out).toMatch(/> vitest run --passWithNoTests no-such-test-file-quickstart/);
    expect(r.out).toMatch(/No test files found, exiting with code 0/);
    // The config's projects were read (the embedded-database pass at least).
    expect(r.out).toMatch(/pglite/);
  }, 120_000);
});
