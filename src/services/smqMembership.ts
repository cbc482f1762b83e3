// An SMQ as a set of codes, for one scope: membership of a concept and the concepts it
// lists, paged. Narrow = the narrow-scope terms; broad = MedDRA's broad search, narrow and
// broad terms together. Sub-SMQs' terms count for their parents; inactive terms (status I,
// kept by MedDRA for history) do not count; an LLT is a member through its listed PT, as
// when an SMQ is applied to coded data.
import type { Concept } from '../domain/concepts.ts';
import { normalizeName } from '../domain/text.ts';
import { withVersion } from './codes.ts';
import { MAX_SMQ_DEPTH, MAX_SMQ_TERMS_FILTERED } from './limits.ts';
import type { Page, PageRequest } from './paging.ts';
import type { RequestScope } from './scope.ts';
import { parentSmq, scopeOf, smqsOfCode, smqStatus, smqTerms, type ReleaseSmq } from './smqs.ts';

export type SmqSearchScope = 'narrow' | 'broad';

async function isSameOrSubSmq(scope: RequestScope, s: ReleaseSmq, top: ReleaseSmq): Promise<boolean> {
  let cur: ReleaseSmq | null = s;
  for (let depth = 0; cur && depth < MAX_SMQ_DEPTH; depth++) {
    if (cur.code === top.code) return true;
    cur = await parentSmq(scope, cur);
  }
  return false;
}

export async function inSmq(scope: RequestScope, smq: ReleaseSmq, searchScope: SmqSearchScope, c: Concept): Promise<boolean> {
  if (c.level !== 'PT' && c.level !== 'LLT') return false;
  for (const m of await smqsOfCode(scope, withVersion(c, smq.version))) {
    if (smqStatus(m.status) === 'INACTIVE') continue;
    if (searchScope === 'narrow' && scopeOf(m.scope) !== 'NARROW') continue;
    if (await isSameOrSubSmq(scope, m.smq, smq)) return true;
  }
  return false;
}

/** Does every word of the filter start a word of the name? */
function matchesWords(name: string, filter: string): boolean {
  const words = normalizeName(name).split(' ');
  return normalizeName(filter).split(' ').filter(Boolean).every((w) => words.some((x) => x.startsWith(w)));
}

/**
 * The concepts an SMQ lists for a scope (narrow first, PTs before LLTs, by name), optionally
 * filtered by name words and to current concepts (before paging, so the total counts them).
 */
export async function smqConcepts(
  scope: RequestScope,
  smq: ReleaseSmq,
  searchScope: SmqSearchScope,
  opts: { filter?: string | undefined; currentOnly?: boolean | undefined },
  page: PageRequest,
): Promise<Page<Concept>> {
  const { filter } = opts;
  const args = { scope: searchScope === 'narrow' ? ('NARROW' as const) : null, status: 'ACTIVE' as const, currentOnly: opts.currentOnly };
  const terms = filter
    ? await smqTerms(scope, smq, args, { offset: 0, limit: MAX_SMQ_TERMS_FILTERED }).then((all) => {
        const hits = all.items.filter((t) => t.name !== null && matchesWords(t.name, filter));
        return { items: hits.slice(page.offset, page.offset + page.limit), total: hits.length };
      })
    : await smqTerms(scope, smq, args, page);
  const concepts = await Promise.all(terms.items.map((t) => scope.loaders.concept.load({ releaseId: smq.releaseId, level: t.level, code: t.code })));
  return { items: concepts.filter((c): c is Concept => c !== null), total: terms.total };
}
