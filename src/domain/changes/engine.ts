// The change engine: compares two releases concept by concept (level, code) in one
// set-based SQL statement, then names every kind of change in words and in
// structured metadata. One source of truth for release change sets, the per-code
// comparison and a concept's history.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Level } from '../levels.ts';
import { inBatches } from './batches.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export type ChangeType = 'added' | 'updated' | 'retired';

export type ChangeKind =
  | 'added'
  | 'retired'
  | 'made_non_current'
  | 'currency_restored'
  | 'renamed'
  | 'primary_soc_changed'
  | 'parents_added'
  | 'parents_removed'
  | 'llt_moved'
  | 'promoted'
  | 'demoted'
  | 'soc_abbreviation_changed'
  | 'soc_order_changed';

export interface ChangeRecord {
  level: Level;
  code: number;
  changeType: ChangeType;
  /** The concept's name in the target release (in the baseline when it left). */
  term: string;
  previousTerm: string | null;
  details: string;
  /** Before/after values; codes in them (ptCode, primarySocCode, parents) are strings. */
  metadata: {
    kinds: ChangeKind[];
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  };
}

export interface DiffRow {
  level: Level;
  code: number;
  inA: boolean;
  inB: boolean;
  aName: string | null;
  bName: string | null;
  aCurrent: boolean | null;
  bCurrent: boolean | null;
  aPt: number | null;
  bPt: number | null;
  aSoc: number | null;
  bSoc: number | null;
  aAbbrev: string | null;
  bAbbrev: string | null;
  aOrder: number | null;
  bOrder: number | null;
  aParents: number[] | null;
  bParents: number[] | null;
  /** For a PT new in B: the PT its code belonged to as an LLT in A (promotion). */
  promotedFromPt: number | null;
  /** For a PT gone from B: the PT its code belongs to as an LLT in B (demotion). */
  demotedToPt: number | null;
  /** The code is a PT in A / in B (explains an own LLT's move on promotion or demotion). */
  ptInA: boolean;
  ptInB: boolean;
}

