import { promisify } from 'node:util';
import { inflate, crc32 } from 'node:zlib';
import { openDatabase } from '/work/main/src/db/client.ts';
import { readSnapshot } from '/work/main/src/domain/search/snapshotStore.ts';
import { deserializeIndex } from '/work/main/src/domain/search/snapshot.ts';
const db = await openDatabase({ dataDir: '/tmp/fs/store' });
const id = (await db.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT release_id AS id FROM release_index_snapshot LIMIT 1'))[0]!.id;
const bytes = (await readSnapshot(db.prisma, id))!;
await db.close();
for (let k = 0; k < 4; k++) {
  let t = performance.now();
  const raw = await promisify(inflate)(bytes);
  const ti = performance.now() - t; t = performance.now();
  crc32(raw.subarray(32));
  const tc = performance.now() - t; t = performance.now();
  deserializeIndex(raw, id);
  console.log(`inflate ${Math.round(ti)} crc ${Math.round(tc)} deserialize ${Math.round(performance.now() - t)} ms`);
}
