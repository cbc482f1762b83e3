// The change engine's diff (engine.ts diffReleases) read from the ranged rows (docs/storage.md):
// only the keys with a range boundary between the two releases can differ, so neither release is
// materialised. A key whose row covers the older release and ends at or before the newer one, or
// starts after the older one, has a boundary in (lo, hi]; a key with none has the same row (and
// the same links) in both. Releases far apart (first → last of a long chain) then cost their
// differences, not two whole releases (or two release indexes, one loaded from its snapshot only
// for this, as indexDiff.ts needed).
//
// The boundary rows hold the content too (round 11): a changed key's row at the older end ends in
// the span and its row at the newer end starts there, so only what they cannot say is looked up
// by key (non-LLT parent lists, link-only keys' rows), not every key at both ends.
//
// Bounded statements, not one: on the embedded store PGlite runs each statement on the serving
// thread, so the boundaries are read one hosted release step at a time and the lookups in batches
// of keys, with a turn for other requests between them (on PostgreSQL a few overlap: `overlap`).
// Rows are the statement's (same columns, same order): test/domain/changes-ranged.test.ts and
// changes-ranged-content.test.ts check every pair on both databases.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { LEVELS } from '../levels.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';
import { inBatches } from './batches.ts';
import { describeChange, namesOf, type ChangeRecord, type DiffRow } from './engine.ts';
import { termRanks, withTermRanks } from './termOrder.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Keys read per rows statement: a few milliseconds of the database's work each. */
const KEY_BATCH = 2_000;
/** Keys taken apart or described between two turns (4,096 since round 12: a describing turn also fills its rows, ~10 ms). */
const SLICE = 4_096;

/** Seqs (as text: bigint) of the two releases. */
async function seqs(db: Db, fromId: number, toId: number): Promise<[string, string]> {
  const rows = await db.$queryRawUnsafe<{ id: number; seq: string }[]>(`SELECT id, seq::text AS seq FROM "release" WHERE id IN ($1, $2)`, fromId, toId);
  const seq = (id: number) => {
    const r = rows.find((x) => x.id === id);
    if (!r) throw new Error(`release ${id} is not hosted`);
    return r.seq;
  };
  return [seq(fromId), seq(toId)];
}

/**
 * A boundary concept row as the scan sends it: [0, level (LEVELS' index), code, held at lo, name,
 * current, pt_code, primary_soc_code, soc_abbrev, intl_order], kept as it came: its compared
 * columns (engine.ts diffReleases' a/b) are at NAME…ORDER. A link row is shorter (round 12: no
 * nulls to parse): [1, child level, child code, held at lo, parent_code].
 */
type ScanRow = [0, number, number, boolean, string | null, boolean | null, number | null, number | null, string | null, number | null];
type LinkRow = [1, number, number, boolean, number];
const NAME = 4;
const CURRENT = 5;
const PT_CODE = 6;
const SOC = 7;
const ABBREV = 8;
const ORDER = 9;

/**
 * What the boundary rows say of one key: its concept row at lo when that row ends in (lo, hi], its
 * row at hi when it starts there (`scanned`: either was read, so both are known: a row covering lo
 * and hi would overlap the one read), and the parents of the (non-LLT) key's links held at lo only
 * and at hi only.
 */
interface Boundary {
  scanned: boolean;
  a: ScanRow | null;
  b: ScanRow | null;
  loOnly: number[] | null;
  hiOnly: number[] | null;
}

/** Per level (LEVELS' order), by code: codes are small integers, so the maps hash them as such. */
type ByLevel<T> = Map<number, T>[];
const byLevel = <T>(): ByLevel<T> => LEVELS.map(() => new Map<number, T>());

const LEVEL_INDEX: Record<string, number> = Object.fromEntries(LEVELS.map((l, i) => [l, i]));
const PT = LEVEL_INDEX.PT!;
const LLT = LEVEL_INDEX.LLT!;
/** A level column as its LEVELS index (a number in the JSON, not a text to look up). */
const levelIndex = (col: string) => `(CASE ${col} ${LEVELS.map((l, i) => `WHEN '${l}' THEN ${i}`).join(' ')} END)`;

/**
 * The boundary rows of (lo, hi] with their content: a key's row at lo is the one with
 * `valid_from <= lo < valid_to <= hi`, its row at hi the one with `lo < valid_from <= hi < valid_to`
 * (rows starting and ending inside the span are neither); links likewise, for non-LLT children. One
 * statement per hosted release in that interval, each a range scan of one step through the
 * valid_from and valid_to indexes: a key's content comes with its boundary, with no lookup by key.
 */
