// The search by SQL (search.ts sqlCandidates) finds its typo candidates with pg_trgm's `%` and
// `<%` operators, which the trigram GIN index serves, at the session's thresholds (0.3 and 0.6,
// the index's own): names exactly at a threshold must be candidates, or the SQL page loses what
// the loaded index's page holds. Checked on queries that have such names (similarity exactly 0.3
// or word_similarity exactly 0.6 to some name of the release), against the loaded index's pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDemoDatabase, usingPostgres, type TestDatabase } from '../helpers/db.ts';
import { demoReleases } from '../../src/importer/demo.ts';
import { SearchIndexCache } from '../../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../../src/domain/releaseIndex/search.ts';
import { normalizeName } from '../../src/domain/text.ts';
import { openDatabase, TRGM_OPTIONS, withTrgmOptions } from '../../src/db/client.ts';
import pg from 'pg';

let db: TestDatabase;
let releaseId: number;
let indexed: SearchIndexCache;

beforeAll(async () => {
  db = await sharedDemoDatabase();
  const latest = demoReleases().at(-1)!;
  releaseId = (await db.prisma.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM release WHERE version = $1`, latest.version))[0]!.id;
  indexed = new SearchIndexCache();
  await indexed.get(releaseId, db.prisma);
}, 120_000);

afterAll(async () => {
  await db?.cleanup();
});

/** Typos and fragments of the release's PT names: a letter dropped, one replaced, a word's start with a wrong ending. */
async function sampleQueries(): Promise<string[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ n: string }[]>(`SELECT name_norm AS n FROM concept_at($1) WHERE level = 'PT' ORDER BY code LIMIT 150`, releaseId);
  const out = new Set<string>();
  for (const { n } of rows) {
    const mid = Math.floor(n.length / 2);
    out.add(n.slice(0, mid) + n.slice(mid + 1));
    out.add(n.slice(0, 2) + 'q' + n.slice(3));
    const w = n.split(' ')[0]!;
    if (w.length > 4) out.add(w.slice(0, 4) + 'zy');
  }
  return [...out].filter((q) => normalizeName(q) === q);
}

describe('search by SQL at the typo thresholds', () => {
  it('holds every name exactly at similarity 0.3 or word_similarity 0.6: the same pages as the loaded index', async () => {
    const queries = await sampleQueries();
    // Which of them have a name exactly at a threshold, by the index's scores (search.test.ts: the
    // same as pg_trgm's on every demo name); exact ratios of small integers, so === is exact.
    const ix = indexed.peek(releaseId)!;
    const edges: { q: string; s: number; w: number }[] = [];
    for (const q of queries) {
      const { size, ids } = ix.queryTrigrams(q);
      const mask = ix.mask(ids);
      let s = 0;
      let w = 0;
      for (let i = 0; i < ix.size; i++) {
        const sc = ix.score(i, mask, size);
        if (sc.full === 0.3) s++;
        else if (sc.sim === 0.6 && sc.full < 0.3) w++;
      }
      if (s + w) edges.push({ q, s, w });
    }
    // The demo release has such queries for both thresholds (else the check below proves nothing).
    const atSim = edges.filter((e) => e.s > 0).slice(0, 10);
    const atWord = edges.filter((e) => e.w > 0).slice(0, 10);
    expect(atSim.length).toBeGreaterThan(3);
    expect(atWord.length).toBeGreaterThan(3);
    // A load that never finishes: every search below answers from SQL.
    const waiting = new SearchIndexCache();
    void waiting.get(releaseId, { $queryRawUnsafe: () => new Promise<never>(() => {}) } as never);
    let fuzzy = 0;
    for (const { q } of [...atSim, ...atWord]) {
      const want = await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, q, {}, 0, 1000);
      const got = await searchConcepts({ db: db.prisma, indexes: waiting, waitMs: 0 }, releaseId, q, {}, 0, 1000);
      expect(JSON.stringify(got), q).toBe(JSON.stringify(want));
      if (want.hits.some((h) => h.match?.type === 'FUZZY')) fuzzy++;
    }
    expect(fuzzy).toBeGreaterThan(5);
    expect(waiting.peek(releaseId)).toBeUndefined();
  }, 120_000);

  // A database whose default thresholds were changed (ALTER DATABASE … SET): the server-mode pool
  // sets the index's own at connection (src/db/client.ts TRGM_OPTIONS), so the SQL page is still the index's.
  it.runIf(usingPostgres)('keeps the index thresholds on a PostgreSQL database configured with others', async () => {
    const url = db.url!;
    expect(url, 'a PostgreSQL database of this file').toMatch(/^postgres/);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const name = (await admin.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d;
    await admin.query(`ALTER DATABASE "${name}" SET pg_trgm.similarity_threshold = 0.9`);
    await admin.query(`ALTER DATABASE "${name}" SET pg_trgm.word_similarity_threshold = 0.95`);
    await admin.end();
    const other = await openDatabase({ databaseUrl: url, poolSize: 2 });
    try {
      // A plain connection sees the database's setting: the check below would fail without the pool's options.
      const plain = new pg.Client({ connectionString: url });
      await plain.connect();
      try {
        expect((await plain.query<{ t: string }>(`SELECT current_setting('pg_trgm.similarity_threshold') AS t`)).rows[0]!.t).toBe('0.9');
      } finally {
        await plain.end();
      }
      const pooled = await other.prisma.$queryRawUnsafe<{ t: string; w: string }[]>(`SELECT current_setting('pg_trgm.similarity_threshold') AS t, current_setting('pg_trgm.word_similarity_threshold') AS w`);
      expect(pooled[0]).toEqual({ t: '0.3', w: '0.6' });
      const waiting = new SearchIndexCache();
      void waiting.get(releaseId, { $queryRawUnsafe: () => new Promise<never>(() => {}) } as never);
      let fuzzy = 0;
      for (const q of (await sampleQueries()).slice(0, 40)) {
        const want = await searchConcepts({ db: db.prisma, indexes: indexed }, releaseId, q, {}, 0, 1000);
        const got = await searchConcepts({ db: other.prisma, indexes: waiting, waitMs: 0 }, releaseId, q, {}, 0, 1000);
        expect(JSON.stringify(got), q).toBe(JSON.stringify(want));
        if (want.hits.some((h) => h.match?.type === 'FUZZY')) fuzzy++;
      }
      expect(fuzzy).toBeGreaterThan(5);
    } finally {
      await other.close();
    }
  }, 120_000);

  it("keeps a connection string's own startup options, ours after them", () => {
    expect(withTrgmOptions('postgres://u@h:5432/db')).toEqual({ connectionString: 'postgres://u@h:5432/db', options: TRGM_OPTIONS });
    const own = withTrgmOptions('postgres://u:p%40ss@h:5432/db?options=-c%20search_path%3Dx&sslmode=disable');
    expect(own.options).toBe(`-c search_path=x ${TRGM_OPTIONS}`);
    expect(own.connectionString).toBe('postgres://u:p%40ss@h:5432/db?sslmode=disable');
  });
});
