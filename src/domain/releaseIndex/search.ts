// Code search over one release: every level's names including LLT synonyms,
// case- and accent-insensitive, ranked exact > prefix > word-prefix > typo-tolerant.
// Matching, ranking, listings without a query and the hierarchy filters run on the
// release's in-memory index (releaseIndex.ts, pg_trgm similarity; underNode.ts); the
// database answers only the change-type filter (one statement: the stored change set's
// codes of that type), and everything when an index holds no hierarchy.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { CONCEPT_COLUMNS, type Concept } from '../concepts.ts';
import { LEVELS, type Level } from '../levels.ts';
import { normalizeName } from '../text.ts';
import { hasHierarchyFilter, underNodeSql, type HierarchyFilter } from '../hierarchyFilter.ts';
import type { SearchIndexCache } from './indexCache.ts';
import { ReleaseIndex } from './releaseIndex.ts';
import { targetSlots, type SearchableIndex } from './searchable.ts';
import { isWordChar } from './trigram.ts';
import { cjkQueryGrams, scoreCjkFolded } from '../languageText.ts';
import { underNode } from './underNode.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export type MatchType = 'EXACT' | 'PREFIX' | 'WORD_PREFIX' | 'FUZZY';

export interface SearchFilters extends HierarchyFilter {
  level?: Level | undefined;
  /** Restrict to concepts changed in this way against the given baseline release. */
  change?: { fromReleaseId: number; type: 'added' | 'updated' | 'retired' } | undefined;
  /** Current concepts only (LLT currency; every other level is always current). */
  currentOnly?: boolean | undefined;
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
  /** The language of the matched name (issue 28; set when the search named its language). */
  language?: string | undefined;
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

// Tier 0: a CJK name sharing only part of the query (below every name containing all of it).
const TIERS: Record<number, MatchType> = { 4: 'EXACT', 3: 'PREFIX', 2: 'WORD_PREFIX', 1: 'FUZZY', 0: 'FUZZY' };


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


export interface SearchSource {
  db: Db;
  indexes: SearchIndexCache;
  /** How long a search waits for an index not loaded yet before it answers from SQL (by default the cache's waitMs). */
  waitMs?: number;
}

/** The language a search reads names in (issue 28). */
export interface SearchLanguage {
  tag: string;
  /** The release's primary language: the primary index and normalizeName. */
  primary: boolean;
  /** How the language folds a name (and so the query). */
  fold: (s: string) => string;
  /** Typo tolerance (trigram similarity): Latin scripts only; never edit distance on CJK. */
  fuzzy: boolean;
  /**
   * Chinese, Japanese, Korean: names without spaces. Matches are names containing the whole
   * folded query (ranked by languageText's containment score), then names sharing part of it
   * (its character bigrams, ranked by longest common substring and coverage).
   */
  cjk: boolean;
  /** Which key of the language's names the index holds (German: 1 = transliterated umlauts). */
  variant?: number;
  /** The language's names have a second key (variant 1), searched too. */
  alternates?: boolean;
}

async function indexFor(src: SearchSource, releaseId: number, language: SearchLanguage | undefined): Promise<ReleaseIndex> {
  return language && !language.primary ? src.indexes.getLanguage(releaseId, language.tag, src.db, language.variant ?? 0) : src.indexes.get(releaseId, src.db);
}

/** Search (q) or list (no q) the concepts of a release, one page; in `language` when given. */
export async function searchConcepts(
  src: SearchSource,
  releaseId: number,
  q: string | undefined,
  filters: SearchFilters,
  offset: number,
  limit: number,
  language?: SearchLanguage,
): Promise<SearchPage> {
  // A language whose names have two keys (German umlauts): both indexes, each name once.
  if (q && language?.alternates && !language.primary) {
    return searchConceptsAll(src, releaseId, q, filters, offset, limit, [{ ...language, variant: 0, alternates: false }, { ...language, variant: 1, alternates: false }]);
  }
  const nq = q === undefined ? '' : language && !language.primary ? language.fold(q) : normalizeName(q);
  // The primary language's index when it is loaded or loads within the bounded wait (a snapshot
  // read in flight: until it ends, bounded; SearchIndexCache.within); else the SQL path — the
  // listing's statement, or the candidate names (sqlCandidates) ranked by the same code as the
  // whole index — while the load goes on for the next request. Not for other languages, nor CJK
  // (its partial matches share only a bigram: no trigram candidates): those wait for the load.
  const bounded = !language || (language.primary && !language.cjk);
  // An older release whose index is not kept: through its overlay over the newest's index (issue 32).
  const started = performance.now();
  if (bounded) {
    const view = await src.indexes.searchView(releaseId, src.db);
    if (view) return searchIn(src.db, view, nq, filters, offset, limit, language);
  }
  // The wait for a view's read (bounded too) counts against the same bound.
  const wait = Math.max(0, (src.waitMs ?? src.indexes.waitMs) - (performance.now() - started));
  const index = bounded ? await src.indexes.within(releaseId, src.db, wait) : await indexFor(src, releaseId, language);
  if (!index) return bySql(src, releaseId, nq, filters, offset, limit, language);
  return searchIn(src.db, index, nq, filters, offset, limit, language);
}

/**
 * A page while the release's index loads: the listing's statement, or the candidate names
 * ranked like the whole index — as one search by SQL per release at a time on the embedded store
 * (SearchIndexCache.fallback): a later one shares it when it is the same statement, else waits for
 * the index. The statement and the load race: the first to answer gives the page, and a statement
 * that fails — on a large release a scan of its names can run past DATABASE_QUERY_TIMEOUT_MS, seen
 * at full size on PostgreSQL — gives way to the load (a client's search is not refused as "database
 * unavailable" while the index it needs is being built); a load that fails leaves the statement.
 * Candidates in two steps (sqlCandidates): the names containing the query first, and the typo
 * candidates only when the page needs the typo pass (the index's own decision, on the same names).
 */
async function bySql(src: SearchSource, releaseId: number, nq: string, filters: SearchFilters, offset: number, limit: number, language: SearchLanguage | undefined): Promise<SearchPage> {
  const collapse = filters.level !== 'LLT';
  const list = () => listConceptsSql(src.db, releaseId, filters, offset, limit);
  const candidates = (contained?: Candidates) => () => sqlCandidates(src.db, releaseId, nq, collapse, contained);
  const viaIndex = (wanted: () => boolean) =>
    src.indexes.get(releaseId, src.db).then((index) => (wanted() ? searchIn(src.db, index, nq, filters, offset, limit, language) : undefined));
  // No load raced when the index would not be kept or the release's view is on its way (SearchIndexCache.shouldLoad).
  const load = src.indexes.shouldLoad(releaseId);
  // The substring matches' page, or the typo step's: its own statement (shared like the first), else
  // the index's page (another statement in flight on the embedded store), else run directly (no load).
  const withTypos = (contained: Candidates): Promise<SearchPage> =>
    pageIn(src.db, contained.index, nq, filters, offset, limit, language, false).then((page) => {
      if (page) return page;
      const typos = src.indexes.fallback(releaseId, `typos ${collapse} ${nq}`, candidates(contained));
      if (typos) return typos.then((names) => searchIn(src.db, names.index, nq, filters, offset, limit, language));
      if (load) return src.indexes.get(releaseId, src.db).then((index) => searchIn(src.db, index, nq, filters, offset, limit, language));
      return candidates(contained)().then((names) => searchIn(src.db, names.index, nq, filters, offset, limit, language));
    });
  const statement = nq === '' ? src.indexes.fallback(releaseId, `list ${JSON.stringify([filters, offset, limit])}`, list) : src.indexes.fallback(releaseId, `names ${collapse} ${nq}`, candidates());
  if (statement) {
    const viaSql = nq === '' ? (statement as Promise<SearchPage>) : (statement as Promise<Candidates>).then(withTypos);
    return load ? firstAnswer(viaSql, viaIndex) : viaSql;
  }
  if (!load) return nq === '' ? list() : withTypos(await candidates()());
  const index = await src.indexes.get(releaseId, src.db).catch(() => undefined);
  if (index) return searchIn(src.db, index, nq, filters, offset, limit, language);
  return nq === '' ? list() : withTypos(await candidates()());
}

/**
 * The SQL page, or the index's when the load ends first or the statement fails; the statement's
 * error when both fail. The index's page is computed only while no page is given (`wanted`).
 */
function firstAnswer(viaSql: Promise<SearchPage>, viaIndex: (wanted: () => boolean) => Promise<SearchPage | undefined>): Promise<SearchPage> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let sqlError: unknown;
    let failures = 0;
    const give = (page: SearchPage | undefined) => {
      if (!page || answered) return;
      answered = true;
      resolve(page);
    };
    const fail = (e: unknown, fromSql: boolean) => {
      if (fromSql) sqlError = e;
      if (++failures === 2 && !answered) reject(fromSql ? e : sqlError);
    };
    viaSql.then(give, (e: unknown) => fail(e, true));
    viaIndex(() => !answered).then(give, (e: unknown) => fail(e, false));
  });
}

