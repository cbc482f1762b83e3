// The catalog service: hosted releases (cached: they change only on import),
// release selection and per-release counts. Protocol-agnostic.
import type { PrismaClient } from '../generated/prisma/client.ts';
import { DomainError, validationError, versionNotFound } from './errors.ts';
import { VERSION_SYNTAX, VERSION_SYNTAX_MESSAGE } from './formats.ts';
import { listReleases, type ReleaseInfo } from './releases.ts';
import { conceptCountsByLevel } from './concepts.ts';
import type { Level } from './levels.ts';
import { SearchIndexCache, type IndexEvents } from './releaseIndex/indexCache.ts';
import type { BlobChannel } from '../db/blobs.ts';
import { LanguageNameHistories } from './languageNameHistory.ts';

/** How long a failed read of the release list is answered with its error without reading again. */
const FAILURE_MEMORY_MS = 1_000;
/**
 * Past this share of its TTL, a use of the release list reads it again in the background, so a list in
 * steady use is replaced before it expires and no request waits for that read (on PostgreSQL, every 5 s
 * one request did, behind whatever held the pool). The list is never older than the TTL either way.
 */
const REFRESH_AHEAD = 0.75;

/** Without a memory budget (tests, tools): the names of a few full-size releases' histories per language. */
const DEFAULT_LANGUAGE_NAME_BYTES = 64 * 2 ** 20;

export interface ReleaseSelection {
  release: ReleaseInfo;
  /** Where the choice came from. */
  source: 'argument' | 'header' | 'latest';
}

export class ReleaseCatalog {
  private cache: { at: number; list: ReleaseInfo[] } | undefined;
  private reading: Promise<ReleaseInfo[]> | undefined;
  private failed: { at: number; error: unknown } | undefined;
  private counts = new Map<number, Promise<Record<Level, number>>>();
  /** In-memory search indexes of the releases searched most recently. */
  readonly searchIndexes: SearchIndexCache;
  /** Non-primary names of every hosted release, in memory once read (code pages' `names`, terms in a second language). */
  readonly languageNames: LanguageNameHistories;

  constructor(
    private readonly prisma: PrismaClient,
    /** How long the release list is trusted; another process may import meanwhile (server mode). */
    private readonly ttlMs = 5_000,
    opts: { searchIndexReleases?: number; searchIndexBytes?: number; languageNameBytes?: number; blobs?: BlobChannel | undefined; indexEvents?: IndexEvents } = {},
  ) {
    this.searchIndexes = new SearchIndexCache(opts.searchIndexReleases, prisma, opts.blobs, opts.indexEvents, opts.searchIndexBytes);
    // Any list read, however old: a release's names there are the ones read when its id and stamp agree (languageNameHistory.ts).
    this.languageNames = new LanguageNameHistories(prisma, () => this.cache?.list, opts.languageNameBytes ?? DEFAULT_LANGUAGE_NAME_BYTES, (message, e) =>
      opts.indexEvents?.onWarning?.(message, { error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /** Bumped by invalidate(): a read begun before it (a read ahead among them) does not store its older list. */
  private generation = 0;

  invalidate(): void {
    this.generation++;
    this.reading = undefined;
    this.cache = undefined;
    this.failed = undefined;
    this.counts.clear();
  }

  /** The release list if it is cached and fresh, without waiting (the warm answers' hot path); undefined when it must be read. */
  releasesNow(): ReleaseInfo[] | undefined {
    const c = this.cache;
    if (!c) return undefined;
    const age = Date.now() - c.at;
    if (age >= this.ttlMs) return undefined;
    if (age >= this.ttlMs * REFRESH_AHEAD && !this.reading) this.read().catch(() => undefined);
    return c.list;
  }

  async releases(): Promise<ReleaseInfo[]> {
    const fresh = this.releasesNow();
    if (fresh) return fresh;
    // A read that just failed (database stalled or down) fails the callers that follow at
    // once for a moment, instead of each waiting out the query timeout again: one request
    // reads the list up to three times (warm answers, replay layer, the operation).
    if (this.failed && Date.now() - this.failed.at < FAILURE_MEMORY_MS) throw this.failed.error;
    return this.read();
  }

  /** Reads the release list; concurrent callers (and a read ahead in the background) share one read. */
  private read(): Promise<ReleaseInfo[]> {
    if (this.reading) return this.reading;
    const generation = this.generation;
    const reading: Promise<ReleaseInfo[]> = listReleases(this.prisma)
      .then(
        (list) => {
          if (generation !== this.generation) return list;
          this.cache = { at: Date.now(), list };
          this.failed = undefined;
          // A language's names imported again (same release id): its indexes follow this list.
          this.searchIndexes.sync(list);
          return list;
        },
        (error: unknown) => {
          if (generation === this.generation) this.failed = { at: Date.now(), error };
          throw error;
        },
      )
      .finally(() => {
        if (this.reading === reading) this.reading = undefined;
      });
    this.reading = reading;
    return reading;
  }

  async latest(): Promise<ReleaseInfo | undefined> {
    return (await this.releases())[0];
  }

  async byVersion(version: string): Promise<ReleaseInfo | undefined> {
    return (await this.releases()).find((r) => r.version === version);
  }

  async byId(id: number): Promise<ReleaseInfo | undefined> {
    return (await this.releases()).find((r) => r.id === id);
  }

  /** The release named by a client; `field` names the argument in a VALIDATION_ERROR for a malformed identifier. */
  async require(version: string, field = 'version'): Promise<ReleaseInfo> {
    if (!VERSION_SYNTAX.test(version)) throw validationError({ [field]: [`${field} ${VERSION_SYNTAX_MESSAGE}`] });
    const r = await this.byVersion(version);
    if (!r) throw versionNotFound(version);
    return r;
  }

  /** The release published just before this one, if any. */
  async previous(release: ReleaseInfo): Promise<ReleaseInfo | undefined> {
    const list = await this.releases();
    return list.find((r) => r.ordinal < release.ordinal);
  }

  /** Precedence: explicit argument (query/body), then header, then the latest release. */
  async select(argument: string | null | undefined, header: string | null | undefined): Promise<ReleaseSelection> {
    if (argument) return { release: await this.require(argument), source: 'argument' };
    if (header) return { release: await this.require(header, 'X-Terminology-Version'), source: 'header' };
    const latest = await this.latest();
    if (!latest) throw new DomainError('VERSION_NOT_FOUND', 'No release has been imported yet: run `terminology import <dir>`.');
    return { release: latest, source: 'latest' };
  }

  /** Concepts per level; immutable per release, so computed once. */
  levelCounts(releaseId: number): Promise<Record<Level, number>> {
    let p = this.counts.get(releaseId);
    if (!p) {
      p = conceptCountsByLevel(this.prisma, releaseId);
      this.counts.set(releaseId, p);
      p.catch(() => this.counts.delete(releaseId));
    }
    return p;
  }
}
