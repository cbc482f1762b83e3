// Code search over one release: every level's names including LLT synonyms,
// case- and accent-insensitive, ranked exact > prefix > word-prefix > typo-tolerant.
// The database does the work (pg_trgm GIN index), never a scan in JavaScript.
import type { PrismaClient } from '../generated/prisma/client.ts';
import { CONCEPT_COLUMNS, type Concept } from './concepts.ts';
import type { Level } from './levels.ts';
import { normalizeName } from './text.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export type MatchType = 'EXACT' | 'PREFIX' | 'WORD_PREFIX' | 'FUZZY';

export interface SearchFilters {
  level?: Level | undefined;
  soc?: number | undefined;
  hlgt?: number | undefined;
  hlt?: number | undefined;
  llt?: number | undefined;
  /** Restrict to concepts whose codes are in this set (e.g. the change filter); undefined = no restriction. */
  codes?: readonly { level: Level; code: number }[] | undefined;
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
  hits: SearchHit[];
}

const TIERS: Record<number, MatchType> = { 4: 'EXACT', 3: 'PREFIX', 2: 'WORD_PREFIX', 1: 'FUZZY' };

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, (m) => `\\${m}`);

/** SQL shared by both modes: target filters (level, hierarchy, code set) on alias t (tlevel, tcode). */
function filterSql(f: SearchFilters, p: (v: unknown) => string): string {
  const parts: string[] = [];
  if (f.level) parts.push(`t.tlevel = ${p(f.level)}`);
  if (f.llt !== undefined) {
    const llt = p(f.llt);
    parts.push(`((t.tlevel = 'LLT' AND t.tcode = ${llt}) OR (t.tlevel = 'PT' AND t.tcode = (
      SELECT pt_code FROM concept WHERE release_id = $1 AND level = 'LLT' AND code = ${llt})))`);
  }
  if (f.soc !== undefined || f.hlgt !== undefined || f.hlt !== undefined) {
    const conds = [
      f.soc !== undefined ? `hp.soc_code = ${p(f.soc)}` : null,
      f.hlgt !== undefined ? `hp.hlgt_code = ${p(f.hlgt)}` : null,
      f.hlt !== undefined ? `hp.hlt_code = ${p(f.hlt)}` : null,
    ].filter(Boolean);
    // Any path (not only the primary one) puts a concept inside a subtree.
    parts.push(`EXISTS (SELECT 1 FROM hierarchy_path hp WHERE hp.release_id = $1 AND ${conds.join(' AND ')} AND CASE t.tlevel
        WHEN 'PT' THEN hp.pt_code = t.tcode
        WHEN 'LLT' THEN hp.pt_code = (SELECT pt_code FROM concept WHERE release_id = $1 AND level = 'LLT' AND code = t.tcode)
        WHEN 'HLT' THEN hp.hlt_code = t.tcode
        WHEN 'HLGT' THEN hp.hlgt_code = t.tcode
        ELSE hp.soc_code = t.tcode END)`);
  }
  if (f.codes) {
    parts.push(`(t.tlevel, t.tcode) IN (SELECT x.l::"Level", x.c FROM json_to_recordset(${p(JSON.stringify(f.codes.map((c) => ({ l: c.level, c: c.code }))))}::json) AS x(l text, c int))`);
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
             0::float8 AS sim, count(*) OVER ()::int AS total
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
        WHERE c.release_id = $1 AND (c.name_norm LIKE ${contains} OR c.name_norm % ${qp} OR ${qp} <% c.name_norm)
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
      SELECT ${CONCEPT_COLUMNS('c')}, t.tier, t.mterm, t.mlevel::text AS mlevel, t.mcode, t.sim, count(*) OVER ()::int AS total
      FROM t JOIN concept c ON c.release_id = $1 AND c.level = t.tlevel AND c.code = t.tcode
      ${filterSql(filters, p)}
      -- Within a tier: the closest word match, then the closest whole name, then PTs (what coders
      -- want) before LLTs and the grouping levels, then shorter names.
      ORDER BY t.tier DESC, (t.mlevel = t.tlevel) DESC, round(t.sim::numeric, 2) DESC, t.fullsim DESC, c.current DESC,
               array_position(ARRAY['PT','LLT','HLT','HLGT','SOC']::"Level"[], c.level), length(c.name), c.name_norm, c.code
      OFFSET ${p(offset)} LIMIT ${p(limit)}`;
  }
  type Row = Concept & { tier: number | null; mterm: string | null; mlevel: Level | null; mcode: number | null; sim: number; total: number };
  const rows = await db.$queryRawUnsafe<Row[]>(sql, ...params);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && offset > 0) {
    // Past the last page: count without paging so the envelope still reports the total.
    total = (await searchConcepts(db, releaseId, q, filters, 0, 1)).total;
  }
  return {
    total,
    hits: rows.map(({ tier, mterm, mlevel, mcode, sim, total: _t, ...concept }) => ({
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
