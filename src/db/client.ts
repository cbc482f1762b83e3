// Opens the database: PGlite in-process (embedded default) or PostgreSQL (DATABASE_URL).
// Both are reached through Prisma with a driver adapter; the raw driver is kept
// only for what Prisma cannot do (multi-statement migration scripts, advisory locks).
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import { instrumentAdapter, timedAdapter, type QueryListener } from './instrument.ts';
import { traceHooks } from '../observability/traceHooks.ts';
import { pools, timings } from '../observability/signals.ts';
import { acquireDataDirLock, type DataDirLock } from './lock.ts';
import { dropStoreManifest } from './storeManifest.ts';
import { pgliteBlobs, postgresBlobs, type BlobChannel } from './blobs.ts';

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
  /**
   * Runs fn while holding a PostgreSQL session advisory lock (src/db/advisoryLocks.ts), taken on a
   * connection of its own outside the pool, so fn may use every pooled connection: processes
   * racing on one database (replicas starting together) run fn one after the other. Embedded:
   * one process owns the store (the data-dir lock), so fn just runs.
   */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** Binary COPY in and out (src/db/blobs.ts): the release index snapshots travel through it. */
  readonly blobs: BlobChannel;
  /** One round trip (SELECT 1), failing after timeoutMs: start-up and readiness checks. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
  /** Set when this open made a new embedded cluster: how (src/db/seedStore.ts). */
  readonly created?: StoreOrigin | undefined;
  /** Set when this open copied an embedded store written by an older PGlite into a new cluster (src/db/storeUpgrade.ts). */
  readonly upgraded?: StoreUpgrade | undefined;
}

/** What an upgrade of an embedded store written by an older PGlite did (src/db/storeUpgrade.ts), for the start-up log and the CLI. */
export interface StoreUpgrade {
  fromMajor: string;
  toMajor: string;
  /** The old cluster, kept: delete it once the upgraded store has been checked. */
  backup: string;
  tables: number;
  rows: number;
  ms: number;
}

/** How a new embedded store was made: unpacked from the shipped empty cluster, or by initdb (and why not from it). */
export interface StoreOrigin {
  from: 'archive' | 'initdb';
  reason?: string | undefined;
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
  /**
   * Embedded, a new store (no cluster in the data directory, or in memory without a `pglite.fs` holding one):
   * a dumpDataDir() archive to unpack instead of running initdb, or why there is none
   * (openMigrated passes the shipped empty cluster: src/db/seedStore.ts). Absent: initdb.
   */
  newStore?: (() => { archive?: Blob | undefined; reason?: string | undefined }) | undefined;
  /**
   * Embedded in memory: a compiled PGlite module and file bundle to reuse, and start parameters
   * (the test suite opens a hundred in-memory databases a run: compiling and unpacking anew, and
   * PostgreSQL's 128 MB of shared buffers for a store of 20 MB, were a fifth of each start); and a
   * file system that already holds a cluster (test/helpers/pgliteTree.ts).
   */
  pglite?: Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle' | 'startParams' | 'fs'> | undefined;
  poolSize?: number;
  /** Server mode: longest wait for a new connection (TCP, handshake, authentication) or a free pool slot. */
  connectTimeoutMs?: number | undefined;
  /**
   * Server mode: statements are cancelled by the server after this long (statement_timeout), and
   * abandoned by the client a second later when the server does not answer at all (a stalled
   * network). Unset or 0: no limit (batch jobs such as imports).
   */
  queryTimeoutMs?: number | undefined;
  /** Called with every SQL statement Prisma sends (tests count them). */
  onQuery?: QueryListener;
  /**
   * Embedded, an existing store, under its lock before PGlite opens it: brings a cluster written by an
   * older PGlite to the installed one's (openMigrated and `terminology migrate` pass src/db/storeUpgrade.ts's;
   * without it such a store fails to open).
   */
  upgrade?: ((pgliteDir: string) => Promise<StoreUpgrade | undefined>) | undefined;
}

