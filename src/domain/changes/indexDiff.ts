// The change engine's diff (engine.ts diffReleases) computed from two releases' in-memory
// indexes instead of one SQL statement. Both indexes hold every concept column the diff
// compares (name, currency, PT, primary SOC, SOC abbreviation and order) and every link
// child → parents: one pass over each release's entries, matched by (level, code), finds what
// differs, with no statement at all. The statement, over two full-size releases many releases
// apart, took 6–12 s on PostgreSQL (most of it JIT compilation and sorts spilled to disk, on a
// loaded machine) and longer on PGlite; this merge is a few hundred milliseconds of CPU, cut in
// slices with a yield between them so that requests answered meanwhile are not held up.
// Rows are the same as the statement's (test/domain/changes-index.test.ts checks it on both
// databases), so describeChange() and everything after it are unchanged.
import type { EntryColumns, ReleaseIndex } from '../releaseIndex/releaseIndex.ts';
import { LEVELS, type Level } from '../levels.ts';
import { describeChange, type ChangeRecord, type DiffRow, type NameLookup } from './engine.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';

const NONE = -2147483648;
/** Entries (or rows) handled between two yields: a few milliseconds of work each. */
const SLICE = 8_192;
const LLT = LEVELS.indexOf('LLT');
const NAMED_LEVELS = LEVELS.filter((l) => l !== 'LLT');


/** What the diff reads of one release's index: its columns and its child → parents links. */
interface Side extends Pick<EntryColumns, 'level' | 'code' | 'ptCode' | 'current' | 'primarySoc' | 'intlOrder'> {
  ix: ReleaseIndex;
  name: string[];
  abbrev: Map<number, string>;
  upStart: Int32Array;
  upTo: Int32Array;
}

function side(ix: ReleaseIndex): Side {
  const p = ix.parts();
  const c = p.columns;
  return {
    ix,
    level: c.level,
    code: c.code,
    ptCode: c.ptCode,
    current: c.current,
    primarySoc: c.primarySoc,
    intlOrder: c.intlOrder,
    name: c.name,
    abbrev: new Map(p.socAbbrev),
    upStart: p.up.start,
    upTo: p.up.to,
  };
}

const opt = (v: number) => (v === NONE ? null : v);

/** The codes of entry i's parents ascending (as the statement's array_agg), null for an LLT or none. */
function parentsOf(s: Side, i: number): number[] | null {
  if (s.level[i] === LLT) return null;
  const from = s.upStart[i]!;
  const to = s.upStart[i + 1]!;
  if (from === to) return null;
  const out: number[] = [];
  for (let k = from; k < to; k++) out.push(s.code[s.upTo[k]!]!);
  return out.sort((x, y) => x - y);
}

const sameList = (a: number[] | null, b: number[] | null) => (a === null || b === null ? a === b : a.length === b.length && a.every((x, k) => x === b[k]));

/** Whether both indexes can answer a diff: built with their hierarchy (an index of names alone cannot). */
export function canDiff(a: ReleaseIndex, b: ReleaseIndex): boolean {
  return a.hasHierarchy && b.hasHierarchy && a.language === undefined && b.language === undefined;
}

/**
 * Every concept that differs between the releases of indexes a and b, as diffReleases() answers
 * it, in its order (level, code). Entries are matched by (level, code) through the indexes' maps,
 * not merged: an index's entry order is not (level, code) throughout (one loaded from a snapshot
 * written at import keeps the importer's order).
 */
export async function diffIndexes(a: ReleaseIndex, b: ReleaseIndex): Promise<DiffRow[]> {
  const A = side(a);
  const B = side(b);
  const out: DiffRow[] = [];
  const seenInB = new Uint8Array(B.code.length);
  const row = (ia: number, jb: number): void => {
    const inA = ia >= 0;
    const inB = jb >= 0;
    const aParents = inA ? parentsOf(A, ia) : null;
    const bParents = inB ? parentsOf(B, jb) : null;
    if (
      inA && inB &&
      A.name[ia] === B.name[jb] &&
      A.current[ia] === B.current[jb] &&
      A.ptCode[ia] === B.ptCode[jb] &&
      A.primarySoc[ia] === B.primarySoc[jb] &&
      (A.abbrev.get(ia) ?? null) === (B.abbrev.get(jb) ?? null) &&
      A.intlOrder[ia] === B.intlOrder[jb] &&
      sameList(aParents, bParents)
    ) return;
    const level = LEVELS[inA ? A.level[ia]! : B.level[jb]!]! as Level;
    const code = inA ? A.code[ia]! : B.code[jb]!;
    const lltIn = (s: Side) => {
      const k = s.ix.find('LLT', code);
      return k < 0 ? null : opt(s.ptCode[k]!);
    };
    out.push({
      level,
      code,
      inA,
      inB,
      aName: inA ? A.name[ia]! : null,
      bName: inB ? B.name[jb]! : null,
      aCurrent: inA ? A.current[ia] === 1 : null,
      bCurrent: inB ? B.current[jb] === 1 : null,
      aPt: inA ? opt(A.ptCode[ia]!) : null,
      bPt: inB ? opt(B.ptCode[jb]!) : null,
      aSoc: inA ? opt(A.primarySoc[ia]!) : null,
      bSoc: inB ? opt(B.primarySoc[jb]!) : null,
      aAbbrev: inA ? (A.abbrev.get(ia) ?? null) : null,
      bAbbrev: inB ? (B.abbrev.get(jb) ?? null) : null,
      aOrder: inA ? opt(A.intlOrder[ia]!) : null,
      bOrder: inB ? opt(B.intlOrder[jb]!) : null,
      aParents,
      bParents,
      promotedFromPt: level === 'PT' && !inA ? lltIn(A) : null,
      demotedToPt: level === 'PT' && !inB ? lltIn(B) : null,
      ptInA: a.find('PT', code) >= 0,
      ptInB: b.find('PT', code) >= 0,
    });
  };
  for (let ia = 0; ia < A.code.length; ia++) {
    if (ia % SLICE === SLICE - 1) await nextTurn();
    const jb = b.find(LEVELS[A.level[ia]!]!, A.code[ia]!);
    if (jb >= 0) seenInB[jb] = 1;
    row(ia, jb);
  }
  for (let jb = 0; jb < B.code.length; jb++) {
    if (jb % SLICE === SLICE - 1) await nextTurn();
    if (!seenInB[jb]) row(-1, jb);
  }
  return out.sort((x, y) => LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level) || x.code - y.code);
}

/** Names of non-LLT codes: the target release's first, then the baseline's (as namesFor()). */
export function indexNames(to: ReleaseIndex, from: ReleaseIndex): NameLookup {
  return (code) => {
    for (const ix of [to, from]) {
      for (const l of NAMED_LEVELS) {
        const i = ix.find(l, code);
        if (i >= 0) return ix.name[i];
      }
    }
    return undefined;
  };
}

/** computeChanges() over two indexes: the diff, then each row described, in slices. */
export async function computeChangesFromIndexes(
  from: { version: string; index: ReleaseIndex },
  to: { version: string; index: ReleaseIndex },
): Promise<ChangeRecord[]> {
  const rows = await diffIndexes(from.index, to.index);
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
