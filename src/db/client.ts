// Opens the database: PGlite in-process (embedded default) or PostgreSQL (DATABASE_URL).
// Both are reached through Prisma with a driver adapter; the raw driver is kept
// only for what Prisma cannot do (multi-statement migration scripts, advisory locks).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import { instrumentAdapter, type QueryListener } from './instrument.ts';
import { acquireDataDirLock, type DataDirLock } from './lock.ts';

export type DbMode = 'embedded' | 'server';

/** A connection for raw work outside Prisma: scripts and bookkeeping. */
export interface RawConnection {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(script: string): Promise<void>;
}

export interface Database {
  readonly mode: DbMode;
  /** The primary: every write, and reads that must see the latest writes. */
  readonly prisma: PrismaClient;
  /** A client for catalog reads: the next read replica (round robin), else the primary. */
  reader(): PrismaClient;
  /** Runs fn on one dedicated connection (a session: advisory locks and BEGIN/COMMIT hold). */
  withConnection<T>(fn: (conn: RawConnection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… selects server mode; otherwise PGlite. */
  databaseUrl?: string | undefined;
  /** Read replicas (server mode): catalog reads are spread over them. */
  replicaUrls?: string[] | undefined;
  /** Called with every SQL statement sent to a replica (tests check the routing). */
  onReplicaQuery?: QueryListener;
  /** PGlite data directory; `memory://` (or undefined) keeps everything in memory. */
  dataDir?: string | undefined;
  /** Embedded in memory: start from a PGlite `dumpDataDir()` archive instead of a new cluster (the test suite's templates). */
  loadDataDir?: Blob | undefined;
  poolSize?: number;
  /** Called with every SQL statement Prisma sends (tests count them). */
  onQuery?: QueryListener;
}

function prismaWith(factory: SqlDriverAdapterFactory, onQuery?: QueryListener): PrismaClient {
  const adapter = onQuery ? instrumentAdapter(factory, onQuery) : factory;
  return new PrismaClient({ adapter });
}

async function openEmbedded(opts: OpenOptions): Promise<Database> {
  const inMemory = !opts.dataDir || opts.dataDir.startsWith('memory://');
  let lock: DataDirLock | undefined;
  let dataDir: string | undefined;
  if (!inMemory) {
    const root = path.resolve(opts.dataDir!);
    mkdirSync(root, { recursive: true });
    // PGlite has no multi-process protection: a second writer would corrupt it.
    lock = await acquireDataDirLock(root);
    dataDir = path.join(root, 'pglite');
  }
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir, extensions: { pg_trgm }, ...(inMemory && opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  } catch (err) {
    await lock?.release();
    throw err;
  }
  const prisma = prismaWith(new PrismaPGlite(client), opts.onQuery);
  const conn: RawConnection = {
    query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
    exec: async (script) => {
      await client.exec(script);
    },
  };
  return {
    mode: 'embedded',
    prisma,
    reader: () => prisma,
    withConnection: (fn) => fn(conn),
    async close() {
      await prisma.$disconnect();
      await client.close();
      await lock?.release();
    },
  };
}

async function openServer(opts: OpenOptions & { databaseUrl: string }): Promise<Database> {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
  // An idle client losing its server must not crash the process.
  pool.on('error', () => {});
  const prisma = prismaWith(new PrismaPg(pool), opts.onQuery);
  const replicas = (opts.replicaUrls ?? []).map((url) => {
    const p = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
    p.on('error', () => {});
    return { pool: p, client: prismaWith(new PrismaPg(p), opts.onReplicaQuery) };
  });
  let next = 0;
  return {
    mode: 'server',
    prisma,
    reader: () => (replicas.length ? replicas[next++ % replicas.length]!.client : prisma),
    async withConnection(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async <T>(sql: string, params?: unknown[]) =>
            (await client.query(sql, params as unknown[])).rows as T[],
          exec: async (script) => {
            await client.query(script);
          },
        });
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
      for (const r of replicas) {
        await r.client.$disconnect();
        await r.pool.end();
      }
    },
  };
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.databaseUrl ? openServer({ ...opts, databaseUrl: opts.databaseUrl }) : openEmbedded(opts);
}
