// Built release indexes by release id in a bounded LRU. Releases never change once
// imported (a replaced release gets a new id), so entries leave only to make room.
// Search builds an index on a release's first query and the server warms the latest
// release's at start; other catalog reads (concepts, parents, children, paths, synonyms)
// use one when it is already built (peek) or, for a bounded moment, when it is being read
// from its snapshot (whenLoading), never waiting for a build from rows: meanwhile they go
// to SQL. An index comes from its persisted snapshot (snapshot.ts: one read, well under a
// second at full size; or a delta over another release's, snapshotChain.ts: two reads and a
// materialising) when there is one of the current format; otherwise it is built from
// rows (seconds) and its snapshot stored in the background for the next start or replica.
// A non-primary language's index likewise (its own part only: names and trigram postings).
// An import replacing one language's names keeps the release id: sync() drops the indexes whose
// names release_language says were imported since they were loaded, whenever the catalog reads
// the release list (every few seconds on PostgreSQL), so every replica follows within that.
// The newest release (the list's first: what most requests read, the base of its group's views) is
// never pushed out by another release's load: an older release whose index would not fit beside it
// is loaded for the caller that needs it and not kept, and its searches and code pages go through
// its view or SQL (admits()). A release whose delta snapshot is over an older keyframe gets its view
// over that keyframe's index, loaded in the background as a base when it fits (issue 32, session 24).
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { ReleaseIndex } from './releaseIndex.ts';
import { materialise, overlayBytes, overlayOf, type IndexOverlay } from './overlay.ts';
import { buildLanguageIndex } from './languageIndex.ts';
import { CorruptSnapshotError, snapshotChecksum } from './snapshot.ts';
import { deserializeDelta } from './snapshotDelta.ts';
import { readDeltaSnapshot } from './snapshotStore.ts';
import { OverlayView } from './overlayView.ts';
import type { OverlaySearch } from './overlaySearch.ts';
import { loadStoredIndex, loadStoredLanguageIndex, storeIndex, storeLanguageIndex, type Loaded } from './snapshotChain.ts';
import type { BlobChannel } from '../../db/blobs.ts';
import type { ReleaseInfo } from '../releases.ts';
import { counts, memoryGauges, timings } from '../../observability/signals.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** `releaseId`: absent when the warning is about no one release (the second languages' names of them all). */
export type IndexWarning = (message: string, detail: { releaseId?: number; error: string }) => void;
/** `language`: set for a non-primary language's index. */
export type IndexLoaded = (releaseId: number, source: 'snapshot' | 'rows' | 'overlay', ms: number, language?: string) => void;
/** A view's read (view()): `long` settles, and `isLong` is set, once it loads a base or derives the view (overlayView.ts). */
interface ViewRead {
  read: Promise<OverlayView | undefined>;
  /** When it settled (performance.now()), -1 while in flight. */
  at: number;
  started: number;
  warming?: boolean;
  long?: Promise<undefined>;
  isLong?: boolean;
}

/** Where a cache tells of snapshot problems and of indexes made ready. */
export interface IndexEvents {
  onWarning?: IndexWarning;
  onLoaded?: IndexLoaded;
}

/**
 * The longest a request waits for a release's index that is not loaded yet (a snapshot read, or
 * a build from rows) before it answers from SQL instead (issue 32: no request waits more than
 * 150 ms for an index).
 */
export const INDEX_WAIT_MS = 150;

/** The longest a search waits for a snapshot read in flight, from the read's start (a stalled read holds it no longer). */
export const READ_WAIT_MS = 1_500;

/** How long a release found without a usable delta (whole snapshot, none, base not kept) is not asked again for a view. */
const VIEW_RETRY_MS = 5_000;

/**
 * A view over the newest made from a computed overlay, estimated before it is made as this share of
 * the release's index (measured: 0.07–0.19 at scale 0.25, the oldest of 12 releases the most).
 */
const DERIVED_VIEW_SHARE = 0.2;

/** The largest overlay kept, as a share of its whole index's bytes. */
const OVERLAY_MAX_SHARE = 0.25;

/**
 * Of the byte budget, the share older releases (their views, their groups' keyframes as bases) have
 * beside the newest's index however large it is (bound()). Before, they had what the newest left: at
 * 24 full-size releases (PostgreSQL, default budget) the newest's 133.5 MB beside the 147 MB share left
 * 13.5 MB, no keyframe (the oldest group's, 90.7: 75.5 MB) nor view fitted, and every older search went
 * to SQL (seconds; issue 32, session 25). Three quarters: the newest group's views and views computed over
 * the newest (the oldest's: 22 MB) fit, within RSS 700 MB on PostgreSQL; a whole share (the oldest group's
 * keyframe beside them too) measured 684–797 MB (docs/storage.md, session 25).
 * The cache then holds at most the newest plus this share; about half an index's estimated bytes are
 * typed arrays (51 % measured at full size), outside V8's old space, so its on-heap part stays within
 * the share as long as the newest does (0.49 × (133.5 + 110) = 119 MB ≤ 147 there).
 */
export const OLDER_ROOM_SHARE = 0.75;

/** The bound the cache holds to (bound()), and the budget that gives a room beside a newest index (tests). */
export const olderRoom = {
  bound: (budget: number, newest: number): number => Math.max(budget, newest + OLDER_ROOM_SHARE * budget),
  budgetFor: (_newest: number, room: number): number => room / OLDER_ROOM_SHARE,
};

