// The change engine's diff (engine.ts diffReleases) computed from two releases' in-memory
// indexes instead of one SQL statement. Both indexes hold every concept column the diff
// compares (name, currency, PT, primary SOC, SOC abbreviation and order) and every link
// child → parents: one pass over each release's entries, matched by (level, code), finds what
// differs, with no statement at all. The statement, over two full-size releases many releases
// apart, took 6–12 s on PostgreSQL (most of it JIT compilation and sorts spilled to disk, on a
// loaded machine) and longer on PGlite; this merge is a few hundred milliseconds of CPU, cut in
// slices with a yield between them so that requests answered meanwhile are not held up.
// Rows are the same as the statement's (test/domain/changes-index.test.ts checks it on both
// databases), so describeChange() and everything after it are unchanged. Two releases read
// through one base index (a release's overlay view over the latest's index, as after a start)
// are compared only where their overlays differ from that base (diffOverBase).
import type { ReleaseIndex } from '../releaseIndex/releaseIndex.ts';
import { OverlayView } from '../releaseIndex/overlayView.ts';
import { LEVELS, type Level } from '../levels.ts';
import { describeChange, type ChangeRecord, type DiffRow, type NameLookup } from './engine.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';

const NONE = -2147483648;
/** Entries (or rows) handled between two yields: a few milliseconds of work each. */
const SLICE = 8_192;
const LLT = LEVELS.indexOf('LLT');
const NAMED_LEVELS = LEVELS.filter((l) => l !== 'LLT');

/** What the diff reads of one release, entry by entry: a whole index's columns, or an overlay view's handles. */
interface Side {
  find(level: Level, code: number): number;
  level(i: number): number;
  code(i: number): number;
  ptCode(i: number): number;
  current(i: number): number;
  primarySoc(i: number): number;
  intlOrder(i: number): number;
  name(i: number): string;
  abbrev(i: number): string | null;
  /** The codes of entry i's parents ascending (as the statement's array_agg), null for an LLT or none. */
  parents(i: number): number[] | null;
}

/** A release read for a diff: its whole index, or its overlay view over another release's index. */
export type DiffIndex = ReleaseIndex | OverlayView;

function indexSide(ix: ReleaseIndex): Side {
  // codePageParts(): the arrays as they are (parts() would also list the trigrams).
  const p = ix.codePageParts();
  const c = p.columns;
  const up = p.up;
  return {
    find: (level, code) => ix.find(level, code),
    level: (i) => c.level[i]!,
    code: (i) => c.code[i]!,
    ptCode: (i) => c.ptCode[i]!,
    current: (i) => c.current[i]!,
    primarySoc: (i) => c.primarySoc[i]!,
    intlOrder: (i) => c.intlOrder[i]!,
    name: (i) => c.name[i]!,
    abbrev: (i) => p.socAbbrev.get(i) ?? null,
    parents: (i) => {
      if (c.level[i] === LLT) return null;
      const from = up.start[i]!;
      const to = up.start[i + 1]!;
      if (from === to) return null;
      const out: number[] = [];
      for (let k = from; k < to; k++) out.push(c.code[up.to[k]!]!);
      return out.sort((x, y) => x - y);
    },
  };
}

function viewSide(v: OverlayView): Side {
  return {
    find: (level, code) => v.find(level, code),
    level: (h) => v.column('level', h),
    code: (h) => v.column('code', h),
    ptCode: (h) => v.column('ptCode', h),
    current: (h) => v.column('current', h),
    primarySoc: (h) => v.column('primarySoc', h),
    intlOrder: (h) => v.column('intlOrder', h),
    name: (h) => v.nameOf(h),
    abbrev: (h) => v.abbrevOf(h),
    parents: (h) => {
      if (v.column('level', h) === LLT) return null;
      const codes = v.parentCodes(h);
      return codes.length === 0 ? null : codes.sort((x, y) => x - y);
    },
  };
}

