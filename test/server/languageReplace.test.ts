// Issue 28 on PostgreSQL with two real server processes: a non-primary language's search index
// is snapshotted like the release's (the second replica loads the Japanese index from the snapshot
// the first wrote, and logs so), and `terminology import --replace` of that language, which keeps
// the release id, reaches both replicas' in-memory indexes within the release list's lifetime
// (5 s on PostgreSQL: README › Importing into a running deployment), search and code pages alike.
// Response caches are off here: a cached answer follows its own lifetime, as after any --replace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createFreshPostgres } from '../helpers/db.ts';
import { run } from '../helpers/cli.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';
import { miniSpec, writeFixture } from '../helpers/medascii.ts';
import { JAPANESE, translated } from '../helpers/languages.ts';

let url: string;
let drop: () => Promise<void>;
const servers: ServerProcess[] = [];
const env = () => ({ DATABASE_URL: url, TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'info', RESPONSE_CACHE_MB: '0', RATE_LIMIT_PER_MINUTE: '0' });
const japanese = (names: Record<string, string>) => (n: string) => names[n] ?? `${n}（日本語）`;

beforeAll(async () => {
  ({ url, drop } = await createFreshPostgres());
  for (const dir of [writeFixture(miniSpec('1.0')), writeFixture(translated('1.0', 'Japanese', japanese(JAPANESE)), { encoding: 'utf8' })]) {
    const r = await run(['import', dir], env(), 90_000);
    expect(r.code, r.stderr).toBe(0);
  }
}, 180_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await drop?.();
});

async function query<T>(sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

const search = async (s: ServerProcess, q: string, extra = '') => {
  const r = await fetch(`${s.url}/codes?q=${encodeURIComponent(q)}&lang=ja${extra}`);
  expect(r.status).toBe(200);
  return ((await r.json()) as { results: { code: string; term: string; match: { type: string } }[] }).results;
};

async function until(what: string, ok: () => Promise<boolean>, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return Date.now() - t0;
}

describe('a non-primary language on two replicas', () => {
  it('the second replica loads the Japanese index from the snapshot the first wrote', async () => {
    servers.push(await startServerProcess(env(), 90_000));
    const [a] = servers;
    expect((await search(a!, '悪心'))[0]).toMatchObject({ code: '10028813', term: '悪心', match: { type: 'EXACT' } });
    // As for the second replica below: the answer may come before the build's log line (INDEX_WAIT_MS).
    await expect.poll(() => a!.logs(), { timeout: 15_000 }).toMatch(/"source":"rows"[^\n]*"language":"ja"[^\n]*release index ready/);
    await until('the Japanese snapshot written', async () => (await query(`SELECT 1 FROM release_language_index_snapshot WHERE language = 'ja'`)).length === 1, 30_000);
    servers.push(await startServerProcess(env(), 90_000));
    const b = servers[1]!;
    expect((await search(b, '悪心'))[0]).toMatchObject({ code: '10028813', term: '悪心', match: { type: 'EXACT' } });
    // The answer may come before the load's log line: a search waits for the index at most 150 ms,
    // then answers by SQL while the snapshot still loads (INDEX_WAIT_MS).
    await expect.poll(() => b.logs(), { timeout: 15_000 }).toMatch(/"source":"snapshot"[^\n]*"language":"ja"[^\n]*release index ready/);
    expect(b.logs()).not.toMatch(/"source":"rows"[^\n]*"language":"ja"/);
  }, 240_000);

  it('after import --replace of Japanese, both replicas answer with the new names within the release list\'s 5 s', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const dir = writeFixture(translated('1.0', 'Japanese', japanese({ ...JAPANESE, Nausea: '嘔気' })), { encoding: 'utf8' });
    const r = await run(['import', dir, '--replace'], env(), 90_000);
    expect(r.code, r.stderr).toBe(0);
    // The replaced language's snapshot went with its old names (a replica may have written a new one since).
    const stale = await query<{ n: string }>(`SELECT count(*) AS n FROM release_language_index_snapshot s JOIN release_language l USING (release_id, language) WHERE s.created_at < l.imported_at`);
    expect(Number(stale[0]!.n)).toBe(0);
    for (const s of [a, b]) {
      const ms = await until(
        'the new Japanese name found',
        async () => (await search(s, '嘔気'))[0]?.term === '嘔気',
        // The list is read again after 5 s; the index is then built again (well under a second here).
        10_000,
      );
      expect(ms).toBeLessThan(10_000);
      const page = (await (await fetch(`${s.url}/codes/10028813?lang=ja`)).json()) as { term: string; language: string };
      expect(page).toMatchObject({ term: '嘔気', language: 'ja' });
      expect((await search(s, '悪心', '&limit=5')).some((h) => h.term === '悪心')).toBe(false);
    }
  }, 120_000);
});
