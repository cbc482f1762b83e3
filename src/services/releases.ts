// Hosted releases: the list (latest first), selection, counts, the previous release.
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { slicePage, type Page, type PageRequest } from './paging.ts';
import type { RequestScope } from './scope.ts';

export async function listReleases(scope: RequestScope, page: PageRequest): Promise<Page<ReleaseInfo>> {
  return slicePage(await scope.services.catalog.releases(), page);
}

/** By identifier, else the X-Terminology-Version header, else the latest. */
export const selectRelease = (scope: RequestScope, version: string | null | undefined): Promise<ReleaseInfo> => scope.selectRelease(version);

export async function releaseByVersion(scope: RequestScope, version: string): Promise<ReleaseInfo | null> {
  return (await scope.services.catalog.byVersion(version)) ?? null;
}

export const levelCounts = (scope: RequestScope, release: ReleaseInfo): Promise<Record<Level, number>> => scope.services.catalog.levelCounts(release.id);

export async function previousRelease(scope: RequestScope, release: ReleaseInfo): Promise<ReleaseInfo | null> {
  return (await scope.services.catalog.previous(release)) ?? null;
}
