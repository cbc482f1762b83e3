// A fresh, migrated database per test file: in-memory PGlite, or (TEST_DB=postgres)
// a new database on the TEST_DATABASE_URL server, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { templatesReady, type TemplateName } from '../setup/templates.ts';
import { parseDataDirTar, TreeFS, type DataDirTree } from './pgliteTree.ts';
import { openDatabase, type Database, type OpenOptions } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { QueryListener } from '../../src/db/instrument.ts';

export const usingPostgres = process.env.TEST_DB === 'postgres';

export interface TestDatabase extends Database {
  /** postgres:// URL of the fresh database (server mode only). */
  url?: string;
  /** Open another connection to the same database (server mode only). */
  cleanup(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new database on the TEST_DATABASE_URL server: empty, or a copy of one of the run's templates (test/setup). */
export async function createFreshPostgres(template?: TemplateName): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `te_test_${randomBytes(6).toString('hex')}`;
  if (template) await templatesReady(inject('templates'), template);
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${inject('templates').databases![template]}` : ''}`);
  await client.end();
  return {
    url: withDatabase(admin, name),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

// Each template's data directory, parsed once per worker (test/helpers/pgliteTree.ts).
const trees = new Map<TemplateName, DataDirTree>();
async function tree(template: TemplateName): Promise<DataDirTree> {
  let t = trees.get(template);
  if (t) return t;
  await templatesReady(inject('templates'), template);
  trees.set(template, (t = parseDataDirTar(readFileSync(inject('templates').dumps![template]))));
  return t;
}

/** The options of a new in-memory PGlite holding a copy of the template's cluster. */
async function fromTemplate(template: TemplateName): Promise<NonNullable<OpenOptions['pglite']>> {
  return { ...(await pgliteShared()), fs: new TreeFS(await tree(template)) };
}

/**
 * What every in-memory database of this worker shares (test files of a worker run one after the
 * other, its modules loaded once: vitest.config.ts `isolate: false`): PGlite's WebAssembly module
 * compiled once and its file bundle read once; and 16 MB of shared buffers, not PostgreSQL's
 * 128 MB, for stores of ~20 MB held in memory anyway. Together ~0.15 s of CPU off each start
 * (0.68 -> 0.53 s; a run starts about a hundred).
 */
let shared: Promise<NonNullable<OpenOptions['pglite']>> | undefined;
function pgliteShared(): Promise<NonNullable<OpenOptions['pglite']>> {
  shared ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    return {
      pgliteWasmModule: await WebAssembly.compile(readFileSync(path.join(dist, 'pglite.wasm'))),
      fsBundle: new Blob([readFileSync(path.join(dist, 'pglite.data'))]),
      startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
    };
  })();
  return shared;
}

/**
 * A database of its own for a test file. `template`: `migrated` (default) starts migrated and
 * empty, `demo` with the demo releases imported, both copied from the run's templates; `none`
 * is a new, unmigrated database (migrated here unless `migrate: false`).
 */
export async function createTestDatabase(opts: { onQuery?: QueryListener; migrate?: boolean; template?: TemplateName | 'none' } = {}): Promise<TestDatabase> {
  const template = opts.template ?? (opts.migrate === false ? 'none' : 'migrated');
  let url: string | undefined;
  let drop = async () => {};
  if (usingPostgres) {
    const fresh = await createFreshPostgres(template === 'none' ? undefined : template);
    url = fresh.url;
    drop = fresh.drop;
  }
  const pglite = usingPostgres ? undefined : template === 'none' ? await pgliteShared() : await fromTemplate(template);
  const db = await openDatabase({ databaseUrl: url, dataDir: 'memory://', pglite, onQuery: opts.onQuery, poolSize: 4 });
  if (template === 'none' && opts.migrate !== false) await migrate(db);
  return Object.assign(db, {
    url,
    async cleanup() {
      await db.close();
      await drop();
    },
  });
}

/**
 * The worker's demo store, shared by the test files that only read it (PGlite; on PostgreSQL a
 * database of the file's own, as createTestDatabase gives: there a copy is the server's work, not
 * the worker's). An in-memory PGlite from the template is a second of a worker's CPU on a loaded
 * host (test/helpers/db.ts's figures above: 0.53 s quiet); a run's read-only files took one each.
 * The guard: a write assigns a transaction id, reads never do, so `cleanup()` fails the file
 * whose transactions moved the next id (a rolled-back write too), naming the file's way out — a
 * store of its own. Files of a worker run one after the other, so one file holds it at a time.
 */
interface SharedDemo {
  db: Database;
  listener: QueryListener | undefined;
  holder: boolean;
  /** The test file holding it (vitest's current file when it was taken). */
  holderFile?: string;
}
let sharedDemo: Promise<SharedDemo> | undefined;

const nextXid = async (db: Database) =>
  (await db.prisma.$queryRawUnsafe<{ x: string }[]>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x'))[0]!.x;

export async function sharedDemoDatabase(opts: { onQuery?: QueryListener } = {}): Promise<TestDatabase> {
  if (usingPostgres) return createTestDatabase({ template: 'demo', onQuery: opts.onQuery });
  sharedDemo ??= (async () => {
    const state: SharedDemo = { db: undefined as unknown as Database, listener: undefined, holder: false };
    state.db = await openDatabase({ dataDir: 'memory://', pglite: await fromTemplate('demo'), onQuery: (sql) => state.listener?.(sql), poolSize: 4 });
    return state;
  })();
  const state = await sharedDemo;
  const file = expect.getState().testPath;
  if (state.holder && state.holderFile !== file) {
    // An earlier file of the worker never released it (its hook timed out while taking it, on a loaded
    // host): its store is left to that file's stray work, not closed under it, and this file gets a
    // clean copy instead of failing for another file's timeout.
    sharedDemo = undefined;
    return sharedDemoDatabase(opts);
  }
  if (state.holder) throw new Error('sharedDemoDatabase: the shared demo store is held (cleanup() before taking it again)');
  const before = await nextXid(state.db);
  state.holder = true;
  state.holderFile = file;
  state.listener = opts.onQuery;
  return Object.assign(Object.create(state.db) as Database, {
    url: undefined,
    async close() {
      throw new Error('sharedDemoDatabase: the shared demo store stays open for the worker; call cleanup()');
    },
    async cleanup() {
      state.listener = undefined;
      state.holder = false;
      const after = await nextXid(state.db);
      if (after !== before) {
        // The next file of the worker gets a clean copy; this one fails.
        sharedDemo = undefined;
        await state.db.close();
        throw new Error(`a test file wrote to the worker's shared demo store (transaction ids ${before} -> ${after}): give it a store of its own (createTestDatabase({ template: 'demo' }), createTestApp without readOnly)`);
      }
    },
  });
}