async function boundaries(db: Db, lo: string, hi: string, overlap: boolean): Promise<ByLevel<Boundary>> {
  const steps = await db.$queryRawUnsafe<{ seq: string }[]>(
    `SELECT r.seq::text AS seq FROM "release" r WHERE r.seq > $1::bigint AND r.seq <= $2::bigint ORDER BY r.seq`,
    lo,
    hi,
  );
  const out = byLevel<Boundary>();
  // Unqualified (one table per branch): the statement reads as round 8's, which tests recognise it by.
  const ended = `(valid_to > $1::bigint AND valid_to <= $2::bigint AND valid_from <= $3::bigint)`;
  const started = `(valid_from > $1::bigint AND valid_from <= $2::bigint AND valid_to > $4::bigint)`;
  // The last step ends at hi whatever the release list says (a release removed meanwhile).
  const ends = [...steps.map((s) => s.seq).filter((s) => s !== hi), hi];
  // The step's rows as one JSON text: parsed at once rather than row by row by the client.
  // Promise.resolve: a client's statement starts when asked for its result (Prisma's are lazy).
  const read = (prev: string, end: string) =>
    Promise.resolve(db.$queryRawUnsafe<{ j: string }[]>(
      `SELECT coalesce(json_agg(x.j), '[]')::text AS j FROM (
         SELECT json_build_array(0, ${levelIndex('c.level')}, c.code, c.valid_from <= $3::bigint, c.name, c.current, c.pt_code,
                c.primary_soc_code, c.soc_abbrev, c.intl_order) AS j
           FROM concept c WHERE ${ended} OR ${started}
         UNION ALL
         SELECT json_build_array(1, ${levelIndex('l.child_level')}, l.child_code, l.valid_from <= $3::bigint, l.parent_code)
           FROM hierarchy_link l WHERE l.child_level <> 'LLT' AND (${ended} OR ${started})) x`,
      prev,
      end,
      lo,
      hi,
    ));
  let next = read(lo, ends[0]!);
  for (let i = 0; i < ends.length; i++) {
    const [{ j }] = (await next) as [{ j: string }];
    // With overlap (PostgreSQL: the server's processes read), the next step is read while this one is taken apart here.
    const following = () => read(ends[i]!, ends[i + 1]!);
    if (overlap && i + 1 < ends.length) next = following();
    for (const r of JSON.parse(j) as (ScanRow | LinkRow)[]) {
      const m = out[r[1]]!;
      let e = m.get(r[2]);
      if (!e) m.set(r[2], (e = { scanned: false, a: null, b: null, loOnly: null, hiOnly: null }));
      if (r[0] === 1) {
        if (r[3]) (e.loOnly ??= []).push(r[4]);
        else (e.hiOnly ??= []).push(r[4]);
      } else {
        e.scanned = true;
        if (r[3]) e.a = r;
        else e.b = r;
      }
    }
    await nextTurn();
    if (!overlap && i + 1 < ends.length) next = following();
  }
  return out;
}

const sameContent = (x: ScanRow, y: ScanRow) =>
  x[NAME] === y[NAME] && x[CURRENT] === y[CURRENT] && x[PT_CODE] === y[PT_CODE] && x[SOC] === y[SOC] && x[ABBREV] === y[ABBREV] && x[ORDER] === y[ORDER];

/** The same parents, counted (a link split at a boundary on another column gives the same parent on both sides). */
function sameParents(x: readonly number[] | null, y: readonly number[] | null): boolean {
  if (!x || !y) return !x && !y;
  if (x.length !== y.length) return false;
  const xs = [...x].sort((p, q) => p - q);
  const ys = [...y].sort((p, q) => p - q);
  return xs.every((p, i) => p === ys[i]);
}

/** The parents at lo without those held at lo only, with those held at hi only: the parents at hi, sorted (as array_agg ORDER BY). */
function parentsAtHi(atLo: number[] | null, loOnly: readonly number[] | null, hiOnly: readonly number[] | null): number[] | null {
  if (!loOnly && !hiOnly) return atLo;
  const out = [...(atLo ?? [])];
  for (const p of loOnly ?? []) out.splice(out.indexOf(p), 1);
  out.push(...(hiOnly ?? []));
  return out.length ? out.sort((p, q) => p - q) : null;
}

