// Release index snapshots as deltas over a keyframe (src/domain/releaseIndex/snapshotChain.ts,
// issue 32) in one run and one process, three stores side by side, each release imported into one
// then the next (its second language too, the order rotated), so all see the same load:
//   new:   the newest release whole, the earlier ones deltas over it or a newer keyframe (this branch);
//   old:   the round-5 policy, a delta over the nearest keyframe (the oldest of a group whole);
//   whole: every snapshot whole (keyframeEvery 1: the store before deltas).
//   storage: the store after each import (embedded: its files but the WAL, the snapshot file
//   copies included; PostgreSQL: pg_database_size), the migrated empty store subtracted; the
//   snapshot rows' own bytes (exact, noise-free); then the language index snapshots a first
//   search in the second language writes (not part of an import): are they worth a delta too?
//   index load: each release's index from its stored snapshot (the read, and for a delta its
//   base's read and the materialising) in the delta store vs the whole store, interleaved per
//   round; the process's CPU (PGlite runs in it, so its statements count; PostgreSQL: the
//   client's only, wall time reported as well).
//
//   npx tsx bench/snapshotDelta.ts [--releases 6] [--scale 0.1] [--languages 2] [--rounds 5] [--stores new,old,whole]
// PostgreSQL when DATABASE_URL is set (two fresh databases beside it, dropped afterwards).
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { importRelease } from '../src/importer/import.ts';
import { SearchIndexCache } from '../src/domain/releaseIndex/indexCache.ts';
import { chainDefaults, loadStoredIndex, loadStoredLanguageIndex } from '../src/domain/releaseIndex/snapshotChain.ts';
import { writeManyReleases } from './lib/manyData.ts';
import { createFreshPostgres } from './lib/pgdb.ts';
import { removeTempDir } from './lib/procs.ts';
import { cpuMs, median } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    releases: { type: 'string', default: '6' }, scale: { type: 'string', default: '0.1' }, languages: { type: 'string', default: '2' }, rounds: { type: 'string', default: '5' },
    stores: { type: 'string', default: 'new,old,whole' },
  },
});
const n = Number(values.releases);
const scale = Number(values.scale);
const languages = Number(values.languages) === 1 ? 1 : 2;
const rounds = Number(values.rounds);
const url = process.env.DATABASE_URL;
const mode = url ? 'postgresql' : 'embedded';
const MB = 2 ** 20;
const mb = (b: number) => (b / MB).toFixed(1);
const pct = (x: number) => `${Math.round(x * 100)} %`;
const out = (s: string) => process.stdout.write(`${s}\n`);

function dirBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'pg_wal') continue;
    const p = path.join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st) total += st.isDirectory() ? dirBytes(p) : st.size;
  }
  return total;
}

type StoreName = 'new' | 'old' | 'whole';
const LABEL: Record<StoreName, string> = { new: 'newest whole, deltas backwards (this branch)', old: 'oldest of a group whole (round 5)', whole: 'every snapshot whole (before deltas)' };

interface Store {
  name: StoreName;
  db: Database;
  keyframeEvery: number;
  newestWhole: boolean;
  bytes: () => Promise<number>;
  ids: number[];
  after: number[];
  drop?: () => Promise<void>;
}

async function openStore(name: Store['name'], dir: string): Promise<Store> {
  let drop: (() => Promise<void>) | undefined;
  let db: Database;
  let bytes: () => Promise<number>;
  if (url) {
    const fresh = await createFreshPostgres(url);
    drop = fresh.drop;
    db = await openDatabase({ databaseUrl: fresh.url, poolSize: 4 });
    bytes = async () => Number((await db.prisma.$queryRawUnsafe<{ n: string }[]>('SELECT pg_database_size(current_database())::text AS n'))[0]!.n);
  } else {
    const dataDir = path.join(dir, name);
    db = await openDatabase({ dataDir, poolSize: 4 });
    // CHECKPOINT: the data files hold what the WAL holds so far.
    bytes = async () => (await db.prisma.$executeRawUnsafe('CHECKPOINT'), dirBytes(dataDir));
  }
  await migrate(db);
  return { name, db, keyframeEvery: name === 'whole' ? 1 : chainDefaults.keyframeEvery, newestWhole: name === 'new', bytes, ids: [], after: [], drop };
}

