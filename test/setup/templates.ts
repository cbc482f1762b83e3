// Store templates, built once per `npm test` run: a new PGlite cluster (initdb), the
// migrations and the demo import cost seconds each, and nearly every test file needs
// one of two stores — migrated and empty, or migrated with the demo releases. Test files
// start from a copy: an in-memory PGlite loaded from a dumpDataDir() archive, a copied
// data directory for CLI and server processes, or a PostgreSQL database created with
// TEMPLATE. Built by the product's own code (openDatabase, migrate, ensureDemoReleases), in a
// child process (build-templates.ts) while the test files that need no store already run:
// test files wait for them with templatesReady().
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { ensureDemoReleases } from '../../src/importer/demo.ts';

export type TemplateName = 'migrated' | 'demo';

export interface Templates {
  /** Embedded: data directories (for processes) and dumpDataDir() archives (for in-memory PGlite). */
  dirs?: Record<TemplateName, string>;
  dumps?: Record<TemplateName, string>;
  /** PostgreSQL: template database names on the TEST_DATABASE_URL server. */
  databases?: Record<TemplateName, string>;
  /** A file written when these templates are built: `ok`, or why they could not be. */
  ready?: string;
}

/** Waits until the templates a test file was given are built (they build while other files run). */
export async function templatesReady(t: Templates, timeoutMs = 600_000): Promise<void> {
  if (!t.ready) return;
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(t.ready)) {
    if (Date.now() > deadline) throw new Error(`the test store templates were not built within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const state = readFileSync(t.ready, 'utf8');
  if (state !== 'ok') throw new Error(`building the test store templates failed:\n${state}`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    templates: Templates;
  }
}

async function fill(db: Awaited<ReturnType<typeof openDatabase>>, name: TemplateName) {
  await migrate(db);
  if (name === 'demo') await ensureDemoReleases(db);
  await db.close();
}

async function dump(dir: string, file: string) {
  const client = await PGlite.create({ dataDir: path.join(dir, 'pglite'), extensions: { pg_trgm } });
  writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await client.close();
}

/** Where the embedded templates of a run go (under `root`), known before they are built. */
export function embeddedTemplates(root: string): Templates {
  return {
    dirs: { migrated: path.join(root, 'migrated'), demo: path.join(root, 'demo') },
    dumps: { migrated: path.join(root, 'migrated.tar'), demo: path.join(root, 'demo.tar') },
    ready: path.join(root, 'embedded.ready'),
  };
}

export async function buildEmbeddedTemplates(root: string): Promise<void> {
  const { dirs, dumps } = embeddedTemplates(root) as Required<Templates>;
  mkdirSync(root, { recursive: true });
  await fill(await openDatabase({ dataDir: dirs.migrated }), 'migrated');
  cpSync(dirs.migrated, dirs.demo, { recursive: true });
  await Promise.all([fill(await openDatabase({ dataDir: dirs.demo }), 'demo'), dump(dirs.migrated, dumps.migrated)]);
  await dump(dirs.demo, dumps.demo);
}

const withDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

/** The PostgreSQL template databases of a run (`run`: a random tag), known before they are built. */
export function postgresTemplates(root: string, run: string): Templates {
  return { databases: { migrated: `te_tpl_${run}_migrated`, demo: `te_tpl_${run}_demo` }, ready: path.join(root, 'postgres.ready') };
}

export async function buildPostgresTemplates(adminUrl: string, t: Templates): Promise<void> {
  const databases = t.databases!;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const [name, db] of Object.entries(databases) as [TemplateName, string][]) {
      await admin.query(`CREATE DATABASE ${db}`);
      await fill(await openDatabase({ databaseUrl: withDatabase(adminUrl, db), poolSize: 2 }), name);
    }
  } finally {
    await admin.end();
  }
}

export async function removePostgresTemplates(adminUrl: string, t: Templates): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  for (const db of Object.values(t.databases!)) await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await c.end();
}