/** Every concept that differs between releases a and b; `code` restricts to one code. */
export async function diffReleases(db: Db, fromReleaseId: number, toReleaseId: number, code?: number): Promise<DiffRow[]> {
  const only = code === undefined ? '' : 'WHERE code = $3';
  const onlyLink = code === undefined ? '' : 'AND child_code = $3';
  const params: unknown[] = [fromReleaseId, toReleaseId];
  if (code !== undefined) params.push(code);
  return db.$queryRawUnsafe<DiffRow[]>(
    `WITH a AS (SELECT level, code, name, current, pt_code, primary_soc_code, soc_abbrev, intl_order FROM concept_at($1) ${only}),
     b AS (SELECT level, code, name, current, pt_code, primary_soc_code, soc_abbrev, intl_order FROM concept_at($2) ${only}),
     pa AS (SELECT child_level AS level, child_code AS code, array_agg(parent_code ORDER BY parent_code) AS parents
            FROM hierarchy_link_at($1) WHERE child_level <> 'LLT' ${onlyLink} GROUP BY 1, 2),
     pb AS (SELECT child_level AS level, child_code AS code, array_agg(parent_code ORDER BY parent_code) AS parents
            FROM hierarchy_link_at($2) WHERE child_level <> 'LLT' ${onlyLink} GROUP BY 1, 2),
     j AS (
       SELECT level, code, a.code IS NOT NULL AS in_a, b.code IS NOT NULL AS in_b,
              a.name AS a_name, b.name AS b_name, a.current AS a_current, b.current AS b_current,
              a.pt_code AS a_pt, b.pt_code AS b_pt, a.primary_soc_code AS a_soc, b.primary_soc_code AS b_soc,
              a.soc_abbrev AS a_abbrev, b.soc_abbrev AS b_abbrev, a.intl_order AS a_order, b.intl_order AS b_order,
              pa.parents AS a_parents, pb.parents AS b_parents
       FROM a FULL JOIN b USING (level, code)
       LEFT JOIN pa USING (level, code)
       LEFT JOIN pb USING (level, code)
       WHERE a.code IS NULL OR b.code IS NULL
          OR a.name <> b.name OR a.current <> b.current
          OR a.pt_code IS DISTINCT FROM b.pt_code OR a.primary_soc_code IS DISTINCT FROM b.primary_soc_code
          OR a.soc_abbrev IS DISTINCT FROM b.soc_abbrev OR a.intl_order IS DISTINCT FROM b.intl_order
          OR pa.parents IS DISTINCT FROM pb.parents
     )
     SELECT j.level::text AS level, j.code, j.in_a AS "inA", j.in_b AS "inB",
            j.a_name AS "aName", j.b_name AS "bName", j.a_current AS "aCurrent", j.b_current AS "bCurrent",
            j.a_pt AS "aPt", j.b_pt AS "bPt", j.a_soc AS "aSoc", j.b_soc AS "bSoc",
            j.a_abbrev AS "aAbbrev", j.b_abbrev AS "bAbbrev", j.a_order AS "aOrder", j.b_order AS "bOrder",
            j.a_parents AS "aParents", j.b_parents AS "bParents",
            CASE WHEN j.level = 'PT' AND NOT j.in_a THEN al.pt_code END AS "promotedFromPt",
            CASE WHEN j.level = 'PT' AND NOT j.in_b THEN bl.pt_code END AS "demotedToPt",
            ap.code IS NOT NULL AS "ptInA", bp.code IS NOT NULL AS "ptInB"
     FROM j
     LEFT JOIN a al ON j.level = 'PT' AND al.level = 'LLT' AND al.code = j.code
     LEFT JOIN b bl ON j.level = 'PT' AND bl.level = 'LLT' AND bl.code = j.code
     LEFT JOIN a ap ON ap.level = 'PT' AND ap.code = j.code
     LEFT JOIN b bp ON bp.level = 'PT' AND bp.code = j.code
     ORDER BY j.level, j.code`,
    ...params,
  );
}

/** Names of the codes a change refers to (PTs, HLTs, SOCs…), to write readable details. */
export type NameLookup = (code: number) => string | undefined;

const q = (s: string | null | undefined) => `'${s ?? '?'}'`;

/** Codes in metadata are strings, as in every answer (see metadata.ts). */
const codeOf = (c: number | null) => (c === null ? null : String(c));

function ref(level: string, code: number | null, name: NameLookup): string {
  if (code === null) return `no ${level}`;
  const n = name(code);
  return n ? `${level} ${code} ${q(n)}` : `${level} ${code}`;
}

const EMPTY: ReadonlySet<number> = new Set();

const PARENT_LEVEL: Record<Level, string> = { SOC: '', HLGT: 'SOC', HLT: 'HLGT', PT: 'HLT', LLT: 'PT' };

