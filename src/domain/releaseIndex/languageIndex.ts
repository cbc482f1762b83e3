// A release's search index in one of its non-primary languages (issue 28): the language's
// names from concept_name (the primary name where a concept has none), folded as that
// language folds them, over the primary index's shared entries and hierarchy.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { ReleaseIndex } from './releaseIndex.ts';
import { nameKeys } from '../languageNames.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** `variant`: which key of each name (nameKeys) the index holds; a name without that key keeps its first. */
export async function buildLanguageIndex(db: Db, base: ReleaseIndex, language: string, variant = 0): Promise<ReleaseIndex> {
  const rows = await db.$queryRawUnsafe<{ level: string; code: number; name: string; nr: number }[]>(
    `SELECT c.level::text AS level, c.code, coalesce(n.name, c.name) AS name,
            (row_number() OVER (ORDER BY coalesce(n.name_norm, c.name_norm), c.code))::int AS nr
     FROM concept_at($1) c LEFT JOIN concept_name_at($1) n ON n.language = $2 AND n.level = c.level AND n.code = c.code`,
    base.releaseId,
    language,
  );
  const names = new Array<string>(base.size);
  const norms = new Array<string>(base.size);
  const ranks = new Int32Array(base.size);
  for (let i = 0; i < base.size; i++) {
    // Entries the statement did not return (none: both come from the same concept rows) keep the primary name.
    names[i] = base.name[i]!;
    norms[i] = base.norm[i]!;
  }
  for (const r of rows) {
    const i = base.find(r.level as Parameters<ReleaseIndex['find']>[0], r.code);
    if (i < 0) continue;
    names[i] = r.name;
    const keys = nameKeys(language, r.name);
    norms[i] = keys[variant] ?? keys[0]!;
    ranks[i] = r.nr;
  }
  return ReleaseIndex.forLanguage(base, language, names, norms, ranks);
}
