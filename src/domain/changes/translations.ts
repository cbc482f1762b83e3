// Translation changes (issue 28): a concept's name changed in one non-primary language between
// two releases while it stays in both. Its own kind (`translation_changed`), reported as an
// `updated` change (the documented change types are added/updated/retired) with the language and
// both names. Computed on demand from concept_name (one statement): the stored change sets
// (engine.ts) stay the primary language's, so nothing about them changes.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Level } from '../levels.ts';
import type { StoredChange } from './store.ts';
import { languageDisplayName } from '../languageTags.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export interface LanguageRelease {
  id: number;
  /** Hosted languages, primary first. */
  languages: readonly string[];
}

export type TranslationChange = StoredChange & { language: string };

/** Where a release keeps its names in `language`: concept for its primary language, else concept_name. */
function namesOf(r: LanguageRelease, language: string, param: string, langParam: string): string {
  return r.languages[0] === language
    ? `SELECT level, code, name FROM concept_at(${param})`
    : `SELECT level, code, name FROM concept_name_at(${param}) WHERE language = ${langParam}`;
}

/**
 * Concepts of both releases whose name in `language` differs, by level and code (optionally only
 * `codes`). Nothing when either release does not host the language, or it is the primary language
 * of both (a rename there is already an `updated` change of the stored set).
 */
export async function translationChanges(db: Db, from: LanguageRelease, to: LanguageRelease, language: string, codes?: readonly number[]): Promise<TranslationChange[]> {
  if (!from.languages.includes(language) || !to.languages.includes(language)) return [];
  if (from.languages[0] === language && to.languages[0] === language) return [];
  const rows = await db.$queryRawUnsafe<{ level: Level; code: number; before: string; after: string }[]>(
    `SELECT b.level::text AS level, b.code, a.name AS before, b.name AS after
     FROM (${namesOf(from, language, '$1', '$3')}) a
     JOIN (${namesOf(to, language, '$2', '$3')}) b ON b.level = a.level AND b.code = a.code
     WHERE a.name <> b.name ${codes ? 'AND b.code = ANY($4::int[])' : ''}
     ORDER BY b.level, b.name, b.code`,
    from.id,
    to.id,
    language,
    ...(codes ? [codes] : []),
  );
  const named = languageDisplayName(language);
  return rows.map((r) => ({
    level: r.level,
    code: r.code,
    changeType: 'updated',
    term: r.after,
    previousTerm: r.before,
    details: `${named} name changed (translation): '${r.before}' → '${r.after}'`,
    language,
    metadata: { kinds: ['translation_changed'], before: { name: r.before, language }, after: { name: r.after, language } } as unknown as StoredChange['metadata'],
  }));
}
