// Loading a release's terms for buildVocabulary, kept out of src/nlp (the engine
// never touches a database): from the store, one query per table (a MedAscii model without a
// database: tools/eval/vocabularyFromModel.ts). Callers build once per release and cache.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { GradeDefinitions, VocabularySource, VocabularyTerm } from '../nlp/vocabulary.ts';
import { LEVELS } from '../domain/levels.ts';
import { ptAndLltRows } from '../domain/concepts.ts';
import { gradeDefinitionRows } from '../domain/gradeDefinitions.ts';
import type { ReleaseIndex } from '../domain/releaseIndex/releaseIndex.ts';
import { nextTurn } from '../runtime/nextTurn.ts';

/** Grade definitions by code, from (code, grade, definition) rows. */
export function gradeDefinitionsFrom(rows: Iterable<{ code: number; grade: number; definition: string }>): GradeDefinitions {
  const grades: GradeDefinitions = new Map();
  for (const r of rows) {
    let g = grades.get(r.code);
    if (!g) grades.set(r.code, (g = {}));
    g[r.grade] = r.definition;
  }
  return grades;
}

/** PT and LLT rows (and grade definitions) of an imported release, in a stable order. */
export async function loadVocabularySource(prisma: Pick<PrismaClient, '$queryRawUnsafe'>, releaseId: number): Promise<VocabularySource> {
  const rows = await ptAndLltRows(prisma, releaseId);
  const terms: VocabularyTerm[] = [];
  for (const r of rows) {
    if (r.level === 'PT') terms.push({ code: r.code, name: r.name, level: 'PT', ptCode: r.code, current: true });
    else if (r.ptCode !== null) terms.push({ code: r.code, name: r.name, level: 'LLT', ptCode: r.ptCode, current: r.current });
  }
  return { terms, grades: gradeDefinitionsFrom(await gradeDefinitionRows(prisma, releaseId)) };
}

/** Entries read between two yields to the event loop. */
const INDEX_SLICE = 5_000;


/**
 * The same source as loadVocabularySource, from the release's built index (its primary names)
 * instead of one statement of 100k rows: the embedded database runs a statement on the serving
 * thread, and Prisma turns its rows into objects there too (seconds at full size, issue 27
 * defect 5). Read in slices; only the grade definitions (a few hundred rows) come from the store.
 */
export async function vocabularySourceFromIndex(
  prisma: Pick<PrismaClient, '$queryRawUnsafe'>,
  ix: Pick<ReleaseIndex, 'releaseId' | 'size' | 'level' | 'code' | 'ptCode' | 'current' | 'name'>,
): Promise<VocabularySource> {
  const PT = LEVELS.indexOf('PT');
  const LLT = LEVELS.indexOf('LLT');
  const pts: number[] = [];
  const llts: number[] = [];
  for (let i = 0; i < ix.size; i++) {
    if (i > 0 && i % INDEX_SLICE === 0) await nextTurn();
    if (ix.level[i] === PT) pts.push(i);
    else if (ix.level[i] === LLT && ix.ptCode[i]! >= 0) llts.push(i);
  }
  // The store's order: PTs, then LLTs, each by code (orderBy level, code).
  const ptOrder = byCode(pts, ix.code);
  await nextTurn();
  const lltOrder = byCode(llts, ix.code);
  await nextTurn();
  const terms: VocabularyTerm[] = new Array(pts.length + llts.length);
  let k = 0;
  for (const i of ptOrder) {
    if (k > 0 && k % INDEX_SLICE === 0) await nextTurn();
    terms[k++] = { code: ix.code[i]!, name: ix.name[i]!, level: 'PT', ptCode: ix.code[i]!, current: true };
  }
  await nextTurn();
  for (const i of lltOrder) {
    if (k % INDEX_SLICE === 0) await nextTurn();
    terms[k++] = { code: ix.code[i]!, name: ix.name[i]!, level: 'LLT', ptCode: ix.ptCode[i]!, current: ix.current[i] === 1 };
  }
  return { terms, grades: gradeDefinitionsFrom(await gradeDefinitionRows(prisma, ix.releaseId)) };
}

/** Entry positions above this do not fit beside a code in one exact double (byCode). */
const POSITION_BITS = 2 ** 21;

/**
 * `positions` ordered by their entries' codes. Each (code, position) pair is one number in a
 * Float64Array, sorted natively: an Array sort with a comparator took ~0.1–0.25 s of one turn
 * for a full-size release's 85,000 LLTs (codes < 2^31, positions < 2^21: exact below 2^53).
 */
function byCode(positions: number[], code: ArrayLike<number>): Iterable<number> {
  if (positions.length > POSITION_BITS || positions.some((i) => i >= POSITION_BITS || code[i]! < 0)) return [...positions].sort((a, b) => code[a]! - code[b]!);
  const keys = new Float64Array(positions.length);
  for (let k = 0; k < positions.length; k++) keys[k] = code[positions[k]!]! * POSITION_BITS + positions[k]!;
  keys.sort();
  const out = new Int32Array(keys.length);
  for (let k = 0; k < keys.length; k++) out[k] = keys[k]! % POSITION_BITS;
  return out;
}
