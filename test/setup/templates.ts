// Store templates, built once per `npm test` run: a new PGlite cluster (initdb), the
// migrations and the demo import cost seconds each, and nearly every test file needs
// one of two stores — migrated and empty, or migrated with the demo releases. Test files
// start from a copy: an in-memory PGlite loaded from a dumpDataDir() archive, a copied
// data directory for CLI and server processes, or a PostgreSQL database created with
// TEMPLATE. Built by the product's own code (openDatabase, migrate, ensureDemoReleases), in a
// child process (build-templates.ts) while the test files that need no store already run:
// test files wait for them with templatesReady().
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { loadSeed } from '../../src/db/seedStore.ts';
import { ensureDemoReleases } from '../../src/importer/demo.ts';
import { waitReady, writeReady } from './ready.ts';

export type TemplateName = 'migrated' | 'demo';

export interface Templates {
  /** Embedded: data directories (for processes) and dumpDataDir() archives (for in-memory PGlite). */
  dirs?: Record<TemplateName, string>;
  dumps?: Record<TemplateName, string>;
  /** PostgreSQL: template database names on the TEST_DATABASE_URL server. */
  databases?: Record<TemplateName, string>;
  /** A file written when these templates are built: `ok`, or why they could not be. */
  ready?: string;
  /** The same for each template: `migrated` is ready seconds before `demo` (built from it). */
  readyOf?: Record<TemplateName, string>;
}

/** Waits until the templates a test file was given (or the one it names) are built (they build while other files run). */
export async function templatesReady(t: Templates, template?: TemplateName, timeoutMs = 600_000): Promise<void> {
  const file = template && t.readyOf ? t.readyOf[template] : t.ready;
  if (file) await waitReady(file, template ? `the test store template "${template}"` : 'the test store templates', timeoutMs);
}

declare module 'vitest' {
  export interface ProvidedContext {
    templates: Templates;
    /** The `ready` file of the CLI bundle and Chromium (global.ts): for files that start processes or a browser. */
    built: string;
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
    readyOf: { migrated: path.join(root, 'embedded-migrated.ready'), demo: path.join(root, 'embedded-demo.ready') },
  };
}

// Each template is announced as soon as it is built: the files that use the migrated one start
// while the demo import runs.
export async function buildEmbeddedTemplates(root: string): Promise<void> {
  const { dirs, dumps, readyOf } = embeddedTemplates(root) as Required<Templates>;
  mkdirSync(root, { recursive: true });
  // From the shipped empty cluster, as the product's first start (src/db/seedStore.ts): initdb runs only when it does not match.
  await fill(await openDatabase({ dataDir: dirs.migrated, newStore: () => loadSeed(undefined) }), 'migrated');
  cpSync(dirs.migrated, dirs.demo, { recursive: true });
  await dump(dirs.migrated, dumps.migrated);
  writeReady(readyOf.migrated, 'ok');
  await fill(await openDatabase({ dataDir: dirs.demo }), 'demo');
  await dump(dirs.demo, dumps.demo);
  writeReady(readyOf.demo, 'ok');
}

const withDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

/** The PostgreSQL template databases of a run (`run`: a random tag), known before they are built. */
export function postgresTemplates(root: string, run: string): Templates {
  return {
    databases: { migrated: `te_tpl_${run}_migrated`, demo: `te_tpl_${run}_demo` },
    ready: path.join(root, 'postgres.ready'),
    readyOf: { migrated: path.join(root, 'postgres-migrated.ready'), demo: path.join(root, 'postgres-demo.ready') },
  };
}

export async function buildPostgresTemplates(adminUrl: string, t: Templates): Promise<void> {
  const databases = t.databases!;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const [name, db] of Object.entries(databases) as [TemplateName, string][]) {
      await admin.query(`CREATE DATABASE ${db}`);
      await fill(await openDatabase({ databaseUrl: withDatabase(adminUrl, db), poolSize: 2 }), name);
      if (t.readyOf) writeReady(t.readyOf[name], 'ok');
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
