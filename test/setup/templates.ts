// Store templates, built once per `npm test` run: a new PGlite cluster (initdb), the
// migrations and the demo import cost seconds each, and nearly every test file needs
// one of two stores — migrated and empty, or migrated with the demo releases. Test files
// start from a copy: an in-memory PGlite loaded from a dumpDataDir() archive, a copied
// data directory for CLI and server processes, or a PostgreSQL database created with
// TEMPLATE. Built by the product's own code (openDatabase, migrate, ensureDemoReleases).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
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

export async function buildEmbeddedTemplates(): Promise<{ templates: Templates; remove: () => void }> {
  const root = mkdtempSync(path.join(tmpdir(), 'te-templates-'));
  const dirs = { migrated: path.join(root, 'migrated'), demo: path.join(root, 'demo') };
  const dumps = { migrated: path.join(root, 'migrated.tar'), demo: path.join(root, 'demo.tar') };
  await fill(await openDatabase({ dataDir: dirs.migrated }), 'migrated');
  cpSync(dirs.migrated, dirs.demo, { recursive: true });
  await fill(await openDatabase({ dataDir: dirs.demo }), 'demo');
  await Promise.all([dump(dirs.migrated, dumps.migrated), dump(dirs.demo, dumps.demo)]);
  return { templates: { dirs, dumps }, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const withDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

export async function buildPostgresTemplates(adminUrl: string): Promise<{ templates: Templates; remove: () => Promise<void> }> {
  const run = randomBytes(4).toString('hex');
  const databases = { migrated: `te_tpl_${run}_migrated`, demo: `te_tpl_${run}_demo` };
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
  return {
    templates: { databases },
    async remove() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      for (const db of Object.values(databases)) await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await c.end();
    },
  };
}
