// `terminology import` and `releases` through the real CLI: exit codes, messages, and an import
// killed midway leaving nothing behind (its lock taken over by the next run).
// Every CLI process of the PGlite pass costs seconds of WebAssembly start, so a process is
// started only where the process is what is checked (the import once, a kill); the other runs
// are the same command in this process (runHere), what a run left in the store is read
// in-process (storeReleases), and the importer's own rules are test/importer's. `releases` as a process: test/cli/startup.test.ts, which also has the lock
// between processes (an import refused while the server owns the embedded store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshStore, run, runHere, start, withStoreDb, type Store } from '../helpers/cli.ts';
import { editFile, miniSpec, writeFixture } from '../helpers/medascii.ts';
import { generateRelease, writeMedAscii } from '../../tools/synthetic/generate.ts';
import { listReleases } from '../../src/domain/releases.ts';

let store: Store;
beforeAll(async () => {
  store = await freshStore();
});
afterAll(async () => {
  await store?.cleanup();
});

/** The versions in the store, latest first, read in-process (no CLI process started). */
const storeReleases = () => withStoreDb(store, async (db) => (await listReleases(db.prisma)).map((r) => r.version));

describe('terminology import / releases', () => {
  it('imports a folder and lists it', async () => {
    const r = await run(['import', writeFixture(miniSpec('1.0')), '--release-date', '2024-01-31'], store.env);
    expect(r.stderr).toContain('import:');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/imported release 1\.0 \(English\): SOC 3, HLGT 4, HLT 5, PT 6, LLT 15/);
    const list = await runHere(['releases'], store.env);
    expect(list.stdout).toBe('1.0\t2024-01-31\tEnglish\tlatest\n');
  });

  it('refuses a re-import without --replace (exit 1), accepts it with', async () => {
    const dir = writeFixture(miniSpec('1.0'));
    const again = await runHere(['import', dir], store.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Release 1.0 is already imported. Use --replace');
    const replaced = await runHere(['import', dir, '--replace'], store.env);
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toMatch(/^replaced release 1\.0/);
  });

  it('reports validation problems with file and line, exit 1, nothing imported', async () => {
    const dir = writeFixture(miniSpec('2.0'));
    editFile(dir, 'hlt_pt.asc', (l) => [...l, '92999999$10047700$']);
    const r = await runHere(['import', dir], store.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hlt_pt.asc:9: unknown parent code: HLT 92999999');
    expect(await storeReleases()).not.toContain('2.0');
  });

  it('a missing folder is a clear error', async () => {
    const r = await runHere(['import', '/nonexistent/MedAscii'], store.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot read the MedAscii folder /nonexistent/MedAscii');
  });

  // In this process: the same entry point reads the environment it is given; a process reading
  // its own broken environment is test/cli/startup.test.ts's.
  it('an invalid environment stops with a clear message', async () => {
    const r = await runHere(['releases'], { ...store.env, PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid configuration');
    expect(r.stderr).toContain('PORT');
    expect(r.stderr).toContain('DATABASE_URL: must be a postgres://');
  });

  it('an import killed midway leaves no partial release, and the next run succeeds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'syn-kill-'));
    // Scale 0.05: ~13k rows, so the kill lands after the first of three 5,000-row chunks.
    await writeMedAscii(generateRelease({ seed: 3, version: '70.0', scale: 0.05, withSmq: false }), path.join(dir, '70.0'));
    const child = start(['import', path.join(dir, '70.0')], store.env);
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d) => {
        err += d;
        // Kill once rows are being written inside the transaction.
        if (/writing \d+\/\d+ rows/.test(err) && !/writing (\d+)\/\1 rows/.test(err)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('close', () => reject(new Error(`import ended before it could be killed:\n${err}`)));
    });
    await new Promise((r) => child.once('close', r));
    // The first to open the store after the kill is the CLI's code (here, in this process): it
    // takes over the dead process's lock.
    const list = await runHere(['releases', '--json'], store.env);
    expect(list.stderr).not.toContain('in use');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((r: { version: string }) => r.version)).toEqual(['1.0']);
    const retry = await runHere(['import', path.join(dir, '70.0')], store.env);
    expect(retry.stderr).not.toContain('in use');
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(/^imported release 70\.0/);
    expect(await storeReleases()).toEqual(['70.0', '1.0']);
    // A process start, a part of an import, then a whole one: over a minute on a loaded machine.
  }, 120_000);

  it('an import killed while computing changes leaves no release, and the re-run stores it with its change set', async () => {
    // The store holds 70.0 (above); an unrelated release differs from it in nearly every concept,
    // so computing the change set takes long enough to be killed in (a second or more on either
    // database with this one at half the scale of 70.0, which halves its write phase and re-run).
    const dir = mkdtempSync(path.join(tmpdir(), 'syn-kill-changes-'));
    await writeMedAscii(generateRelease({ seed: 5, version: '71.0', scale: 0.025, withSmq: false }), dir);
    const child = start(['import', dir], store.env);
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d) => {
        err += d;
        if (err.includes('computing changes')) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('close', () => reject(new Error(`import ended before it could be killed:\n${err}`)));
    });
    await new Promise((r) => child.once('close', r));
    // As above, the first to open the store after the kill is the CLI's code.
    const list = await runHere(['releases', '--json'], store.env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((r: { version: string }) => r.version)).toEqual(['70.0', '1.0']);
    const retry = await runHere(['import', dir], store.env);
    expect(retry.stderr).not.toContain('in use');
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(/changes 70\.0 → 71\.0: \d+ added/);
    expect(await storeReleases()).toEqual(['71.0', '70.0', '1.0']);
  }, 120_000);
});
