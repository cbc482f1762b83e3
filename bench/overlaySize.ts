// Sizing of the release index overlay (docs/storage.md, issue 32 step 3) before it is built: on a
// chain of synthetic releases (the generator's realistic changes), each release's full index
// against the latest's (the base), counted entry by entry. An entry belongs to the overlay when
// its (level, code) is not in the base or any of its columns differs there (names, currency, PT,
// primary SOC, order, SOC abbreviation, primary path) or its links differ (parents, children by
// code, in order); base entries absent from the release are a bitset. The overlay's bytes are
// ESTIMATED from the index's own byte accounting (approximateBytes): overlay entries × the full
// index's bytes per entry (columns, strings, postings, maps and hierarchy all scale with entries)
// plus the bitset. A model to size the work, not a measured structure.
//
//   npx tsx bench/overlaySize.ts [--releases 4] [--scale 0.1]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { importRelease } from '../src/importer/import.ts';
import { ReleaseIndex } from '../src/domain/releaseIndex/releaseIndex.ts';
import { writeManyReleases } from './lib/manyData.ts';
import { removeTempDir } from './lib/procs.ts';

const { values } = parseArgs({ options: { releases: { type: 'string', default: '4' }, scale: { type: 'string', default: '0.1' } } });
const n = Number(values.releases);
const scale = Number(values.scale);

/** Everything an entry answers with, as one comparable string (links by the other end's code, in order). */
function signature(ix: ReleaseIndex, p: ReturnType<ReleaseIndex['parts']>, i: number): string {
  const { releaseId: _r, ...c } = ix.concept(i);
  const ends = (g: typeof p.down) => {
    const out: string[] = [];
    for (let k = g.start[i]!; k < g.start[i + 1]!; k++) out.push(`${ix.level[g.to[k]!]}:${ix.code[g.to[k]!]}:${g.primary[k]}`);
    return out.join(',');
  };
  return JSON.stringify([c, ix.norm[i], ix.primaryPath(c.level, c.code), ends(p.down), ends(p.up)]);
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'overlay-size-'));
  const db = await openDatabase({ dataDir: 'memory://', poolSize: 4 });
  try {
    await migrate(db);
    const data = await writeManyReleases(dir, n, { scale, languages: 1 });
    const ids: number[] = [];
    for (const d of data.dirs) ids.push((await importRelease(db, d.en)).releaseId);
    const indexes = await Promise.all(ids.map((id) => ReleaseIndex.load(db.prisma, id)));
    const base = indexes.at(-1)!;
    const baseSig = new Map<string, string>();
    const baseParts = base.parts();
    for (let i = 0; i < base.size; i++) baseSig.set(`${base.level[i]}:${base.code[i]}`, signature(base, baseParts, i));
    const fullBase = base.approximateBytes();
    process.stdout.write(`${n} releases ${data.versions[0]} → ${data.versions.at(-1)}, scale ${scale}; base ${data.versions.at(-1)}: ${base.size} entries, ${(fullBase / 2 ** 20).toFixed(1)} MB (approximateBytes)\n`);
    for (let r = 0; r < indexes.length - 1; r++) {
      const ix = indexes[r]!;
      const parts = ix.parts();
      let changed = 0;
      const seen = new Set<string>();
      for (let i = 0; i < ix.size; i++) {
        const key = `${ix.level[i]}:${ix.code[i]}`;
        seen.add(key);
        if (baseSig.get(key) !== signature(ix, parts, i)) changed++;
      }
      let absent = 0;
      for (const key of baseSig.keys()) if (!seen.has(key)) absent++;
      const full = ix.approximateBytes();
      const overlay = changed * (full / ix.size) + Math.ceil(base.size / 8);
      process.stdout.write(
        `  ${data.versions[r]}: ${ix.size} entries, ${changed} in the overlay (${((changed / ix.size) * 100).toFixed(1)} %), ${absent} base entries masked; ` +
          `full ${(full / 2 ** 20).toFixed(1)} MB, overlay ≈ ${(overlay / 2 ** 20).toFixed(2)} MB = ${((overlay / full) * 100).toFixed(1)} % of its full index\n`,
      );
    }
  } finally {
    await db.close();
    removeTempDir(dir);
  }
}

await main();