const sideOf = (ix: DiffIndex): Side => (ix instanceof OverlayView ? viewSide(ix) : indexSide(ix));

const opt = (v: number) => (v === NONE ? null : v);

const sameList = (a: number[] | null, b: number[] | null) => (a === null || b === null ? a === b : a.length === b.length && a.every((x, k) => x === b[k]));

/** Whether both indexes can answer a diff: built with their hierarchy (an index of names alone cannot). */
export function canDiff(a: ReleaseIndex, b: ReleaseIndex): boolean {
  return a.hasHierarchy && b.hasHierarchy && a.language === undefined && b.language === undefined;
}

/** Whether entry ia of A and jb of B (both held) have the same values and parents. */
function sameEntry(A: Side, B: Side, ia: number, jb: number, aParents: number[] | null, bParents: number[] | null): boolean {
  return (
    A.name(ia) === B.name(jb) &&
    A.current(ia) === B.current(jb) &&
    A.ptCode(ia) === B.ptCode(jb) &&
    A.primarySoc(ia) === B.primarySoc(jb) &&
    A.abbrev(ia) === B.abbrev(jb) &&
    A.intlOrder(ia) === B.intlOrder(jb) &&
    sameList(aParents, bParents)
  );
}

/** The diff row of entry ia of A and jb of B (−1: not in that release), or undefined when they are the same. */
function rowOf(A: Side, B: Side, ia: number, jb: number): DiffRow | undefined {
  const inA = ia >= 0;
  const inB = jb >= 0;
  const aParents = inA ? A.parents(ia) : null;
  const bParents = inB ? B.parents(jb) : null;
  if (inA && inB && sameEntry(A, B, ia, jb, aParents, bParents)) return undefined;
  const level = LEVELS[inA ? A.level(ia) : B.level(jb)]! as Level;
  const code = inA ? A.code(ia) : B.code(jb);
  const lltIn = (s: Side) => {
    const k = s.find('LLT', code);
    return k < 0 ? null : opt(s.ptCode(k));
  };
  return {
    level,
    code,
    inA,
    inB,
    aName: inA ? A.name(ia) : null,
    bName: inB ? B.name(jb) : null,
    aCurrent: inA ? A.current(ia) === 1 : null,
    bCurrent: inB ? B.current(jb) === 1 : null,
    aPt: inA ? opt(A.ptCode(ia)) : null,
    bPt: inB ? opt(B.ptCode(jb)) : null,
    aSoc: inA ? opt(A.primarySoc(ia)) : null,
    bSoc: inB ? opt(B.primarySoc(jb)) : null,
    aAbbrev: inA ? A.abbrev(ia) : null,
    bAbbrev: inB ? B.abbrev(jb) : null,
    aOrder: inA ? opt(A.intlOrder(ia)) : null,
    bOrder: inB ? opt(B.intlOrder(jb)) : null,
    aParents,
    bParents,
    promotedFromPt: level === 'PT' && !inA ? lltIn(A) : null,
    demotedToPt: level === 'PT' && !inB ? lltIn(B) : null,
    ptInA: A.find('PT', code) >= 0,
    ptInB: B.find('PT', code) >= 0,
  };
}

const inDiffOrder = (x: DiffRow, y: DiffRow) => LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level) || x.code - y.code;

/**
 * Every concept that differs between the releases of indexes a and b, as diffReleases() answers
 * it, in its order (level, code). Entries are matched by (level, code) through the indexes' maps,
 * not merged: an index's entry order is not (level, code) throughout (one loaded from a snapshot
 * written at import keeps the importer's order).
 */
