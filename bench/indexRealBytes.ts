// Issue 32 (helper olderroom): the real memory of a release index, a keyframe as a views' base, and
// views (code pages, then their search part) against the cache's estimate (approximateBytes, view.bytes):
// live bytes measured as heapUsed + arrayBuffers after a forced GC, before and after each is made and
// held. One JSON line per object. In-process on a store of bench/groupViewsStore.ts:
//   DATABASE_URL=postgres://…/te_bench_… node --expose-gc --import tsx bench/indexRealBytes.ts [VERSION …]
// (versions: whose index to load whole; every release's view is measured too, newest first, while its base is kept).
import { openDatabase } from '../src/db/client.ts';
import { SearchIndexCache } from '../src/domain/releaseIndex/indexCache.ts';
import type { ReleaseIndex } from '../src/domain/releaseIndex/releaseIndex.ts';
import type { ReleaseInfo } from '../src/domain/releases.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const live = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 2 });
const rows = await db.prisma.$queryRawUnsafe<{ id: number; version: string }[]>('SELECT id, version FROM release ORDER BY ordinal DESC');
const cache = new SearchIndexCache(100, undefined, db.blobs);
cache.waitMs = 600_000;
cache.sync(rows.map((r) => ({ id: r.id, version: r.version, languages: [] }) as unknown as ReleaseInfo));
const held: unknown[] = [];
const measure = async (what: string, make: () => Promise<{ estimate: number; keep: unknown } | undefined>) => {
  const before = live();
  const made = await make();
  if (!made) return;
  held.push(made.keep);
  const real = live() - before;
  console.log(JSON.stringify({ what, estimateMb: mb(made.estimate), realMb: mb(real), ratio: Math.round((real / made.estimate) * 100) / 100 }));
};
const byVersion = new Map(rows.map((r) => [r.version, r.id]));
const wanted = process.argv.slice(2);
for (const v of wanted.length ? wanted : [rows[0]!.version]) {
  const id = byVersion.get(v);
  if (id === undefined) throw new Error(`no release ${v}`);
  await measure(`index ${v}`, async () => {
    const ix: ReleaseIndex = await cache.get(id, db.prisma);
    return { estimate: ix.approximateBytes(), keep: ix };
  });
}
for (const r of rows.slice(1)) {
  await measure(`view ${r.version}`, async () => {
    const v = await cache.view(r.id, db.prisma, 600_000);
    return v && { estimate: v.bytes, keep: v };
  });
  await measure(`view search ${r.version}`, async () => {
    const v = cache.peekView(r.id);
    if (!v) return undefined;
    const before = v.bytes;
    const s = v.search();
    return { estimate: v.bytes - before, keep: s };
  });
}
console.log(JSON.stringify({ what: 'cache', gaugeMb: mb(cache.bytes()), views: cache.viewCount() }));
await db.close();
