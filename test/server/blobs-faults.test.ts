// The binary COPY channel (src/db/blobs.ts) against a PostgreSQL link the test breaks: a stalled
// link ends each transfer at the channel's deadline, in both directions; a link reset mid-COPY
// rejects the transfer (never an uncaught exception); the pool serves again once the link mends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createFreshPostgres } from '../helpers/db.ts';
import { proxiedPostgres, type TcpProxy } from '../helpers/tcpProxy.ts';
import { postgresBlobs, type BlobChannel } from '../../src/db/blobs.ts';
import { copyRow, firstField } from '../../src/domain/releaseIndex/snapshotStore.ts';

const DEADLINE_MS = 800;
let pgdb: Awaited<ReturnType<typeof createFreshPostgres>>;
let proxy: TcpProxy;
let pool: pg.Pool;
let blobs: BlobChannel;

beforeAll(async () => {
  pgdb = await createFreshPostgres();
  let via: URL;
  ({ proxy, url: via } = await proxiedPostgres(pgdb.url));
  // No statement_timeout and no query_timeout: only the channel's own deadline ends a wait.
  pool = new pg.Pool({ connectionString: via.toString(), max: 1, connectionTimeoutMillis: 1_000 });
  pool.on('error', () => {});
  blobs = postgresBlobs(pool, () => pool, DEADLINE_MS);
});
afterAll(async () => {
  await proxy?.restore();
  await pool?.end();
  await proxy?.close();
  await pgdb?.drop();
});

const read = async () => Buffer.from(firstField(await blobs.copyOut(`SELECT convert_to('ok', 'UTF8')`))!).toString();
const write = (bytes: number) =>
  blobs.copyIn(
    { before: ['CREATE TEMPORARY TABLE blob_in (n integer, data bytea) ON COMMIT DROP'], into: 'blob_in (n, data)', after: ['SELECT count(*) FROM blob_in'] },
    copyRow([1], new Uint8Array(bytes).fill(7)),
  );

async function within<T>(ms: number, work: Promise<T>): Promise<{ error: unknown; ms: number }> {
  const t0 = performance.now();
  const error = await work.then(() => null, (e: unknown) => e);
  const took = performance.now() - t0;
  expect(took).toBeLessThan(ms);
  return { error, ms: took };
}

describe('binary COPY channel on a broken link', () => {
  it('works through the proxy', async () => {
    expect(await read()).toBe('ok');
    await write(1 << 20);
  });

  it('a stalled link: reads and writes end at the deadline, and the pool serves again once it mends', async () => {
    await proxy.stall();
    try {
      const r = await within(DEADLINE_MS + 2_000, read());
      expect(String(r.error)).toMatch(/took over 800 ms/);
      // The read's connection was discarded: the write needs a new one, which the stalled link
      // never completes (the pool's connect timeout, 1 s) — bounded either way.
      const w = await within(DEADLINE_MS + 2_000, write(8 << 20));
      expect(String(w.error)).toMatch(/took over 800 ms|connection timeout/);
    } finally {
      await proxy.restore();
    }
    expect(await read()).toBe('ok');
    await write(1 << 20);
  });

  it('a write on a connection that stalls mid-COPY ends at the deadline', async () => {
    expect(await read()).toBe('ok'); // a live pooled connection, so the write does not connect anew
    const writing = write(32 << 20);
    await new Promise((r) => setTimeout(r, 20));
    await proxy.stall();
    try {
      const w = await within(DEADLINE_MS + 2_000, writing);
      expect(String(w.error)).toMatch(/took over 800 ms/);
    } finally {
      await proxy.restore();
    }
    expect(await read()).toBe('ok');
  });

  it('a link reset mid-COPY rejects the transfer, with no uncaught error', async () => {
    const writing = write(32 << 20);
    await new Promise((r) => setTimeout(r, 20));
    await proxy.reset();
    try {
      const w = await within(DEADLINE_MS + 2_000, writing);
      expect(w.error).toBeInstanceOf(Error);
    } finally {
      await proxy.restore();
    }
    expect(await read()).toBe('ok');
  });
});