/** Runs `f` with this store's keyframe policy (storeIndex reads the process default). */
async function withPolicy<T>(s: Store, f: () => Promise<T>): Promise<T> {
  const was = { ...chainDefaults };
  chainDefaults.keyframeEvery = s.keyframeEvery;
  chainDefaults.newestWhole = s.newestWhole;
  try {
    return await f();
  } finally {
    Object.assign(chainDefaults, was);
  }
}

const snapshotRows = (s: Store) =>
  s.db.prisma.$queryRawUnsafe<{ id: number; bytes: number; base: number | null }[]>(
    'SELECT s.release_id AS id, s.bytes, s.base_release_id AS base FROM release_index_snapshot s JOIN release r ON r.id = s.release_id ORDER BY r.ordinal',
  );

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-delta-'));
  const stores: Store[] = [];
  try {
    const data = await writeManyReleases(path.join(dir, 'data'), n, { scale, languages });
    for (const name of values.stores.split(',') as StoreName[]) stores.push(await openStore(name, dir));
    const empty = await Promise.all(stores.map((s) => s.bytes()));
    out(`${mode}: ${n} releases ${data.versions[0]} → ${data.versions.at(-1)} (seed 42, scale ${scale}, ${languages} language(s) each); keyframe every ${chainDefaults.keyframeEvery} in the delta stores; stores ${stores.map((s) => s.name).join(', ')}`);
    for (const d of data.dirs) {
      // Rotated: which store imports first changes each release (caches, load).
      const k = data.dirs.indexOf(d) % stores.length;
      const order = [...stores.slice(k), ...stores.slice(0, k)];
      for (const s of order) {
        await withPolicy(s, async () => {
          s.ids.push((await importRelease(s.db, d.en)).releaseId);
          if (d.de) await importRelease(s.db, d.de);
        });
        s.after.push((await s.bytes()) - empty[stores.indexOf(s)]!);
      }
    }
    // -- storage
    out('\n| store | first release | all N | N / first | each further release | further / first | index snapshot rows: one whole (the largest), each further (mean) |');
    out('|---|---|---|---|---|---|---|');
    for (const s of stores) {
      const first = s.after[0]!;
      const all = s.after.at(-1)!;
      const further = (all - first) / (n - 1);
      const snaps = await snapshotRows(s);
      // Per further release: all rows but one whole snapshot's (the largest row), whichever release holds it.
      const largest = Math.max(...snaps.map((r) => r.bytes));
      const snapFurther = (snaps.reduce((a, r) => a + r.bytes, 0) - largest) / (n - 1);
      out(
        `| ${LABEL[s.name]} | ${mb(first)} MB | ${mb(all)} MB | ${(all / first).toFixed(2)}× | ${mb(further)} MB | ${pct(further / first)} | ${mb(largest)} MB, ${mb(snapFurther)} MB (${snaps.filter((r) => r.base === null).length} whole of ${snaps.length}) |`,
      );
    }
    for (const s of stores) {
      const [t] = await s.db.prisma.$queryRawUnsafe<{ a: string; b: string }[]>(
        "SELECT pg_total_relation_size('release_index_snapshot')::text AS a, pg_total_relation_size('release_language_index_snapshot')::text AS b",
      );
      out(`\nsnapshot tables (${s.name}, with their TOAST, dead space included): ${mb(Number(t!.a))} MB + ${mb(Number(t!.b))} MB (languages, before any is written)`);
    out(`per release (${s.name}): ${s.after.map((b, i) => `${data.versions[i]} ${mb(i ? b - s.after[i - 1]! : b)} MB`).join(', ')}`);
      out(`snapshot rows (${s.name}): ${(await snapshotRows(s)).map((r, i) => `${data.versions[i]} ${(r.bytes / 1024).toFixed(0)} kB${r.base === null ? ' whole' : ''}`).join(', ')}`);
    }

    // -- index load: every store, interleaved per round (the order rotated)
    const samples = data.versions.map(() => stores.map(() => ({ cpu: [] as number[], wall: [] as number[] })));
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < stores.length; j++) {
          const k = (j + round) % stores.length;
          const s = stores[k]!;
          const c = cpuMs();
          const t = performance.now();
          const got = await loadStoredIndex({ db: s.db.prisma, blobs: s.db.blobs }, s.ids[i]!);
          if (!got) throw new Error(`${s.name}: no snapshot of ${data.versions[i]}`);
          samples[i]![k]!.cpu.push(cpuMs() - c);
          samples[i]![k]!.wall.push(performance.now() - t);
        }
      }
    }
    const layouts = await Promise.all(stores.map((s) => snapshotRows(s)));
    const ref = stores.findIndex((s) => s.name === 'whole');
    const others = stores.filter((s) => s.name !== 'whole');
    out(`\n| release | ${stores.map((s) => `${s.name}: stored as | load CPU ${s.name}`).join(' | ')}${ref < 0 ? '' : ` | ${others.map((s) => `${s.name} / whole (CPU; wall)`).join(' | ')}`} |`);
    out(`|---|${stores.map(() => '---|---|').join('')}${ref < 0 ? '' : others.map(() => '---|').join('')}`);
    for (let i = 0; i < n; i++) {
      const cells = stores.map((s, k) => {
        const row = layouts[k]![i]!;
        return `${row.base === null ? 'whole' : `delta over ${data.versions[s.ids.indexOf(row.base)]}`} | ${Math.round(median(samples[i]![k]!.cpu))} ms`;
      });
      const ratios =
        ref < 0
          ? []
          : stores.flatMap((s, k) =>
              s.name === 'whole' ? [] : [`${(median(samples[i]![k]!.cpu) / median(samples[i]![ref]!.cpu)).toFixed(2)}×; ${(median(samples[i]![k]!.wall) / median(samples[i]![ref]!.wall)).toFixed(2)}×`],
            );
      out(`| ${data.versions[i]} | ${[...cells, ...ratios].join(' | ')} |`);
    }

    // -- language index snapshots (written by a first search in the language, not by an import)
    if (languages === 2) {
      const grown: number[] = [];
      const langBytes: { id: number; bytes: number; base: number | null }[][] = [];
      for (const s of stores) {
        const cache = new SearchIndexCache(2, undefined, s.db.blobs);
        const before = await s.bytes();
        await withPolicy(s, async () => {
          for (const id of s.ids) {
            await cache.getLanguage(id, 'de', s.db.prisma);
            await cache.flushed();
          }
        });
        grown.push((await s.bytes()) - before);
        langBytes.push(
          await s.db.prisma.$queryRawUnsafe(
            `SELECT l.release_id AS id, l.bytes, l.base_release_id AS base FROM release_language_index_snapshot l JOIN release r ON r.id = l.release_id WHERE l.language = 'de' ORDER BY r.ordinal`,
          ),
        );
      }
      out('\n| store | language (de) snapshot rows: one whole (the largest), each further (mean) | the store grew by (all N written) | per further release / first release\'s storage |');
      out('|---|---|---|---|');
      stores.forEach((s, k) => {
        const rows = langBytes[k]!;
        const largest = Math.max(...rows.map((r) => r.bytes));
        const further = (rows.reduce((a, r) => a + r.bytes, 0) - largest) / (n - 1);
        out(`| ${LABEL[s.name]} | ${mb(largest)} MB, ${mb(further)} MB (${rows.filter((r) => r.base === null).length} whole of ${rows.length}) | ${mb(grown[k]!)} MB | ${pct(further / s.after[0]!)} |`);
      });
      const primaries = await Promise.all(stores.map((s) => Promise.all(s.ids.map(async (id) => (await loadStoredIndex({ db: s.db.prisma, blobs: s.db.blobs }, id))!.ix))));
      const ls = data.versions.map(() => stores.map(() => [] as number[]));
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < stores.length; j++) {
            const k = (j + round) % stores.length;
            const s = stores[k]!;
            const c = cpuMs();
            if (!(await loadStoredLanguageIndex({ db: s.db.prisma, blobs: s.db.blobs }, primaries[k]![i]!, 'de', 0))) throw new Error(`${s.name}: no de snapshot of ${data.versions[i]}`);
            ls[i]![k]!.push(cpuMs() - c);
          }
        }
      }
      out(`\n| release | ${stores.map((s) => `de snapshot ${s.name} | load CPU ${s.name}`).join(' | ')} |`);
      out(`|---|${stores.map(() => '---|---|').join('')}`);
      for (let i = 0; i < n; i++) {
        const cells = stores.map((_s, k) => {
          const r = langBytes[k]![i]!;
          return `${r.base === null ? 'whole' : 'delta'} ${(r.bytes / 1024).toFixed(0)} kB | ${Math.round(median(ls[i]![k]!))} ms`;
        });
        out(`| ${data.versions[i]} | ${cells.join(' | ')} |`);
      }
    }
  } finally {
    for (const s of stores) {
      await s.db.close();
      await s.drop?.();
    }
    removeTempDir(dir);
  }
}

await main();
