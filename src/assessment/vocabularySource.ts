// A release's vocabulary source (PT/LLT names, grade definitions) encoded once into shared
// memory: every task names it, workers share it without copying, and a worker builds its
// own Vocabulary from it the first time it codes for that release. Columns rather than
// JSON objects: a full-size release (111k terms) encodes in tens of milliseconds.
import type { GradeDefinitions, VocabularySource, VocabularyTerm } from '../nlp/index.ts';
import { nextTurn } from '../runtime/nextTurn.ts';

const HEADER = 3; // Int32: term count, name bytes, grade bytes
const LLT = 1;
const CURRENT = 2;

export function encodeSource(src: VocabularySource): SharedArrayBuffer {
  const n = src.terms.length;
  // Names are joined by line breaks (MedAscii records are lines, so names hold none).
  const names = new TextEncoder().encode(src.terms.map((t) => t.name.replace(/\n/g, ' ')).join('\n'));
  const grades = new TextEncoder().encode(JSON.stringify([...src.grades]));
  const ints = HEADER + 2 * n;
  const shared = new SharedArrayBuffer(ints * 4 + n + names.byteLength + grades.byteLength);
  const head = new Int32Array(shared, 0, ints);
  head.set([n, names.byteLength, grades.byteLength]);
  const flags = new Uint8Array(shared, ints * 4, n);
  src.terms.forEach((t, i) => {
    head[HEADER + i] = t.code;
    head[HEADER + n + i] = t.ptCode;
    flags[i] = (t.level === 'LLT' ? LLT : 0) | (t.current ? CURRENT : 0);
  });
  new Uint8Array(shared, ints * 4 + n, names.byteLength).set(names);
  new Uint8Array(shared, ints * 4 + n + names.byteLength, grades.byteLength).set(grades);
  return shared;
}

/** Terms encoded between two yields to the event loop (encodeSourceInSlices): ~10 ms on a quiet machine. */
const SLICE = 5_000;

/**
 * encodeSource's bytes, made in slices of SLICE terms with a turn of the event loop between
 * them: on the serving thread a full-size release (111,000 names) took 0.1–0.5 s in one piece.
 */
export async function encodeSourceInSlices(src: VocabularySource): Promise<SharedArrayBuffer> {
  const n = src.terms.length;
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  let nameBytes = 0;
  for (let at = 0; at < n; at += SLICE) {
    if (at > 0) await nextTurn();
    const text = src.terms.slice(at, at + SLICE).map((t) => t.name.replace(/\n/g, ' ')).join('\n');
    // Names are split at term boundaries, so the pieces' UTF-8 is the whole text's.
    const piece = encoder.encode(at + SLICE < n ? `${text}\n` : text);
    pieces.push(piece);
    nameBytes += piece.byteLength;
  }
  const grades = encoder.encode(JSON.stringify([...src.grades]));
  const ints = HEADER + 2 * n;
  const shared = new SharedArrayBuffer(ints * 4 + n + nameBytes + grades.byteLength);
  const head = new Int32Array(shared, 0, ints);
  head.set([n, nameBytes, grades.byteLength]);
  const flags = new Uint8Array(shared, ints * 4, n);
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % SLICE === 0) await nextTurn();
    const t = src.terms[i]!;
    head[HEADER + i] = t.code;
    head[HEADER + n + i] = t.ptCode;
    flags[i] = (t.level === 'LLT' ? LLT : 0) | (t.current ? CURRENT : 0);
  }
  const bytes = new Uint8Array(shared, ints * 4 + n);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.byteLength;
  }
  bytes.set(grades, at);
  return shared;
}

export function decodeSource(shared: SharedArrayBuffer): VocabularySource {
  const [n, nameBytes, gradeBytes] = new Int32Array(shared, 0, HEADER) as unknown as [number, number, number];
  const ints = HEADER + 2 * n;
  const head = new Int32Array(shared, 0, ints);
  const flags = new Uint8Array(shared, ints * 4, n);
  // TextDecoder refuses views of shared memory: copy the bytes once (per worker and release).
  const text = (at: number, len: number) => new TextDecoder().decode(new Uint8Array(shared, at, len).slice());
  const names = n > 0 ? text(ints * 4 + n, nameBytes).split('\n') : [];
  const terms: VocabularyTerm[] = names.map((name, i) => ({
    code: head[HEADER + i]!,
    name,
    level: flags[i]! & LLT ? 'LLT' : 'PT',
    ptCode: head[HEADER + n + i]!,
    current: (flags[i]! & CURRENT) !== 0,
  }));
  const grades: GradeDefinitions = new Map(JSON.parse(text(ints * 4 + n + nameBytes, gradeBytes)) as [number, Record<number, string>][]);
  return { terms, grades };
}

/**
 * Estimated heap bytes of the Vocabulary built from an encoded source of this many bytes: measured
 * 10.7× at full size (a 4.2 MB source, 111,000 terms: 45 MB after its warm()) and 12.4× at a tenth
 * of it (synthetic releases, heap used after two collections); counted at 12×.
 */
export function vocabularyBytes(sourceBytes: number): number {
  return 12 * sourceBytes;
}