export class SearchIndexCache {
  private readonly cache: LRUCache<number, Promise<ReleaseIndex>>;
  private readonly built = new Map<number, ReleaseIndex>();
  /** Language indexes by `releaseId:tag`; dropped with their release's index. */
  private readonly languages = new Map<string, Promise<ReleaseIndex>>();
  private readonly builtLanguages = new Map<string, ReleaseIndex>();
  /** Snapshot reads in flight and when each started (whenLoading waits on them; a build from rows is not among them). */
  private readonly reading = new Map<number, { read: Promise<ReleaseIndex | undefined>; started: number }>();
  private writes = new Set<Promise<void>>();
  /** Releases whose snapshot was read and found missing, of another format or corrupt: the next get() builds at once instead of reading (and warning) again; a snapshot written clears the mark. */
  private readonly unusable = new Set<number>();
  /** How long a request waits for an index not loaded yet before it answers from SQL (hierarchy lookups: whenLoading; search: within). */
  waitMs = INDEX_WAIT_MS;
  /**
   * Searches by SQL (search.ts: the candidates' scan, the listing) in flight per release while its
   * index loads. 'one' (the embedded store: PGlite runs each statement on the serving thread, a
   * scan of ~0.4 s CPU at quarter size): a second search shares the one in flight when it is the
   * same statement, else waits for the index. 'each' (PostgreSQL: the server's processes scan).
   */
  sqlFallbacks: 'one' | 'each' = 'one';
  private readonly fallbacks = new Map<number, { key: string; run: Promise<unknown> }>();
  /**
   * Evicted releases' indexes kept as overlays (overlay.ts: 2–7 % of an index at scale 0.1) over
   * the newest release's index built then, `base`, valid while that very index is kept. A release
   * without a usable snapshot is materialised from its overlay instead of built from rows
   * (bench/overlayMaterialise.ts: an order of magnitude cheaper); its snapshot, when usable, is
   * still read first: 1.5–2.8× cheaper than materialising.
   */
  private readonly overlays = new Map<number, { overlay: IndexOverlay; base: ReleaseIndex; bytes: number }>();
  /**
   * Code-page views (overlayView.ts) of releases whose snapshot is a delta over an index built
   * here (the newest release's, under the round-6 policy): a release's code pages are answered
   * through its overlay without materialising its index. The read of each (its delta row), and
   * when it found none usable (retried after VIEW_RETRY_MS); the views made, valid while their
   * base is this very index (dropped with it).
   */
  private readonly viewReads = new Map<number, ViewRead>();
  private readonly views = new Map<number, OverlayView>();
  /** Whether code pages may be answered through views (bench/overlayView.ts turns it off for its same-run baseline). */
  useViews = true;
  /** The newest release (sync(): the release list's first), pinned: never evicted to make room for another's index. */
  private newestId: number | undefined;
  /** Bytes of each release's primary index once loaded, kept after it goes: admits() estimates with them. */
  private readonly knownBytes = new Map<number, number>();
  /** Entry counts of keyframes not loaded yet, from their deltas' headers (readView()): admits() scales the newest's bytes by them. */
  private readonly entryCounts = new Map<number, number>();
  /** Releases whose index was last read from their snapshot: one read brings them back, no overlay kept for them (keepOverlay()). */
  private readonly fromStore = new Set<number>();
  /** Loads of indexes not kept (admits() said no): shared while in flight, let go of once handed over. */
  private readonly passing = new Map<number, Promise<ReleaseIndex>>();
  /** Releases whose overlay over this newest index is too large for a view (derivedView()). */
  private readonly tooFar = new Map<number, ReleaseIndex>();
  /** Where snapshot problems are reported (compose() passes the logger's); they never fail a request. */
  onWarning: IndexWarning;
  /** Told of each index made ready, where it came from and how long it took (compose() logs it). */
  onLoaded: IndexLoaded;

  /**
   * `max`: releases kept indexed at once (~50 MB each at full size). `writer`: the primary, for
   * the statements of a snapshot write; reads may come from a replica, which would refuse them.
   * `blobs`: the database's binary channel, which snapshots go through (snapshotStore.ts);
   * without one, indexes are always built from rows and no snapshot is kept. `events`: where
   * warnings and loads are told (nowhere by default).
   */
  /** Estimated bytes of each built index by release, then by language ('' the primary). */
  private readonly sizes = new Map<number, Map<string, number>>();
  /**
   * When the names of each index kept were imported (release_language.imported_at, epoch ms) as
   * last known when its load began: by `releaseId` (the primary) and `releaseId:tag`. Undefined
   * until a release list is seen (sync()); latest: the same keys from the last list seen.
   */
  private readonly loadedStamps = new Map<string, number | undefined>();
  private readonly latestStamps = new Map<string, number>();

  constructor(
    max = 2,
    private readonly writer?: Db,
    private readonly blobs?: BlobChannel,
    events: IndexEvents = {},
    /** Bytes of built indexes kept (MEMORY_BUDGET_MB's share); beyond, the least recently used go first. The newest is kept whatever its size. */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    this.onWarning = events.onWarning ?? (() => {});
    this.onLoaded = events.onLoaded ?? (() => {});
    this.cache = new LRUCache({
      max,
      dispose: (_p, releaseId, reason) => {
        if (reason === 'evict') this.keepOverlay(releaseId);
        // Overlays over this index are of no use without it (another load is another object).
        for (const [id, o] of [...this.overlays]) if (o.base === this.built.get(releaseId)) this.overlays.delete(id);
        for (const [id, v] of [...this.views]) {
          if (v.baseIndex !== this.built.get(releaseId)) continue;
          this.views.delete(id);
          this.viewReads.delete(id);
        }
        // Nor is what was found too far from it (and this holds no index that went).
        for (const [id, b] of [...this.tooFar]) if (b === this.built.get(releaseId)) this.tooFar.delete(id);
        this.built.delete(releaseId);
        this.sizes.delete(releaseId);
        this.loadedStamps.delete(String(releaseId));
        for (const key of [...this.languages.keys()]) {
          if (key.startsWith(`${releaseId}:`)) {
            this.languages.delete(key);
            this.builtLanguages.delete(key);
          }
        }
        for (const key of [...this.loadedStamps.keys()]) if (key.startsWith(`${releaseId}:`)) this.loadedStamps.delete(key);
        if (reason === 'evict') counts.indexEvictions++;
      },
    });
    // The bound the cache holds to: its share, or the newest's index plus the older releases' room (bound()).
    const bound = () => this.bound();
    memoryGauges.releaseIndexes = {
      bytes: () => this.bytes(),
      get budget() {
        return bound();
      },
    };
  }

