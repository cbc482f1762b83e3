// What reading a release through its `*_at(release)` function costs against reading the table
// (docs/storage.md, issue 32 step 4): statement shapes of the domain's reads, each written both
// ways (the table read: the release's rows by range, valid_from <= seq < valid_to), run interleaved in pairs on the demo store (embedded, or DATABASE_URL) under EXPLAIN
// ANALYZE, which reports the server's own planning and execution time per run (the client's
// decoding is the same for both: the plans and the rows are). The functions are inlined, so the
// plans are the same (test/db/releaseReadFunctions.test.ts); what remains is planning the function's body.
//
//   npx tsx bench/readFunctions.ts [-- --runs 200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openMigrated } from '../src/db/open.ts';
import { ensureDemoReleases } from '../src/importer/demo.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Number(values.runs);
const work = mkdtempSync(path.join(tmpdir(), 'bench-reads-'));
const db = await openMigrated({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(work, 'store'), poolSize: 1 });

// $1: the release; $2: a JSON list of keys {r, l, c} of that release.
const SHAPES: [name: string, table: string, viaFunction: string][] = [
  [
    'concepts by key (loader batch)',
    `SELECT c.name FROM json_to_recordset($2::json) AS k(r int, l text, c int) JOIN (concept c JOIN release r ON c.valid_from <= r.seq AND c.valid_to > r.seq) ON r.id = k.r AND c.level = k.l::"Level" AND c.code = k.c WHERE $1::int > 0`,
    `SELECT c.name FROM json_to_recordset($2::json) AS k(r int, l text, c int) JOIN concept_at(k.r) c ON c.level = k.l::"Level" AND c.code = k.c WHERE $1::int > 0`,
  ],
  [
    'synonym counts (LLTs of PTs)',
    `SELECT k.c, count(l.code) FROM json_to_recordset($2::json) AS k(r int, l text, c int) LEFT JOIN (concept l JOIN release r ON l.valid_from <= r.seq AND l.valid_to > r.seq) ON r.id = k.r AND l.level = 'LLT' AND l.pt_code = k.c WHERE $1::int > 0 GROUP BY k.c`,
    `SELECT k.c, count(l.code) FROM json_to_recordset($2::json) AS k(r int, l text, c int) LEFT JOIN concept_at(k.r) l ON l.level = 'LLT' AND l.pt_code = k.c WHERE $1::int > 0 GROUP BY k.c`,
  ],
  [
    'paths of PTs',
    `SELECT p.soc_code FROM json_to_recordset($2::json) AS k(r int, l text, c int) JOIN (hierarchy_path p JOIN release r ON p.valid_from <= r.seq AND p.valid_to > r.seq) ON r.id = k.r AND p.pt_code = k.c WHERE $1::int > 0`,
    `SELECT p.soc_code FROM json_to_recordset($2::json) AS k(r int, l text, c int) JOIN hierarchy_path_at(k.r) p ON p.pt_code = k.c WHERE $1::int > 0`,
  ],
  [
    'whole release: concepts (index build)',
    `SELECT level::text, code, name, name_norm, current, pt_code, primary_soc_code, soc_abbrev, intl_order FROM concept c, release r WHERE r.id = $1 AND c.valid_from <= r.seq AND c.valid_to > r.seq AND $2::json IS NOT NULL ORDER BY level, code`,
    `SELECT level::text, code, name, name_norm, current, pt_code, primary_soc_code, soc_abbrev, intl_order FROM concept_at($1) WHERE $2::json IS NOT NULL ORDER BY level, code`,
  ],
  [
    'whole release: links',
    `SELECT parent_code, child_code, is_primary FROM hierarchy_link l, release r WHERE r.id = $1 AND l.valid_from <= r.seq AND l.valid_to > r.seq AND $2::json IS NOT NULL`,
    `SELECT parent_code, child_code, is_primary FROM hierarchy_link_at($1) WHERE $2::json IS NOT NULL`,
  ],
];

try {
  await ensureDemoReleases(db);
  const [latest] = await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT id FROM release ORDER BY ordinal DESC LIMIT 1');
  const pts = await db.prisma.$queryRawUnsafe<{ code: number }[]>(`SELECT code FROM concept_at($1) WHERE level = 'PT' ORDER BY code LIMIT 50`, latest!.id);
  const keys = JSON.stringify(pts.map((p) => ({ r: latest!.id, l: 'PT', c: p.code })));
  const timed = async (sql: string) => {
    const rows = await db.withConnection((c) => c.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, SUMMARY) ${sql}`, [latest!.id, keys]));
    const text = rows.map((r) => r['QUERY PLAN']).join('\n');
    return [Number(/Planning Time: ([\d.]+)/.exec(text)![1]), Number(/Execution Time: ([\d.]+)/.exec(text)![1])] as const;
  };
  console.log(`${db.mode}, ${runs} interleaved pairs per shape; server time per statement, ms (planning + execution)`);
  for (const [name, table, viaFunction] of SHAPES) {
    for (let i = 0; i < 10; i++) for (const sql of [table, viaFunction]) await timed(sql);
    const sums: [number, number][] = [[0, 0], [0, 0]];
    for (let i = 0; i < runs; i++) {
      for (const v of i % 2 ? [1, 0] : [0, 1]) {
        const [plan, exec] = await timed(v ? viaFunction : table);
        sums[v]![0] += plan;
        sums[v]![1] += exec;
      }
    }
    const [t, f] = sums.map(([p, e]) => ({ plan: p / runs, exec: e / runs }));
    const fmt = (x: { plan: number; exec: number }) => `${x.plan.toFixed(3)} + ${x.exec.toFixed(3)}`;
    console.log(`${name.padEnd(40)} table ${fmt(t!)}  *_at ${fmt(f!)}  ratio ${((f!.plan + f!.exec) / (t!.plan + t!.exec)).toFixed(3)}`);
  }
} finally {
  await db.close();
  rmSync(work, { recursive: true, force: true });
}