/** One page of `searchConcepts` on an index: the whole release's, or its candidates' (sqlCandidates). */
async function searchIn(db: Db, index: SearchableIndex, nq: string, filters: SearchFilters, offset: number, limit: number, language: SearchLanguage | undefined): Promise<SearchPage> {
  return (await pageIn(db, index, nq, filters, offset, limit, language, true))!;
}

/**
 * searchIn's page; with `typos` false, null when the page needs the typo pass (an index of the
 * names containing the query only: sqlCandidates' first step).
 */
async function pageIn(db: Db, index: SearchableIndex, nq: string, filters: SearchFilters, offset: number, limit: number, language: SearchLanguage | undefined, typos: boolean): Promise<SearchPage | null> {
  // An index without hierarchy (a candidates' index) leaves the filters to SQL.
  const keep = index.hasHierarchy ? await entryFilter(db, index, filters) : undefined;
  if (nq === '') {
    return keep === undefined ? listConceptsSql(db, index.releaseId, filters, offset, limit) : listConcepts(index, filters, keep, offset, limit);
  }
  const query = new Query(index, nq, language?.cjk ?? false);
  let ranked = await rank(db, query, filters, keep, false);
  // Substring matches (exact, prefix, word-prefix, inside a word) come first. The
  // typo-tolerant pass joins when the query names no term exactly and substrings do not
  // fill a page: a decision that depends on the query and page size only, so totals
  // agree from page to page. Not for scripts without spaces (CJK): see SearchLanguage.fuzzy.
  if (ranked.best !== 4 && ranked.targets.length < limit && (language ? language.fuzzy || language.cjk : true)) {
    if (!typos) return null;
    if (query.cjk) await index.prepareBigrams();
    ranked = await rank(db, query, filters, keep, true);
  }
  const { targets, best } = ranked;
  return {
    total: targets.length,
    best,
    hits: pageOf(query, targets, offset, limit).map((t) => hitOf(query, t, language && !language.primary ? language.tag : undefined)),
  };
}

