import { openDatabase } from '/work/main/src/db/client.ts';
import { readSnapshot } from '/work/main/src/domain/search/snapshotStore.ts';
import { unpackIndex } from '/work/main/src/domain/search/snapshot.ts';
const db = await openDatabase({ dataDir: '/tmp/fs/store' });
const id = (await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT release_id AS id FROM release_index_snapshot LIMIT 1'))[0]!.id;
for (let k = 0; k < 3; k++) {
  let t = performance.now();
  const bytes = await readSnapshot(db.prisma, id);
  const tRead = performance.now() - t; t = performance.now();
  const ix = await unpackIndex(bytes!, id);
  console.log(`read ${Math.round(tRead)} ms (${(bytes!.byteLength / 1048576).toFixed(1)} MB), unpack ${Math.round(performance.now() - t)} ms, size ${ix.size}`);
}
// raw: base64 text only
let t = performance.now();
const rows = await db.prisma.$queryRawUnsafe<{ d: string }[]>(`SELECT encode(data,'base64') AS d FROM release_index_snapshot WHERE release_id = $1`, id);
console.log('base64 query', Math.round(performance.now() - t), 'ms', rows[0]!.d.length);
t = performance.now(); Buffer.from(rows[0]!.d, 'base64'); console.log('decode', Math.round(performance.now() - t));
t = performance.now();
await db.prisma.$queryRawUnsafe(`SELECT length(encode(data,'base64')) FROM release_index_snapshot WHERE release_id = $1`, id);
console.log('encode in db only', Math.round(performance.now() - t));
await db.close();
