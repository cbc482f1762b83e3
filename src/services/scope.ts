// One request's view of the services: shared services, per-request loaders (batching and
// caching within the request), the release-selection header, and the caller's identity.
// Every surface (GraphQL resolvers, and through them REST) hands this to the use cases.
import type { Logger } from '../logger.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ReleaseCatalog, ReleaseSelection } from '../domain/catalog.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import { verifyApiKey } from '../domain/apiKeys.ts';
import { DomainError } from '../domain/errors.ts';
import { ALL_LANGUAGES, chooseLanguage } from '../domain/languages.ts';
import type { AssessmentService } from '../assessment/service.ts';
import type { ChangeSetMemory } from '../domain/changes/memory.ts';
import { WorkGate, type CodedWorkGates } from './codedWork.ts';
import type { KeyUsageRecorder, UsageFamily } from '../domain/apiKeyUsage.ts';

export interface Services {
  /** Narrative capabilities (identify, classify, labels); absent in catalog-only setups and tests. */
  assessment?: AssessmentService;
  /** Primary database client (writes, and reads that must see them). */
  prisma: PrismaClient;
  /** Client for catalog reads (a read replica when configured); defaults to prisma. */
  reader?: () => PrismaClient;
  catalog: ReleaseCatalog;
  /** Change sets held in memory per release pair (code pages' change records); without it, SQL answers. */
  changeSets?: ChangeSetMemory;
  log: Logger;
  /** Bounds on coded-data jobs at once (codedWork.ts); absent: unbounded (tests that build services by hand). */
  codedWork?: CodedWorkGates;
  /** Per-key usage, counted in memory and written in batches (absent: not recorded). */
  keyUsage?: KeyUsageRecorder;
}

/**
 * Runs a coded-data job under its gate, when the services have gates. `inputBytes` is counted
 * only when the job takes a place of its own (a REST upload already holds one, taken from its
 * Content-Length): counting 100,000 rows is a pass over all of them.
 */
export function underGate<T>(scope: RequestScope, gate: keyof CodedWorkGates, job: () => Promise<T>, inputBytes: () => number = () => 0): Promise<T> {
  const g = scope.services.codedWork?.[gate];
  return g ? g.run(job, () => WorkGate.jobBytes(inputBytes())) : job();
}

export interface RequestScope {
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
  /** Accept-Language of the request, if any. */
  acceptLanguage: string | undefined;
  /** Languages the answer's names are in (for Content-Language). */
  usedLanguages: Set<string>;
  /**
   * The language of names read from a release: `explicit` (a `language` argument or `?lang=`)
   * when given — it must be hosted (LANGUAGE_NOT_FOUND), `*` only with `allowAll` — else the
   * release's choice made earlier in this request, else Accept-Language's best hosted match,
   * else the primary. An explicit choice is kept for the release's later names in the request.
   */
  chooseLanguage(release: ReleaseInfo, explicit?: string | null, opts?: { allowAll?: boolean }): string;
  /** The language names of a release are read in, for a release id (the primary when the release list is not at hand). */
  languageOf(releaseId: number): { tag: string; primary: boolean };
  /** Client address (rate limits of the AI fields). */
  clientIp: string;
  /** Verifies X-API-Key (sk-…); returns the key id or throws UNAUTHORIZED. Counts one use of the family per request. */
  requireApiKey(family: UsageFamily): Promise<string>;
  /** Whether the request carries an API key at all (checked only where a key matters). */
  apiKeyPresented: boolean;
}

export function createScope(
  services: Services,
  request: {
    requestId: string;
    headerVersion: string | undefined;
    acceptLanguage?: string | undefined;
    log?: Logger;
    usedVersions?: Set<string>;
    apiKey?: string | undefined;
    apiKeyId?: string | undefined;
    clientIp?: string;
  },
): RequestScope {
  let verified: Promise<string> | undefined;
  const verify = (): Promise<string> =>
    (verified ??= verifyApiKey(services.prisma, request.apiKey).then((id) => {
      if (!id) {
        throw new DomainError(
          'UNAUTHORIZED',
          request.apiKey ? 'The X-API-Key is not valid (unknown, malformed or revoked).' : 'This endpoint needs an API key: send X-API-Key: sk-….',
        );
      }
      return id;
    }));
  /** Families already counted for this request (a GraphQL request may use several fields of one). */
  const counted = new Set<UsageFamily>();
  const log = request.log ?? services.log;
  /** Release id → the language chosen for its names in this request. */
  const chosen = new Map<number, { tag: string; primary: boolean }>();
  /** The language the request named last: other releases read in the same answer use it too when they host it. */
  let named: string | undefined;
  const choose = (release: ReleaseInfo, explicit: string | null | undefined, allowAll: boolean): string => {
    const prior = chosen.get(release.id);
    if (!explicit && prior) return prior.tag;
    const carried = !explicit && named !== undefined && release.languages.includes(named) ? named : undefined;
    const tag = carried ?? chooseLanguage(explicit, request.acceptLanguage, release.languages, release.version, allowAll);
    if (explicit && tag !== ALL_LANGUAGES) named = tag;
    if (tag !== ALL_LANGUAGES) {
      chosen.set(release.id, { tag, primary: tag === release.languages[0] });
      // An explicit choice replaces a default made earlier for the release.
      if (prior && prior.tag !== tag && ![...chosen.values()].some((c) => c.tag === prior.tag)) ctx.usedLanguages.delete(prior.tag);
      ctx.usedLanguages.add(tag);
    }
    return tag;
  };
  const ctx: RequestScope = {
    services,
    loaders: createLoaders(services.prisma, services.reader?.() ?? services.prisma, services.catalog.searchIndexes, services.changeSets, services.catalog.languageNames),
    requestId: request.requestId,
    log,
    headerVersion: request.headerVersion,
    // Shared with the HTTP layer when given, which reports it in a response header.
    usedVersions: request.usedVersions ?? new Set(),
    clientIp: request.clientIp ?? 'unknown',
    apiKeyPresented: Boolean(request.apiKey || request.apiKeyId),
    acceptLanguage: request.acceptLanguage,
    usedLanguages: new Set(),
    chooseLanguage: (release, explicit, opts) => choose(release, explicit, opts?.allowAll ?? false),
    languageOf(releaseId) {
      const known = chosen.get(releaseId);
      if (known) return known;
      // A release read without being selected (a change's baseline): Accept-Language, else its primary.
      const release = services.catalog.releasesNow()?.find((r) => r.id === releaseId);
      if (!release) return { tag: '', primary: true };
      choose(release, undefined, false);
      return chosen.get(releaseId)!;
    },
    requireApiKey(family) {
      const id = request.apiKeyId ? Promise.resolve(request.apiKeyId) : verify();
      return id.then((keyId) => {
        if (!counted.has(family)) {
          counted.add(family);
          services.keyUsage?.record(keyId, family);
        }
        return keyId;
      });
    },
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
