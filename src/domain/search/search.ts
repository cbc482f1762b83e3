// Code search over one release: every level's names including LLT synonyms,
// case- and accent-insensitive, ranked exact > prefix > word-prefix > typo-tolerant.
// The database does the work (pg_trgm GIN index), never a scan in JavaScript.
import type { PrismaClient } from '../generated/prisma/client.ts';
import { CONCEPT_COLUMNS, type Concept } from './concepts.ts';
import type { Level } from './levels.ts';
import { normalizeName } from './text.ts';
import { hasHierarchyFilter, underNodeSql, type HierarchyFilter } from './hierarchyFilter.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export type MatchType = 'EXACT' | 'PREFIX' | 'WORD_PREFIX' | 'FUZZY';

export interface SearchFilters extends HierarchyFilter {
  level?: Level | undefined;
  /** Restrict to concepts changed in this way against the given baseline release. */
  change?: { fromReleaseId: number; type: 'added' | 'updated' | 'retired' } | undefined;
}

export interface SearchMatch {
  /** The name that matched: the concept's own, or one of its LLTs' (a synonym). */
  term: string;
  level: Level;
  code: number;
  type: MatchType;
  /** True when the name is an LLT of the returned PT rather than the PT itself. */
  isSynonym: boolean;
  /** Trigram similarity of the query to the matched name, 0–1. */
  score: number;
}

export interface SearchHit {
  concept: Concept;
  match: SearchMatch | null;
}

export interface SearchPage {
  total: number;
  /** Best match tier over all results (4 = an exact name), null without a query. */
  best: number | null;
  hits: SearchHit[];
}

const TIERS: Record<number, MatchType> = { 4: 'EXACT', 3: 'PREFIX', 2: 'WORD_PREFIX', 1: 'FUZZY' };

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, (m) => `\\${m}`);

