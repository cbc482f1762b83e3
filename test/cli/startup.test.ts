// CLI start-up (issue 26, defect 8): `--help` and `releases` answer without loading what they do
// not need. Speed is measured by bench/cli.ts (bench/results.md › CLI start-up), not here; this
// file tests the behaviour that makes it fast: help is answered from the command definitions
// alone — even a broken configuration cannot stop it, because it is not read — while every
// command still reads and checks the configuration; and `releases` answers on its own store
// and, while the server owns that store, through the server's control socket (no database
// opened by the CLI), while an import is refused: the lock between processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freshStore, run, runHere, withStoreDb, type Store } from '../helpers/cli.ts';
import { usingPostgres } from '../helpers/db.ts';
import { startServerProcess } from '../helpers/server.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { answersWithoutConfig } from '../../src/cli/index.ts';
import { listReleases } from '../../src/domain/releases.ts';

// Not a valid configuration: PORT must be a number.
const BROKEN = { PORT: 'not-a-port' };

// No store is opened: once, on the PGlite pass.
describe.skipIf(usingPostgres)('help without the configuration', () => {
  // `--help` as a process (the shipped bundle, started with the broken configuration); the other
  // spellings are the same entry point in this process (runCli: runHere), ~0.4 s of CPU less each.
  it('--help, -h, help and a command’s --help answer even when the configuration is broken', async () => {
    let top = '';
    for (const args of [['--help'], ['-h'], ['help'], ['keys', '--help'], ['releases', '--help'], ['help', 'impact']]) {
      const r = args[0] === '--help' ? await run(args, BROKEN, 30_000) : await runHere(args, BROKEN);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^Usage: terminology/);
      expect(r.stderr, args.join(' ')).not.toMatch(/Invalid configuration/);
      if (args[0] === '--help') top = r.stdout;
    }
    for (const command of ['serve', 'migrate', 'import', 'releases', 'impact', 'keys']) expect(top).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('no command: the usage on stderr and exit 2', async () => {
    const r = await run([], BROKEN, 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Usage: terminology/);
  });

  it('a command still reads and checks the configuration', async () => {
    const r = await run(['releases'], BROKEN, 30_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Invalid configuration:\n\s+PORT: /);
  });

  it('which arguments skip the configuration', () => {
    expect(answersWithoutConfig([])).toBe(true);
    expect(answersWithoutConfig(['help', 'keys'])).toBe(true);
    expect(answersWithoutConfig(['keys', 'list', '-h'])).toBe(true);
    expect(answersWithoutConfig(['releases'])).toBe(false);
    expect(answersWithoutConfig(['keys', 'create', '--name', 'x'])).toBe(false);
  });
});

describe('releases', () => {
  let store: Store;
  beforeAll(async () => {
    store = await freshStore('demo');
  });
  afterAll(async () => {
    await store?.cleanup();
  });

  it('answers from its own store, latest first', async () => {
    const r = await run(['releases'], store.env, 90_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('5.0.1\t2025-06-01\tEnglish\tlatest');
    expect(r.stdout).toMatch(/^4\.03\t/m);
  }, 120_000);

  // One server start (seconds of WebAssembly start) for everything the CLI does while the server owns the store.
  it.skipIf(usingPostgres)('while the server owns the embedded store: releases answered through its control socket, as is --help; import refused at once; a clean stop frees the store', async () => {
    // Info logs: the server says when it listens and which command it ran for a client.
    const server = await startServerProcess({ ...store.env, LOG_LEVEL: 'info' }, 120_000);
    let exitCode: number | null;
    try {
      const r = await run(['releases'], store.env, 60_000);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe('5.0.1\t2025-06-01\tEnglish\tlatest');
      expect(server.logs()).toMatch(/"command":"releases"[^\n]*control socket/);
      const help = await run(['releases', '--help'], store.env, 30_000);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: terminology releases/);
      // Help never reaches the server.
      expect(server.logs().match(/"command":"releases"/g)).toHaveLength(1);
      // The embedded store refuses a second process at once: the import's code in this process,
      // another process than the server's, as a CLI's would be.
      const started = Date.now();
      const refused = await runHere(['import', writeFixture(miniSpec('3.0'))], store.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/in use by another terminology process \(pid \d+/);
      expect(refused.stderr).toContain('stop, import, start');
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      exitCode = await server.stop();
    }
    expect(exitCode).toBe(0);
    // After a clean shutdown the lock file is gone (not merely stale), and the store opens.
    expect(existsSync(path.join(store.dataDir!, '.lock'))).toBe(false);
    expect(await withStoreDb(store, async (db) => (await listReleases(db.prisma))[0]?.version)).toBe('5.0.1');
  }, 180_000);
});

// No server, embedded store: `releases` answers from the record the last clean close left
// (src/db/storeManifest.ts) instead of starting PGlite — and never from a record the store has
// moved past since.
describe.skipIf(usingPostgres)('releases without opening the embedded store', () => {
  let store: Store;
  const manifest = () => path.join(store.dataDir!, 'store-manifest.json');
  const control = () => {
    const s = statSync(path.join(store.dataDir!, 'pglite', 'global', 'pg_control'), { bigint: true });
    return `${s.ino}:${s.mtimeNs}`;
  };
  beforeAll(async () => {
    store = await freshStore('demo');
  });
  afterAll(async () => {
    await store?.cleanup();
  });

  it('the second call answers from the record of the last close, the same answer, the store untouched', async () => {
    // A copied store carries no record: the first call opens it, and leaves one when it closes.
    expect(existsSync(manifest())).toBe(false);
    const opened = await runHere(['releases', '--json'], store.env);
    expect(opened.code, opened.stderr).toBe(0);
    expect(existsSync(manifest())).toBe(true);
    const before = control();
    const recorded = await runHere(['releases', '--json'], store.env);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toBe(opened.stdout);
    // Every open of a PGlite store rewrites pg_control: unchanged means never opened.
    expect(control()).toBe(before);
    const text = await runHere(['releases'], store.env);
    expect(text.stdout.split('\n')[0]).toBe('5.0.1\t2025-06-01\tEnglish\tlatest');
    expect(control()).toBe(before);
  }, 120_000);

  it('a record the store moved past is never used, even when whatever opened the store left it in place', async () => {
    await runHere(['releases'], store.env);
    const stale = readFileSync(manifest(), 'utf8');
    // Another program (an older version, a database tool) changes the store and does not know the record.
    await withStoreDb(store, (db) => db.prisma.$executeRawUnsafe(`UPDATE "release" SET release_date = '2011-01-01' WHERE version = '4.03'`));
    writeFileSync(manifest(), stale);
    const r = await runHere(['releases'], store.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^4\.03\t2011-01-01\t/m);
    // …and the record written by that call is the new truth.
    expect(readFileSync(manifest(), 'utf8')).toContain('2011-01-01');
  }, 120_000);

  it('an open store drops the record at once: an import in progress, or one that crashed, is never hidden', async () => {
    await runHere(['releases'], store.env);
    expect(existsSync(manifest())).toBe(true);
    await withStoreDb(store, async () => {
      expect(existsSync(manifest())).toBe(false);
      // Meanwhile the CLI reports the owner instead of a list that may be changing.
      const r = await runHere(['releases'], store.env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/in use by another terminology process/);
    });
  }, 120_000);
});
