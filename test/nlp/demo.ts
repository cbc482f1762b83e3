// The demo release (open data derived from CTCAE) as an engine vocabulary, built once per test file.
import path from 'node:path';
import { loadRelease } from '../../src/importer/import.ts';
import { buildVocabulary, type Vocabulary } from '../../src/nlp/index.ts';
import { vocabularySourceFromModel } from '../../tools/eval/vocabularyFromModel.ts';
import { projectRoot } from '../../src/paths.ts';

let cached: Vocabulary | undefined;

export function demoVocabulary(): Vocabulary {
  if (!cached) {
    const src = vocabularySourceFromModel(loadRelease(path.join(projectRoot, 'data', 'demo', '5.0.1')));
    cached = buildVocabulary(src.terms, { grades: src.grades });
  }
  return cached;
}

/** Demo PT codes used across the tests. */
export const PT = {
  vomiting: 10047700,
  nausea: 10028813,
  diarrhea: 10012727,
  abdominalPain: 10000081,
  rashMaculoPapular: 10037868,
  myocardialInfarction: 10028596,
  pruritus: 10037087,
  headache: 10019211,
  alt: 10001551,
  dizziness: 10013573,
  fatigue: 10016256,
  seizure: 10039906,
} as const;