/** Turns one diff row into a change with kinds, details and metadata; null when the row is fully explained elsewhere. */
export function describeChange(r: DiffRow, name: NameLookup, versions: { from: string; to: string }): ChangeRecord | null {
  const kinds: ChangeKind[] = [];
  const sentences: string[] = [];
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const term = (r.bName ?? r.aName)!;
  let changeType: ChangeType = 'updated';

  // Added, retired, promoted, demoted: one sentence each, made directly (most rows of a far pair; no arrays joined).
  if (!r.inA) {
    if (r.level === 'PT' && r.promotedFromPt !== null) {
      before.level = 'LLT';
      before.ptCode = codeOf(r.promotedFromPt);
      after.level = 'PT';
      after.primarySocCode = codeOf(r.bSoc);
      const details = `Promoted from LLT (of ${ref('PT', r.promotedFromPt, name)}) to PT.`;
      return { level: r.level, code: r.code, changeType, term, previousTerm: null, details, metadata: { kinds: ['promoted'], before, after } };
    }
    const where =
      r.level === 'LLT' ? ` under ${ref('PT', r.bPt, name)}` : r.level === 'PT' ? ` (primary ${ref('SOC', r.bSoc, name)})` : '';
    // Assigned one by one (most rows of a far pair are added LLTs): no spread objects.
    after.term = r.bName;
    if (r.bPt !== null) after.ptCode = codeOf(r.bPt);
    if (r.bSoc !== null) after.primarySocCode = codeOf(r.bSoc);
    const details = `New ${r.level} in ${versions.to}${where}.`;
    return { level: r.level, code: r.code, changeType: 'added', term, previousTerm: null, details, metadata: { kinds: ['added'], before, after } };
  }
  if (!r.inB) {
    if (r.level === 'PT' && r.demotedToPt !== null) {
      Object.assign(before, { level: 'PT', primarySocCode: codeOf(r.aSoc) });
      Object.assign(after, { level: 'LLT', ptCode: codeOf(r.demotedToPt) });
      const details = `Demoted from PT to an LLT of ${ref('PT', r.demotedToPt, name)}.`;
      return { level: r.level, code: r.code, changeType: 'updated', term, previousTerm: null, details, metadata: { kinds: ['demoted'], before, after } };
    }
    before.term = r.aName;
    const details = `No longer in release ${versions.to}.`;
    return { level: r.level, code: r.code, changeType: 'retired', term, previousTerm: null, details, metadata: { kinds: ['retired'], before, after } };
  }
  // An own LLT that moved because its code was promoted or demoted: the PT row says it all.
  if (r.level === 'LLT' && ((r.bPt === r.code && !r.ptInA) || (r.aPt === r.code && !r.ptInB))) return null;

  if (r.aName !== r.bName) {
    kinds.push('renamed');
    sentences.push(`Renamed from ${q(r.aName)} to ${q(r.bName)}.`);
    before.term = r.aName;
    after.term = r.bName;
  }
  if (r.aCurrent && !r.bCurrent) {
    changeType = 'retired';
    kinds.push('made_non_current');
    sentences.push('Made non-current.');
  } else if (!r.aCurrent && r.bCurrent) {
    kinds.push('currency_restored');
    sentences.push('Made current again.');
  }
  if (r.aCurrent !== r.bCurrent) {
    before.status = r.aCurrent ? 'current' : 'non-current';
    after.status = r.bCurrent ? 'current' : 'non-current';
  }
  if (r.level === 'LLT' && r.aPt !== r.bPt) {
    kinds.push('llt_moved');
    sentences.push(`Moved from ${ref('PT', r.aPt, name)} to ${ref('PT', r.bPt, name)}.`);
    before.ptCode = codeOf(r.aPt);
    after.ptCode = codeOf(r.bPt);
  }
  if (r.level === 'PT' && r.aSoc !== r.bSoc) {
    kinds.push('primary_soc_changed');
    sentences.push(`Primary SOC moved from ${ref('SOC', r.aSoc, name)} to ${ref('SOC', r.bSoc, name)}.`);
    before.primarySocCode = codeOf(r.aSoc);
    after.primarySocCode = codeOf(r.bSoc);
  }
  // LLTs (most rows of a far pair) have no parent lists: no sets to make.
  const aP = r.aParents ? new Set(r.aParents) : EMPTY;
  const bP = r.bParents ? new Set(r.bParents) : EMPTY;
  const addedParents = bP.size ? [...bP].filter((c) => !aP.has(c)) : [];
  const removedParents = aP.size ? [...aP].filter((c) => !bP.has(c)) : [];
  const pl = PARENT_LEVEL[r.level];
  if (addedParents.length) {
    kinds.push('parents_added');
    sentences.push(`Now also under ${addedParents.map((c) => ref(pl, c, name)).join(', ')}.`);
  }
  if (removedParents.length) {
    kinds.push('parents_removed');
    sentences.push(`No longer under ${removedParents.map((c) => ref(pl, c, name)).join(', ')}.`);
  }
  if (addedParents.length || removedParents.length) {
    before.parents = (r.aParents ?? []).map(String);
    after.parents = (r.bParents ?? []).map(String);
  }
  if (r.level === 'SOC' && r.aAbbrev !== r.bAbbrev) {
    kinds.push('soc_abbreviation_changed');
    sentences.push(`Abbreviation changed from ${q(r.aAbbrev)} to ${q(r.bAbbrev)}.`);
    before.abbreviation = r.aAbbrev;
    after.abbreviation = r.bAbbrev;
  }
  if (r.level === 'SOC' && r.aOrder !== r.bOrder) {
    kinds.push('soc_order_changed');
    sentences.push(`International order changed from ${r.aOrder ?? '-'} to ${r.bOrder ?? '-'}.`);
    before.internationalOrder = r.aOrder;
    after.internationalOrder = r.bOrder;
  }
  if (kinds.length === 0) return null;
  return {
    level: r.level,
    code: r.code,
    changeType,
    term,
    previousTerm: kinds.includes('renamed') ? r.aName : null,
    details: sentences.join(' '),
    metadata: { kinds, before, after },
  };
}