export async function diffIndexes(a: ReleaseIndex, b: ReleaseIndex): Promise<DiffRow[]> {
  const A = indexSide(a);
  const B = indexSide(b);
  const out: DiffRow[] = [];
  const seenInB = new Uint8Array(b.size);
  for (let ia = 0; ia < a.size; ia++) {
    if (ia % SLICE === SLICE - 1) await nextTurn();
    const jb = B.find(LEVELS[A.level(ia)]!, A.code(ia));
    if (jb >= 0) seenInB[jb] = 1;
    const r = rowOf(A, B, ia, jb);
    if (r) out.push(r);
  }
  for (let jb = 0; jb < b.size; jb++) {
    if (jb % SLICE === SLICE - 1) await nextTurn();
    if (seenInB[jb]) continue;
    const r = rowOf(A, B, -1, jb);
    if (r) out.push(r);
  }
  return out.sort(inDiffOrder);
}

/** The index both read through when a and b are one index and a view over it, or two views over one index; else undefined. */
export function sharedBase(a: DiffIndex, b: DiffIndex): ReleaseIndex | undefined {
  const baseOf = (x: DiffIndex) => (x instanceof OverlayView ? x.baseIndex : x);
  const base = baseOf(a);
  if (base !== baseOf(b) || !(a instanceof OverlayView || b instanceof OverlayView)) return undefined;
  return canDiff(base, base) ? base : undefined;
}

const baseOf = (x: DiffIndex) => (x instanceof OverlayView ? x.baseIndex : x);

/**
 * The bases two releases are read through when they differ (a view over an older group's
 * keyframe against the newest's index, as after a start: issue 32's far pair), both in memory and
 * able to answer a diff; else undefined. Nothing is loaded: both are held already.
 */
export function twoBases(a: DiffIndex, b: DiffIndex): [ReleaseIndex, ReleaseIndex] | undefined {
  const [x, y] = [baseOf(a), baseOf(b)];
  if (x === y || !(a instanceof OverlayView || b instanceof OverlayView)) return undefined;
  return canDiff(x, y) ? [x, y] : undefined;
}

/** A turn for others once TURN_MS have passed since the last one (slices by time: a far pair's serving-thread work under load, issue 32). */
const TURN_MS = 5;
class Turns {
  private since = performance.now();
  async maybe(): Promise<void> {
    if (performance.now() - this.since < TURN_MS) return;
    await nextTurn();
    this.since = performance.now();
  }
}

/** Adds the key (level × 2³² + code) of every entry where whole indexes x and y differ (held by one only, or other values), in slices. */
async function differingKeys(x: ReleaseIndex, y: ReleaseIndex, into: Set<number>): Promise<void> {
  const X = indexSide(x);
  const Y = indexSide(y);
  const seenInY = new Uint8Array(y.size);
  const turns = new Turns();
  for (let i = 0; i < x.size; i++) {
    if ((i & 255) === 255) await turns.maybe();
    const lv = X.level(i);
    const code = X.code(i);
    const j = Y.find(LEVELS[lv]!, code);
    if (j >= 0) seenInY[j] = 1;
    if (j < 0 || !sameEntry(X, Y, i, j, X.parents(i), Y.parents(j))) into.add(lv * 2 ** 32 + code);
  }
  for (let j = 0; j < y.size; j++) {
    if ((j & 255) === 255) await turns.maybe();
    if (!seenInY[j]) into.add(Y.level(j) * 2 ** 32 + Y.code(j));
  }
}

/**
 * The keys (level × 2³² + code) where releases a and b may differ, ascending, i.e. in (level, code)
 * order: the entries where either view differs from its base, and (through two bases, twoBases())
 * those where the bases differ. A key outside them is the same in both releases.
 */
async function candidateKeys(a: DiffIndex, b: DiffIndex): Promise<Float64Array> {
  const keys = new Set<number>();
  for (const x of [a, b]) if (x instanceof OverlayView) for (const e of x.differingEntries()) keys.add(e.level * 2 ** 32 + e.code);
  const bases = twoBases(a, b);
  if (bases) await differingKeys(bases[0], bases[1], keys);
  await nextTurn();
  // Typed: a numeric sort without a comparator call per pair, and no sort of the rows after.
  return Float64Array.from(keys).sort();
}

