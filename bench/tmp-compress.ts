// throwaway: compressibility of a full-size whole snapshot (deflate levels vs pglz), inflate CPU
import { deflateSync, inflateSync, constants } from 'node:zlib';
import { generateRelease, writeMedAscii } from '../tools/synthetic/generate.ts';
import { openMigrated } from '../src/db/open.ts';
import { importRelease } from '../src/importer/import.ts';
const url = 'postgres://postgres@127.0.0.1:5432/storage_full';
const scale = Number(process.argv[2] ?? 1);
const r = generateRelease({ seed: 42, version: '90.0', scale });
await writeMedAscii(r, '/tmp/stfull/90.0');
const db = await openMigrated({ databaseUrl: url } as any);
await importRelease(db, '/tmp/stfull/90.0');
const rows = await db.prisma.$queryRawUnsafe<any[]>('select bytes, pg_column_size(data) as col from release_index_snapshot');
console.log('row', rows);
const { readSnapshot } = await import('../src/domain/releaseIndex/snapshotStore.ts');
const data = (await readSnapshot({ db: db.prisma, blobs: db.blobs }, 1))!;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (const level of [1, 3, 6]) {
  let c = cpu(); const z = deflateSync(data, { level }); const dz = cpu() - c;
  c = cpu(); inflateSync(z); const iz = cpu() - c;
  console.log(`deflate ${level}: ${(z.byteLength / 2 ** 20).toFixed(1)} of ${(data.byteLength / 2 ** 20).toFixed(1)} MB = ${(z.byteLength / data.byteLength).toFixed(3)}; deflate ${dz.toFixed(0)} ms, inflate ${iz.toFixed(0)} ms cpu`);
}
await db.close();
