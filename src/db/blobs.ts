// Bulky binary values (a release's index snapshot: ~32 MB at full size) in and out of the
// database without a text step: binary COPY both ways. A bytea read by a query travels as
// text (hex or base64: 1.3–2× the bytes, then decoded on this thread), and node-postgres has
// no binary result mode for it (pg-protocol reads every DataRow field as a UTF-8 string).
// PGlite: COPY … TO / FROM '/dev/blob'. PostgreSQL: COPY … TO STDOUT / FROM STDIN through
// pg-copy-streams.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/** What copyIn runs, in one transaction: `before`, `COPY {into} FROM … (FORMAT binary)` reading the data, `after`. */
export interface CopyInSteps {
  before: string[];
  /** A table with its column list, e.g. `t (a, b)`. */
  into: string;
  after: string[];
}

export interface BlobChannel {
  /** The binary COPY output of a query (`COPY (select) TO … WITH (FORMAT binary)`), as the parts it arrived in. */
  copyOut(select: string): Promise<Uint8Array[]>;
  /** Binary COPY input (`data`: its parts in order) within the statements of `steps`, as one transaction. */
  copyIn(steps: CopyInSteps, data: Uint8Array[]): Promise<void>;
  /** A directory beside the store's files for copies of bulky values (embedded on disk only). */
  readonly cacheDir?: string | undefined;
}

/** The socket under a pg client (not in pg's types). */
const socketOf = (client: pg.PoolClient) => (client as unknown as { connection?: { stream?: { destroy(e?: Error): void } } }).connection?.stream;

const copyOutSql = (select: string, target: string) => `COPY (${select}) TO ${target} WITH (FORMAT binary)`;
const copyInSql = (into: string, source: string) => `COPY ${into} FROM ${source} WITH (FORMAT binary)`;

export function pgliteBlobs(client: PGlite, cacheDir: string | undefined): BlobChannel {
  return {
    cacheDir,
    async copyOut(select) {
      const blob = (await client.query(copyOutSql(select, `'/dev/blob'`))).blob;
      return blob ? [new Uint8Array(await blob.arrayBuffer())] : [];
    },
    async copyIn({ before, into, after }, data) {
      await client.transaction(async (tx) => {
        for (const sql of before) await tx.query(sql);
        await tx.query(copyInSql(into, `'/dev/blob'`), [], { blob: new Blob(data as Uint8Array<ArrayBuffer>[]) });
        for (const sql of after) await tx.query(sql);
      });
    },
  };
}

/**
 * PostgreSQL: reads from `reader()` (a replica when there are some), writes to `writer`.
 * `timeoutMs` (0: none) bounds a whole transfer on the client side too: the server's
 * statement_timeout cancels a slow COPY, this ends a wait on a server that stopped answering.
 */
export function postgresBlobs(writer: pg.Pool, reader: () => pg.Pool, timeoutMs: number): BlobChannel {
  const guarded = async <T>(pool: pg.Pool, work: (client: pg.PoolClient, abort: AbortSignal) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    const abort = new AbortController();
    // A checked-out client has no 'error' listener of the pool's: without this one, a connection
    // dropped mid-COPY (a restart, a failover, a terminated backend) would be an uncaught exception.
    const onError = (e: Error) => abort.abort(e);
    client.on('error', onError);
    // On abort (deadline or error) the socket goes too: a COPY stream being destroyed may wait for
    // the server's answer, which a server that stopped answering never sends.
    abort.signal.addEventListener('abort', () => socketOf(client)?.destroy(abort.signal.reason as Error), { once: true });
    const timer = timeoutMs > 0 ? setTimeout(() => abort.abort(new Error(`binary COPY took over ${timeoutMs} ms`)), timeoutMs) : undefined;
    let failed: Error | undefined;
    try {
      return await work(client, abort.signal);
    } catch (e) {
      failed = abort.signal.aborted ? (abort.signal.reason as Error) : (e as Error);
      throw failed;
    } finally {
      clearTimeout(timer);
      client.off('error', onError);
      const broken = failed ?? (abort.signal.aborted ? (abort.signal.reason as Error) : undefined);
      // A broken connection is discarded, and a late error from it has a listener.
      if (broken) client.on('error', () => {});
      // A connection that failed mid-COPY may still be in copy mode: never reuse it.
      client.release(broken);
    }
  };
  return {
    copyOut: (select) =>
      guarded(reader(), async (client) => {
        // Not concatenated here: the reader copies the value it wants out of them once.
        const parts: Uint8Array[] = [];
        const stream = client.query(copyTo(copyOutSql(select, 'STDOUT')));
        try {
          for await (const part of stream) parts.push(part as Buffer);
        } finally {
          // pg arms its per-query read timer around the stream and clears it only through the
          // query's callback, which a COPY TO stream never calls: clear it, and keep a late error
          // (the timer's, on a finished stream) from being an uncaught one.
          stream.on('error', () => {});
          (stream as unknown as { callback?: () => void }).callback?.();
        }
        return parts;
      }),
    copyIn: ({ before, into, after }, data) =>
      guarded(writer, async (client, signal) => {
        await client.query('BEGIN');
        try {
          for (const sql of before) await client.query(sql);
          await pipeline(Readable.from(data), client.query(copyFrom(copyInSql(into, 'STDIN'))), { signal });
          for (const sql of after) await client.query(sql);
          await client.query('COMMIT');
        } catch (e) {
          // After an abort the connection is discarded instead (guarded).
          if (!signal.aborted) await client.query('ROLLBACK').catch(() => {});
          throw e;
        }
      }),
  };
}