/** One page (primary language) on a given index: a release's own, or a view through its overlay (tests and bench compare them). */
export function searchOn(db: Db, index: SearchableIndex, q: string | undefined, filters: SearchFilters, offset: number, limit: number): Promise<SearchPage> {
  return searchIn(db, index, q === undefined ? '' : normalizeName(q), filters, offset, limit, undefined);
}

/**
 * `lang=*`: the query in every language given, each concept once with its best match
 * (tier, then similarity), which names the language that matched. Ranked as one list.
 */
export async function searchConceptsAll(
  src: SearchSource,
  releaseId: number,
  q: string,
  filters: SearchFilters,
  offset: number,
  limit: number,
  languages: readonly SearchLanguage[],
): Promise<SearchPage> {
  const best = new Map<number, { x: Target; query: Query; tag: string }>();
  let bestTier: number | null = null;
  for (const language of languages) {
    const nq = language.primary ? normalizeName(q) : language.fold(q);
    if (nq === '') continue;
    const index = await indexFor(src, releaseId, language);
    const keep = index.hasHierarchy ? await entryFilter(src.db, index, filters) : undefined;
    const query = new Query(index, nq, language.cjk);
    let ranked = await rank(src.db, query, filters, keep, false);
    if (ranked.best !== 4 && ranked.targets.length < limit && (language.fuzzy || language.cjk)) {
      if (query.cjk) await index.prepareBigrams();
      ranked = await rank(src.db, query, filters, keep, true);
    }
    for (const x of ranked.targets) {
      const prev = best.get(x.t);
      if (!prev || x.tier > prev.x.tier || (x.tier === prev.x.tier && query.score(x.m).sim > prev.query.score(prev.x.m).sim)) best.set(x.t, { x, query, tag: language.tag });
    }
    if (ranked.best !== null && (bestTier === null || ranked.best > bestTier)) bestTier = ranked.best;
  }
  const all = [...best.values()];
  all.sort((a, b) => {
    if (a.x.tier !== b.x.tier) return b.x.tier - a.x.tier;
    if (a.x.self !== b.x.self) return a.x.self ? -1 : 1;
    const ra = Math.round(a.query.score(a.x.m).sim * 100);
    const rb = Math.round(b.query.score(b.x.m).sim * 100);
    if (ra !== rb) return rb - ra;
    const ix = a.query.index;
    const la = LEVEL_RANK[ix.levelOf(a.x.t)];
    const lb = LEVEL_RANK[ix.levelOf(b.x.t)];
    if (la !== lb) return la - lb;
    return ix.codeAt(a.x.t) - ix.codeAt(b.x.t);
  });
  return { total: all.length, best: bestTier, hits: all.slice(offset, offset + limit).map((h) => hitOf(h.query, h.x, h.tag)) };
}

// ---- Candidates by SQL ----------------------------------------------------------------------

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