type Looked = { level: string; code: number; found: boolean; name: string | null; current: boolean | null; pt: number | null; soc: number | null; abbrev: string | null; order: number | null; parents: number[] | null };
type Wanted = { row: boolean; parents: boolean };

/**
 * Per key: its concept row at seq (when `row`) and its parents there (when `parents`), one lateral
 * lookup each through the primary key and the child index, in batches of KEY_BATCH. Only for what
 * the boundary rows cannot tell: a non-LLT key's parents held at both seqs, the row of a key whose
 * links alone changed, the LLT row of a code promoted or demoted whose LLT has no boundary.
 */
async function lookups(db: Db, seq: string, wanted: ByLevel<Wanted>, overlap: boolean): Promise<ByLevel<Looked>> {
  const keys = wanted.flatMap((m, l) => [...m.keys()].sort((x, y) => x - y).map((code) => [l, code] as const));
  const out = byLevel<Looked>();
  await inBatches(keys.length, KEY_BATCH, overlap, async (i) => {
    const batch = keys.slice(i, i + KEY_BATCH);
    const rows = await db.$queryRawUnsafe<Looked[]>(
      `WITH k AS MATERIALIZED (SELECT l::"Level" AS level, code, r AS want_row, p AS want_parents FROM unnest($1::text[], $2::int[], $3::bool[], $4::bool[]) AS u(l, code, r, p))
       SELECT k.level::text AS level, k.code, c.code IS NOT NULL AS found, c.name, c.current, c.pt_code AS pt, c.primary_soc_code AS soc,
              c.soc_abbrev AS abbrev, c.intl_order AS "order", pa.parents
       FROM k
       LEFT JOIN LATERAL (SELECT c.code, c.name, c.current, c.pt_code, c.primary_soc_code, c.soc_abbrev, c.intl_order FROM concept c
         WHERE k.want_row AND c.level = k.level AND c.code = k.code AND c.valid_from <= $5::bigint AND c.valid_to > $5::bigint LIMIT 1) c ON true
       LEFT JOIN LATERAL (SELECT array_agg(l.parent_code ORDER BY l.parent_code)::text AS parents FROM hierarchy_link l
         WHERE k.want_parents AND l.child_level = k.level AND l.child_code = k.code AND l.valid_from <= $5::bigint AND l.valid_to > $5::bigint) pa ON true`,
      batch.map(([l]) => LEVELS[l]!),
      batch.map(([, code]) => code),
      batch.map(([l, code]) => wanted[l]!.get(code)!.row),
      batch.map(([l, code]) => wanted[l]!.get(code)!.parents),
      seq,
    );
    for (const r of rows) {
      r.parents = r.parents === null ? null : intArray(r.parents as unknown as string);
      out[LEVEL_INDEX[r.level]!]!.set(r.code, r);
    }
  });
  return out;
}

/**
 * An int[] as PostgreSQL writes it ('{1,2,3}'), parsed here: the lookups' parent lists come as text,
 * not arrays the driver parses as rows arrive, on the thread that runs the statement (the serving
 * thread, for the changes worker's statements: one 0.1 s turn per few batches at full size).
 */
function intArray(text: string): number[] {
  return text.length <= 2 ? [] : text.slice(1, -1).split(',').map(Number);
}

/** PT codes per ptCodesAt statement. */
const PT_PAGE = 10_000;

/** PT codes held at seq, read in code order a page at a time (the primary key's PT range): for the ptInA/ptInB of many keys, cheaper than a lookup each. */
async function ptCodesAt(db: Db, seq: string): Promise<Set<number>> {
  const out = new Set<number>();
  for (let after = -1; ; ) {
    const rows = await db.$queryRawUnsafe<{ code: number }[]>(
      `SELECT c.code FROM concept c WHERE c.level = 'PT' AND c.code > $1 AND c.valid_from <= $2::bigint AND c.valid_to > $2::bigint ORDER BY c.code LIMIT ${PT_PAGE}`,
      after,
      seq,
    );
    for (const r of rows) out.add(r.code);
    if (rows.length < PT_PAGE) return out;
    after = rows.at(-1)!.code;
    await nextTurn();
  }
}

/** A looked-up row in the scan's shape. */
const asRow = (r: Looked | undefined): ScanRow | null =>
  r?.found ? [0, LEVEL_INDEX[r.level]!, r.code, true, r.name, r.current, r.pt, r.soc, r.abbrev, r.order] : null;

