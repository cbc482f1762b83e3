// A release's rows of a ranged table (docs/storage.md), read as the domain reads them, through
// `<table>_at(release)`: tests inspect what a release holds, not how the rows' ranges are cut.
import type { PrismaClient } from '../../src/generated/prisma/client.ts';

type Reader = Pick<PrismaClient, '$queryRawUnsafe'>;
export type RangedTableName = 'concept' | 'concept_name' | 'hierarchy_link' | 'hierarchy_path' | 'smq' | 'smq_term' | 'smq_name' | 'grade_definition';

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Rows of `table` in a release (its id, or its version), with camelCase keys (`nameNorm`, `ptCode`);
 * `where` is SQL over the function's columns (alias `t`; conditions, then ORDER BY or LIMIT if wanted), its parameters from $2 on.
 */
export async function rowsAt<T = Record<string, any>>(db: Reader, table: RangedTableName, release: number | string, where = 'true', ...params: unknown[]): Promise<T[]> {
  const by = typeof release === 'number' ? 'r.id = $1' : 'r.version = $1';
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT t.* FROM "release" r, ${table}_at(r.id) t WHERE ${by} AND ${where}`,
    release,
    ...params,
  );
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [camel(k), v])) as T);
}
