// One side of bench/snapshotStorage.ts: imports the given release folders one after the other
// into one store with the code of the checkout `--tree` (its src/, so main and a branch can be
// compared in the same run), in this process, and after each import prints one JSON line: the
// wall and this process's CPU per import phase, and what the store holds by relation (the index
// snapshots' heap, TOAST and the TOAST bytes no live row holds). Not run alone.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { tree: { type: 'string' }, 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, dirs: { type: 'string' } },
});
const tree = path.resolve(values.tree!);
const dirs = readFileSync(values.dirs!, 'utf8').split('\n').filter(Boolean);
const { openMigrated } = (await import(path.join(tree, 'src/db/open.ts'))) as typeof import('../src/db/open.ts');
const { importRelease } = (await import(path.join(tree, 'src/importer/import.ts'))) as typeof import('../src/importer/import.ts');

const db = await openMigrated({ databaseUrl: values['database-url'], dataDir: values['data-dir'] } as Parameters<typeof openMigrated>[0]);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** Bytes of the files under `dir` but the write-ahead log (embedded: PGlite's files and the snapshot copies). */
function dirBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'pg_wal') continue;
    const st = statSync(path.join(dir, name), { throwIfNoEntry: false });
    if (st) n += st.isDirectory() ? dirBytes(path.join(dir, name)) : st.size;
  }
  return n;
}

type Db = { $queryRawUnsafe<T>(sql: string, ...v: unknown[]): Promise<T> };
const q = db.prisma as unknown as Db;

/** Bytes by relation (heap, TOAST, indexes), the snapshot tables' TOAST split into live and the rest. */
async function storage() {
  const rels = await q.$queryRawUnsafe<{ name: string; heap: bigint; toast: bigint; indexes: bigint; total: bigint }[]>(
    `SELECT c.relname AS name, pg_relation_size(c.oid) AS heap, coalesce(pg_total_relation_size(c.reltoastrelid), 0) AS toast,
            pg_indexes_size(c.oid) AS indexes, pg_total_relation_size(c.oid) AS total
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY total DESC`,
  );
  const live = async (table: string) =>
    Number((await q.$queryRawUnsafe<{ n: bigint | null }[]>(`SELECT sum(pg_column_size(data))::bigint AS n FROM ${table}`))[0]!.n ?? 0);
  const snap = await q.$queryRawUnsafe<{ id: number; base: number | null; bytes: number }[]>(
    'SELECT s.release_id AS id, s.base_release_id AS base, s.bytes FROM release_index_snapshot s JOIN release r ON r.id = s.release_id ORDER BY r.ordinal',
  );
  const [{ db: dbBytes } = { db: 0n }] = await q.$queryRawUnsafe<{ db: bigint }[]>('SELECT pg_database_size(current_database()) AS db');
  return {
    database: Number(dbBytes),
    files: values['data-dir'] ? dirBytes(values['data-dir']) : undefined,
    fileCopies: values['data-dir'] ? dirBytes(path.join(values['data-dir'], 'cache')) : undefined,
    relations: Object.fromEntries(rels.map((r) => [r.name, { heap: Number(r.heap), toast: Number(r.toast), indexes: Number(r.indexes), total: Number(r.total) }])),
    snapshotLive: await live('release_index_snapshot'),
    languageSnapshotLive: await live('release_language_index_snapshot'),
    snapshots: snap.map((s) => ({ id: s.id, base: s.base, bytes: s.bytes })),
  };
}

try {
  for (const dir of dirs) {
    const marks: { phase: string; wall: number; cpu: number }[] = [];
    const at = () => ({ wall: performance.now(), cpu: cpuMs() });
    const t0 = at();
    await importRelease(db, dir, {
      onProgress: (p) => {
        // A phase lasts until the first report of another.
        if (marks[marks.length - 1]?.phase !== p.phase) marks.push({ phase: p.phase, ...at() });
      },
    });
    const end = at();
    const phases: Record<string, { wallMs: number; cpuMs: number }> = {};
    marks.forEach((m, i) => {
      const next = marks[i + 1] ?? { ...end };
      const p = (phases[m.phase] ??= { wallMs: 0, cpuMs: 0 });
      p.wallMs += next.wall - m.wall;
      p.cpuMs += next.cpu - m.cpu;
    });
    process.stdout.write(`${JSON.stringify({ dir, wallMs: end.wall - t0.wall, cpuMs: end.cpu - t0.cpu, phases, storage: await storage(), loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') })}\n`);
  }
} finally {
  await db.close();
}
