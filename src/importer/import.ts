// Imports one MedAscii release into the store, all-or-nothing: everything — the rows and
// the change sets against the neighbouring releases — is written in one transaction, so
// a failed or killed import leaves no trace, and a visible release always has its changes.
import type { Database } from '../db/client.ts';
import { bulkInsert, type Column } from '../db/bulk.ts';
import { compareVersions } from '../domain/versions.ts';
import { VERSION_SYNTAX } from '../domain/formats.ts';
import type { Level } from '../domain/levels.ts';
import { ImportRefusedError, ImportValidationError } from './errors.ts';
import { readFolder, type MedAsciiFolder } from './medascii.ts';
import { compareWithHosted, replacePrimaryNames, writeLanguageNames } from './language.ts';
import { buildModel, type ReleaseModel } from './model.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { precomputeNeighbours } from '../domain/changes/precompute.ts';
import type { ChangeCounts } from '../domain/changes/store.ts';
import { ReleaseIndex } from '../domain/releaseIndex/releaseIndex.ts';
import { storeIndex } from '../domain/releaseIndex/snapshotChain.ts';
import { IMPORT_LOCK } from '../db/advisoryLocks.ts';
import { RANGED, insertAt, stageRows, type Position, type RangedTable, type WriteCounts } from './ranges.ts';
import { detachSnapshotsOf, placeRelease, removeRelease } from './releases.ts';

export interface ImportProgress {
  phase: 'read' | 'validate' | 'write' | 'commit' | 'changes' | 'index' | 'done';
  /** Rows written so far and in all (write phase). */
  done: number;
  total: number;
  message: string;
}

export interface ImportOptions {
  /** Overrides the version read from meddra_release.asc. */
  version?: string | undefined;
  /** YYYY-MM-DD. */
  releaseDate?: string | undefined;
  replace?: boolean | undefined;
  source?: string | undefined;
  /** BCP 47 tag overriding the language read from meddra_release.asc (and so the decoding). */
  language?: string | undefined;
  onProgress?: ((p: ImportProgress) => void) | undefined;
}

