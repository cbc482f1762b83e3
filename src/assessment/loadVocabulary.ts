// Loading a release's terms for buildVocabulary, kept out of src/nlp (the engine
// never touches a database): from the store (one query per table) or from a
// validated MedAscii model (`loadRelease(dir)`). Callers build once per release and cache.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ReleaseModel } from '../importer/model.ts';
import type { GradeDefinitions, VocabularySource, VocabularyTerm } from '../nlp/vocabulary.ts';


function gradesFrom(rows: Iterable<{ code: number; grade: number; definition: string }>): GradeDefinitions {
  const grades: GradeDefinitions = new Map();
  for (const r of rows) {
    let g = grades.get(r.code);
    if (!g) grades.set(r.code, (g = {}));
    g[r.grade] = r.definition;
  }
  return grades;
}

/** PT and LLT rows (and grade definitions) of a validated release model. */
export function vocabularySourceFromModel(model: ReleaseModel): VocabularySource {
  const terms: VocabularyTerm[] = [];
  for (const c of model.concepts) {
    if (c.level === 'PT') terms.push({ code: c.code, name: c.name, level: 'PT', ptCode: c.code, current: true });
    else if (c.level === 'LLT' && c.ptCode !== null) terms.push({ code: c.code, name: c.name, level: 'LLT', ptCode: c.ptCode, current: c.current });
  }
  return { terms, grades: gradesFrom(model.grades) };
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
  return { terms, grades: gradesFrom(grades) };
}