const CANDIDATE_COLUMNS = 'c.level, c.code, c.name, c.name_norm, c.current, c.pt_code, c.primary_soc_code, c.soc_abbrev, c.intl_order';

/**
 * An index of the release's names that can match `nq`, for a search arriving before the
 * release's index is loaded: every name containing it, and with `contained` every name pg_trgm finds similar
 * (`%`: similarity ≥ pg_trgm.similarity_threshold, `<%`: word_similarity ≥
 * word_similarity_threshold — their defaults 0.3 and 0.6 are the typo pass's thresholds; the
 * index decides again on its own scores), plus the PTs those LLTs collapse onto (`collapse`).
 * Operators, not the similarity() functions: the operators are what the trigram GIN index on
 * concept.name_norm serves, so the statement reads only the names sharing enough of the query's
 * trigrams (in any release; then kept by range) instead of computing both similarities on every
 * name of the release (issue 32: 0.9–1.8 s at 113k names on PostgreSQL). pg_trgm compares a
 * float4 ratio of small integers with the threshold, a rounding that never crosses it: the same
 * names as the index's exact ratios (test/domain/search-sql-thresholds.test.ts). A query of under
 * three characters has no trigram to look up: the planner scans the release's rows as before.
 * The collapsed PTs are read by key, not by a second scan of the release. In two steps (bySql):
 * first the names containing the query (`LIKE` alone); then, only for a page that needs the typo
 * pass, `contained` given, the names `%` / `<%` find (without the `LIKE`, whose estimate for a
 * common word or a prefix made the planner scan the release's rows computing both similarities on
 * each: 1.4–1.7 s for the first search on the oldest at full size, issue 32), merged with the
 * first step's.
 * Ranked by the same code as the whole index, on the same names, codes and trigram counts, with
 * entries in the same (level, code) order, it gives the same page; the hierarchy and change
 * filters go to SQL (the index holds no hierarchy), as they always could.
 */
async function sqlCandidates(db: Db, releaseId: number, nq: string, collapse: boolean, contained?: Candidates): Promise<Candidates> {
  const found = await db.$queryRawUnsafe<CandidateRow[]>(
    `WITH m AS MATERIALIZED (
       SELECT ${CANDIDATE_COLUMNS} FROM concept_at($1::int) c
       WHERE ${contained ? 'c.name_norm % $3 OR $3 <% c.name_norm' : 'c.name_norm LIKE $3'}
     )
     SELECT u.level::text AS level, u.code, u.name, u.name_norm, u.current, u.pt_code, u.primary_soc_code, u.soc_abbrev, u.intl_order
     FROM (
       SELECT * FROM m
       UNION
       SELECT ${CANDIDATE_COLUMNS} FROM concept_at($1::int) c
       WHERE $2 AND c.level = 'PT' AND c.code IN (SELECT pt_code FROM m WHERE level = 'LLT')
     ) u
     ORDER BY u.level, u.code`,
    releaseId,
    collapse,
    contained ? nq : `%${likeEscape(nq)}%`,
  );
  // The typo step's names beside the first step's, each once, in the release's (level, code) order.
  let rows = found;
  if (contained) {
    const byKey = new Map<string, CandidateRow>();
    for (const r of [...contained.rows, ...found]) byKey.set(`${r.level} ${r.code}`, r);
    rows = [...byKey.values()].sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || a.code - b.code);
  }
  return { rows, index: await ReleaseIndex.build(releaseId, rows) };
}

type CandidateRow = Parameters<typeof ReleaseIndex.build>[1][number];

/** Candidate names (sqlCandidates): their rows, and the index of just those. */
interface Candidates {
  rows: readonly CandidateRow[];
  index: ReleaseIndex;
}

// ---- Matching --------------------------------------------------------------------------

/** One query against one release index; similarity scores are computed once, on demand. */
class Query {
  /** Distinct trigrams of the query. */
  readonly size: number;
  /** Ids of those the release knows, and their mask. */
  readonly ids: number[];
  private readonly mask: Uint8Array;
  private readonly sims = new Map<number, { sim: number; full: number }>();
  private substringMatches: Matches | undefined;

  constructor(
    readonly index: SearchableIndex,
    readonly text: string,
    /** Scored by languageText's CJK containment score instead of trigram similarity. */
    readonly cjk = false,
  ) {
    ({ size: this.size, ids: this.ids } = index.queryTrigrams(text));
    this.mask = index.mask(this.ids);
  }

  /** Entries whose name contains the query, with their tiers: found once for both passes (searchIn's rank, then the typo pass's). */
  substrings(): Matches {
    if (!this.substringMatches) {
      const tiers: number[] = [];
      const found = this.index.containing(this.text, (name, at) => tiers.push(this.tier(name, at)));
      this.substringMatches = { m: found, tier: tiers };
    }
    return this.substringMatches;
  }

