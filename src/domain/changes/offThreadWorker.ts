// The changes worker thread (offThread.ts): computes a change set from the boundary rows
// (encodeRanged.ts) and answers it encoded (encoded.ts), its buffers transferred. Its statements
// are sent to the serving thread, which runs them with its own client (pool, transaction rules
// and all) and sends the rows back: no database client of its own, the same statements.
import { parentPort } from 'node:worker_threads';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { EncodedChanges } from './encoded.ts';
import { encodeChangesFromRanges, type EncodeOptions } from './encodeRanged.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;
type Ref = { id: number; version: string };
export type WorkerError = { name: string; message: string };

export type ToWorker =
  | { kind: 'compute'; job: number; from: Ref; to: Ref; opts: EncodeOptions }
  | { kind: 'rows'; query: number; rows?: unknown; error?: WorkerError };
export type FromWorker =
  | { kind: 'query'; job: number; query: number; sql: string; params: unknown[] }
  | { kind: 'done'; job: number; encoded?: EncodedChanges; error?: WorkerError };

const port = parentPort;
if (!port) throw new Error('offThreadWorker.ts runs as a worker thread');

const waiting = new Map<number, { resolve: (rows: unknown) => void; reject: (e: Error) => void }>();
let nextQuery = 0;

const asError = (e: WorkerError) => Object.assign(new Error(e.message), { name: e.name });
const describe = (e: unknown): WorkerError => (e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) });

/** A client for one job whose statements the serving thread runs. */
const dbFor = (job: number): Db =>
  ({
    $queryRawUnsafe: (sql: string, ...params: unknown[]) =>
      new Promise((resolve, reject) => {
        const query = nextQuery++;
        waiting.set(query, { resolve, reject });
        port.postMessage({ kind: 'query', job, query, sql, params } satisfies FromWorker);
      }),
  }) as unknown as Db;

port.on('message', (m: ToWorker) => {
  if (m.kind === 'rows') {
    const w = waiting.get(m.query);
    waiting.delete(m.query);
    if (m.error) w?.reject(asError(m.error));
    else w?.resolve(m.rows);
    return;
  }
  encodeChangesFromRanges(dbFor(m.job), m.from, m.to, m.opts).then(
    (encoded) => {
      const transfer = [encoded.text.buffer, encoded.off.buffer, ...(encoded.start ? [encoded.start.buffer] : [])] as ArrayBuffer[];
      port.postMessage({ kind: 'done', job: m.job, encoded } satisfies FromWorker, transfer);
    },
    (e: unknown) => port.postMessage({ kind: 'done', job: m.job, error: describe(e) } satisfies FromWorker),
  );
});
