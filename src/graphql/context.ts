// What every resolver sees: services (shared), loaders (per request), and the
// request's release-selection header.
import type { Logger } from '../logger.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ReleaseCatalog, ReleaseSelection } from '../domain/catalog.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { createLoaders, type Loaders } from './loaders.ts';

export interface Services {
  /** Primary database client (writes, and reads that must see them). */
  prisma: PrismaClient;
  /** Client for catalog reads (a read replica when configured); defaults to prisma. */
  reader?: () => PrismaClient;
  catalog: ReleaseCatalog;
  log: Logger;
}

export interface GraphQLContext {
  services: Services;
  loaders: Loaders;
  requestId: string;
  log: Logger;
  /** X-Terminology-Version of the request, if any. */
  headerVersion: string | undefined;
  /** Releases the response used, for the X-Terminology-Version response header. */
  usedVersions: Set<string>;
  /** Resolves argument > header > latest, logging a disagreement. */
  selectRelease(argument: string | null | undefined): Promise<ReleaseInfo>;
}

export function createContext(
  services: Services,
  request: { requestId: string; headerVersion: string | undefined; log?: Logger; usedVersions?: Set<string> },
): GraphQLContext {
  const log = request.log ?? services.log;
  const ctx: GraphQLContext = {
    services,
    loaders: createLoaders(services.prisma, services.reader?.() ?? services.prisma),
    requestId: request.requestId,
    log,
    headerVersion: request.headerVersion,
    // Shared with the HTTP layer when given, which reports it in a response header.
    usedVersions: request.usedVersions ?? new Set(),
    async selectRelease(argument) {
      const sel: ReleaseSelection = await services.catalog.select(argument, request.headerVersion);
      if (argument && request.headerVersion && argument !== request.headerVersion) {
        log.warn(
          { requestId: request.requestId, parameter: argument, header: request.headerVersion },
          'version parameter and X-Terminology-Version header disagree; the parameter wins',
        );
      }
      ctx.usedVersions.add(sel.release.version);
      return sel.release;
    },
  };
  return ctx;
}