  /** The tier of a name containing the query, first at `at`. */
  private tier(name: string, at: number): number {
    if (at === 0) return name.length === this.text.length ? 4 : 3;
    // PostgreSQL's \m: the match begins a word (and the query begins with a word character).
    if (isWordChar(this.text[0])) {
      for (; at > 0; at = name.indexOf(this.text, at + 1)) {
        if (!isWordChar(name[at - 1])) return 2;
      }
    }
    return 1;
  }

  /**
   * Whether entry i, sharing `shared` of the query's trigrams, is a typo match: similarity ≥ 0.3
   * or word_similarity ≥ 0.6, as score(i) decides. Similarity is the count's ratio (score()'s very
   * expression); word_similarity never exceeds shared / |q| (a correctly rounded quotient of a
   * numerator no larger and a denominator no smaller), so only the names that may pass on it alone
   * pay for its extent search and the cached score.
   */
  typoMatch(i: number, shared: number): boolean {
    if (this.size === 0 || shared === 0) return false;
    const full = shared / (this.size + this.index.trigramCountAt(i) - shared);
    if (full >= SIMILARITY_THRESHOLD) return true;
    if (shared / this.size < WORD_SIMILARITY_THRESHOLD) return false;
    return this.score(i).sim >= WORD_SIMILARITY_THRESHOLD;
  }

  /** sim = greatest(similarity, word_similarity) — the reported score; full = similarity. */
  score(i: number): { sim: number; full: number } {
    let s = this.sims.get(i);
    if (!s) {
      if (this.cjk) {
        const v = scoreCjkFolded(this.text, this.index.normAt(i));
        s = { sim: v, full: v };
      } else s = this.index.score(i, this.mask, this.size);
      this.sims.set(i, s);
    }
    return s;
  }
}

const SIMILARITY_THRESHOLD = 0.3; // pg_trgm.similarity_threshold (the % operator)
const WORD_SIMILARITY_THRESHOLD = 0.6; // pg_trgm.word_similarity_threshold (<%)

/**
 * CJK names sharing part of the query (tier 0): those holding one of its character bigrams
 * (a one-character query: nothing more to share), from the index's bigram postings (built by
 * the first CJK search that reaches this tier: prepareBigrams); no edit distance.
 */
function cjkPartial(query: Query, whole: Matches): Matches {
  const grams = cjkQueryGrams(query.text).filter((g) => Array.from(g).length > 1);
  const out: Matches = { m: [...whole.m], tier: [...whole.tier] };
  if (grams.length < 2) return out;
  const seen = new Set(whole.m);
  const add = (m: number) => {
    out.m.push(m);
    out.tier.push(0);
  };
  const { size } = query.index;
  const lists = query.index.bigrams();
  if (lists) {
    // The union of the query's bigram lists, in entry order as the scan below yields it.
    const hit = new Uint8Array(size);
    let from = size;
    let to = -1;
    for (const g of grams) {
      const list = lists.entries(g);
      for (let k = 0; k < list.length; k++) hit[list[k]!] = 1;
      if (list.length) {
        from = Math.min(from, list[0]!);
        to = Math.max(to, list[list.length - 1]!);
      }
    }
    for (let i = from; i <= to; i++) if (hit[i] && !seen.has(i)) add(i);
    return out;
  }
  // The lists are over their byte bound (bigramPostings.ts): test every name.
  for (let i = 0; i < size; i++) {
    if (seen.has(i)) continue;
    const n = query.index.normAt(i);
    for (const g of grams) {
      if (n.includes(g)) {
        add(i);
        break;
      }
    }
  }
  return out;
}

/** Matched entries and their tiers, side by side (thousands for a 5-letter prefix at full size: no object each). */
interface Matches {
  m: number[];
  tier: number[];
}