/** Codes per names statement: a short statement each (on the embedded store they run on the serving thread). */
const NAME_BATCH = 5_000;

/** Adds the codes a diff row refers to (PTs, SOCs, parents…) to `into`. */
export function codesOf(r: DiffRow, into: Set<number>): void {
  for (const c of [r.aPt, r.bPt, r.aSoc, r.bSoc, r.promotedFromPt, r.demotedToPt]) if (c !== null) into.add(c);
  if (r.aParents) for (const c of r.aParents) into.add(c);
  if (r.bParents) for (const c of r.bParents) into.add(c);
}

/** Names (target release first, then baseline) of every code the rows refer to, by code; a statement per NAME_BATCH codes (a few at a time with `overlap`: batches.ts). */
export async function nameMap(db: Db, releaseIds: number[], rows: DiffRow[], overlap = false): Promise<Map<number, string>> {
  const codes = new Set<number>();
  for (const r of rows) codesOf(r, codes);
  return namesOf(db, releaseIds, codes, overlap);
}

/** Names (target release first, then baseline) of `codes`, by code (as nameMap). */
export async function namesOf(db: Db, releaseIds: number[], codes: ReadonlySet<number>, overlap = false): Promise<Map<number, string>> {
  const all = [...codes];
  const map = new Map<number, string>();
  await inBatches(all.length, NAME_BATCH, overlap, async (i) => {
    const found = await db.$queryRawUnsafe<{ code: number; name: string }[]>(
      `SELECT DISTINCT ON (c.code) c.code, c.name
       FROM json_array_elements_text($2::json) WITH ORDINALITY AS r(id, pos)
       CROSS JOIN concept_at(r.id::int) c
       JOIN json_array_elements_text($1::json) AS k(code) ON c.code = k.code::int
       WHERE c.level <> 'LLT'
       ORDER BY c.code, r.pos`,
      JSON.stringify(all.slice(i, i + NAME_BATCH)),
      JSON.stringify(releaseIds),
    );
    for (const f of found) map.set(f.code, f.name);
  });
  return map;
}

/** Names (target release first, then baseline) of every code the rows refer to. */
export async function namesFor(db: Db, releaseIds: number[], rows: DiffRow[]): Promise<NameLookup> {
  const map = await nameMap(db, releaseIds, rows);
  return (c) => map.get(c);
}

export async function computeChanges(
  db: Db,
  from: { id: number; version: string },
  to: { id: number; version: string },
  code?: number,
): Promise<ChangeRecord[]> {
  const rows = await diffReleases(db, from.id, to.id, code);
  const name = await namesFor(db, [to.id, from.id], rows);
  return rows.map((r) => describeChange(r, name, { from: from.version, to: to.version })).filter((c): c is ChangeRecord => c !== null);
}
