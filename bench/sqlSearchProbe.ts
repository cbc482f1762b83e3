// A search answered by SQL (search.ts bySql → sqlCandidates) on releases of an existing store, as a
// server does when the release has no index in memory and no view serves it (issue 32): each
// search through a cache that has no index, no view and loads none, so every one takes the SQL
// path. Times the candidates' statement and the whole search, and prints each page's hits so two
// checkouts' answers can be compared (A/B: run the same file from each worktree).
//
//   DATABASE_URL=postgres://…/store npx tsx bench/sqlSearchProbe.ts --inputs /tmp/oldsearch/s24/inputs.json \
//     --releases 90.0,90.11 --queries 40 --rounds 2 --out /tmp/probe-B1.json
//   (no DATABASE_URL: --data-dir DIR, an embedded store)
import { writeFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { searchConcepts } from '../src/domain/releaseIndex/search.ts';
import { cpuMs, median } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    inputs: { type: 'string' },
    queries: { type: 'string', default: '40' },
    releases: { type: 'string', default: '90.0' },
    rounds: { type: 'string', default: '2' },
    'data-dir': { type: 'string' },
    out: { type: 'string' },
  },
});
const url = process.env.DATABASE_URL;

/** No index, no view, no load: the SQL path at once (the interface search.ts reads of SearchIndexCache). */
const noIndex = {
  waitMs: 0,
  searchView: async () => undefined,
  within: async () => undefined,
  shouldLoad: () => false,
  fallback: () => undefined,
  get: () => Promise.reject(new Error('no index in this probe')),
} as never;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

async function main() {
  const inputs = JSON.parse(readFileSync(values.inputs!, 'utf8')) as { queries: string[] };
  const queries = inputs.queries.slice(0, Number(values.queries));
  const db = await openDatabase({ databaseUrl: url, dataDir: url ? undefined : values['data-dir'], poolSize: 2 });
  const out: Record<string, unknown> = { date: new Date().toISOString(), releases: {} };
  try {
    let statementMs = 0;
    const timed = {
      $queryRawUnsafe: async (sql: string, ...params: unknown[]) => {
        const t = performance.now();
        try {
          return await db.prisma.$queryRawUnsafe(sql, ...params);
        } finally {
          if (/WITH m AS/.test(sql)) statementMs += performance.now() - t;
        }
      },
    } as never;
    for (const version of values.releases!.split(',')) {
      const [r] = await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release WHERE version = $1', version);
      const wall: number[] = [];
      const stmt: number[] = [];
      const cpu: number[] = [];
      const pages: Record<string, unknown> = {};
      for (let round = 0; round < Number(values.rounds); round++) {
        for (const q of queries) {
          statementMs = 0;
          const c = cpuMs();
          const t = performance.now();
          const page = await searchConcepts({ db: timed, indexes: noIndex, waitMs: 0 }, r!.id, q, {}, 0, 10);
          wall.push(performance.now() - t);
          cpu.push(cpuMs() - c);
          stmt.push(statementMs);
          pages[q] = { total: page.total, best: page.best, hits: page.hits.map((h) => [h.concept.level, h.concept.code, h.match?.type, h.match?.term, h.match?.score]) };
        }
      }
      const summary = {
        n: wall.length,
        statementP50: median(stmt),
        statementP95: pct(stmt, 0.95),
        searchP50: median(wall),
        searchP95: pct(wall, 0.95),
        processCpuP50: median(cpu),
      };
      console.log(version, JSON.stringify(summary, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v)));
      (out.releases as Record<string, unknown>)[version] = { summary, pages };
    }
  } finally {
    await db.close();
  }
  if (values.out) writeFileSync(values.out, JSON.stringify(out));
}

await main();