/** Entries matching the query: substring matches and, with `fuzzy`, similar names too. */
function matches(query: Query, fuzzy: boolean): Matches {
  const { index } = query;
  const whole = query.substrings();
  if (fuzzy && query.cjk) return cjkPartial(query, whole);
  if (!fuzzy || query.ids.length === 0) return whole;
  const out: Matches = { m: [...whole.m], tier: [...whole.tier] };
  // similarity ≤ shared/|q| and word_similarity ≤ shared/|q|, so a match shares at least
  // m = ⌈0.3·|q|⌉ of the query's trigrams and appears in one of its k − m + 1 rarest posting
  // lists: only the names there are candidates. The other m − 1 lists (the commonest: "al ",
  // "  c"…) are walked too, into a second count: a candidate's two counts add up to exactly the
  // trigrams it shares with the query, so similarity comes from the count and the name's length,
  // and only the few that may match on word similarity alone read their names' trigrams.
  // Bounding the count by the skipped lists instead (until issue 32's p95 round) left tens of
  // thousands of candidates on a long query at full size to be scored from their names, a random
  // read each: the bulk of the search. Walking lists is sequential, and the counts are bumped
  // without a test (no list of touched entries to keep): one pass over them then finds the
  // candidates, in entry order.
  const qn = query.size;
  const k = query.ids.length;
  const m = Math.max(1, Math.ceil(SIMILARITY_THRESHOLD * qn - 1e-9));
  if (k < m) return out;
  // Any k − m + 1 of the lists would do: the rarest by their runs' lengths, a view's masked
  // entries included (they are counted, then skipped below).
  const lists = query.ids.map((id) => index.postings(id)).sort((x, y) => x.head.length + x.tail.length - (y.head.length + y.tail.length));
  const walked = k - m + 1;
  // Scratch arrays owned by the index (matching is synchronous); zeroed again below.
  const { counts, more } = index.scratch;
  const size = index.size;
  try {
    for (let l = 0; l < k; l++) {
      const { head, tail } = lists[l]!;
      const into = l < walked ? counts : more;
      for (let j = 0; j < head.length; j++) into[head[j]!]!++;
      for (let j = 0; j < tail.length; j++) into[tail[j]!]!++;
    }
    for (const x of whole.m) counts[x] = 0; // substring matches are already in
    for (let i = 0; i < size; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      const shared = c + more[i]!;
      if (shared < m || index.dropped(i)) continue;
      if (query.typoMatch(i, shared)) {
        out.m.push(i);
        out.tier.push(1);
      }
    }
  } finally {
    counts.fill(0, 0, size);
    more.fill(0, 0, size);
  }
  return out;
}

interface Target {
  /** Entry of the concept returned (an LLT match collapses onto its PT). */
  t: number;
  /** Its best-matching name. */
  m: number;
  tier: number;
  /** The matched name is the target's own (not a synonym or its PT's own LLT). */
  self: boolean;
}

/** Best match of one target, as DISTINCT ON would pick it: tier, own name, current, closeness, shortness (match m of `tier`, `self` as Target's, against b). */
function betterMatch(query: Query, m: number, tier: number, self: boolean, b: Target): boolean {
  if (tier !== b.tier) return tier > b.tier;
  if (self !== b.self) return self;
  const ix = query.index;
  const ca = ix.currentAt(m);
  const cb = ix.currentAt(b.m);
  if (ca !== cb) return ca > cb;
  const sa = query.score(m);
  const sb = query.score(b.m);
  if (sa.sim !== sb.sim) return sa.sim > sb.sim;
  if (sa.full !== sb.full) return sa.full > sb.full;
  const la = ix.nameAt(m).length;
  const lb = ix.nameAt(b.m).length;
  if (la !== lb) return la < lb;
  // The entry first in (level, code) order: the release's entry order (a view's handles are not in it).
  return ix.levelAt(m) !== ix.levelAt(b.m) ? ix.levelAt(m) < ix.levelAt(b.m) : ix.codeAt(m) < ix.codeAt(b.m);
}

/** `keep`: the hierarchy and change filters on entries (null: none set; undefined: ask SQL). */
async function rank(db: Db, query: Query, filters: SearchFilters, keep: Keep | null | undefined, fuzzy: boolean): Promise<{ targets: Target[]; best: number | null }> {
  const { index } = query;
  // Collapse an LLT hit onto its PT unless the client asked for LLTs.
  const collapse = filters.level !== 'LLT';
  const level = filters.level ? LEVELS.indexOf(filters.level) : -1;
  // Each target's place in `targets` + 1, in a scratch array (synchronous, zeroed again below):
  // thousands of names grouped for a 5-letter prefix at full size, where a Map was most of the grouping.
  const slots = targetSlots(index.size);
  let targets: Target[] = [];
  try {
    const found = matches(query, fuzzy);
    for (let k = 0; k < found.m.length; k++) {
      const m = found.m[k]!;
      const tier = found.tier[k]!;
      const t = collapse && index.levelAt(m) === LLT_LEVEL ? index.find('PT', index.ptCodeAt(m)) : m;
      if (t < 0) continue;
      if (level >= 0 && index.levelAt(t) !== level) continue;
      // On the target: a PT matched through a non-current LLT is itself current and stays.
      if (filters.currentOnly && index.currentAt(t) !== 1) continue;
      const slot = slots[t]!;
      if (slot === 0) {
        targets.push({ t, m, tier, self: m === t });
        slots[t] = targets.length;
        continue;
      }
      const prev = targets[slot - 1]!;
      if (betterMatch(query, m, tier, m === t, prev)) {
        prev.m = m;
        prev.tier = tier;
        prev.self = m === t;
      }
    }
  } finally {
    for (const x of targets) slots[x.t] = 0;
  }
  if (keep) targets = targets.filter((x) => keep(x.t));
  else if (keep === undefined && targets.length > 0 && (hasHierarchyFilter(filters) || filters.change)) {
    const keep = await passingFilters(db, index, filters, targets);
    targets = targets.filter((x) => keep.has(x.t));
  }
  let best: number | null = null;
  for (const x of targets) if (best === null || x.tier > best) best = x.tier;
  return { targets, best };
}

