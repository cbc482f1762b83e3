// Grade definitions of a release's terms (the project's ctcae_grade.asc extension file), read
// for the coding engine's vocabulary.
import type { PrismaClient } from '../generated/prisma/client.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export interface GradeDefinitionRow {
  code: number;
  grade: number;
  definition: string;
}

/** Every grade definition of a release, by code then grade. */
export async function gradeDefinitionRows(db: Db, releaseId: number): Promise<GradeDefinitionRow[]> {
  return db.$queryRawUnsafe<GradeDefinitionRow[]>(
    'SELECT g.code, g.grade, g.definition FROM grade_definition_at($1) g ORDER BY g.code, g.grade',
    releaseId,
  );
}
