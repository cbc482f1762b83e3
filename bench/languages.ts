// Cost of languages (issue 28, item 8): a synthetic full-size release imported in English, then
// German and Japanese folders of it (tools/synthetic/language.ts), into a fresh embedded store
// by the real CLI; then the real server (`terminology serve`, response cache off so every request
// runs). Same-run baselines: each added language's import time against the English import's;
// lookups and searches in each language against English ones of the same concepts, interleaved
// on one connection (latency medians, ratio); storage and server memory (RSS after each
// language's requests) per added language. Storage is pg_total_relation_size (table, indexes and
// TOAST) of the tables after each import, not the store folder's size: PGlite's folder shrinks
// and grows with its WAL and free space, so it told nothing per language.
//
//   npm run bench:languages [-- --scale 1] [-- --lookups 3000] [-- --searches 600]
//   DATABASE_URL=postgres://…/postgres npm run bench:languages   # on PostgreSQL: a fresh database beside it, dropped after
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateRelease, writeMedAscii } from '../tools/synthetic/generate.ts';
import { writeLanguageFolder, SYNTHETIC_LANGUAGES } from '../tools/synthetic/language.ts';
import { loadRelease } from '../src/importer/import.ts';
import { projectRoot } from '../src/paths.ts';
import { cleanupAll, freePort, makeTempDir, processMemoryMb, removeTempDir, runToEnd, spawnTracked, stopChild } from './lib/procs.ts';
import { capture, interleavedLatencyLoops, type Req } from './lib/http.ts';
import { createFreshPostgres } from './lib/pgdb.ts';
import { openDatabase } from '../src/db/client.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    seed: { type: 'string', default: '42' },
    lookups: { type: 'string', default: '3000' },
    searches: { type: 'string', default: '600' },
  },
});
const scale = Number(values.scale);
const cli = path.join(projectRoot, 'bin/terminology.mjs');
const work = makeTempDir('bench-languages-');
const store = path.join(work, 'store');
const pg = process.env.DATABASE_URL ? await createFreshPostgres(process.env.DATABASE_URL) : undefined;
const env = {
  PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERMINOLOGY_DATA_DIR: store, TERMINOLOGY_DEMO: 'false', LOG_LEVEL: 'warn',
  ...(pg ? { DATABASE_URL: pg.url } : {}),
};
const MB = 1024 * 1024;
const NAME_TABLES = ['concept', 'concept_name', 'smq', 'smq_name', 'release_language'];

/** The store, opened from this process while no other has it open (the embedded store has one owner). */
async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl: pg?.url, dataDir: store, poolSize: 1, connectTimeoutMs: 10_000 });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** pg_total_relation_size of every table (bytes). */
async function tableBytes(): Promise<Record<string, number>> {
  const rows = await withDb((db) =>
    db.prisma.$queryRawUnsafe<{ name: string; bytes: bigint }[]>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r'`,
    ),
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
}
const sum = (t: Record<string, number>, names?: string[]) => Object.entries(t).reduce((n, [k, v]) => n + (!names || names.includes(k) ? v : 0), 0);