/** The targets that pass the hierarchy and change filters (one SQL statement; indexes without hierarchy). */
async function passingFilters(db: Db, index: SearchableIndex, filters: SearchFilters, targets: readonly Target[]): Promise<Set<number>> {
  const params: unknown[] = [index.releaseId, JSON.stringify(targets.map((x) => ({ l: index.levelOf(x.t), c: index.codeAt(x.t) })))];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const rows = await db.$queryRawUnsafe<{ level: Level; code: number }[]>(
    `SELECT t.tlevel::text AS level, t.tcode AS code
     FROM (SELECT k.l::"Level" AS tlevel, k.c AS tcode FROM json_to_recordset($2::json) AS k(l text, c int)) t
     ${filterSql({ ...filters, level: undefined }, p)}`,
    ...params,
  );
  return new Set(rows.map((r) => index.find(r.level, r.code)));
}

// ---- Filters in memory -------------------------------------------------------------------

type Keep = (i: number) => boolean;

/** The hierarchy and change-type filters as one test on entries; null when neither is set. */
async function entryFilter(db: Db, index: SearchableIndex, filters: SearchFilters): Promise<Keep | null> {
  const under = underNode(index, filters);
  if (!filters.change) return under;
  const changed = await changedEntries(db, index, filters.change);
  return under ? (i) => changed[i] === 1 && under(i) : (i) => changed[i] === 1;
}

/** Entries changed in the given way against the baseline: one statement over the stored change set. */
async function changedEntries(db: Db, index: SearchableIndex, change: NonNullable<SearchFilters['change']>): Promise<Uint8Array> {
  const rows = await db.$queryRawUnsafe<{ level: Level; code: number }[]>(
    `SELECT level::text AS level, code FROM release_change
     WHERE from_release_id = $1 AND to_release_id = $2 AND change_type = $3::"ChangeType"`,
    change.fromReleaseId,
    index.releaseId,
    change.type,
  );
  const out = new Uint8Array(index.size);
  for (const r of rows) {
    // A retired concept is not in this release: nothing to mark.
    const i = index.find(r.level, r.code);
    if (i >= 0) out[i] = 1;
  }
  return out;
}

// ---- Ranking and paging ----------------------------------------------------------------

const LEVEL_RANK: Record<Level, number> = { PT: 0, LLT: 1, HLT: 2, HLGT: 3, SOC: 4 };

/**
 * Within a tier: the target's own name before a synonym, then the closest word match
 * (to two decimals), the closest whole name, current before non-current, PTs (what
 * coders want) before LLTs and the grouping levels, shorter names, name, code.
 */
function compareTargets(query: Query, a: Target, b: Target): number {
  if (a.tier !== b.tier) return b.tier - a.tier;
  if (a.self !== b.self) return a.self ? -1 : 1;
  const sa = query.score(a.m);
  const sb = query.score(b.m);
  const ra = Math.round(sa.sim * 100);
  const rb = Math.round(sb.sim * 100);
  if (ra !== rb) return rb - ra;
  if (sa.full !== sb.full) return sb.full - sa.full;
  const ix = query.index;
  if (ix.currentAt(a.t) !== ix.currentAt(b.t)) return ix.currentAt(b.t) - ix.currentAt(a.t);
  const la = LEVEL_RANK[ix.levelOf(a.t)];
  const lb = LEVEL_RANK[ix.levelOf(b.t)];
  if (la !== lb) return la - lb;
  const na = ix.nameAt(a.t);
  const nb = ix.nameAt(b.t);
  if (na.length !== nb.length) return na.length - nb.length;
  const ma = ix.normAt(a.t);
  const mb = ix.normAt(b.t);
  if (ma !== mb) return ma < mb ? -1 : 1;
  return ix.codeAt(a.t) - ix.codeAt(b.t);
}

