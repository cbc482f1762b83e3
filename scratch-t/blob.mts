import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { inflateSync } from 'node:zlib';
const pg = await PGlite.create({ dataDir: '/tmp/fs/store/pglite', extensions: { pg_trgm } });
const id = (await pg.query<{ id: number }>('SELECT release_id AS id FROM release_index_snapshot LIMIT 1')).rows[0]!.id;
for (let k = 0; k < 3; k++) {
  let t = performance.now();
  const r = await pg.query(`COPY (SELECT data FROM release_index_snapshot WHERE release_id = ${id}) TO '/dev/blob' WITH (FORMAT binary)`);
  const buf = new Uint8Array(await r.blob!.arrayBuffer());
  console.log('copy blob', Math.round(performance.now() - t), 'ms', buf.byteLength);
}
// raw uncompressed in a side table with EXTERNAL storage
const raw = inflateSync(Buffer.from((await pg.query<{ d: string }>(`SELECT encode(data,'base64') AS d FROM release_index_snapshot WHERE release_id = ${id}`)).rows[0]!.d, 'base64'));
await pg.exec('CREATE TEMP TABLE t_raw (data bytea); ALTER TABLE t_raw ALTER COLUMN data SET STORAGE EXTERNAL; CREATE TEMP TABLE t_raw2 (data bytea);');
let t = performance.now();
await pg.query('COPY t_raw FROM \'/dev/blob\' WITH (FORMAT binary)', [], { blob: new Blob([copyBinary(raw)]) });
console.log('write raw external', Math.round(performance.now() - t));
t = performance.now();
await pg.query('COPY t_raw2 FROM \'/dev/blob\' WITH (FORMAT binary)', [], { blob: new Blob([copyBinary(raw)]) });
console.log('write raw extended', Math.round(performance.now() - t));
for (const tb of ['t_raw', 't_raw2']) for (let k = 0; k < 2; k++) {
  t = performance.now();
  const r = await pg.query(`COPY (SELECT data FROM ${tb}) TO '/dev/blob' WITH (FORMAT binary)`);
  const buf = new Uint8Array(await r.blob!.arrayBuffer());
  console.log(tb, 'read', Math.round(performance.now() - t), 'ms', buf.byteLength);
}
await pg.close();
function copyBinary(data: Uint8Array): Uint8Array {
  const head = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
  const out = Buffer.alloc(head.length + 8 + 2 + 4 + data.length + 2);
  let at = head.copy(out, 0); out.writeUInt32BE(0, at); out.writeUInt32BE(0, at + 4); at += 8;
  out.writeInt16BE(1, at); out.writeInt32BE(data.length, at + 2); at += 6; out.set(data, at); at += data.length; out.writeInt16BE(-1, at);
  return out;
}