  /** Estimated bytes of the built indexes kept. */
  bytes(): number {
    let total = 0;
    for (const m of this.sizes.values()) for (const b of m.values()) total += b;
    for (const o of this.overlays.values()) total += o.bytes;
    for (const v of this.views.values()) total += v.bytes;
    return total;
  }

  /** The bytes kept at most: the budget, or the newest's indexes plus OLDER_ROOM_SHARE of the budget when more. */
  private bound(): number {
    let pinned = 0;
    if (this.newestId !== undefined) for (const b of this.sizes.get(this.newestId)?.values() ?? []) pinned += b;
    return olderRoom.bound(this.maxBytes, pinned);
  }

  /** Counts a built index's bytes against its release, then drops least recently used releases while over the budget. */
  private account(releaseId: number, ix: ReleaseIndex, language = ''): void {
    if (!this.cache.has(releaseId)) return;
    let m = this.sizes.get(releaseId);
    if (!m) this.sizes.set(releaseId, (m = new Map()));
    m.set(language, ix.approximateBytes());
    if (language === '') this.knownBytes.set(releaseId, ix.approximateBytes());
    this.trimOverlays();
    for (const older of [...this.cache.rkeys()]) {
      if (this.bytes() <= this.bound()) break;
      if (older === releaseId || older === this.newestId) continue;
      if (!this.sizes.has(older)) continue; // still loading: its size is not known yet
      this.keepOverlay(older);
      this.cache.delete(older);
      counts.indexEvictions++;
    }
    // Then the least recently used views (admits() counts them as room: a release needed now comes first).
    if (releaseId !== this.newestId) this.trimViews(-1);
    // Still over with only the newest beside it: this one is not kept (its callers have it), the newest stays.
    if (this.bytes() > this.bound() && releaseId !== this.newestId && this.newestId !== undefined && this.built.has(this.newestId)) {
      this.keepOverlay(releaseId);
      this.cache.delete(releaseId);
      counts.indexEvictions++;
    }
  }

  /**
   * Whether the release's index, once loaded, would be kept without pushing out the newest's: its
   * estimated bytes (as last loaded; else the newest's, scaled by `entries` when its entry count is
   * known, as a delta's header tells its base's) fit within bound() beside the newest's index, and
   * the LRU holds a second release. Always for the newest, and while the newest is not kept (it
   * pushes the others out when it comes). Other older indexes and views do not count: a release
   * needed now pushes the least recently used of them out once loaded (account()). Before, views
   * counted as pinned: the start's views filled the room, a searched release's base no longer fitted
   * and its searches went to SQL (~10× slower, issue 32, helper rsspeak). `beside` (the start's
   * warming, warmView()): only into room free now, everything kept counted, so that it never pushes
   * out what it made. Otherwise a search or a code page answers through the release's view or SQL,
   * and a caller that needs the whole index has it without it being kept (get()).
   */
  admits(releaseId: number, entries = this.entryCounts.get(releaseId), beside = false): boolean {
    const newest = this.newestId;
    if (newest === undefined || releaseId === newest || this.cache.has(releaseId) || !this.built.has(newest)) return true;
    if (this.cache.max < 2) return false;
    let pinned = 0;
    if (beside) pinned = this.bytes();
    else for (const b of this.sizes.get(newest)?.values() ?? []) pinned += b;
    const newestBytes = this.sizes.get(newest)?.get('') ?? 0;
    const newestSize = this.built.get(newest)!.size;
    const estimate = this.knownBytes.get(releaseId) ?? (entries !== undefined && newestSize > 0 ? (newestBytes * entries) / newestSize : newestBytes);
    return pinned + estimate <= this.bound();
  }

  /** Puts a release's load in the LRU; when full and the newest is its least recently used, the newest is used first, so another goes. */
  private keep(releaseId: number, p: Promise<ReleaseIndex>): void {
    const newest = this.newestId;
    if (newest !== undefined && releaseId !== newest && this.cache.size >= this.cache.max && this.cache.has(newest)) {
      const [lru] = this.cache.rkeys();
      if (lru === newest) this.cache.get(newest);
    }
    this.cache.set(releaseId, p);
  }

  /** A release's index from its snapshot (`read`, unless found unusable before), else materialised from its overlay, else built from rows. */
  private load(releaseId: number, db: Db, read: (releaseId: number, db: Db) => Promise<ReleaseIndex | undefined>): Promise<ReleaseIndex> {
    const snapshot = this.unusable.has(releaseId) ? Promise.resolve(undefined) : read(releaseId, db);
    return snapshot.then((ix) => ix ?? this.fromOverlay(releaseId, db) ?? this.build(releaseId, db));
  }

