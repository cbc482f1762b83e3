// Search (q) or list the codes of a release: validation, release selection, hierarchy and
// change-type filters, one ranked page.
import type { ChangeType } from '../domain/changes/engine.ts';
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { searchConcepts, searchConceptsAll, type SearchFilters, type SearchHit } from '../domain/releaseIndex/search.ts';
import { ALL_LANGUAGES, languageFor, searchLanguage } from './language.ts';
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
  /** BCP 47 tag of the names to search and show, or `*` for every hosted language (issue 28). */
  language?: string | null | undefined;
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
  const src = { db: services.reader?.() ?? services.prisma, indexes: services.catalog.searchIndexes };
  const tag = languageFor(scope, release, args.language, true);
  if (tag === ALL_LANGUAGES) {
    // Every hosted language; without a query, a listing in the primary language.
    if (!args.q) return searchCodes(scope, { ...args, language: release.languages[0] }, page);
    const found = await searchConceptsAll(src, release.id, args.q, filters, page.offset, page.limit, release.languages.map((t) => searchLanguage(release, t)));
    for (const h of found.hits) if (h.match?.language) scope.usedLanguages.add(h.match.language);
    return { items: found.hits.map((h) => ({ ...h, version: release.version })), total: found.total, release };
  }
  const found = await searchConcepts(src, release.id, args.q ?? undefined, filters, page.offset, page.limit, searchLanguage(release, tag));
  return { items: found.hits.map((h) => ({ ...h, version: release.version })), total: found.total, release };
}
