// Search (q) or list the codes of a release: validation, release selection, hierarchy and
// change-type filters, one ranked page.
import type { ChangeType } from '../domain/changes/engine.ts';
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { searchConcepts, type SearchFilters, type SearchHit } from '../domain/search/search.ts';
import { validationError } from '../domain/errors.ts';
import { hierarchyFilter, type HierarchyFilterArgs } from './filters.ts';
import { MAX_QUERY_LENGTH } from './limits.ts';
import { emptyPage, type Page, type PageRequest } from './paging.ts';
import type { RequestScope } from './scope.ts';

export interface SearchArgs extends HierarchyFilterArgs {
  q?: string | null | undefined;
  level?: Level | null | undefined;
  changeType?: ChangeType | null | undefined;
  version?: string | null | undefined;
  /** Current concepts only: FHIR's activeOnly (GraphQL and REST do not offer it). */
  currentOnly?: boolean | undefined;
}

export type ReleaseSearchHit = SearchHit & { version: string };

export async function searchCodes(scope: RequestScope, args: SearchArgs, page: PageRequest): Promise<Page<ReleaseSearchHit> & { release: ReleaseInfo }> {
  if (args.q && args.q.length > MAX_QUERY_LENGTH) throw validationError({ q: [`must be at most ${MAX_QUERY_LENGTH} characters`] });
  const release = await scope.selectRelease(args.version);
  const filters: SearchFilters = { level: args.level ?? undefined, currentOnly: args.currentOnly, ...(await hierarchyFilter(scope, [release], args)) };
  if (args.changeType) {
    const prev = await scope.services.catalog.previous(release);
    // The oldest release has no recorded changes: nothing matches.
    if (!prev) return { ...emptyPage(), release };
    await scope.loaders.changeSet.load({ from: prev, to: release });
    filters.change = { fromReleaseId: prev.id, type: args.changeType };
  }
  const { services } = scope;
  const found = await searchConcepts(
    { db: services.reader?.() ?? services.prisma, indexes: services.catalog.searchIndexes },
    release.id,
    args.q ?? undefined,
    filters,
    page.offset,
    page.limit,
  );
  return { items: found.hits.map((h) => ({ ...h, version: release.version })), total: found.total, release };
}