/** The targets of [offset, offset + limit) in rank order; only tiers the page touches are sorted. */
function pageOf(query: Query, targets: readonly Target[], offset: number, limit: number): Target[] {
  const byTier: Target[][] = [[], [], [], [], []];
  for (const x of targets) byTier[x.tier]!.push(x);
  const out: Target[] = [];
  let start = 0;
  for (let tier = 4; tier >= 0 && out.length < limit; tier--) {
    const group = byTier[tier]!;
    const end = start + group.length;
    if (end > offset) {
      const from = Math.max(0, offset - start);
      out.push(...firstInOrder(group, from + limit - out.length, (a, b) => compareTargets(query, a, b)).slice(from));
    }
    start = end;
  }
  return out;
}

/**
 * The first n of xs in cmp's order, a strict total order (compareTargets ends on the code): what
 * sorting them all and slicing gives. A page of 20 from a tier of thousands (a 5-letter prefix at
 * full size) keeps the 20 best seen in one pass instead of sorting the tier, which compared every
 * pair log n times over; deep pages sort.
 */
function firstInOrder<T>(xs: T[], n: number, cmp: (a: T, b: T) => number): T[] {
  if (n * 8 >= xs.length || n > 256) return xs.sort(cmp).slice(0, n);
  const top: T[] = [];
  for (const x of xs) {
    if (top.length === n) {
      if (cmp(x, top[n - 1]!) >= 0) continue;
      top.pop();
    }
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(x, top[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, x);
  }
  return top;
}

function hitOf(query: Query, x: Target, language?: string): SearchHit {
  const ix = query.index;
  const concept = ix.concept(x.t);
  const mlevel = ix.levelOf(x.m);
  const mcode = ix.codeAt(x.m);
  return {
    concept,
    match: {
      term: ix.nameAt(x.m),
      level: mlevel,
      code: mcode,
      type: TIERS[x.tier]!,
      isSynonym: !(mlevel === concept.level && mcode === concept.code) && !(mlevel === 'LLT' && mcode === concept.code),
      score: Math.round(query.score(x.m).sim * 1000) / 1000,
      ...(language ? { language } : {}),
    },
  };
}

// ---- Listing without a query -------------------------------------------------------------

const LLT_LEVEL = LEVELS.indexOf('LLT');

/**
 * One page of the release's concepts passing the filters, in the SQL listing's order, from
 * memory. Full-size synthetic release on PostgreSQL: largest SOC (18.7k concepts) 20–55 ms a
 * page, where the statement below ran past 120 s; whole release 4–22 ms, against ~1.2 s.
 */
function listConcepts(ix: SearchableIndex, filters: SearchFilters, keep: Keep | null, offset: number, limit: number): SearchPage {
  // An LLT that is its PT's own name is listed on the PT unless the client asked for LLTs.
  const collapse = filters.level !== 'LLT';
  const level = filters.level ? LEVELS.indexOf(filters.level) : -1;
  const page: number[] = [];
  let total = 0;
  for (const i of ix.listingOrder()) {
    const lv = ix.levelAt(i);
    if (level >= 0 && lv !== level) continue;
    if (collapse && lv === LLT_LEVEL && ix.codeAt(i) === ix.ptCodeAt(i)) continue;
    if (filters.currentOnly && ix.currentAt(i) !== 1) continue;
    if (keep && !keep(i)) continue;
    if (total >= offset && page.length < limit) page.push(i);
    total++;
  }
  return { total, best: null, hits: page.map((i) => ({ concept: ix.concept(i), match: null })) };
}

/** The same listing in one SQL statement, for an index without hierarchy. */
async function listConceptsSql(db: Db, releaseId: number, filters: SearchFilters, offset: number, limit: number): Promise<SearchPage> {
  const params: unknown[] = [releaseId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // An LLT that is its PT's own name is listed on the PT unless the client asked for LLTs.
  const collapse = filters.level !== 'LLT';
  const sql = `WITH t AS (
      SELECT c.level AS tlevel, c.code AS tcode FROM concept_at($1) c
      WHERE true ${collapse ? "AND NOT (c.level = 'LLT' AND c.code = c.pt_code)" : ''} ${filters.currentOnly ? 'AND c.current' : ''}
    )
    SELECT ${CONCEPT_COLUMNS('c', '$1::int')}, count(*) OVER ()::int AS total
    FROM t JOIN concept_at($1) c ON c.level = t.tlevel AND c.code = t.tcode
    ${filterSql(filters, p)}
    ORDER BY c.level, c.intl_order NULLS LAST, c.name_norm, c.code
    OFFSET ${p(offset)} LIMIT ${p(limit)}`;
  const rows = await db.$queryRawUnsafe<(Concept & { total: number })[]>(sql, ...params);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && offset > 0) {
    // Past the last page: count without paging so the envelope still reports the total.
    total = (await listConceptsSql(db, releaseId, filters, 0, 1)).total;
  }
  return { total, best: null, hits: rows.map(({ total: _t, ...concept }) => ({ concept, match: null })) };
}
