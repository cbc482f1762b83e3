// The start's warm-up of an older release's load paths (issue 32: the first request after a start
// within 150 ms on every release). A search on a release whose index is not kept runs code that
// nothing before it ran in the process: the release's overlay view over the newest's index, its
// index materialised from its delta snapshot, its names in another language from theirs, the
// search in that language. On the demo store the first such search (lang=de on the oldest release)
// cost 760–930 ms of the server's CPU, its longest turn 52–115 ms of the serving thread (the
// process's CPU across it 167–418 ms with GC helpers and compilers); with these paths run once at
// start, 360–680 ms and 45–73 ms (bench/languageFirstSearch.ts --bundle, bench/results.md). So
// once the newest's index and change set are warm, the start runs them once on one older release,
// as a request would (the loads yield between slices: requests go first), then lets go of
// everything it loaded: the code stays compiled, the cache holds what it held. Only from stored
// snapshots (a build from rows is a request's to pay, not a start's) and only when the index cache
// has room for what it loads beside what it keeps: it never pushes an index out.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ReleaseCatalog } from '../domain/catalog.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { searchConcepts } from '../domain/releaseIndex/search.ts';
import { storedSnapshots } from '../domain/releaseIndex/snapshotStore.ts';
import { hasAlternateKeys } from '../domain/languageNames.ts';
import { searchLanguage } from './language.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export type OlderReleaseWarmUp =
  | { warmed: true; release: string; languages: string[]; ms: number }
  | { warmed: false; reason: string; release?: string };

/**
 * One search-as-you-type's first letter, then a word's first five letters (the typo-tolerant
 * pass and longer posting lists): the searches a client sends first, in `tag`.
 */
async function searches(catalog: ReleaseCatalog, db: Db, release: ReleaseInfo, tag: string): Promise<void> {
  const src = { db, indexes: catalog.searchIndexes };
  const language = searchLanguage(release, tag);
  const first = await searchConcepts(src, release.id, 'a', {}, 0, 100, language);
  const word = first.hits[0]?.match?.term.split(/\s+/)[0]?.slice(0, 5);
  if (word) await searchConcepts(src, release.id, word, {}, 0, 100, language);
}

/** The variants of a language's names a search reads (German: two keys). */
const variantsOf = (tag: string) => (hasAlternateKeys(tag) ? [0, 1] : [0]);

/**
 * Runs the load and search paths of an older release once and forgets what they loaded. The
 * release: the newest but one that hosts languages besides its primary (the nearest older release
 * otherwise), when its index snapshot is a delta over the newest's and that index is kept — what
 * the newest's import leaves the releases of its group with (snapshotChain.ts). Its languages: those whose every variant a search reads is
 * stored (otherwise a search builds them from rows). Never throws a request's error at a client: a
 * failure is the caller's to log, and what was loaded is let go of either way.
 */
export async function warmOlderReleasePaths(catalog: ReleaseCatalog, db: Db, isShuttingDown: () => boolean): Promise<OlderReleaseWarmUp> {
  const started = performance.now();
  const [latest, ...older] = await catalog.releases();
  if (!latest || !older.length) return { warmed: false, reason: 'no older release' };
  const release = older.find((r) => r.languages.length > 1) ?? older[0]!;
  const indexes = catalog.searchIndexes;
  // Something of it already loaded (a request's): nothing to warm, and nothing of a client's to let go of.
  if (indexes.holds(release.id)) return { warmed: false, reason: 'already loaded', release: release.version };
  const stored = await storedSnapshots(db, release.id);
  // A delta over the newest's, whose index is kept: its view and materialising read nothing else.
  if (stored.base !== latest.id || !indexes.peek(latest.id)) {
    return { warmed: false, reason: stored.base === undefined ? 'its index snapshot is not stored' : 'its index snapshot is not a delta over the newest release\'s kept index', release: release.version };
  }
  const languages = release.languages.slice(1).filter((t) => variantsOf(t).every((v) => stored.languages.get(t)?.includes(v)));
  // Its index and each language variant's beside those kept, each estimated at the largest primary's size; languages left out first.
  while (languages.length && !indexes.fits(1 + languages.flatMap(variantsOf).length)) languages.pop();
  if (!indexes.fits(1)) return { warmed: false, reason: 'no room in the index cache', release: release.version };
  try {
    // The primary language through the overlay view (nothing materialised)…
    await searches(catalog, db, release, release.languages[0]!);
    // …its index materialised from its delta (what other languages, changes and impact read)…
    if (!isShuttingDown()) await indexes.get(release.id, db);
    // …and its names in each other language from their deltas.
    for (const tag of languages) if (!isShuttingDown()) await searches(catalog, db, release, tag);
  } finally {
    // Every load above has settled (each search awaited its index; get() the release's).
    indexes.forget(release.id);
  }
  if (isShuttingDown()) return { warmed: false, reason: 'shutting down', release: release.version };
  return { warmed: true, release: release.version, languages, ms: Math.round(performance.now() - started) };
}