function prismaWith(factory: SqlDriverAdapterFactory, onQuery?: QueryListener): PrismaClient {
  const counted = onQuery ? instrumentAdapter(factory, onQuery) : factory;
  // Timed only while metrics or traces are on (they are set up before the database opens).
  const adapter = timings.dbQuery || traceHooks.db ? timedAdapter(counted) : counted;
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
    // This process may change the store: the record of its last clean close no longer holds.
    dropStoreManifest(root);
    dataDir = path.join(root, 'pglite');
  }
  let client: PGlite;
  let created: StoreOrigin | undefined;
  let upgraded: StoreUpgrade | undefined;
  try {
    if (dataDir && opts.upgrade) upgraded = await opts.upgrade(dataDir);
    // PGlite itself runs initdb when its data directory holds no PG_VERSION; the same test here.
    let loadDataDir: Blob | undefined;
    if (inMemory ? !opts.pglite?.fs : !existsSync(path.join(dataDir!, 'PG_VERSION'))) {
      const seed = opts.newStore?.();
      loadDataDir = seed?.archive;
      created = seed?.archive ? { from: 'archive' } : { from: 'initdb', reason: seed?.reason ?? 'no archive given' };
    }
    const exitCode = process.exitCode;
    try {
      client = await PGlite.create({ dataDir, extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}), ...(inMemory ? opts.pglite : {}) });
    } catch (err) {
      if (created?.from !== 'archive') throw err;
      // A damaged archive (its manifest matched): what it left of a cluster goes (there was none
      // before), so the next start is not handed half a cluster. PGlite's failed start also set
      // the process's exit code; the error below is the caller's to report.
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      process.exitCode = exitCode;
      throw new Error(`The shipped empty store did not load (${(err as Error).message}): rebuild it with \`npm run build\`, or delete dist/store-seed to start new stores with initdb.`);
    }
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
    created,
    upgraded,
    prisma,
    reader: () => prisma,
    withConnection: (fn) => fn(conn),
    withAdvisoryLock: (_key, fn) => fn(),
    blobs: pgliteBlobs(client, inMemory ? undefined : path.join(path.resolve(opts.dataDir!), 'cache')),
    async ping() {
      await client.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      await client.close();
      await lock?.release();
    },
  };
}

/** No client-side limit for one query (pg falls back to the pool's when given 0). */
const UNBOUNDED_MS = 2_147_483_647;

/** A query with its own client-side limit (pg supports it; @types/pg does not declare it). */
const timed = (text: string, values: unknown[] | undefined, ms: number | undefined): pg.QueryConfig =>
  ({ text, values, ...(ms ? { query_timeout: ms } : {}) }) as pg.QueryConfig;

/**
 * pg_trgm's operator thresholds for every session, at their defaults: the search by SQL finds its
 * typo candidates with `%` and `<%` (src/domain/releaseIndex/search.ts sqlCandidates), which read
 * them, and must find what the release index finds at 0.3 and 0.6. A database or role configured
 * otherwise (ALTER DATABASE … SET) would change the answers; startup options override that.
 */
export const TRGM_OPTIONS = '-c pg_trgm.similarity_threshold=0.3 -c pg_trgm.word_similarity_threshold=0.6';

/** The connection string and startup options: the URL's own `options` parameter kept, ours after it (pg lets the URL's replace the config's). */
export function withTrgmOptions(url: string): { connectionString: string; options: string } {
  try {
    const u = new URL(url);
    const own = u.searchParams.get('options');
    if (own !== null) {
      u.searchParams.delete('options');
      return { connectionString: u.toString(), options: `${own} ${TRGM_OPTIONS}` };
    }
  } catch {
    // Not a URL pg's own parser needs us to understand: as given.
  }
  return { connectionString: url, options: TRGM_OPTIONS };
}

