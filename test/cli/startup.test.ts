// CLI start-up (issue 26, defect 8): `--help` and `releases` answer without loading what they do
// not need. Speed is measured by bench/cli.ts (bench/results.md › CLI start-up), not here; this
// file tests the behaviour that makes it fast: help is answered from the command definitions
// alone — even a broken configuration cannot stop it, because it is not read — while every
// command still reads and checks the configuration; and `releases` answers on its own store
// and, while the server owns that store, through the server's control socket (no database
// opened by the CLI).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, run, type Store } from '../helpers/cli.ts';
import { usingPostgres } from '../helpers/db.ts';
import { startServerProcess } from '../helpers/server.ts';
import { answersWithoutConfig } from '../../src/cli/index.ts';

// Not a valid configuration: PORT must be a number.
const BROKEN = { PORT: 'not-a-port' };

// No store is opened: once, on the PGlite pass.
describe.skipIf(usingPostgres)('help without the configuration', () => {
  it('--help, -h, help and a command’s --help answer even when the configuration is broken', async () => {
    let top = '';
    for (const args of [['--help'], ['-h'], ['help'], ['keys', '--help'], ['releases', '--help'], ['help', 'impact']]) {
      const r = await run(args, BROKEN, 30_000);
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

  it.skipIf(usingPostgres)('while the server owns the embedded store: answered through its control socket, as is --help', async () => {
    // Info logs: the server says when it listens and which command it ran for a client.
    const server = await startServerProcess({ ...store.env, LOG_LEVEL: 'info' }, 120_000);
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
    } finally {
      await server.stop();
    }
  }, 180_000);
});
