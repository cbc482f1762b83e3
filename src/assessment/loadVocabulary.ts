// Loading a release's terms for buildVocabulary, kept out of src/nlp (the engine
// never touches a database): from the store, one query per table (a MedAscii model without a
// database: tools/eval/vocabularyFromModel.ts). Callers build once per release and cache.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { GradeDefinitions, VocabularySource, VocabularyTerm } from '../nlp/vocabulary.ts';

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
export async function loadVocabularySource(prisma: Pick<PrismaClient, 'concept' | 'gradeDefinition'>, releaseId: number): Promise<VocabularySource> {
  const rows = await prisma.concept.findMany({
    where: { releaseId, level: { in: ['PT', 'LLT'] } },
    select: { level: true, code: true, name: true, current: true, ptCode: true },
    orderBy: [{ level: 'asc' }, { code: 'asc' }],
  });
  const terms: VocabularyTerm[] = [];
  for (const r of rows) {
    if (r.level === 'PT') terms.push({ code: r.code, name: r.name, level: 'PT', ptCode: r.code, current: true });
    else if (r.ptCode !== null) terms.push({ code: r.code, name: r.name, level: 'LLT', ptCode: r.ptCode, current: r.current });
  }
  const grades = await prisma.gradeDefinition.findMany({
    where: { releaseId },
    select: { code: true, grade: true, definition: true },
    orderBy: [{ code: 'asc' }, { grade: 'asc' }],
  });
  return { terms, grades: gradeDefinitionsFrom(grades) };
}