/** Each diff row of a and b over the candidate keys, in (level, code) order, sliced with a turn between; one row object each, not kept here. */
async function eachDiffRow(a: DiffIndex, b: DiffIndex, each: (r: DiffRow) => void): Promise<void> {
  const A = sideOf(a);
  const B = sideOf(b);
  const keys = await candidateKeys(a, b);
  const turns = new Turns();
  for (let n = 0; n < keys.length; n++) {
    if ((n & 63) === 63) await turns.maybe();
    const key = keys[n]!;
    const level = LEVELS[Math.floor(key / 2 ** 32)]!;
    const code = key % 2 ** 32;
    const [ia, jb] = [A.find(level, code), B.find(level, code)];
    if (ia < 0 && jb < 0) continue; // a base entry neither release holds
    const r = rowOf(A, B, ia, jb);
    if (r) each(r);
  }
}

/**
 * diffIndexes() for two releases read through one base index (sharedBase()): only the entries
 * where either view differs from the base can differ between the two, so only those are compared
 * — work in proportion to the releases' differences, not their size (issue 32: changes between
 * any two hosted releases), and no index of either release materialised. Through two bases
 * (twoBases()), the entries where the bases differ are compared too: a key where neither view
 * differs from its base nor the bases from each other is the same in both releases.
 */
export async function diffOverBase(a: DiffIndex, b: DiffIndex): Promise<DiffRow[]> {
  const out: DiffRow[] = [];
  await eachDiffRow(a, b, (r) => out.push(r));
  return out;
}

/**
 * The change records of two releases read through views (diffOverBase's keys), each described and
 * `emit`ted as it is made, in (level, code) order: no diff row nor record kept here (encodeIndexes.ts
 * keeps their JSON text: a far pair's ~217k records were the serving heap's to collect, bench/results.md).
 */
export async function eachChangeOverBase(from: { version: string; index: DiffIndex }, to: { version: string; index: DiffIndex }, emit: (c: ChangeRecord) => void): Promise<void> {
  const name = indexNames(to.index, from.index);
  const versions = { from: from.version, to: to.version };
  await eachDiffRow(from.index, to.index, (r) => {
    const c = describeChange(r, name, versions);
    if (c) emit(c);
  });
}

/** Names of non-LLT codes: the target release's first, then the baseline's (as namesFor()). */
export function indexNames(to: DiffIndex, from: DiffIndex): NameLookup {
  const sides = [sideOf(to), sideOf(from)];
  return (code) => {
    for (const s of sides) {
      for (const l of NAMED_LEVELS) {
        const i = s.find(l, code);
        if (i >= 0) return s.name(i);
      }
    }
    return undefined;
  };
}

/** computeChanges() over two indexes (or views over one base: diffOverBase()): the diff, then each row described, in slices. */
export async function computeChangesFromIndexes(
  from: { version: string; index: DiffIndex },
  to: { version: string; index: DiffIndex },
): Promise<ChangeRecord[]> {
  const [a, b] = [from.index, to.index];
  let rows: DiffRow[];
  if (a instanceof OverlayView || b instanceof OverlayView) {
    if (!sharedBase(a, b) && !twoBases(a, b)) throw new Error(`releases ${a.releaseId} and ${b.releaseId} are not read through bases in memory`);
    rows = await diffOverBase(a, b);
  } else rows = await diffIndexes(a, b);
  const name = indexNames(to.index, from.index);
  const versions = { from: from.version, to: to.version };
  const out: ChangeRecord[] = [];
  for (let k = 0; k < rows.length; k++) {
    if (k % SLICE === SLICE - 1) await nextTurn();
    const c = describeChange(rows[k]!, name, versions);
    if (c) out.push(c);
  }
  return out;
}