export interface RangedOptions {
  /**
   * Statements may overlap (PostgreSQL, whose server processes run them beside this thread): the
   * next step's boundary rows are read while this one's are taken apart, and PT presence beside
   * them. Off on the embedded store, where each statement runs on the serving thread one at a time.
   */
  overlap?: boolean;
  /**
   * A listing will be built from the records (a page asked for): the terms' order is asked of
   * the database beside the names (listing.ts withTermRanks), where statements may overlap.
   */
  termOrder?: boolean;
}

/** What the ranged read found: the differing keys per level (code order) and what describes them. */
interface Ranged {
  forward: boolean;
  bounds: ByLevel<Boundary>;
  /** Per level, the codes that differ, ascending. */
  keys: Int32Array[];
  looked: ByLevel<Looked>;
  pts: Set<number>;
}

/** The statements of the ranged read, then the seqs again (a renumbering meanwhile reads again). */
async function readRanged(db: Db, fromId: number, toId: number, opts: RangedOptions): Promise<Ranged> {
  const [sa, sb] = await seqs(db, fromId, toId);
  const forward = BigInt(sa) <= BigInt(sb);
  const [lo, hi] = forward ? [sa, sb] : [sb, sa];
  const overlap = opts.overlap ?? false;
  // PT presence is read beside the boundaries when statements may overlap; after them when not.
  const ptsEarly = overlap ? ptCodesAt(db, lo) : undefined;
  ptsEarly?.catch(() => undefined); // awaited below; not unhandled if the boundaries fail first
  const bounds = await boundaries(db, lo, hi, overlap);
  // A key differs when its rows do, or its parents (those held at lo only against those at hi
  // only); what the boundary rows do not hold is looked up at lo, where it is the same as at hi.
  const keys: Int32Array[] = [];
  const wanted = byLevel<Wanted>();
  // In slices with a turn between (a far pair's LLTs are ~200k keys); the sort of a level's codes is one turn.
  let n = 0;
  for (let l = 0; l < LEVELS.length; l++) {
    const found: number[] = [];
    for (const [code, e] of bounds[l]!) {
      if (++n % SLICE === 0) await nextTurn();
      const linksDiffer = !sameParents(e.loOnly, e.hiOnly);
      if (!linksDiffer && (!e.scanned || (e.a && e.b && sameContent(e.a, e.b)))) continue;
      found.push(code);
      if (!e.scanned || l !== LLT) wanted[l]!.set(code, { row: !e.scanned, parents: l !== LLT });
    }
    // Typed (codes are int4): a numeric sort without a comparator call per pair.
    keys[l] = Int32Array.from(found).sort();
    await nextTurn();
  }
  // A PT new or gone: the LLT of its code on the other side (promotion, demotion). An import
  // keeps each PT's own LLT (importer/model.ts), so that LLT has a boundary too; looked up if not.
  for (const code of keys[PT]!) {
    const e = bounds[PT]!.get(code)!;
    if (e.scanned && !(e.a && e.b) && !bounds[LLT]!.get(code)?.scanned) wanted[LLT]!.set(code, { row: true, parents: false });
  }
  const looked = await lookups(db, lo, wanted, overlap);
  // ptInA/ptInB: a PT key with a boundary says it; any other code's PT is the same at both seqs.
  const ptNeeded = keys.some((codes, l) => l !== PT && codes.some((code) => !bounds[PT]!.get(code)?.scanned));
  const pts = ptsEarly ? await ptsEarly : ptNeeded ? await ptCodesAt(db, lo) : new Set<number>();
  // The seqs read again: a renumbering (docs/storage.md: a gap exhausted) committed meanwhile would have moved the boundaries read.
  const [sa2, sb2] = await seqs(db, fromId, toId);
  if (sa2 !== sa || sb2 !== sb) return readRanged(db, fromId, toId, opts);
  return { forward, bounds, keys, looked, pts };
}

/** A diff row with every field, in diffReleases' column order (rows are compared as JSON). */
const blankRow = (): DiffRow => ({
  level: 'SOC', code: 0, inA: false, inB: false, aName: null, bName: null, aCurrent: null, bCurrent: null, aPt: null, bPt: null,
  aSoc: null, bSoc: null, aAbbrev: null, bAbbrev: null, aOrder: null, bOrder: null, aParents: null, bParents: null,
  promotedFromPt: null, demotedToPt: null, ptInA: false, ptInB: false,
});