function poolConfig(url: string, opts: OpenOptions): pg.PoolConfig {
  const q = opts.queryTimeoutMs ?? 0;
  return {
    ...withTrgmOptions(url),
    max: opts.poolSize ?? 10,
    ...(opts.connectTimeoutMs ? { connectionTimeoutMillis: opts.connectTimeoutMs } : {}),
    // The server's own cancel (57014) comes first and keeps the connection usable; the
    // client-side limit only ends waits on a server that no longer answers at all.
    ...(q > 0 ? { statement_timeout: q, query_timeout: q + 1_000 } : {}),
  };
}

async function openServer(opts: OpenOptions & { databaseUrl: string }): Promise<Database> {
  const pool = new pg.Pool(poolConfig(opts.databaseUrl, opts));
  // An idle client losing its server must not crash the process.
  pool.on('error', () => {});
  pools.set(pool, 'primary');
  const prisma = prismaWith(new PrismaPg(pool), opts.onQuery);
  const replicas = (opts.replicaUrls ?? []).map((url) => {
    const p = new pg.Pool(poolConfig(url, opts));
    p.on('error', () => {});
    pools.set(p, 'replica');
    return { pool: p, client: prismaWith(new PrismaPg(p), opts.onReplicaQuery) };
  });
  let next = 0;
  let nextBlob = 0;
  return {
    mode: 'server',
    prisma,
    reader: () => (replicas.length ? replicas[next++ % replicas.length]!.client : prisma),
    blobs: postgresBlobs(pool, () => (replicas.length ? replicas[nextBlob++ % replicas.length]!.pool : pool), opts.queryTimeoutMs ? opts.queryTimeoutMs + 1_000 : 0),
    async withConnection(fn) {
      const client = await pool.connect();
      // Sessions run migrations and wait on advisory locks (another replica migrating): no
      // statement limit here; connecting stays bounded.
      const unbounded = (opts.queryTimeoutMs ?? 0) > 0;
      let failed: Error | undefined;
      // A checked-out client has no listener of the pool's: a backend terminated between two
      // statements (57P01: a restart, a failover, DROP DATABASE … FORCE) would otherwise be an
      // uncaught exception. The session's next statement fails with it instead.
      const lost = (e: Error) => (failed ??= e);
      client.on('error', lost);
      try {
        if (unbounded) await client.query(timed('SET statement_timeout = 0', undefined, opts.queryTimeoutMs! + 1_000));
        const run = (text: string, values?: unknown[]) => client.query(timed(text, values, unbounded ? UNBOUNDED_MS : undefined));
        return await fn({
          query: async <T>(sql: string, params?: unknown[]) => (await run(sql, params)).rows as T[],
          exec: async (script) => {
            await run(script);
          },
        });
      } catch (e) {
        failed = e as Error;
        throw e;
      } finally {
        if (unbounded && !failed) await client.query('RESET statement_timeout').catch((e: Error) => (failed = e));
        // A session that failed may be mid-statement or broken: never hand it to the next user
        // (a late error from a discarded one still has a listener).
        client.off('error', lost);
        if (failed) client.on('error', () => {});
        client.release(failed);
      }
    },
    async withAdvisoryLock(key, fn) {
      // Not from the pool: a pool of one (DATABASE_POOL_SIZE=1) would otherwise deadlock on fn's queries.
      const client = new pg.Client({ connectionString: opts.databaseUrl, ...(opts.connectTimeoutMs ? { connectionTimeoutMillis: opts.connectTimeoutMs } : {}) });
      client.on('error', () => {});
      await client.connect();
      try {
        // Waits for the holder (another replica's demo import, say) however long it takes.
        await client.query('SELECT pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        // Ending the session releases the lock, also when fn failed.
        await client.end().catch(() => {});
      }
    },
    async ping(timeoutMs) {
      await pool.query(timed('SELECT 1', undefined, timeoutMs));
    },
    async close() {
      await prisma.$disconnect();
      pools.delete(pool);
      await pool.end();
      for (const r of replicas) {
        pools.delete(r.pool);
        await r.client.$disconnect();
        await r.pool.end();
      }
    },
  };
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.databaseUrl ? openServer({ ...opts, databaseUrl: opts.databaseUrl }) : openEmbedded(opts);
}
