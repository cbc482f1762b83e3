// Hosted releases and release selection. Releases are immutable once imported;
// only an import (or --replace) changes this list.
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';

export interface ReleaseInfo {
  id: number;
  version: string;
  language: string;
  /** YYYY-MM-DD or null. */
  releaseDate: string | null;
  ordinal: number;
  isLatest: boolean;
  importedAt: Date;
}

/** All releases, latest first. */
export async function listReleases(prisma: PrismaClient | Prisma.TransactionClient): Promise<ReleaseInfo[]> {
  const rows = await prisma.release.findMany({ orderBy: { ordinal: 'desc' } });
  return rows.map((r, i) => ({
    id: r.id,
    version: r.version,
    language: r.language,
    releaseDate: r.releaseDate ? r.releaseDate.toISOString().slice(0, 10) : null,
    ordinal: r.ordinal,
    isLatest: i === 0,
    importedAt: r.importedAt,
  }));
}