let report: Record<string, unknown>;
try {
  const en = path.join(work, '90.0');
  const release = generateRelease({ seed: Number(values.seed), version: '90.0', scale });
  await writeMedAscii(release, en);
  const dirs: Record<string, string> = { en };
  for (const tag of SYNTHETIC_LANGUAGES) writeLanguageFolder(en, (dirs[tag] = path.join(work, `90.0-${tag}`)), tag);
  const model = { en: loadRelease(en), de: loadRelease(dirs.de!), ja: loadRelease(dirs.ja!) };

  const m = await runToEnd(process.execPath, [cli, 'migrate'], { env, timeoutMs: 120_000 });
  if (m.code !== 0) throw new Error(`migrate failed: ${m.stderr}`);
  const imports: Record<string, { importMs: number; peakRssMb: number; tables: Record<string, number> }> = {};
  for (const tag of ['en', ...SYNTHETIC_LANGUAGES]) {
    const r = await runToEnd(process.execPath, [cli, 'import', dirs[tag]!], { env, timeoutMs: 900_000 });
    if (r.code !== 0) throw new Error(`import ${tag} failed:\n${r.stderr.slice(-2000)}`);
    imports[tag] = {
      importMs: Math.round(Number(/in ([\d.]+) s/.exec(r.stdout)?.[1] ?? NaN) * 1000),
      peakRssMb: Number(/peak memory (\d+) MB/.exec(r.stdout)?.[1] ?? NaN),
      tables: await tableBytes(),
    };
  }
  // Bytes a language added: the name tables' growth, and every table's (the index snapshots too).
  const storage = Object.fromEntries(
    SYNTHETIC_LANGUAGES.map((t, i) => {
      const [before, after] = [imports[i === 0 ? 'en' : SYNTHETIC_LANGUAGES[i - 1]!]!.tables, imports[t]!.tables];
      const grew = Object.keys(after).map((k): [string, number] => [k, after[k]! - (before[k] ?? 0)]).filter(([, d]) => d !== 0);
      const mb = (n: number) => Math.round((n / MB) * 10) / 10;
      return [t, { nameTablesMb: mb(sum(after, NAME_TABLES) - sum(before, NAME_TABLES)), allTablesMb: mb(sum(after) - sum(before)), byTableMb: Object.fromEntries(grew.map(([k, d]) => [k, mb(d)])) }];
    }),
  );
  const englishMb = Math.round((sum(imports.en!.tables) / MB) * 10) / 10;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnTracked(process.execPath, [cli, 'serve'], { env: { ...env, PORT: String(port), RESPONSE_CACHE_MB: '0', RATE_LIMIT_PER_MINUTE: '0' } });
  try {
    const t0 = Date.now();
    for (;;) {
      if (Date.now() - t0 > 120_000) throw new Error(`server not ready:\n${server.stderr.toString().slice(-2000)}`);
      const ok = await capture(base, { path: '/versions' }, 5_000).then((r) => r.status === 200, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const memory: Record<string, number | undefined> = { listening: processMemoryMb(server.child.pid)?.rssMb };
    // Concepts sampled across the release (PTs and LLTs), the same ones in every language.
    const names = (tag: 'en' | 'de' | 'ja') => new Map(model[tag].concepts.map((c) => [`${c.level}:${c.code}`, c.name]));
    const n = { en: names('en'), de: names('de'), ja: names('ja') };
    const concepts = model.en.concepts.filter((c) => c.level === 'PT' || c.level === 'LLT');
    const pick = (count: number, offset: number) => Array.from({ length: count }, (_, i) => concepts[(offset + i * 7919) % concepts.length]!);
    const query = (tag: 'en' | 'de' | 'ja', key: string) => {
      const name = n[tag].get(key)!;
      // A word prefix in Latin scripts; the first three characters in Japanese (no spaces).
      return tag === 'ja' ? name.slice(0, 3) : (name.split(/\s+/).find((w) => w.length >= 4) ?? name).slice(0, 6);
    };
    const results: Record<string, unknown> = {};
    for (const tag of SYNTHETIC_LANGUAGES) {
      const lookups = pick(Number(values.lookups), tag === 'de' ? 0 : 13).map((c): [Req, Req] => [
        { path: `/codes/${c.code}?lang=en` },
        { path: `/codes/${c.code}?lang=${tag}` },
      ]);
      // Warm-up: the first search in a language builds its index (reported separately).
      const firstSearch = await capture(base, { path: `/codes?q=${encodeURIComponent(query(tag, `PT:${concepts[0]!.code}`))}&lang=${tag}` }, 120_000);
      await capture(base, { path: `/codes?q=${encodeURIComponent(query('en', `PT:${concepts[0]!.code}`))}&lang=en` }, 120_000);
      const [le, ll] = await interleavedLatencyLoops(base, lookups, { maxMs: 120_000, warmupPairs: lookups.slice(0, 50) });
      const searches = pick(Number(values.searches), tag === 'de' ? 5 : 29).map((c): [Req, Req] => {
        const key = `${c.level}:${c.code}`;
        return [
          { path: `/codes?q=${encodeURIComponent(query('en', key))}&lang=en&limit=20` },
          { path: `/codes?q=${encodeURIComponent(query(tag, key))}&lang=${tag}&limit=20` },
        ];
      });
      const [se, sl] = await interleavedLatencyLoops(base, searches, { maxMs: 120_000, warmupPairs: searches.slice(0, 20) });
      memory[`after ${tag}`] = processMemoryMb(server.child.pid)?.rssMb;
      results[tag] = {
        firstSearchMs: Math.round(firstSearch.ms),
        lookup: { en: le, [tag]: ll, ratioP50: Math.round((ll.p50 / le.p50) * 100) / 100, ratioMean: Math.round((ll.mean / le.mean) * 100) / 100 },
        search: { en: se, [tag]: sl, ratioP50: Math.round((sl.p50 / se.p50) * 100) / 100, ratioP95: Math.round((sl.p95 / se.p95) * 100) / 100 },
      };
    }
    const ratio = (tag: string) => Math.round((imports[tag]!.importMs / imports.en!.importMs) * 100) / 100;
    report = {
      scenario: 'one release in three languages (issue 28 item 8)',
      mode: pg ? 'postgresql' : 'embedded',
      scale,
      concepts: model.en.concepts.length,
      loadAverage: execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim(),
      imports: Object.fromEntries(Object.entries(imports).map(([k, { tables: _t, ...v }]) => [k, v])),
      importRatioToEnglish: Object.fromEntries(SYNTHETIC_LANGUAGES.map((t) => [t, ratio(t)])),
      storage: { measure: 'pg_total_relation_size per table, after each import', englishAllTablesMb: englishMb, perAddedLanguage: storage },
      serverRssMb: memory,
      results,
      targets: { importRatio: '≤ 1 per added language', lookupRatio: '≤ 1.10', searchRatio: '≤ 1.5' },
      node: process.version,
    };
  } finally {
    await stopChild(server.child);
  }
  // The language index snapshots the server wrote on each language's first search (not the import).
  const snapshots = await withDb((db) =>
    db.prisma.$queryRawUnsafe<{ language: string; variant: number; bytes: number }[]>(
      'SELECT language, variant, bytes FROM release_language_index_snapshot ORDER BY language, variant',
    ),
  );
  report.languageIndexSnapshotsMb = Object.fromEntries(snapshots.map((r) => [`${r.language}/${r.variant}`, Math.round((r.bytes / MB) * 10) / 10]));
  console.log(JSON.stringify(report, null, 2));
} finally {
  await cleanupAll();
  removeTempDir(work);
  await pg?.drop();
}
