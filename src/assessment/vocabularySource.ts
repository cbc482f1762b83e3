// A release's vocabulary source (PT/LLT names, grade definitions) encoded once into shared
// memory: every task names it, workers share it without copying, and a worker builds its
// own Vocabulary from it the first time it codes for that release.
import type { VocabularySource, VocabularyTerm } from '../nlp/index.ts';

interface Wire {
  terms: VocabularyTerm[];
  grades: [number, Record<number, string>][];
}

export function encodeSource(src: VocabularySource): SharedArrayBuffer {
  const wire: Wire = { terms: src.terms, grades: [...src.grades] };
  const bytes = new TextEncoder().encode(JSON.stringify(wire));
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  return shared;
}

export function decodeSource(shared: SharedArrayBuffer): VocabularySource {
  // TextDecoder refuses views of shared memory: copy once (per worker and release).
  const wire = JSON.parse(new TextDecoder().decode(new Uint8Array(shared).slice())) as Wire;
  return { terms: wire.terms, grades: new Map(wire.grades) };
}