/** Target filters (level, hierarchy, change type) on alias t (tlevel, tcode). */
function filterSql(f: SearchFilters, p: (v: unknown) => string): string {
  const parts: string[] = [];
  if (f.level) parts.push(`t.tlevel = ${p(f.level)}`);
  if (hasHierarchyFilter(f)) parts.push(underNodeSql(f, '$1', 't.tlevel', 't.tcode', p));
  if (f.change) {
    // Concepts whose change against the previous release has this type (stored change set).
    parts.push(`EXISTS (SELECT 1 FROM release_change rc WHERE rc.from_release_id = ${p(f.change.fromReleaseId)} AND rc.to_release_id = $1
      AND rc.code = t.tcode AND rc.level = t.tlevel AND rc.change_type = ${p(f.change.type)}::"ChangeType")`);
  }
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

export async function searchConcepts(
  db: Db,
  releaseId: number,
  q: string | undefined,
  filters: SearchFilters,
  offset: number,
  limit: number,
  fuzzy = false,
): Promise<SearchPage> {
  const params: unknown[] = [releaseId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // Collapse an LLT hit onto its PT unless the client asked for LLTs.
  const collapse = filters.level !== 'LLT';
  const nq = q === undefined ? '' : normalizeName(q);
  let sql: string;
  if (nq === '') {
    sql = `WITH t AS (
        SELECT c.level AS tlevel, c.code AS tcode FROM concept c
        WHERE c.release_id = $1 ${collapse ? "AND NOT (c.level = 'LLT' AND c.code = c.pt_code)" : ''}
      )
      SELECT ${CONCEPT_COLUMNS('c')}, NULL::int AS tier, NULL::text AS mterm, NULL::text AS mlevel, NULL::int AS mcode,
             0::float8 AS sim, count(*) OVER ()::int AS total, NULL::int AS best
      FROM t JOIN concept c ON c.release_id = $1 AND c.level = t.tlevel AND c.code = t.tcode
      ${filterSql(filters, p)}
      ORDER BY c.level, c.intl_order NULLS LAST, c.name_norm, c.code
      OFFSET ${p(offset)} LIMIT ${p(limit)}`;
  } else {
    const qp = p(nq);
    const contains = p(`%${likeEscape(nq)}%`);
    const prefix = p(`${likeEscape(nq)}%`);
    const wordPrefix = p(`\\m${regexEscape(nq)}`);
    sql = `WITH m AS (
        SELECT c.level, c.code, c.pt_code, c.name, c.current,
               CASE WHEN c.name_norm = ${qp} THEN 4 WHEN c.name_norm LIKE ${prefix} THEN 3
                    WHEN c.name_norm ~ ${wordPrefix} THEN 2 ELSE 1 END AS tier,
               greatest(similarity(c.name_norm, ${qp}), word_similarity(${qp}, c.name_norm))::float8 AS sim,
               similarity(c.name_norm, ${qp})::float8 AS fullsim
        FROM concept c
        WHERE c.release_id = $1 AND (c.name_norm LIKE ${contains}${fuzzy ? ` OR c.name_norm % ${qp} OR ${qp} <% c.name_norm` : ''})
      ),
      t AS (
        SELECT DISTINCT ON (tlevel, tcode) * FROM (
          SELECT CASE WHEN m.level = 'LLT' AND ${collapse} THEN 'PT'::"Level" ELSE m.level END AS tlevel,
                 CASE WHEN m.level = 'LLT' AND ${collapse} THEN m.pt_code ELSE m.code END AS tcode,
                 m.level AS mlevel, m.code AS mcode, m.name AS mterm, m.current AS mcurrent, m.tier, m.sim, m.fullsim
          FROM m
        ) x
        ORDER BY tlevel, tcode, tier DESC, (mlevel = tlevel) DESC, mcurrent DESC, sim DESC, fullsim DESC, length(mterm)
      )
      SELECT ${CONCEPT_COLUMNS('c')}, t.tier, t.mterm, t.mlevel::text AS mlevel, t.mcode, t.sim, count(*) OVER ()::int AS total,
             max(t.tier) OVER () AS best
      FROM t JOIN concept c ON c.release_id = $1 AND c.level = t.tlevel AND c.code = t.tcode
      ${filterSql(filters, p)}
      -- Within a tier: the closest word match, then the closest whole name, then PTs (what coders
      -- want) before LLTs and the grouping levels, then shorter names.
      ORDER BY t.tier DESC, (t.mlevel = t.tlevel) DESC, round(t.sim::numeric, 2) DESC, t.fullsim DESC, c.current DESC,
               array_position(ARRAY['PT','LLT','HLT','HLGT','SOC']::"Level"[], c.level), length(c.name), c.name_norm, c.code
      OFFSET ${p(offset)} LIMIT ${p(limit)}`;
  }
  type Row = Concept & { tier: number | null; mterm: string | null; mlevel: Level | null; mcode: number | null; sim: number; total: number; best: number | null };
  const rows = await db.$queryRawUnsafe<Row[]>(sql, ...params);
  let total = rows[0]?.total ?? 0;
  let best = rows[0]?.best ?? null;
  if (rows.length === 0 && offset > 0) {
    // Past the last page: count without paging so the envelope still reports the total.
    const first = await searchConcepts(db, releaseId, q, filters, 0, 1, fuzzy);
    total = first.total;
    best = first.best;
  }
  // Substring matches (exact, prefix, word-prefix) come from one cheap index probe. The
  // typo-tolerant trigram pass, several times dearer, runs when the query names no term
  // exactly and substrings do not fill a page: a decision that depends on the query and
  // page size only, so totals agree from page to page.
  if (nq !== '' && !fuzzy && best !== 4 && total < limit) return searchConcepts(db, releaseId, q, filters, offset, limit, true);
  return {
    total,
    best,
    hits: rows.map(({ tier, mterm, mlevel, mcode, sim, total: _t, best: _b, ...concept }) => ({
      concept,
      match:
        tier === null || mterm === null || mlevel === null || mcode === null
          ? null
          : {
              term: mterm,
              level: mlevel,
              code: mcode,
              type: TIERS[tier]!,
              isSynonym: !(mlevel === concept.level && mcode === concept.code) && !(mlevel === 'LLT' && mcode === concept.code),
              score: Math.round(sim * 1000) / 1000,
            },
    })),
  };
}
