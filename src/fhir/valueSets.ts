// The implicit value sets over a release's use cases: membership and one page of an
// expansion. `?fhir_vs` and `level/…` are the ranked search of GET /codes (so a filter
// gives the same top hit as /codes?q=); `isa/{code}` is the node's subtree on every path;
// `smq/{code}/{scope}` an SMQ's active terms (an LLT is a member through its listed PT, as
// when the SMQ is applied to coded data).
import type { Concept } from '../domain/concepts.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNotFound } from '../domain/errors.ts';
import { parseCode } from '../services/arguments.ts';
import { conceptAt } from '../services/codes.ts';
import { descendantsOf } from '../services/descendants.ts';
import type { Page, PageRequest } from '../services/paging.ts';
import type { RequestScope } from '../services/scope.ts';
import { searchCodes } from '../services/search.ts';
import { isSameOrBelow } from '../services/subsumption.ts';
import { notFound } from './outcome.ts';
import { inSmq, smqConcepts } from '../services/smqMembership.ts';
import { smqAt, type ReleaseSmq } from '../services/smqs.ts';
import { valueSetUrl, type ImplicitValueSet } from './valueSetUrls.ts';

/** A value set bound to a release, its isa node looked up. */
export type ResolvedValueSet = { vs: ImplicitValueSet; release: ReleaseInfo; node?: Concept; smq?: ReleaseSmq };

export async function resolveValueSet(scope: RequestScope, release: ReleaseInfo, vs: ImplicitValueSet): Promise<ResolvedValueSet> {
  if (vs.kind === 'smq') {
    const smq = await smqAt(scope, release, vs.code, 'url');
    if (!smq) throw notFound(`SMQ ${vs.code} does not exist in release ${release.version}: the value set ${valueSetUrl(vs)} does not exist in that release.`);
    return { vs, release, smq };
  }
  if (vs.kind !== 'isa') return { vs, release };
  const node = await conceptAt(scope, release, parseCode(vs.code, 'url'));
  // The value set is defined by its node: no node, no value set (404, as for any unknown resource).
  if (!node) throw notFound(`${codeNotFound(vs.code, release.version).message} The value set ${valueSetUrl(vs)} does not exist in that release.`);
  return { vs, release, node };
}

export async function inValueSet(scope: RequestScope, set: ResolvedValueSet, c: Concept, activeOnly: boolean): Promise<boolean> {
  if (activeOnly && !c.current) return false;
  switch (set.vs.kind) {
    case 'all':
      return true;
    case 'level':
      // A PT's code is also its own LLT's: level/LLT holds it too (as the listing does).
      return c.level === set.vs.level || (set.vs.level === 'LLT' && c.level === 'PT');
    case 'isa':
      return isSameOrBelow(scope, c, set.node!);
    case 'smq':
      return inSmq(scope, set.smq!, set.vs.scope, c);
  }
}

/**
 * One page of the expansion. activeOnly is a filter of the enumeration (search, subtree,
 * SMQ terms), applied before paging: the total counts current members and pages are full.
 */
export async function expansionPage(
  scope: RequestScope,
  set: ResolvedValueSet,
  args: { filter: string | undefined; activeOnly: boolean },
  page: PageRequest,
): Promise<Page<Concept>> {
  const currentOnly = args.activeOnly;
  if (set.vs.kind === 'isa') return descendantsOf(scope, set.release, set.node!, { filter: args.filter, currentOnly }, page);
  if (set.vs.kind === 'smq') return smqConcepts(scope, set.smq!, set.vs.scope, { filter: args.filter, currentOnly }, page);
  const level = set.vs.kind === 'level' ? set.vs.level : undefined;
  const r = await searchCodes(scope, { q: args.filter, level, version: set.release.version, currentOnly }, page);
  return { items: r.items.map((h) => h.concept), total: r.total };
}
