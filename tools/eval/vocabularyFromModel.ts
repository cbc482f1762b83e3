// A validated MedAscii model (`loadRelease(dir)`) as the coding engine's vocabulary source,
// without a database: for the evaluation harness and the tests. The server reads the same
// terms from the store (src/assessment/loadVocabulary.ts); the importer is above the engine.
import type { ReleaseModel } from '../../src/importer/model.ts';
import { gradeDefinitionsFrom } from '../../src/assessment/loadVocabulary.ts';
import type { VocabularySource, VocabularyTerm } from '../../src/nlp/vocabulary.ts';

/** PT and LLT rows (and grade definitions) of a validated release model. */
export function vocabularySourceFromModel(model: ReleaseModel): VocabularySource {
  const terms: VocabularyTerm[] = [];
  for (const c of model.concepts) {
    if (c.level === 'PT') terms.push({ code: c.code, name: c.name, level: 'PT', ptCode: c.code, current: true });
    else if (c.level === 'LLT' && c.ptCode !== null) terms.push({ code: c.code, name: c.name, level: 'LLT', ptCode: c.ptCode, current: c.current });
  }
  return { terms, grades: gradeDefinitionsFrom(model.grades) };
}