export interface ImportSummary {
  releaseId: number;
  version: string;
  /** The language imported, as meddra_release.asc names it (English). */
  language: string;
  /** Its BCP 47 tag. */
  languageTag: string;
  /** `release`: a new release (or all of it replaced); `language`: a language added to (or replaced in) a hosted release. */
  kind: 'release' | 'language';
  /** The release's languages after the import, primary first. */
  languages: string[];
  replaced: boolean;
  counts: Record<Level, number>;
  links: number;
  paths: number;
  millis: number;
  /** Change sets computed against the neighbouring releases. */
  changes: { from: string; to: string; counts: ChangeCounts }[];
  /** Rows of release content inserted and updated (range cut or extended): a new release's differences, not its size. */
  written?: WriteCounts;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export function parseReleaseDate(s: string | undefined): Date | null {
  if (s === undefined) return null;
  const d = new Date(`${s}T00:00:00Z`);
  if (!DATE_RE.test(s) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s) {
    throw new ImportRefusedError(`Invalid release date '${s}': use YYYY-MM-DD.`);
  }
  return d;
}

/** Reads and validates a folder without touching the database. */
export function loadRelease(dir: string, language?: string): ReleaseModel {
  return loadFolder(dir, language).model;
}

function loadFolder(dir: string, language?: string): { model: ReleaseModel; folder: MedAsciiFolder } {
  if (language !== undefined && !LANGUAGE_TAG.test(language)) {
    throw new ImportRefusedError(`Invalid language '${language}': use a BCP 47 tag such as en, de, ja or pt-BR.`);
  }
  const folder = readFolder(dir, language);
  const model = buildModel(folder);
  if (folder.issues.length > 0) throw new ImportValidationError(folder.issues);
  return { model, folder };
}

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

type Tx = Prisma.TransactionClient;

/**
 * Stages the release's rows (temporary tables) and writes them as differences at `at`
 * (src/importer/ranges.ts): rows it shares with its neighbours are not written again.
 * term_history stays per release.
 */
async function writeRows(tx: Tx, releaseId: number, at: Position, m: ReleaseModel, progress: (n: number) => void): Promise<WriteCounts> {
  let base = 0;
  const tick = (n: number) => progress(base + n);
  const written: WriteCounts = { inserted: 0, updated: 0, deleted: 0 };
  const step = async <R>(t: RangedTable, columns: Column<R>[], rows: readonly R[]) => {
    base += await stageRows(tx, t, columns, rows, tick);
    const n = await insertAt(tx, t, at);
    written.inserted += n.inserted;
    written.updated += n.updated;
  };
  await step(RANGED.concept, [
    { name: 'level', type: 'text', cast: '"Level"', get: (r) => r.level },
    { name: 'code', type: 'int', get: (r) => r.code },
    { name: 'name', type: 'text', get: (r) => r.name },
    { name: 'name_norm', type: 'text', get: (r) => r.nameNorm },
    { name: 'current', type: 'boolean', get: (r) => r.current },
    { name: 'pt_code', type: 'int', get: (r) => r.ptCode },
    { name: 'primary_soc_code', type: 'int', get: (r) => r.primarySocCode },
    { name: 'soc_abbrev', type: 'text', get: (r) => r.socAbbrev },
    { name: 'intl_order', type: 'int', get: (r) => r.intlOrder },
  ], m.concepts);
  await step(RANGED.link, [
    { name: 'parent_level', type: 'text', cast: '"Level"', get: (r) => r.parentLevel },
    { name: 'parent_code', type: 'int', get: (r) => r.parentCode },
    { name: 'child_level', type: 'text', cast: '"Level"', get: (r) => r.childLevel },
    { name: 'child_code', type: 'int', get: (r) => r.childCode },
    { name: 'is_primary', type: 'boolean', get: (r) => r.isPrimary },
  ], m.links);
  await step(RANGED.path, [
    { name: 'pt_code', type: 'int', get: (r) => r.ptCode },
    { name: 'hlt_code', type: 'int', get: (r) => r.hltCode },
    { name: 'hlgt_code', type: 'int', get: (r) => r.hlgtCode },
    { name: 'soc_code', type: 'int', get: (r) => r.socCode },
    { name: 'is_primary', type: 'boolean', get: (r) => r.isPrimary },
  ], m.paths);
  await step(RANGED.grade, [
    { name: 'code', type: 'int', get: (r) => r.code },
    { name: 'grade', type: 'int', get: (r) => r.grade },
    { name: 'definition', type: 'text', get: (r) => r.definition },
  ], m.grades);
  await step(RANGED.smq, [
    { name: 'code', type: 'int', get: (r) => r.code },
    { name: 'name', type: 'text', get: (r) => r.name },
    { name: 'level', type: 'int', get: (r) => r.level },
    { name: 'description', type: 'text', get: (r) => r.description },
    { name: 'source', type: 'text', get: (r) => r.source },
    { name: 'note', type: 'text', get: (r) => r.note },
    { name: 'version', type: 'text', get: (r) => r.version },
    { name: 'status', type: 'text', get: (r) => r.status },
    { name: 'algorithm', type: 'text', get: (r) => r.algorithm },
  ], m.smqs);
  await step(RANGED.smqTerm, [
    { name: 'smq_code', type: 'int', get: (r) => r.smqCode },
    { name: 'term_code', type: 'int', get: (r) => r.termCode },
    { name: 'term_level', type: 'int', get: (r) => r.termLevel },
    { name: 'term_scope', type: 'int', get: (r) => r.termScope },
    { name: 'term_category', type: 'text', get: (r) => r.termCategory },
    { name: 'term_weight', type: 'int', get: (r) => r.termWeight },
    { name: 'term_status', type: 'text', get: (r) => r.termStatus },
    { name: 'term_addition_version', type: 'text', get: (r) => r.termAdditionVersion },
    { name: 'term_last_modified_version', type: 'text', get: (r) => r.termLastModifiedVersion },
  ], m.smqTerms);
  base += await bulkInsert(tx, 'term_history', { release_id: releaseId }, [
    { name: 'term_code', type: 'int', get: (r) => r.termCode },
    { name: 'term_name', type: 'text', get: (r) => r.termName },
    { name: 'term_addition_version', type: 'text', get: (r) => r.termAdditionVersion },
    { name: 'term_type', type: 'text', get: (r) => r.termType },
    { name: 'llt_currency', type: 'text', get: (r) => r.lltCurrency },
    { name: 'action', type: 'text', get: (r) => r.action },
  ], m.history, { onChunk: tick });
  return written;
}

/** Renumbers ordinals so publication order follows the versions' natural order. */
async function reorder(tx: Tx) {
  const releases = await tx.release.findMany({ select: { id: true, version: true } });
  releases.sort((a, b) => compareVersions(a.version, b.version));
  // Two passes keep the unique constraint on ordinal satisfied throughout.
  await tx.$executeRawUnsafe('UPDATE "release" SET ordinal = -ordinal - 1000000');
  for (const [i, r] of releases.entries()) {
    await tx.release.update({ where: { id: r.id }, data: { ordinal: i + 1 } });
  }
}

export async function importRelease(db: Database, dir: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const started = Date.now();
  const report = opts.onProgress ?? (() => {});
  report({ phase: 'read', done: 0, total: 0, message: `reading ${dir}` });
  const releaseDate = parseReleaseDate(opts.releaseDate);
  const { model, folder } = loadFolder(dir, opts.language);
  const tag = model.languageTag;
  const version = opts.version ?? model.version;
  if (!version || !VERSION_SYNTAX.test(version)) {
    throw new ImportRefusedError(`Invalid release version '${version}': use letters, digits, '.', '-' or '_' (at most 32).`);
  }
  report({ phase: 'validate', done: 0, total: 0, message: `release ${version} (${tag}) is valid` });

  const total =
    model.concepts.length + model.links.length + model.paths.length + model.grades.length +
    model.smqs.length + model.smqTerms.length + model.history.length;
  let replaced = false;
  let kind = 'release' as ImportSummary['kind'];
  let primaryRenamed = false as boolean;
  let written: WriteCounts | undefined;
  // Deltas over the snapshot about to go are stored again first, outside the import's transaction.
  if (opts.replace) await detachSnapshotsOf(db, version);
  const { releaseId, changes, languages } = await db.prisma.$transaction(
    async (tx) => {
      // Imports on one PostgreSQL database take turns (released at commit or rollback): the
      // check below then sees a concurrent import's committed release ("already imported",
      // or replaced under --replace), and the ordinals are renumbered by one import at a time.
      if (db.mode === 'server') await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${IMPORT_LOCK})`);
      const existing = await tx.release.findUnique({ where: { version } });
      const hosted = existing
        ? (await tx.releaseLanguage.findMany({ where: { releaseId: existing.id }, orderBy: { position: 'asc' } })).map((l) => l.language)
        : [];
      // Another language of a hosted release (or one of several replaced): names only, after
      // the folder's structure is checked against the hosted one.
      if (existing && (!hosted.includes(tag) || (opts.replace && hosted.length > 1))) {
        kind = 'language';
        report({ phase: 'validate', done: 0, total: 0, message: `comparing ${tag} with the hosted release ${version}` });
        const issues = await compareWithHosted(tx, existing.id, version, model, folder);
        if (issues.length) throw new ImportValidationError(issues);
        if (hosted.includes(tag)) {
          replaced = true;
          if (tag === hosted[0]) {
            await replacePrimaryNames(tx, existing.id, model);
            primaryRenamed = true;
            // The index snapshots hold the old names (a language index shows a primary name where
            // it has none): gone with them, so no replica loads them again; rewritten below.
            await tx.releaseIndexSnapshot.deleteMany({ where: { releaseId: existing.id } });
            await tx.releaseLanguageIndexSnapshot.deleteMany({ where: { releaseId: existing.id } });
          } else {
            // The names themselves are replaced by writeLanguageNames (a delta at the release's position).
            await tx.releaseLanguageIndexSnapshot.deleteMany({ where: { releaseId: existing.id, language: tag } });
          }
          await tx.releaseLanguage.update({
            where: { releaseId_language: { releaseId: existing.id, language: tag } },
            data: { mssoName: model.language, source: opts.source ?? dir, importedAt: new Date() },
          });
        } else {
          await tx.releaseLanguage.create({
            data: { releaseId: existing.id, language: tag, mssoName: model.language, position: hosted.length, source: opts.source ?? dir },
          });
        }
        if (!primaryRenamed) {
          await writeLanguageNames(tx, existing.id, tag, model, (done) =>
            report({ phase: 'write', done, total: model.concepts.length, message: `writing ${done}/${model.concepts.length} ${tag} names` }),
          );
          await tx.$executeRawUnsafe('ANALYZE concept_name');
          return { releaseId: existing.id, changes: [], languages: hosted.includes(tag) ? hosted : [...hosted, tag] };
        }
        // The primary names changed: the stored change sets name codes by them, so they are computed again.
        await tx.$executeRawUnsafe('DELETE FROM change_set WHERE from_release_id = $1 OR to_release_id = $1', existing.id);
        await tx.$executeRawUnsafe('DELETE FROM release_change WHERE from_release_id = $1 OR to_release_id = $1', existing.id);
        await tx.$executeRawUnsafe('ANALYZE concept');
        const changes = await precomputeNeighbours(tx, existing.id);
        return { releaseId: existing.id, changes, languages: hosted };
      }
      if (existing && !opts.replace) {
        throw new ImportRefusedError(`Release ${version} is already imported${hosted.length > 1 ? ` in ${tag}` : ''}. Use --replace to import it again.`);
      }
      // A replaced release keeps its seq: removed, then written again at the same position, so
      // the same content leaves the same rows.
      let keep: bigint | undefined;
      if (existing) {
        keep = (await removeRelease(tx, existing.id)).seq;
        replaced = true;
      }
      const at = await placeRelease(tx, version, keep);
      const max = await tx.release.aggregate({ _max: { ordinal: true } });
      const release = await tx.release.create({
        data: {
          version,
          language: model.language,
          releaseDate,
          ordinal: (max._max.ordinal ?? 0) + 1,
          seq: at.seq,
          source: opts.source ?? dir,
        },
      });
      await tx.releaseLanguage.create({ data: { releaseId: release.id, language: tag, mssoName: model.language, position: 0, source: opts.source ?? dir } });
      written = await writeRows(tx, release.id, at, model, (done) =>
        report({ phase: 'write', done, total, message: `writing ${done}/${total} rows` }),
      );
      await reorder(tx);
      // Fresh statistics after a bulk load: without them the planner picks nested loops for the
      // change engine's joins (PGlite has no autovacuum). ANALYZE counts this transaction's rows.
      await tx.$executeRawUnsafe('ANALYZE concept, hierarchy_link, hierarchy_path');
      report({ phase: 'changes', done: total, total, message: 'computing changes against neighbouring releases' });
      const changes = await precomputeNeighbours(tx, release.id);
      report({ phase: 'commit', done: total, total, message: 'committing' });
      return { releaseId: release.id, changes, languages: [tag] };
    },
    // A full-size release takes a while on the embedded database; never let Prisma abort it midway.
    { timeout: 30 * 60_000, maxWait: 60_000 },
  );
  if (kind === 'language' && !primaryRenamed) {
    const summary: ImportSummary = {
      releaseId, version, language: model.language, languageTag: tag, kind, languages, replaced, counts: model.counts,
      links: model.links.length, paths: model.paths.length, millis: Date.now() - started, changes,
    };
    report({ phase: 'done', done: total, total, message: `${replaced ? 'replaced' : 'added'} ${tag} in ${version} in ${summary.millis} ms` });
    return summary;
  }
  await db.prisma.$executeRawUnsafe('ANALYZE release_change');
  // The release's in-memory index, persisted now: the first start after an import loads it
  // in one read instead of building it from rows. Optional: without it, it is built on use.
  report({ phase: 'index', done: total, total, message: 'writing the release index snapshot' });
  try {
    const stored = await storeIndex({ db: db.prisma, blobs: db.blobs }, await ReleaseIndex.load(db.prisma, releaseId));
    const what = stored.baseReleaseId === null ? 'whole' : `a delta over release ${stored.baseReleaseId}'s`;
    report({ phase: 'index', done: total, total, message: `release index snapshot written, ${what} (${(stored.bytes / 1048576).toFixed(1)} MB)` });
  } catch (e) {
    report({ phase: 'index', done: total, total, message: `release index snapshot not written (${(e as Error).message}); it is built on first use` });
  }
  const summary: ImportSummary = {
    releaseId,
    version,
    language: model.language,
    languageTag: tag,
    kind,
    languages,
    replaced,
    counts: model.counts,
    links: model.links.length,
    paths: model.paths.length,
    millis: Date.now() - started,
    changes,
    ...(written ? { written } : {}),
  };
  report({ phase: 'done', done: total, total, message: `imported ${version} in ${summary.millis} ms` });
  return summary;
}
