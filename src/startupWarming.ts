// The start-up warming of the latest release: its in-memory index read from its snapshot before
// the server listens (bounded), then, once it listens, the index built if it had no snapshot
// and the change set against the previous release (a code page's last statement). So the first
// requests find them ready rather than each paying for the load. Last, an older release's load
// and search paths run once and let go of (src/services/olderReleaseWarming.ts), so the first
// request on an older release does not run them for the first time; then the older releases' views
// from their stored deltas, into the room the index cache has (src/services/olderViewWarming.ts).
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Logger } from './logger.ts';
import type { Composition } from './compose.ts';
import { latestReleaseId } from './domain/releaseIndex/snapshotStore.ts';
import { warmOlderReleasePaths } from './services/olderReleaseWarming.ts';
import { warmOlderViews } from './services/olderViewWarming.ts';

/** Longest wait before listening for the latest release's index snapshot read (it goes on in the background after). */
const START_WARM_MAX_MS = 2_000;
/**
 * The change set is read this long after the latest release's index is ready: the requests that
 * arrive with a start (probes, a first page, a whole subtree) are answered first. Embedded, its
 * rows are read on this thread (PGlite), ~100 ms at full size that would otherwise stall them.
 * Meanwhile a code page reads its change record by SQL, as it does whenever the set is not loaded.
 */
const CHANGE_SET_WARM_DELAY_MS = 1_000;

export interface StartupWarming {
  /** After listening: the rest of the warm-up, in the background. */
  afterListening(): void;
  /** On shutdown: no warm-up step starts any more. */
  stop(): void;
}

/**
 * Before listening: the latest release's index from its snapshot (one read, 0.1–0.3 s at full
 * size), so the first requests (a whole subtree, say) find it ready; for PGlite, which runs
 * statements on this thread, no request waits behind the read either. And one Prisma query,
 * whose first use instantiates the query compiler (WebAssembly, ~0.15 s, then optimised on
 * background threads). Not the catalog's release list: it would be cached before anything
 * imported right after the start. Bounded: a read still going after START_WARM_MAX_MS goes on in
 * the background, and hierarchy lookups arriving meanwhile wait for it (the index cache's waitMs, 150 ms)
 * rather than go to SQL. Resolves when the server may listen.
 */
export async function warmBeforeListening(
  config: Pick<Config, 'searchIndexWarmDelayMs'>,
  db: Database,
  services: Pick<Composition['services'], 'catalog' | 'changeSets'>,
  log: Logger,
  isShuttingDown: () => boolean,
): Promise<StartupWarming> {
  const { catalog } = services;
  const preloaded =
    config.searchIndexWarmDelayMs >= 0
      ? latestReleaseId(db.blobs)
          .then((id) => (id === undefined ? undefined : catalog.searchIndexes.loadSnapshot(id, db.reader())))
          .catch(() => undefined)
      : Promise.resolve(undefined);
  let startWait: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([preloaded, db.prisma.release.findFirst({ select: { id: true } }).catch(() => undefined)]),
    new Promise<void>((resolve) => (startWait = setTimeout(resolve, START_WARM_MAX_MS))),
  ]);
  clearTimeout(startWait);

  // The latest release's in-memory index (search, and concepts/paths of catalog reads), then
  // its change set against the previous release. From its snapshot the index loaded before
  // listening (above; the latest release's id read without waiting for Prisma's first query:
  // latestReleaseId). Built from rows it waits a few seconds: those reads would otherwise queue
  // ahead of the first readiness probes (PGlite answers one query at a time).
  let warm: NodeJS.Timeout | undefined;
  const warmUp = () =>
    void catalog
      .latest()
      .then(async (r) => {
        if (!r) return;
        const t0 = performance.now();
        await catalog.searchIndexes.get(r.id, db.reader());
        await new Promise<void>((resolve) => {
          warm = setTimeout(resolve, CHANGE_SET_WARM_DELAY_MS);
          warm.unref();
        });
        if (isShuttingDown()) return;
        const indexMs = Math.round(performance.now() - t0 - CHANGE_SET_WARM_DELAY_MS);
        const t1 = performance.now();
        const prev = await catalog.previous(r);
        const pair = prev && (await services.changeSets.get(prev.id, r.id, db.prisma).catch((e: Error) => {
          log.warn({ err: { message: e.message } }, 'change set warm-up failed; code pages read their change record by SQL until it loads');
          return null;
        }));
        log.info(
          { release: r.version, against: prev?.version ?? null, changes: pair ? pair.size : null, indexMs, changesMs: Math.round(performance.now() - t1) },
          'warmed the latest release (index and change set)',
        );
        if (isShuttingDown()) return;
        // Then an older release's load and search paths, run once and let go of (issue 32: the first
        // request on an older release after a start ran them for the first time: 0.54x its CPU once they ran).
        const older = await warmOlderReleasePaths(catalog, db.reader(), isShuttingDown).catch((e: Error) => ({ warmed: false as const, reason: e.message }));
        if (older.warmed) log.info(older, 'warmed the load paths of an older release (and let go of what they loaded)');
        else log.info(older, 'older-release load paths not warmed');
        if (isShuttingDown()) return;
        // Then the older releases' views (their first requests answer through them, not by SQL).
        const views = await warmOlderViews(catalog, db.reader(), isShuttingDown).catch((e: Error) => ({ made: [], ms: 0, error: e.message }));
        log.info({ ...views, made: views.made.length, releases: views.made }, 'made the views of older releases');
      })
      .catch((e: Error) => log.warn({ err: { message: e.message } }, 'search index warm-up failed; it will load on first search'));
  return {
    afterListening() {
      if (config.searchIndexWarmDelayMs < 0) return;
      void preloaded.then((loaded) => {
        if (isShuttingDown()) return;
        warm = setTimeout(warmUp, loaded ? 0 : config.searchIndexWarmDelayMs);
        warm.unref();
      });
    },
    stop: () => clearTimeout(warm),
  };
}
