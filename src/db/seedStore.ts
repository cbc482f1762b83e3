// The empty embedded store shipped with the program: a PGlite cluster initialised (initdb) and
// migrated at build time (scripts/build.mjs, which `npm install` runs), archived with
// dumpDataDir(). A new embedded store is unpacked from it instead of running initdb and the
// migrations on first start (initdb alone was a third of `npm start`'s first start). The archive
// is used only when its manifest names the PGlite version installed and the migrations of this
// checkout; otherwise (or when it is missing) the store is made as before, by initdb and migrate.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { distDir, migrationsDir } from '../paths.ts';
import { applyMigrations, pgliteSession, readMigrations } from './migrate.ts';

/** Bump when the archive's layout or the manifest's shape changes: older archives are then ignored. */
const FORMAT = 1;
export const SEED_ARCHIVE = 'cluster.tar';
export const SEED_MANIFEST = 'manifest.json';
/** Where the build puts it: dist/store-seed/ (not in git; rebuilt when its manifest no longer matches). */
export const defaultSeedDir = path.join(distDir, 'store-seed');

export interface SeedManifest {
  format: number;
  /** @electric-sql/pglite's version: the cluster's catalog and WebAssembly build must be the one that opens it. */
  pglite: string;
  /** sha256 over the migrations' names and checksums, in order: the schema the archive holds. */
  migrations: string;
}

/** Which seed to use: the shipped one (default), another directory (tests), or none (always initdb). */
export type SeedOption = { dir: string } | false | undefined;

let pgliteVersion: string | undefined;
/** The installed PGlite's version, from its package.json (not exported by the package: found beside its entry). */
export function installedPgliteVersion(): string {
  if (pgliteVersion) return pgliteVersion;
  for (let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@electric-sql/pglite' && pkg.version) return (pgliteVersion = pkg.version);
  }
  throw new Error('@electric-sql/pglite: package.json not found beside its entry');
}

/** The manifest an archive must carry to be used by this installation. */
export function expectedSeedManifest(dir = migrationsDir): SeedManifest {
  const h = createHash('sha256');
  for (const m of readMigrations(dir)) h.update(`${m.name}\0${m.checksum}\n`);
  return { format: FORMAT, pglite: installedPgliteVersion(), migrations: h.digest('hex') };
}

/** Why the archive in `dir` cannot be used, or undefined when it can. */
export function seedMismatch(dir: string, expected = expectedSeedManifest()): string | undefined {
  let found: Partial<SeedManifest>;
  try {
    found = JSON.parse(readFileSync(path.join(dir, SEED_MANIFEST), 'utf8')) as Partial<SeedManifest>;
  } catch {
    return `no manifest at ${path.join(dir, SEED_MANIFEST)}`;
  }
  if (!existsSync(path.join(dir, SEED_ARCHIVE))) return `no archive at ${path.join(dir, SEED_ARCHIVE)}`;
  for (const k of ['format', 'pglite', 'migrations'] as const) {
    if (found[k] !== expected[k]) return `its ${k} is ${JSON.stringify(found[k])}, this installation's ${JSON.stringify(expected[k])}`;
  }
  return undefined;
}

export type SeedChoice = { archive: Blob; dir: string } | { archive?: undefined; reason: string };

/** The archive to start a new store from, or why there is none (then the store is made by initdb). */
export function loadSeed(option: SeedOption): SeedChoice {
  if (option === false) return { reason: 'disabled' };
  const dir = option?.dir ?? defaultSeedDir;
  try {
    const reason = seedMismatch(dir);
    if (reason) return { reason };
    return { archive: new Blob([readFileSync(path.join(dir, SEED_ARCHIVE))]), dir };
  } catch (e) {
    // A broken installation (migrations missing, PGlite unresolvable) fails later with its own message.
    return { reason: (e as Error).message };
  }
}

/**
 * Writes the archive and its manifest into `dir` unless a matching one is there (build time).
 * `makeArchive` builds the cluster (initdb, migrations) and returns its dumpDataDir() bytes.
 */
export async function writeSeed(dir: string, makeArchive: () => Promise<Uint8Array>): Promise<'current' | 'built'> {
  const expected = expectedSeedManifest();
  if (!seedMismatch(dir, expected)) {
    // Touched: a build's outputs are as new as the build (test/setup/bundle.ts compares their times with the sources').
    const now = new Date();
    utimesSync(path.join(dir, SEED_MANIFEST), now, now);
    return 'current';
  }
  mkdirSync(dir, { recursive: true });
  // The manifest goes first, so a build stopped halfway leaves no manifest over a stale archive.
  rmSync(path.join(dir, SEED_MANIFEST), { force: true });
  const bytes = await makeArchive();
  for (const [name, data] of [[SEED_ARCHIVE, bytes], [SEED_MANIFEST, JSON.stringify(expected, null, 2) + '\n']] as const) {
    const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
    writeFileSync(tmp, data);
    renameSync(tmp, path.join(dir, name));
  }
  return 'built';
}

/**
 * The build's step (scripts/build.mjs): an in-memory cluster made as openDatabase makes a new
 * store (PGlite with pg_trgm: initdb), migrated as migrate() does, archived uncompressed (gzip
 * saves 36 of its 40 MB but costs each first start ~0.5 s of CPU to inflate).
 */
export function buildSeed(dir = defaultSeedDir): Promise<'current' | 'built'> {
  return writeSeed(dir, async () => {
    // Loaded only to build: a build whose archive is current skips PGlite's module load.
    const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
    const pg = await PGlite.create({ extensions: { pg_trgm } });
    try {
      await applyMigrations(pgliteSession(pg), readMigrations());
      return new Uint8Array(await (await pg.dumpDataDir('none')).arrayBuffer());
    } finally {
      await pg.close();
    }
  });
}
