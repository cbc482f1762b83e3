// `terminology keys …` through the real CLI: the key is printed once, only its hash is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { freshStore, run, type Store } from '../helpers/cli.ts';
import { openDatabase } from '../../src/db/client.ts';
import { verifyApiKey } from '../../src/domain/apiKeys.ts';

let store: Store;
beforeAll(async () => {
  store = await freshStore();
});
afterAll(async () => {
  await store?.cleanup();
});

async function withStore<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl: store.url, dataDir: store.dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe('terminology keys', () => {
  let key = '';
  let id = '';

  it('create prints only the new sk-… key on stdout and stores its SHA-256 hash', async () => {
    const r = await run(['keys', 'create', '--name', 'safety team'], store.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^sk-[A-Za-z0-9_-]{43}\n$/);
    key = r.stdout.trim();
    const rows = await withStore((db) => db.prisma.apiKey.findMany());
    expect(rows).toHaveLength(1);
    id = rows[0]!.id;
    expect(rows[0]!.hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(r.stderr).not.toContain(key);
    expect(await withStore((db) => verifyApiKey(db.prisma, key))).toBe(id);
    expect(await withStore((db) => verifyApiKey(db.prisma, `${key.slice(0, -1)}x`))).toBeNull();
  });

  it('list shows name, id and prefix but never the key', async () => {
    const r = await run(['keys', 'list'], store.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('safety team');
    expect(r.stdout).toContain(id);
    expect(r.stdout).toContain(key.slice(0, 7));
    expect(r.stdout).not.toContain(key);
    const json = JSON.parse((await run(['keys', 'list', '--json'], store.env)).stdout);
    expect(json[0]).toMatchObject({ id, name: 'safety team', revokedAt: null });
  });

  it('revoke disables the key; an unknown id fails', async () => {
    const r = await run(['keys', 'revoke', id], store.env);
    expect(r.code).toBe(0);
    expect(await withStore((db) => verifyApiKey(db.prisma, key))).toBeNull();
    expect((await run(['keys', 'list'], store.env)).stdout).toMatch(/revoked/);
    const unknown = await run(['keys', 'revoke', 'nope'], store.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no key with id nope');
  });

  it('create without --name is a usage error', async () => {
    const r = await run(['keys', 'create'], store.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--name/);
  });
});
