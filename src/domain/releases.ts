// Hosted releases and release selection. Releases are immutable once imported;
// only an import (or --replace) changes this list.
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { releaseLanguages, tagOfMssoName } from './languages.ts';

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
}

/** All releases, latest first. */
export async function listReleases(prisma: PrismaClient | Prisma.TransactionClient): Promise<ReleaseInfo[]> {
  const [rows, languages] = await Promise.all([prisma.release.findMany({ orderBy: { ordinal: 'desc' } }), releaseLanguages(prisma)]);
  return rows.map((r, i) => ({
    id: r.id,
    version: r.version,
    language: r.language,
    languages: languages.get(r.id)?.tags ?? [tagOfMssoName(r.language)],
    releaseDate: r.releaseDate ? r.releaseDate.toISOString().slice(0, 10) : null,
    ordinal: r.ordinal,
    isLatest: i === 0,
    importedAt: r.importedAt,
  }));
}
