// What a search costs when it answers from SQL because its release's index is not loaded
// (issue 32: SearchIndexCache.within, search.ts sqlCandidates), against loading the index from
// its snapshot and building it from rows — the ways a first search on a release can go — on one
// synthetic release, interleaved per round in one process. Embedded: the process's CPU time (PGlite runs here),
// robust to other processes' load; PostgreSQL (DATABASE_URL, a database of its own): wall time.
//
//   npx tsx bench/searchBySql.ts [--scale 0.25] [--rounds 3]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { importRelease } from '../src/importer/import.ts';
import { generateRelease, writeMedAscii } from '../tools/synthetic/generate.ts';
import { SearchIndexCache } from '../src/domain/releaseIndex/indexCache.ts';
import { searchConcepts } from '../src/domain/releaseIndex/search.ts';
import { readSnapshot } from '../src/domain/releaseIndex/snapshotStore.ts';
import { unpackIndex } from '../src/domain/releaseIndex/snapshot.ts';
import { ReleaseIndex } from '../src/domain/releaseIndex/releaseIndex.ts';
import { removeTempDir } from './lib/procs.ts';
import { cpuMs, median } from './lib/stats.ts';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '0.25' }, rounds: { type: 'string', default: '3' } } });
const scale = Number(values.scale);
const rounds = Number(values.rounds);
const url = process.env.DATABASE_URL;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'search-by-sql-'));
  await writeMedAscii(generateRelease({ seed: 42, version: '90.0', scale, withSmq: false }), path.join(dir, '90.0'));
  const db = await openDatabase({ databaseUrl: url, dataDir: url ? undefined : path.join(dir, 'store'), poolSize: 4 });
  try {
    await migrate(db);
    const { releaseId } = await importRelease(db, path.join(dir, '90.0')); // writes the index snapshot
    const names = await db.prisma.$queryRawUnsafe<{ n: string }[]>(`SELECT name_norm AS n FROM concept_at($1) ORDER BY code`, releaseId);
    const pick = (k: number) => names[Math.floor((k * names.length) / 7)]!.n;
    // An exact name, a prefix, a typo, a word, a short query, a piece from inside a name.
    const queries = [pick(1), pick(2).slice(0, 6), pick(3).replace(/a/, 'e'), pick(4).split(' ')[0]!, 'ab', pick(5).slice(2, 12)];
    const sql: { cpu: number; wall: number }[] = [];
    const snap: { cpu: number; wall: number }[] = [];
    const build: { cpu: number; wall: number }[] = [];
    // A load that never finishes: every search below takes the SQL path at once.
    const never = { $queryRawUnsafe: () => new Promise<never>(() => {}) } as never;
    for (let r = 0; r < rounds; r++) {
      for (const q of queries) {
        const cache = new SearchIndexCache();
        void cache.get(releaseId, never);
        let c = cpuMs();
        let t = performance.now();
        await searchConcepts({ db: db.prisma, indexes: cache, waitMs: 0 }, releaseId, q, {}, 0, 10);
        sql.push({ cpu: cpuMs() - c, wall: performance.now() - t });
        c = cpuMs();
        t = performance.now();
        const data = await readSnapshot({ db: db.prisma, blobs: db.blobs }, releaseId);
        await unpackIndex(data!, releaseId);
        snap.push({ cpu: cpuMs() - c, wall: performance.now() - t });
      }
      // The third way: no snapshot, the index built from rows (what the SQL path stands in for).
      const c = cpuMs();
      const t = performance.now();
      await ReleaseIndex.load(db.prisma, releaseId);
      build.push({ cpu: cpuMs() - c, wall: performance.now() - t });
    }
    const [n] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM concept_at($1)`, releaseId);
    const cpuSql = median(sql.map((x) => x.cpu));
    const cpuSnap = median(snap.map((x) => x.cpu));
    const wallSql = median(sql.map((x) => x.wall));
    const wallSnap = median(snap.map((x) => x.wall));
    process.stdout.write(
      `${url ? 'postgresql' : 'embedded'}, scale ${scale} (${n!.n} concepts), ${sql.length} searches by SQL interleaved with as many snapshot loads:\n` +
        `  search by SQL:      median CPU ${Math.round(cpuSql)} ms, wall ${Math.round(wallSql)} ms\n` +
        `  snapshot load:      median CPU ${Math.round(cpuSnap)} ms, wall ${Math.round(wallSnap)} ms\n` +
        `  ratio SQL / load:   CPU ${(cpuSql / cpuSnap).toFixed(1)}×, wall ${(wallSql / wallSnap).toFixed(1)}×\n` +
        `  build from rows:    median CPU ${Math.round(median(build.map((x) => x.cpu)))} ms, wall ${Math.round(median(build.map((x) => x.wall)))} ms (${build.length}, one a round)\n`,
    );
  } finally {
    await db.close();
    removeTempDir(dir);
  }
}

await main();