/** A key's rows at lo and at hi. */
interface Ends {
  lo: ScanRow | null;
  hi: ScanRow | null;
}

/** Key (level l, code)'s rows at lo and at hi: from its boundary, else looked up (the same at both); written into `into` (no array per key). */
function endsOf(s: Ranged, l: number, code: number, into: Ends): Ends {
  const e = s.bounds[l]!.get(code);
  if (e?.scanned) {
    into.lo = e.a;
    into.hi = e.b;
  } else into.lo = into.hi = asRow(s.looked[l]!.get(code));
  return into;
}

/** Scratch of endsOf(): the key's own rows, and its code's LLT rows (a PT new or gone). */
const keyEnds: Ends = { lo: null, hi: null };
const lltEnds: Ends = { lo: null, hi: null };

/** Fills `out` with key (level l, code)'s diff row; false when it is in neither release. No arrays made: it runs once per change. */
function fillRow(s: Ranged, l: number, code: number, out: DiffRow): boolean {
  const { forward, bounds, looked } = s;
  const e = bounds[l]!.get(code)!;
  const { lo: atLo, hi: atHi } = endsOf(s, l, code, keyEnds);
  if (!atLo && !atHi) return false;
  const loParents = l === LLT ? null : (looked[l]!.get(code)?.parents ?? null);
  const hiParents = l === LLT ? null : parentsAtHi(loParents, e.loOnly, e.hiOnly);
  const a = forward ? atLo : atHi;
  const b = forward ? atHi : atLo;
  let ptLo: boolean;
  let ptHi: boolean;
  if (l === PT) {
    ptLo = atLo !== null;
    ptHi = atHi !== null;
  } else {
    const p = bounds[PT]!.get(code);
    if (p?.scanned) {
      ptLo = p.a !== null;
      ptHi = p.b !== null;
    } else ptLo = ptHi = s.pts.has(code);
  }
  // A PT new or gone: its code's LLT at the other end (promotion, demotion).
  let promoted: number | null = null;
  let demoted: number | null = null;
  if (l === PT && !(a && b)) {
    const llt = endsOf(s, LLT, code, lltEnds);
    if (!a) promoted = (forward ? llt.lo : llt.hi)?.[PT_CODE] ?? null;
    if (!b) demoted = (forward ? llt.hi : llt.lo)?.[PT_CODE] ?? null;
  }
  out.level = LEVELS[l]!;
  out.code = code;
  out.inA = a !== null;
  out.inB = b !== null;
  out.aName = a?.[NAME] ?? null;
  out.bName = b?.[NAME] ?? null;
  out.aCurrent = a?.[CURRENT] ?? null;
  out.bCurrent = b?.[CURRENT] ?? null;
  out.aPt = a?.[PT_CODE] ?? null;
  out.bPt = b?.[PT_CODE] ?? null;
  out.aSoc = a?.[SOC] ?? null;
  out.bSoc = b?.[SOC] ?? null;
  out.aAbbrev = a?.[ABBREV] ?? null;
  out.bAbbrev = b?.[ABBREV] ?? null;
  out.aOrder = a?.[ORDER] ?? null;
  out.bOrder = b?.[ORDER] ?? null;
  out.aParents = forward ? loParents : hiParents;
  out.bParents = forward ? hiParents : loParents;
  out.promotedFromPt = promoted;
  out.demotedToPt = demoted;
  out.ptInA = forward ? ptLo : ptHi;
  out.ptInB = forward ? ptHi : ptLo;
  return true;
}

/** A row's PT and SOC codes, to be named (codesOf() of its diff row reads the same). */
function addRowCodes(r: ScanRow | null, into: Set<number>): void {
  if (!r) return;
  if (r[PT_CODE] !== null) into.add(r[PT_CODE]);
  if (r[SOC] !== null) into.add(r[SOC]);
}

/**
 * What eachChangeFromRanges' first pass needs of key (level l, code) without filling its diff row:
 * the codes codesOf() would add for it (added to `into`: the same set) and its term, the row's
 * `bName ?? aName`; undefined when fillRow() would answer false (in neither release). A far pair's
 * ~217k keys were each filled twice (fillRow: ~0.5 s of the changes worker at full size).
 */