  /** A release's index loaded for its caller and not kept (admits(): it would push the newest's out). Its snapshot when usable, else built from rows. */
  private pass(releaseId: number, db: Db): Promise<ReleaseIndex> {
    const inFlight = this.passing.get(releaseId);
    if (inFlight) return inFlight;
    counts.indexMisses++;
    const entry = this.load(releaseId, db, (id, d) => this.readIndex(id, d));
    this.passing.set(releaseId, entry);
    const done = () => void (this.passing.get(releaseId) === entry && this.passing.delete(releaseId));
    entry.then((ix) => {
      this.knownBytes.set(releaseId, ix.approximateBytes());
      done();
    }, done);
    return entry;
  }

  /** The release's index, loaded with `db` on first use; concurrent callers share one build. */
  get(releaseId: number, db: Db): Promise<ReleaseIndex> {
    let p = this.cache.get(releaseId);
    if (p) counts.indexHits++;
    else if (!this.admits(releaseId)) return this.pass(releaseId, db);
    else {
      counts.indexMisses++;
      this.loadedStamps.set(String(releaseId), this.latestStamps.get(String(releaseId)));
      const loading = this.load(releaseId, db, (id, d) => this.fromSnapshot(id, d));
      p = loading;
      this.keep(releaseId, loading);
      loading.then(
        (ix) => {
          if (this.cache.peek(releaseId) !== loading) return;
          this.built.set(releaseId, ix);
          this.account(releaseId, ix);
          ix.onGrown = () => this.account(releaseId, ix);
        },
        () => this.cache.delete(releaseId),
      );
    }
    return p;
  }

