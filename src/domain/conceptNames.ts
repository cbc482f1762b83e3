// Names of concepts in the non-primary languages of their release (concept_name; the
// primary language's are concept.name). Batched: one statement per loader batch.
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ConceptKey } from './concepts.ts';
import type { Level } from './levels.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export interface NameKey extends ConceptKey {
  language: string;
}

export const nameKey = (k: NameKey) => `${k.releaseId}:${k.language}:${k.level}:${k.code}`;

/** The name of each key in its language (absent when the language has none for it). */
export async function namesByKeys(db: Db, keys: readonly NameKey[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ r: number; g: string; l: Level; c: number; name: string }[]>(
    `SELECT k.r, n.language AS g, n.level::text AS l, n.code AS c, n.name
     FROM json_to_recordset($1::json) AS k(r int, g text, l text, c int)
     JOIN concept_name_at(k.r) n ON n.language = k.g AND n.level = k.l::"Level" AND n.code = k.c`,
    JSON.stringify(keys.map((k) => ({ r: k.releaseId, g: k.language, l: k.level, c: k.code }))),
  );
  return new Map(rows.map((x) => [nameKey({ releaseId: x.r, language: x.g, level: x.l, code: x.c }), x.name]));
}

/**
 * Every non-primary name of each concept, in the release's language order. Only languages the
 * release hosts, and not its primary one: a stored name row may span a release that does not host
 * its language, or hosts it as primary (docs/storage.md › Languages).
 */
export async function otherNamesByKeys(db: Db, keys: readonly ConceptKey[]): Promise<Map<string, { language: string; name: string }[]>> {
  const out = new Map<string, { language: string; name: string }[]>();
  if (keys.length === 0) return out;
  const rows = await db.$queryRawUnsafe<{ r: number; l: Level; c: number; language: string; name: string }[]>(
    `SELECT k.r, n.level::text AS l, n.code AS c, n.language, n.name
     FROM json_to_recordset($1::json) AS k(r int, l text, c int)
     JOIN concept_name_at(k.r) n ON n.level = k.l::"Level" AND n.code = k.c
     JOIN release_language rl ON rl.release_id = k.r AND rl.language = n.language AND rl.position > 0
     ORDER BY rl.position`,
    JSON.stringify(keys.map((k) => ({ r: k.releaseId, l: k.level, c: k.code }))),
  );
  for (const x of rows) {
    const key = `${x.r}:${x.l}:${x.c}`;
    const list = out.get(key);
    if (list) list.push({ language: x.language, name: x.name });
    else out.set(key, [{ language: x.language, name: x.name }]);
  }
  return out;
}
