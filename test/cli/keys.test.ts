// `terminology keys …` through the real CLI: the key is printed once, only its hash is stored.
// Two runs are CLI processes, their output and exit code as a user sees them: `keys create`, and
// a `keys revoke` that fails once the store is closed (closing PGlite resets a process's exit
// code: the failure must still exit 1). `list` and the other runs open and close the store the
// same way (ctx.withDb, src/cli/commands.ts) and run in this process (runHere), and what a
// command stored is read in-process (withStoreDb): on the PGlite pass each process start is
// seconds of WebAssembly start. (`keys list` as a process, through a running server's control
// socket: test/shipped/readme.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { freshStore, run, runHere, withStoreDb, type Store } from '../helpers/cli.ts';
import { verifyApiKey } from '../../src/domain/apiKeys.ts';

let store: Store;
beforeAll(async () => {
  store = await freshStore();
});
afterAll(async () => {
  await store?.cleanup();
});

describe('terminology keys', () => {
  let key = '';
  let id = '';

  it('create prints only the new sk-… key on stdout and stores its SHA-256 hash', async () => {
    const r = await run(['keys', 'create', '--name', 'safety team'], store.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^sk-[A-Za-z0-9_-]{43}\n$/);
    key = r.stdout.trim();
    expect(r.stderr).not.toContain(key);
    await withStoreDb(store, async (db) => {
      const rows = await db.prisma.apiKey.findMany();
      expect(rows).toHaveLength(1);
      id = rows[0]!.id;
      expect(rows[0]!.hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(await verifyApiKey(db.prisma, key)).toBe(id);
      expect(await verifyApiKey(db.prisma, `${key.slice(0, -1)}x`)).toBeNull();
    });
  });

  it('list --json shows name, id and prefix but never the key', async () => {
    const r = await runHere(['keys', 'list', '--json'], store.env);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(key);
    const json = JSON.parse(r.stdout);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ id, name: 'safety team', prefix: key.slice(0, 7), revokedAt: null });
  });

  // One `keys list` (text) after the revocation checks the listing and the revocation together.
  it('revoke disables the key; list shows name, id, prefix and revoked but never the key; an unknown id fails', async () => {
    const r = await runHere(['keys', 'revoke', id], store.env);
    expect(r.code).toBe(0);
    expect(await withStoreDb(store, (db) => verifyApiKey(db.prisma, key))).toBeNull();
    const list = await runHere(['keys', 'list'], store.env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('safety team');
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain(key.slice(0, 7));
    expect(list.stdout).toMatch(/revoked/);
    expect(list.stdout).not.toContain(key);
    const unknown = await run(['keys', 'revoke', 'nope'], store.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no key with id nope');
  });

  it('create without --name is a usage error', async () => {
    const r = await runHere(['keys', 'create'], store.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--name/);
  });
});