  /**
   * The release's index if it is built; otherwise its load is started (or joined: get()) and
   * waited for at most `maxMs`. Past that, a snapshot read still in flight is waited for until
   * READ_WAIT_MS after it started (whenLoading): the search SQL answers with instead scans the
   * release's names, slower than the read (bench/searchBySql.ts: 7–12× its CPU on PGlite, 1.9× its
   * wall time on PostgreSQL). Otherwise — a build from rows, seconds — undefined
   * while the load goes on in the background: the caller answers from SQL meanwhile (search.ts).
   * A load that fails is undefined too (get() forgets it, so a later request tries again).
   */
  within(releaseId: number, db: Db, maxMs: number): Promise<ReleaseIndex | undefined> {
    const ready = this.built.get(releaseId);
    if (ready) {
      this.cache.get(releaseId); // recency, as get() would
      counts.indexHits++;
      return Promise.resolve(ready);
    }
    // Not to be kept, or its view on its way: no load started for it (the caller answers by SQL meanwhile).
    if (!this.shouldLoad(releaseId)) return Promise.resolve(undefined);
    const loading = this.get(releaseId, db).catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), maxMs)));
    return Promise.race([loading, late])
      .finally(() => clearTimeout(timer))
      .then((ix) => ix ?? this.whenLoading(releaseId, READ_WAIT_MS));
  }

  /**
   * Whether a search on the release should load its index (within(); search.ts's SQL path races
   * that load): it is kept or loading, or would be kept (admits()) and no view of it is being made
   * (its read, or its base's load, in flight: the view answers once made, without this index).
   */
  shouldLoad(releaseId: number): boolean {
    if (this.cache.has(releaseId)) return true;
    if (!this.admits(releaseId)) return false;
    const pending = this.viewReads.get(releaseId);
    return !(pending && pending.at < 0);
  }

  /**
   * Runs `run`, the release's search by SQL identified by `key`, unless sqlFallbacks is 'one' and
   * one is in flight for the release: then that one's result when it is the same `key`, else
   * undefined (the caller waits for the index: get()).
   */
  fallback<T>(releaseId: number, key: string, run: () => Promise<T>): Promise<T> | undefined {
    if (this.sqlFallbacks === 'each') return run();
    const inFlight = this.fallbacks.get(releaseId);
    if (inFlight) return inFlight.key === key ? (inFlight.run as Promise<T>) : undefined;
    const p = run();
    const entry = { key, run: p };
    this.fallbacks.set(releaseId, entry);
    const done = () => void (this.fallbacks.get(releaseId) === entry && this.fallbacks.delete(releaseId));
    p.then(done, done);
    return p;
  }

  /**
   * The release's index from its snapshot, never built from rows: undefined when it has no
   * usable snapshot (then nothing is kept, and a later get() builds it). The server's warm-up.
   */
  loadSnapshot(releaseId: number, db: Db): Promise<ReleaseIndex | undefined> {
    return this.cache.get(releaseId) ?? this.fromSnapshot(releaseId, db);
  }

  /**
   * A release's index in a non-primary language (ReleaseIndex.forLanguage: its names over the
   * primary index's shared hierarchy), on first use from its snapshot, else built from
   * concept_name and its snapshot written in the background. Kept while its release's index is.
   */
  getLanguage(releaseId: number, language: string, db: Db, variant = 0): Promise<ReleaseIndex> {
    const key = `${releaseId}:${language}${variant ? `:${variant}` : ''}`;
    let p = this.languages.get(key);
    if (!p) {
      const stampKey = `${releaseId}:${language}`;
      if (!this.loadedStamps.has(stampKey)) this.loadedStamps.set(stampKey, this.latestStamps.get(stampKey));
      const building = this.get(releaseId, db).then((base) => this.loadLanguage(base, language, variant, db));
      p = building;
      this.languages.set(key, building);
      building.then(
        (ix) => {
          if (this.languages.get(key) !== building) return;
          // Over a release's index not kept (get(): pass()): not kept either.
          if (!this.cache.has(releaseId)) return void this.languages.delete(key);
          this.builtLanguages.set(key, ix);
          this.account(releaseId, ix, key);
          // Its CJK bigram postings, built on the first partial search, count from then on.
          ix.onGrown = () => this.account(releaseId, ix, key);
        },
        () => this.languages.delete(key),
      );
    }
    return p;
  }

  /**
   * Drops the indexes whose names were imported again since they were loaded (`import --replace`
   * of one language keeps the release id), by the release list's release_language.imported_at.
   * The catalog calls it with every list it reads.
   */
  sync(releases: readonly ReleaseInfo[]): void {
    if (releases[0]) this.newestId = releases[0].id;
    for (const r of releases) {
      r.languages.forEach((tag, position) => {
        const at = r.namesImportedAt?.[tag];
        if (at === undefined) return;
        const key = position === 0 ? String(r.id) : `${r.id}:${tag}`;
        this.latestStamps.set(key, at);
        if (!this.loadedStamps.has(key)) return;
        const was = this.loadedStamps.get(key);
        // Loaded before any list was seen: its names are taken to be these.
        if (was === undefined) return void this.loadedStamps.set(key, at);
        if (was === at) return;
        this.loadedStamps.delete(key);
        if (position === 0) {
          // The primary's names changed: the release's index and every language index over it (dispose).
          this.unusable.delete(r.id);
          this.fromStore.delete(r.id);
          this.overlays.delete(r.id);
          this.views.delete(r.id);
          this.viewReads.delete(r.id);
          this.cache.delete(r.id);
          return;
        }
        for (const k of [...this.languages.keys()]) {
          if (k !== key && !k.startsWith(`${key}:`)) continue;
          this.languages.delete(k);
          this.builtLanguages.delete(k);
          this.sizes.get(r.id)?.delete(k);
        }
      });
    }
  }

  /**
   * Whether `indexes` more indexes, each the size of the largest primary index kept, fit beside
   * those kept without pushing any out: a free place in the LRU and room in the byte budget. The
   * start's warm-up of an older release (src/services/olderReleaseWarming.ts) loads only then.
   */
  fits(indexes: number): boolean {
    if (this.cache.size >= this.cache.max) return false;
    let largest = 0;
    for (const m of this.sizes.values()) largest = Math.max(largest, m.get('') ?? 0);
    return this.bytes() + indexes * largest <= this.bound();
  }

  /** Whether anything of the release is kept or loading: its index, a language index, its view. */
  holds(releaseId: number): boolean {
    return this.cache.has(releaseId) || this.reading.has(releaseId) || this.passing.has(releaseId) || this.views.has(releaseId) || this.viewReads.has(releaseId);
  }

  /**
   * Lets go of the release's index, its language indexes, view and overlay, as if it had never
   * been loaded (the start's warm-up, once it ran the paths: src/services/olderReleaseWarming.ts).
   * Call it once its loads have settled: a snapshot read still in flight would keep its index.
   */
  forget(releaseId: number): void {
    this.views.delete(releaseId);
    this.viewReads.delete(releaseId);
    this.overlays.delete(releaseId);
    this.cache.delete(releaseId);
  }

  /** A language's index if it is built (and its release's still is), without loading or waiting. */
  peekLanguage(releaseId: number, language: string): ReleaseIndex | undefined {
    return this.built.has(releaseId) ? this.builtLanguages.get(`${releaseId}:${language}`) : undefined;
  }

  /** The index if it is built, without loading or waiting. */
  peek(releaseId: number): ReleaseIndex | undefined {
    const ix = this.built.get(releaseId);
    if (ix) counts.indexHits++;
    else counts.indexMisses++;
    return ix;
  }

  /** The release's code-page view if one is made over an index still kept, without reading or waiting. */
  peekView(releaseId: number): OverlayView | undefined {
    const v = this.views.get(releaseId);
    if (!v || this.built.get(v.baseIndex.releaseId) !== v.baseIndex) return undefined;
    // Its base used, as a request on the base's own release would: the bases of groups in use stay.
    this.cache.get(v.baseIndex.releaseId);
    // And the view itself the most recently used (trimViews() drops in this order).
    this.views.delete(releaseId);
    this.views.set(releaseId, v);
    return v;
  }

  /**
   * The release's code-page view (overlayView.ts): made on first use from its delta snapshot (one
   * row read) over its base's index when that is kept here (or being read: waited for as
   * whenLoading); undefined when the release has no delta snapshot, its base is not kept or is
   * not that snapshot's exact content: the caller answers as before (its index, or SQL). Never
   * materialises the release's index; never rejects (a problem is warned of). A read in flight is
   * waited for `maxMs` from its start (INDEX_WAIT_MS: a code page answers by SQL meanwhile; a
   * change set, whose other ways cost seconds, waits longer). `codePage`: not even that once the read
   * must load the view's base or derive the view (seconds at full size): a code page's SQL is
   * tens of milliseconds, and waiting out maxMs first made the first one on an older release ~180 ms.
   * A search's likewise (searchView): its SQL reads the names containing the query first (search.ts bySql).
   */
  view(releaseId: number, db: Db, maxMs = this.waitMs, warming = false, codePage = false): Promise<OverlayView | undefined> {
    const ready = this.peekView(releaseId);
    if (ready) return Promise.resolve(ready);
    // No index kept nor being read: no base a view could be over (and no statement spent finding out).
    if (!this.useViews || !this.blobs || (this.built.size === 0 && this.reading.size === 0)) return Promise.resolve(undefined);
    // Its own snapshot being read: that read is the way (whenLoading), and a stalled one is not joined by another.
    if (this.reading.has(releaseId)) return Promise.resolve(undefined);
    const known = this.viewReads.get(releaseId);
    // The start's read in flight (its base may be loading: seconds): a request answers by SQL at once, not behind it.
    if (known?.warming && known.at < 0 && !warming) return Promise.resolve(undefined);
    if (known && (known.at < 0 || performance.now() - known.at < VIEW_RETRY_MS)) return this.bounded(known, maxMs, codePage);
    // Settles once the read must load the view's base or derive it (a keyframe's load, an index and a diff:
    // longer than a request waits): the request that started it answers by SQL at once rather than after waitMs.
    let goesLong!: () => void;
    const long = new Promise<undefined>((resolve) => (goesLong = () => ((entry.isLong = true), resolve(undefined))));
    const entry: ViewRead = { read: this.readView(releaseId, db, warming, () => goesLong()), at: -1, started: performance.now(), warming, long };
    this.viewReads.set(releaseId, entry);
    void entry.read.then((v) => {
      if (this.viewReads.get(releaseId) !== entry) return;
      // The start's read found no room beside what it made: a request's read may still load the base (admits()).
      if (!v && warming) return void this.viewReads.delete(releaseId);
      entry.at = performance.now();
      if (!v || this.built.get(v.baseIndex.releaseId) !== v.baseIndex) return;
      this.views.set(releaseId, v);
      this.trimOverlays();
      this.trimViews(releaseId);
      // Over the budget even alone beside what is pinned: not kept (nor made again over this base: tooFar).
      if (this.bytes() > this.bound()) {
        this.views.delete(releaseId);
        this.tooFar.set(releaseId, v.baseIndex);
        this.viewReads.set(releaseId, { read: Promise.resolve(undefined), at: entry.at, started: entry.started });
      }
    });
    return this.bounded(entry, maxMs, codePage);
  }

  /**
   * Search on the release through its overlay view (overlaySearch.ts) when its own index is not
   * kept and a view can be made (view(): its delta over a kept index, read once, bounded): the
   * newest release's index plus the release's delta, nothing materialised. Undefined otherwise
   * (the caller loads the release's index, or answers by SQL meanwhile: search.ts), and at once when
   * the read goes on to load the view's base or derive it (seconds: no use waiting out waitMs for it).
   */
  async searchView(releaseId: number, db: Db): Promise<OverlaySearch | undefined> {
    if (!this.useViews || this.built.has(releaseId)) return undefined;
    const v = await this.view(releaseId, db, this.waitMs, false, true);
    if (!v || this.built.has(releaseId)) return undefined;
    const before = v.bytes;
    const s = v.search();
    // Its search part now counts in the budget: overlays go first when over it, then the least recently
    // used other views (before, the gauge passed the bound by the search parts: 128.9 of 121 MB, scale 0.5).
    if (v.bytes !== before) {
      this.trimOverlays();
      this.trimViews(releaseId);
    }
    return s;
  }

  /** A view read waited for at most maxMs from its start (as whenLoading): past that the caller answers by SQL while it goes on. */
  private bounded(entry: ViewRead, maxMs: number, stopWhenLong = false): Promise<OverlayView | undefined> {
    if (entry.at >= 0) return entry.read;
    const left = entry.started + maxMs - performance.now();
    if (left <= 0 || (stopWhenLong && entry.isLong)) return Promise.resolve(undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), left)));
    const waits = stopWhenLong && entry.long ? [entry.read, late, entry.long] : [entry.read, late];
    return Promise.race(waits).finally(() => clearTimeout(timer));
  }

  /**
   * The start's views of older releases (src/services/olderViewWarming.ts): the release's view from its
   * stored delta only (its base kept, or loaded as a base when admits() has room; never an index
   * loaded and diffed here), waited for however long. Undefined when not made, or when the bytes kept
   * are within `slack` of bound(): a view made then would push another out (trimViews()).
   */
  async warmView(releaseId: number, db: Db, slack: number): Promise<OverlayView | undefined> {
    if (this.views.has(releaseId) || this.built.has(releaseId)) return undefined;
    if (this.bytes() + slack > this.bound()) return undefined;
    // The longest a timer waits (setTimeout takes a longer delay as 1 ms).
    return this.view(releaseId, db, 2 ** 31 - 1, true);
  }

  /** Views made (tests, bench). */
  viewCount(): number {
    return this.views.size;
  }

  /** `warming` (warmView()): no view computed here, no base loaded into a full LRU (it would push another base out). */
  private async readView(releaseId: number, db: Db, warming: boolean, goesLong: () => void = () => undefined): Promise<OverlayView | undefined> {
    if (!this.blobs) return undefined;
    try {
      const data = await readDeltaSnapshot({ db, blobs: this.blobs }, releaseId);
      if (data) {
        const { overlay, base } = deserializeDelta(data, releaseId);
        // Its base not kept (an older group's keyframe): loaded now, when it fits beside the newest, as
        // the base of its whole group's views; the request that asked answers by SQL meanwhile (bounded(): at once).
        const b =
          this.built.get(base.releaseId) ??
          (await this.whenLoading(base.releaseId, this.waitMs)) ??
          (warming && this.cache.size >= this.cache.max ? undefined : (goesLong(), await this.baseFor(base.releaseId, db, base.size, warming)));
        if (b && b.size === base.size && snapshotChecksum(b) === base.checksum) return OverlayView.of(b, overlay);
      } else if (this.admits(releaseId)) {
        // A keyframe (a whole snapshot) that fits: its own index is kept (within(): one read, and the
        // base of its group's views), not loaded, diffed against the newest's and let go of for a view.
        return undefined;
      }
      if (warming) return undefined;
      goesLong();
      return await this.derivedView(releaseId, db);
    } catch (e) {
      this.warn(releaseId, 'release index delta not usable for code pages; answered without it', e);
      return undefined;
    }
  }

  /**
   * A view over the newest's index from an overlay computed here, for a release whose stored delta
   * cannot serve (its keyframe does not fit beside the newest, or it is a keyframe itself): its
   * index loaded once and not kept (pass()), diffed against the newest's (overlay.ts), let go of.
   * None when the overlay is over OVERLAY_MAX_SHARE of the index (remembered while that newest is
   * kept: not loaded again for nothing), or the release is the newest, or no newest is kept.
   */
  private async derivedView(releaseId: number, db: Db): Promise<OverlayView | undefined> {
    const newestId = this.newestId;
    const newest = newestId === undefined ? undefined : this.built.get(newestId);
    if (!newest || releaseId === newestId || !newest.hasHierarchy || this.built.has(releaseId) || this.tooFar.get(releaseId) === newest) return undefined;
    // Only into room the budget has now: making one costs a load and a diff, so it never pushes another
    // view out (with more releases in use than room, views made in turn would each push the next out).
    const estimate = DERIVED_VIEW_SHARE * (this.knownBytes.get(releaseId) ?? newest.approximateBytes());
    if (this.bytes() + estimate > this.bound()) return undefined;
    const ix = await this.pass(releaseId, db);
    if (!ix.hasHierarchy) return undefined;
    const overlay = await overlayOf(newest, ix);
    if (overlayBytes(overlay) > OVERLAY_MAX_SHARE * ix.approximateBytes()) {
      this.tooFar.set(releaseId, newest);
      return undefined;
    }
    return this.built.get(newest.releaseId) === newest ? OverlayView.of(newest, overlay) : undefined;
  }

  /** A keyframe's index loaded (or joined) as a views' base, when it would be kept (admits()); undefined otherwise or when its load fails. */
  private async baseFor(releaseId: number, db: Db, entries: number, beside: boolean): Promise<ReleaseIndex | undefined> {
    this.entryCounts.set(releaseId, entries);
    if (!this.admits(releaseId, entries, beside)) return undefined;
    return this.get(releaseId, db).catch(() => undefined);
  }

  /**
   * While the release's snapshot is being read (one read: a fraction of a second, and the
   * first requests after a start arrive then), the index it yields, or undefined once the
   * read finds no usable snapshot or has been in flight `maxMs`: the deadline counts from the
   * read's start, so a stalled read holds no request longer than that, however many lookups
   * the request makes. Without such a read in flight (or past the deadline), undefined at once,
   * not a promise: a build from rows (seconds) is not worth a request's wait.
   */
  whenLoading(releaseId: number, maxMs: number): Promise<ReleaseIndex | undefined> | undefined {
    const inFlight = this.reading.get(releaseId);
    const left = inFlight ? inFlight.started + maxMs - performance.now() : 0;
    if (!inFlight || left <= 0) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), left)));
    return Promise.race([inFlight.read, late]).finally(() => clearTimeout(timer));
  }

  /** Settles once the snapshot writes started so far are done (tests, shutdown). */
  async flushed(): Promise<void> {
    while (this.writes.size) await Promise.all(this.writes);
  }

  /** The snapshot read of the release, shared while in flight; never rejects (a problem is warned of). */
  private fromSnapshot(releaseId: number, db: Db): Promise<ReleaseIndex | undefined> {
    const inFlight = this.reading.get(releaseId);
    if (inFlight) return inFlight.read;
    const reading = this.readIndex(releaseId, db);
    this.reading.set(releaseId, { read: reading, started: performance.now() });
    if (!this.loadedStamps.has(String(releaseId))) this.loadedStamps.set(String(releaseId), this.latestStamps.get(String(releaseId)));
    void reading.then((ix) => {
      if (this.reading.get(releaseId)?.read === reading) this.reading.delete(releaseId);
      if (!ix) return;
      // Kept at once, before the entry chained on this read settles: a request that waited
      // for it (whenLoading) finds it with peek() from its next field on.
      if (!this.cache.has(releaseId)) {
        if (!this.admits(releaseId)) return;
        this.keep(releaseId, reading as Promise<ReleaseIndex>);
      }
      this.built.set(releaseId, ix);
      this.account(releaseId, ix);
      ix.onGrown = () => this.account(releaseId, ix);
    });
    return reading;
  }

  private warn(releaseId: number, message: string, e: unknown) {
    this.onWarning(message, { releaseId, error: e instanceof Error ? e.message : String(e) });
  }

  private async readIndex(releaseId: number, db: Db): Promise<ReleaseIndex | undefined> {
    if (!this.blobs) return undefined;
    this.fromStore.delete(releaseId);
    const started = performance.now();
    let loaded: Loaded | null;
    try {
      // A delta's base may be an index kept here (the very snapshot it was made over: checked).
      loaded = await loadStoredIndex({ db, blobs: this.blobs }, releaseId, (id) => this.built.get(id));
    } catch (e) {
      if (e instanceof CorruptSnapshotError) {
        this.unusable.add(releaseId);
        this.warn(releaseId, 'release index snapshot is corrupt; rebuilding it from rows', e);
      } else {
        // A read that failed is not marked: the next get() tries again.
        this.warn(releaseId, 'release index snapshot not readable; building the index from rows', e);
      }
      return undefined;
    }
    if (!loaded) {
      // Read, and none of the current format.
      this.unusable.add(releaseId);
      return undefined;
    }
    this.onLoaded(releaseId, 'snapshot', Math.round(performance.now() - started));
    timings.indexLoad?.('snapshot', (performance.now() - started) / 1000, loaded.bytes);
    this.fromStore.add(releaseId);
    return loaded.ix;
  }

  /** A language's index from its snapshot when there is a usable one, else from rows (its snapshot then written in the background). */
  private async loadLanguage(base: ReleaseIndex, language: string, variant: number, db: Db): Promise<ReleaseIndex> {
    const { releaseId } = base;
    const started = performance.now();
    if (this.blobs) {
      try {
        const loaded = await loadStoredLanguageIndex({ db, blobs: this.blobs }, base, language, variant);
        if (loaded) {
          this.onLoaded(releaseId, 'snapshot', Math.round(performance.now() - started), language);
          timings.indexLoad?.('snapshot', (performance.now() - started) / 1000, loaded.bytes);
          return loaded.ix;
        }
      } catch (e) {
        this.warn(releaseId, `${language} index snapshot not usable; building the index from rows`, e);
      }
    }
    // When the names were imported, read before them: a snapshot is only written for those names.
    const stamp = await db.$queryRawUnsafe<{ at: Date }[]>('SELECT imported_at AS at FROM release_language WHERE release_id = $1 AND language = $2', releaseId, language);
    const ix = await buildLanguageIndex(db, base, language, variant);
    this.onLoaded(releaseId, 'rows', Math.round(performance.now() - started), language);
    timings.indexLoad?.('rows', (performance.now() - started) / 1000, 0);
    const importedAt = stamp[0]?.at;
    if (this.blobs && importedAt) {
      const blobs = this.blobs;
      const writing = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => storeLanguageIndex({ db: this.writer ?? db, blobs }, ix, variant, new Date(importedAt), (id) => this.built.get(id)))
        .then(
          () => undefined,
          (e: unknown) => this.warn(releaseId, `${language} index snapshot not written; the next start builds it again`, e),
        )
        .finally(() => this.writes.delete(writing));
      this.writes.add(writing);
    }
    return ix;
  }

  /**
   * Keeps the overlay of a release's index being dropped over the newest other release's index
   * built now (in the background: the diff is a pass over both). None without such an index.
   */
  private keepOverlay(releaseId: number): void {
    // Its snapshot brings it back cheaper than materialising (1.5–2.8×); the diff would be a pass over
    // both indexes and garbage at each eviction (older groups' bases come and go as releases are used in turn).
    if (this.fromStore.has(releaseId)) return;
    const ix = this.built.get(releaseId);
    let baseId = -1;
    for (const id of this.built.keys()) if (id !== releaseId && id > baseId) baseId = id;
    const base = this.built.get(baseId);
    if (!ix || !base || !ix.hasHierarchy || !base.hasHierarchy || this.overlays.get(releaseId)?.base === base) return;
    void overlayOf(base, ix).then(
      (overlay) => {
        const bytes = overlayBytes(overlay);
        // Far from its base an overlay nears a whole index (docs/storage.md › Sizing): not kept;
        // nor one whose base went meanwhile.
        if (bytes > OVERLAY_MAX_SHARE * ix.approximateBytes() || this.built.get(base.releaseId) !== base) return;
        this.overlays.set(releaseId, { overlay, base, bytes });
        this.trimOverlays();
      },
      (e: unknown) => this.warn(releaseId, 'release index overlay not kept; the index is built from rows when no snapshot serves', e),
    );
  }

  /**
   * Over the byte budget once overlays went: the least recently used views but `keep` go (views
   * over the newest's index are not dropped with any index: without this they would only grow).
   */
  private trimViews(keep: number): void {
    for (const id of [...this.views.keys()]) {
      if (this.bytes() <= this.bound()) return;
      if (id === keep) continue;
      this.views.delete(id);
      this.viewReads.delete(id);
    }
  }

  /** Over the byte budget, overlays go first, the oldest kept first: built indexes answer, overlays only spare a build. */
  private trimOverlays(): void {
    for (const id of [...this.overlays.keys()]) {
      if (this.bytes() <= this.bound()) return;
      this.overlays.delete(id);
    }
  }

  /** Whether an overlay of the release is kept over an index still built (tests). */
  hasOverlay(releaseId: number): boolean {
    const kept = this.overlays.get(releaseId);
    return !!kept && this.built.get(kept.overlay.baseReleaseId) === kept.base;
  }

  /** The release's index materialised from its overlay, when one is kept over an index still built; else undefined. */
  private fromOverlay(releaseId: number, db: Db): Promise<ReleaseIndex> | undefined {
    const kept = this.overlays.get(releaseId);
    if (!kept || !this.hasOverlay(releaseId)) return undefined;
    const started = performance.now();
    return materialise(kept.base, kept.overlay).then(
      (ix) => {
        this.onLoaded(releaseId, 'overlay', Math.round(performance.now() - started));
        timings.indexLoad?.('overlay', (performance.now() - started) / 1000, 0);
        this.writeInBackground(ix, db);
        return ix;
      },
      (e: unknown) => {
        this.overlays.delete(releaseId);
        this.warn(releaseId, 'release index overlay not usable; building the index from rows', e);
        return this.build(releaseId, db);
      },
    );
  }

  private async build(releaseId: number, db: Db): Promise<ReleaseIndex> {
    const started = performance.now();
    const ix = await ReleaseIndex.load(db, releaseId);
    this.onLoaded(releaseId, 'rows', Math.round(performance.now() - started));
    timings.indexLoad?.('rows', (performance.now() - started) / 1000, 0);
    this.writeInBackground(ix, db);
    return ix;
  }

  /** The index's snapshot written in the background, for the next start or replica (with a binary channel). */
  private writeInBackground(ix: ReleaseIndex, db: Db): void {
    const { releaseId } = ix;
    if (!this.blobs) return;
    const blobs = this.blobs;
    // In the background: the answer waiting on this index never waits on the write.
    const writing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => storeIndex({ db: this.writer ?? db, blobs }, ix))
      .then(
        () => void this.unusable.delete(releaseId),
        (e: unknown) => this.warn(releaseId, 'release index snapshot not written; the next start builds the index again', e),
      )
      .finally(() => this.writes.delete(writing));
    this.writes.add(writing);
  }
}
