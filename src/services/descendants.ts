// A node and everything below it on any path (multiaxial: a PT under a secondary HLT
// counts), one page at a time, optionally narrowed by the same ranked search as /codes.
// One code is one concept: a PT's own LLT (same code) is the PT and appears once.
import type { Concept } from '../domain/concepts.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import type { HierarchyFilter } from '../domain/hierarchyFilter.ts';
import { searchConcepts } from '../domain/releaseIndex/search.ts';
import { normalizeName } from '../domain/text.ts';
import { validationError } from '../domain/errors.ts';
import { MAX_PT_SYNONYMS, MAX_QUERY_LENGTH } from './limits.ts';
import { slicePage, type Page, type PageRequest } from './paging.ts';
import type { RequestScope } from './scope.ts';

export interface DescendantArgs {
  /** Search text (ranked as GET /codes?q=); absent lists the subtree. */
  filter?: string | null | undefined;
  /** Current concepts only (FHIR activeOnly): applied before paging, so totals and pages stay whole. */
  currentOnly?: boolean | undefined;
}

/** The subtree of `node` (the node included), one page. */
export async function descendantsOf(scope: RequestScope, release: ReleaseInfo, node: Concept, args: DescendantArgs, page: PageRequest): Promise<Page<Concept>> {
  const filter = args.filter?.trim() || undefined;
  const currentOnly = args.currentOnly ?? false;
  if (filter && filter.length > MAX_QUERY_LENGTH) throw validationError({ filter: [`must be at most ${MAX_QUERY_LENGTH} characters`] });
  switch (node.level) {
    case 'SOC':
    case 'HLGT':
    case 'HLT': {
      // The hierarchy filters of search already follow every path and include the node itself.
      const f: HierarchyFilter = node.level === 'SOC' ? { soc: node.code } : node.level === 'HLGT' ? { hlgt: node.code } : { hlt: node.code };
      const { services } = scope;
      const found = await searchConcepts(
        { db: services.reader?.() ?? services.prisma, indexes: services.catalog.searchIndexes },
        release.id,
        filter,
        { ...f, currentOnly },
        page.offset,
        page.limit,
      );
      // A SOC without HLGTs (a few have none) lies on no path: its subtree is itself alone.
      if (found.total === 0 && node.level === 'SOC') return slicePage(!filter || matchesName(node, filter) ? [node] : [], page);
      return { items: found.hits.map((h) => h.concept), total: found.total };
    }
    case 'PT':
      return ptSubtree(scope, node, filter, currentOnly, page);
    case 'LLT':
      return slicePage((!filter || matchesName(node, filter)) && (node.current || !currentOnly) ? [node] : [], page);
  }
}

const matchesName = (c: Concept, filter: string) => normalizeName(c.name).includes(normalizeName(filter));

/** A PT and its LLTs, the PT first (its own LLT is the PT itself). */
async function ptSubtree(scope: RequestScope, pt: Concept, filter: string | undefined, currentOnly: boolean, page: PageRequest): Promise<Page<Concept>> {
  const key = { releaseId: pt.releaseId, ptCode: pt.code };
  // The synonym list puts the PT's own LLT first: that row stands for the PT.
  const asPt = (c: Concept) => (c.code === pt.code ? pt : c);
  if (!filter && !currentOnly) {
    const [items, total] = await Promise.all([scope.loaders.synonymPage.load({ ...key, ...page }), scope.loaders.synonymCount.load(key)]);
    return { items: items.map(asPt), total };
  }
  // A PT has tens of LLTs: filter them in memory (substring match on the normalised name, currency).
  const all = await scope.loaders.synonymPage.load({ ...key, offset: 0, limit: MAX_PT_SYNONYMS });
  return slicePage(all.map(asPt).filter((c) => (!filter || matchesName(c, filter)) && (c.current || !currentOnly)), page);
}
