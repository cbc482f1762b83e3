// Hosted releases and release selection. Releases are immutable once imported;
// only an import (or --replace) changes this list.
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { tagOfMssoName } from './languages.ts';

export interface ReleaseInfo {
  id: number;
  version: string;
  /** The primary language as meddra_release.asc names it (English). */
  language: string;
  /** BCP 47 tags of the hosted languages, primary first (issue 28). */
  languages: string[];
  /** YYYY-MM-DD or null. */
  releaseDate: string | null;
  ordinal: number;
  isLatest: boolean;
  importedAt: Date;
  /**
   * When each language's names were last imported (epoch ms, by tag): an `import --replace` of
   * one language changes it without a new release id, so in-memory indexes follow it (indexCache.ts).
   */
  namesImportedAt?: Record<string, number>;
}

/** All releases, latest first, with their languages: one statement. */
export async function listReleases(prisma: PrismaClient | Prisma.TransactionClient): Promise<ReleaseInfo[]> {
  const rows = await prisma.$queryRawUnsafe<
    { id: number; version: string; language: string; release_date: string | null; ordinal: number; imported_at: Date; languages: string[] | null; names_at: number[] | null }[]
  >(
    `SELECT r.id, r.version, r.language, to_char(r.release_date, 'YYYY-MM-DD') AS release_date, r.ordinal, r.imported_at,
            array_agg(rl.language ORDER BY rl.position) FILTER (WHERE rl.language IS NOT NULL) AS languages,
            array_agg((extract(epoch FROM rl.imported_at) * 1000)::float8 ORDER BY rl.position) FILTER (WHERE rl.language IS NOT NULL) AS names_at
     FROM "release" r LEFT JOIN release_language rl ON rl.release_id = r.id
     GROUP BY r.id ORDER BY r.ordinal DESC`,
  );
  return rows.map((r, i) => ({
    id: r.id,
    version: r.version,
    language: r.language,
    languages: r.languages?.length ? r.languages : [tagOfMssoName(r.language)],
    releaseDate: r.release_date,
    ordinal: r.ordinal,
    isLatest: i === 0,
    importedAt: new Date(r.imported_at),
    namesImportedAt: Object.fromEntries((r.languages ?? []).map((tag, i) => [tag, Number(r.names_at?.[i])])),
  }));
}
