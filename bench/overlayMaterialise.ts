// The release index overlay (src/domain/releaseIndex/overlay.ts, issue 32 step 3) measured: on a
// chain of synthetic releases (the generator's realistic changes) with the newest as the base,
// each older release's index made three ways, interleaved per round in one process — materialised
// from its overlay, loaded from its snapshot (the read and the unpacking), built from rows — and
// the overlay's own bytes against the whole index's (approximateBytes). Embedded: the process's
// CPU time (PGlite runs here, so a snapshot read's statement counts too), robust to other
// processes' load; PostgreSQL (DATABASE_URL, a database of its own): wall time as well.
//
//   npx tsx bench/overlayMaterialise.ts [--releases 4] [--scale 0.1] [--rounds 3]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { importRelease } from '../src/importer/import.ts';
import { ReleaseIndex } from '../src/domain/releaseIndex/releaseIndex.ts';
import { materialise, overlayBytes, overlayOf } from '../src/domain/releaseIndex/overlay.ts';
import { readSnapshot } from '../src/domain/releaseIndex/snapshotStore.ts';
import { unpackIndex } from '../src/domain/releaseIndex/snapshot.ts';
import { writeManyReleases } from './lib/manyData.ts';
import { removeTempDir } from './lib/procs.ts';
import { cpuMs, median } from './lib/stats.ts';

const { values } = parseArgs({ options: { releases: { type: 'string', default: '4' }, scale: { type: 'string', default: '0.1' }, rounds: { type: 'string', default: '3' } } });
const n = Number(values.releases);
const scale = Number(values.scale);
const rounds = Number(values.rounds);
const url = process.env.DATABASE_URL;
type Sample = { cpu: number; wall: number };

async function timed(f: () => Promise<unknown>): Promise<Sample> {
  const c = cpuMs();
  const t = performance.now();
  await f();
  return { cpu: cpuMs() - c, wall: performance.now() - t };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'overlay-materialise-'));
  const db = await openDatabase({ databaseUrl: url, dataDir: url ? undefined : path.join(dir, 'store'), poolSize: 4 });
  try {
    await migrate(db);
    const data = await writeManyReleases(path.join(dir, 'data'), n, { scale, languages: 1 });
    const ids: number[] = [];
    // Each import writes the release's index snapshot.
    for (const d of data.dirs) ids.push((await importRelease(db, d.en)).releaseId);
    const base = await ReleaseIndex.load(db.prisma, ids.at(-1)!);
    const fullBytes = base.approximateBytes();
    process.stdout.write(
      `${url ? 'postgresql' : 'embedded'}: ${n} releases ${data.versions[0]} → ${data.versions.at(-1)}, scale ${scale}; base ${data.versions.at(-1)} (${base.size} entries, ${(fullBytes / 2 ** 20).toFixed(1)} MB by approximateBytes); ${rounds} rounds interleaved\n`,
    );
    const overlays = [];
    for (let r = 0; r < ids.length - 1; r++) {
      const full = await ReleaseIndex.load(db.prisma, ids[r]!);
      const t = await timed(() => overlayOf(base, full));
      overlays.push({ version: data.versions[r]!, id: ids[r]!, size: full.size, overlay: await overlayOf(base, full), fullBytes: full.approximateBytes(), diff: t });
    }
    const samples = overlays.map(() => ({ made: [] as Sample[], snap: [] as Sample[], rows: [] as Sample[] }));
    for (let round = 0; round < rounds; round++) {
      for (const [k, o] of overlays.entries()) {
        const s = samples[k]!;
        s.made.push(await timed(() => materialise(base, o.overlay)));
        s.snap.push(await timed(async () => unpackIndex((await readSnapshot({ db: db.prisma, blobs: db.blobs }, o.id))!, o.id)));
        s.rows.push(await timed(() => ReleaseIndex.load(db.prisma, o.id)));
      }
    }
    for (const [k, o] of overlays.entries()) {
      const s = samples[k]!;
      const m = (xs: Sample[], f: 'cpu' | 'wall') => median(xs.map((x) => x[f]));
      const own = overlayBytes(o.overlay, base);
      process.stdout.write(
        `  ${o.version}: ${o.overlay.at.length} of ${o.size} entries own (${((o.overlay.at.length / o.size) * 100).toFixed(1)} %), ${o.overlay.ranks.entry.length} name-rank exceptions, ` +
          `overlay ${(own / 2 ** 20).toFixed(2)} MB = ${((own / o.fullBytes) * 100).toFixed(1)} % of its full index (${(o.fullBytes / 2 ** 20).toFixed(1)} MB); diff ${Math.round(o.diff.cpu)} ms CPU\n` +
          `     materialise CPU ${Math.round(m(s.made, 'cpu'))} ms (wall ${Math.round(m(s.made, 'wall'))}), snapshot load CPU ${Math.round(m(s.snap, 'cpu'))} ms (wall ${Math.round(m(s.snap, 'wall'))}), ` +
          `rows CPU ${Math.round(m(s.rows, 'cpu'))} ms (wall ${Math.round(m(s.rows, 'wall'))})\n` +
          `     materialise / snapshot: CPU ${(m(s.made, 'cpu') / m(s.snap, 'cpu')).toFixed(2)}×, wall ${(m(s.made, 'wall') / m(s.snap, 'wall')).toFixed(2)}×; ` +
          `materialise / rows: CPU ${(m(s.made, 'cpu') / m(s.rows, 'cpu')).toFixed(2)}×, wall ${(m(s.made, 'wall') / m(s.rows, 'wall')).toFixed(2)}×\n`,
      );
    }
  } finally {
    await db.close();
    removeTempDir(dir);
  }
}

await main();
