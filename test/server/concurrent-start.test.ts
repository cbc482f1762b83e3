// Replicas and imports racing on one PostgreSQL database, as real processes: several
// `terminology serve` started at the same moment on a new, empty database all become ready
// with the demo releases imported once; two simultaneous imports of one version answer as
// documented (one imports, the other is refused with "already imported"); two simultaneous
// `--replace` both succeed.
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createFreshPostgres } from '../helpers/db.ts';
import { run } from '../helpers/cli.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { demoReleases } from '../../src/importer/demo.ts';

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const d of drops) await d();
});

async function fresh(): Promise<string> {
  const db = await createFreshPostgres();
  drops.push(db.drop);
  return db.url;
}

async function count(url: string, sql: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>(sql)).rows[0]!.n);
  } finally {
    await c.end();
  }
}

describe('replicas started together on an empty database', () => {
  it('all become ready, with the demo releases imported once', async () => {
    const url = await fresh();
    const env = { DATABASE_URL: url, TERMINOLOGY_DEMO: 'true', LOG_LEVEL: 'info' };
    const settled = await Promise.allSettled([1, 2, 3].map(() => startServerProcess(env, 90_000)));
    const servers = settled.filter((s): s is PromiseFulfilledResult<ServerProcess> => s.status === 'fulfilled').map((s) => s.value);
    try {
      const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => String(s.reason).slice(0, 2000));
      expect(failures).toEqual([]);
      const versions = demoReleases().map((r) => r.version);
      for (const s of servers) {
        const r = await fetch(`${s.url}/versions`);
        expect(r.status).toBe(200);
        const body = (await r.json()) as { results: { version: string }[] };
        expect(body.results.map((v) => v.version).sort()).toEqual([...versions].sort());
        expect((await fetch(`${s.url}/health/ready`)).status).toBe(200);
      }
      expect(await count(url, 'SELECT count(*) AS n FROM release')).toBe(versions.length);
      // One replica imported; the others waited for it and logged nothing of an import.
      expect(servers.filter((s) => s.logs().includes('imported the demo releases')).length).toBe(1);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 180_000);
});

describe('concurrent imports of one version', () => {
  const env = (url: string) => ({ DATABASE_URL: url, TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn' });

  it('one imports, the other is refused with the documented "already imported"', async () => {
    const url = await fresh();
    const dir = writeFixture(miniSpec('1.0'));
    const [a, b] = await Promise.all([run(['import', dir], env(url), 90_000), run(['import', dir], env(url), 90_000)]);
    const results = [a, b].sort((x, y) => (x.code ?? 9) - (y.code ?? 9));
    expect(results.map((r) => r.code)).toEqual([0, 1]);
    expect(results[0]!.stdout).toMatch(/^imported release 1\.0/);
    // Its last line is the documented refusal (progress lines come before it).
    expect(results[1]!.stderr.trim().split('\n').at(-1)).toBe('Release 1.0 is already imported. Use --replace to import it again.');
    expect(results[1]!.stderr).not.toMatch(/Unique constraint|prisma/i);
    expect(await count(url, 'SELECT count(*) AS n FROM release')).toBe(1);
  }, 120_000);

  it('two --replace at once both succeed', async () => {
    const url = await fresh();
    const dir = writeFixture(miniSpec('1.0'));
    expect((await run(['import', dir], env(url), 90_000)).code).toBe(0);
    const both = await Promise.all([run(['import', dir, '--replace'], env(url), 90_000), run(['import', dir, '--replace'], env(url), 90_000)]);
    for (const r of both) {
      expect(r.stderr).not.toContain('No record was found');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^replaced release 1\.0/);
    }
    expect(await count(url, 'SELECT count(*) AS n FROM release')).toBe(1);
  }, 120_000);

  it('two different versions at once are both imported, in version order', async () => {
    const url = await fresh();
    const [a, b] = await Promise.all([
      run(['import', writeFixture(miniSpec('1.0'))], env(url), 90_000),
      run(['import', writeFixture({ ...miniSpec('1.1'), llts: miniSpec().llts.slice(1) })], env(url), 90_000),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.stderr + b.stderr).not.toMatch(/error|constraint/i);
    expect(await count(url, "SELECT count(*) AS n FROM release WHERE (version = '1.0' AND ordinal = 1) OR (version = '1.1' AND ordinal = 2)")).toBe(2);
  }, 120_000);
});