function codesAndTerm(s: Ranged, l: number, code: number, into: Set<number>): string | null | undefined {
  const { forward, bounds, looked } = s;
  const e = bounds[l]!.get(code)!;
  const { lo: atLo, hi: atHi } = endsOf(s, l, code, keyEnds);
  if (!atLo && !atHi) return undefined;
  addRowCodes(atLo, into);
  addRowCodes(atHi, into);
  if (l !== LLT) {
    // The parents at both ends: those at lo, and those held at hi only (parentsAtHi()).
    for (const p of looked[l]!.get(code)?.parents ?? []) into.add(p);
    for (const p of e.hiOnly ?? []) into.add(p);
  }
  const a = forward ? atLo : atHi;
  const b = forward ? atHi : atLo;
  if (l === PT && !(a && b)) {
    const llt = endsOf(s, LLT, code, lltEnds);
    const promoted = !a ? (forward ? llt.lo : llt.hi)?.[PT_CODE] : null;
    const demoted = !b ? (forward ? llt.hi : llt.lo)?.[PT_CODE] : null;
    if (promoted != null) into.add(promoted);
    if (demoted != null) into.add(demoted);
  }
  return (b?.[NAME] ?? null) ?? (a?.[NAME] ?? null);
}

/** Every concept that differs between releases a and b, as diffReleases() answers it, read from the boundary rows only. */
export async function diffRanges(db: Db, fromId: number, toId: number, opts: RangedOptions = {}): Promise<DiffRow[]> {
  const s = await readRanged(db, fromId, toId, opts);
  const out: DiffRow[] = [];
  let n = 0;
  for (let l = 0; l < LEVELS.length; l++) {
    for (const code of s.keys[l]!) {
      if (++n % SLICE === 0) await nextTurn();
      const row = blankRow();
      if (fillRow(s, l, code, row)) out.push(row);
    }
  }
  return out;
}

/**
 * Each change from the boundary rows, in level then code order: the diff, the names it refers to,
 * then each row described (`emit`, with the row's place among the terms), in slices. No diff row
 * is kept (round 12): the codes to name and the terms are read from the boundaries (codesAndTerm),
 * then one row object is filled per key to describe it. Answers the term order of the rows' terms when it was asked beside the names (`termOrder`
 * where statements overlap), else undefined.
 */
export async function eachChangeFromRanges(
  db: Db,
  from: { id: number; version: string },
  to: { id: number; version: string },
  opts: RangedOptions,
  emit: (c: ChangeRecord, termAt: number) => void,
): Promise<{ ranks: Promise<Int32Array> | undefined }> {
  const s = await readRanged(db, from.id, to.id, opts);
  const row = blankRow();
  const codes = new Set<number>();
  const early = opts.termOrder && opts.overlap;
  const terms: string[] = [];
  let n = 0;
  for (let l = 0; l < LEVELS.length; l++) {
    for (const code of s.keys[l]!) {
      if (++n % SLICE === 0) await nextTurn();
      const term = codesAndTerm(s, l, code, codes);
      if (term === undefined) continue;
      if (early) terms.push(term!);
    }
  }
  // The term order (a statement over every term) runs beside the names statements and the describing.
  const ranks = early ? termRanks(db, terms) : undefined;
  ranks?.catch(() => undefined); // awaited through the listing; not unhandled if the names fail first
  const names = await namesOf(db, [to.id, from.id], codes, opts.overlap);
  const name = (c: number) => names.get(c);
  const versions = { from: from.version, to: to.version };
  n = 0;
  let t = 0;
  for (let l = 0; l < LEVELS.length; l++) {
    for (const code of s.keys[l]!) {
      if (++n % SLICE === 0) await nextTurn();
      if (!fillRow(s, l, code, row)) continue;
      const c = describeChange(row, name, versions);
      if (c) emit(c, t);
      t++;
    }
  }
  // In an object: an async function's answer that is a promise would be waited for.
  return { ranks };
}

/** computeChanges() from the boundary rows (eachChangeFromRanges), the records kept. */
export async function computeChangesFromRanges(
  db: Db,
  from: { id: number; version: string },
  to: { id: number; version: string },
  opts: RangedOptions = {},
): Promise<ChangeRecord[]> {
  const out: ChangeRecord[] = [];
  /** Per record, its row's place among the terms. */
  const termAt: number[] = [];
  const { ranks } = await eachChangeFromRanges(db, from, to, opts, (c, t) => {
    out.push(c);
    termAt.push(t);
  });
  // Ranks over the rows' terms, a superset of the records' in the same order: their order holds for the records.
  if (ranks) withTermRanks(out, ranks.then((r) => Int32Array.from(termAt, (i) => r[i]!)));
  return out;
}
