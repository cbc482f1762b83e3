// The start's views of older releases (issue 32: the first request on an older release within 150 ms;
// at 24 full-size releases the oldest's first code page waited for its view's base, a keyframe read of
// ~0.5 s, and answered by SQL meanwhile: 309 ms). Once the newest's index is warm, each older release's
// view is made from its stored delta, newest first (the newest's own group needs no other base; a
// further group's keyframe is loaded as its base only into room the index cache has and a free place
// in its LRU: never pushing another base out). Stops when a view like the largest made so far would
// not fit: views never push each other out at start. Never throws a request's error at a client.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ReleaseCatalog } from '../domain/catalog.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export interface OlderViewWarmUp {
  /** Versions whose view was made, newest first. */
  made: string[];
  ms: number;
}

export async function warmOlderViews(catalog: ReleaseCatalog, db: Db, isShuttingDown: () => boolean): Promise<OlderViewWarmUp> {
  const started = performance.now();
  const [latest, ...older] = await catalog.releases();
  const indexes = catalog.searchIndexes;
  const made: string[] = [];
  if (!latest || !indexes.peek(latest.id)) return { made, ms: 0 };
  let largest = 0;
  for (const r of older) {
    if (isShuttingDown()) break;
    const v = await indexes.warmView(r.id, db, largest);
    if (!v) continue;
    made.push(r.version);
    largest = Math.max(largest, v.bytes);
  }
  return { made, ms: Math.round(performance.now() - started) };
}
