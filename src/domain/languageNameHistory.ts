// Names in a non-primary language for every hosted release at once, in memory (issue 32). A code
// page lists a concept's name in every hosted language; without this each page sent one statement
// for them (the language's release index is built by a search only, and per release), the only
// SQL left on a code page once the release's index or view answers the rest. concept_name stores a
// name once for the range of releases [valid_from, valid_to) holding it (docs/storage.md), so one
// language's rows over every release cost about one release's names plus the differences: read
// once (in chunks), kept as typed arrays and one UTF-8 buffer, answered for any release by its rank.
import type { PrismaClient } from '../generated/prisma/client.ts';
import { LEVELS, type Level } from './levels.ts';
import type { ReleaseInfo } from './releases.ts';
import { memoryGauges } from '../observability/signals.ts';
import { nextTurn } from '../runtime/nextTurn.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** Rows per statement while reading (bounds the transient objects, and embedded, how long one read holds the thread). */
const CHUNK_ROWS = 20_000;
/** A failed or over-budget read is not tried again sooner (a new release still starts one at once). */
const RETRY_MS = 60_000;
/** The rank of "still held by the latest" (valid_to = OPEN). */
const OPEN_RANK = 0xffff;
/** valid_to of a row still held by the latest (src/importer/ranges.ts OPEN). */
const OPEN_SEQ = '9223372036854775807';
/** Per row beside its name's bytes: key 8, ranks 2 + 2, offset 4. */
const ROW_BYTES = 16;

const levelIndex = new Map<string, number>(LEVELS.map((l, i) => [l, i]));
const keyOf = (level: number, code: number) => level * 2 ** 32 + code;

/** One language's names as read at one moment: rows sorted by (level, code, valid_from), ranges as ranks of the releases then hosted. */
export class LanguageNames {
  private constructor(
    readonly language: string,
    private readonly keys: Float64Array,
    private readonly from: Uint16Array,
    private readonly to: Uint16Array,
    private readonly offsets: Uint32Array,
    private readonly text: Buffer,
    /** Release id → its rank (seq order) and when its names in this language were imported then (epoch ms). */
    private readonly releases: Map<number, { rank: number; stamp: number }>,
  ) {}

  get bytes(): number {
    return this.keys.length * ROW_BYTES + this.text.length;
  }

  /** The release's rank when its names in this language are the ones read here (same release id and import stamp), else undefined. */
  rankOf(releaseId: number, stamp: number | undefined): number | undefined {
    const r = this.releases.get(releaseId);
    return r && r.stamp === stamp ? r.rank : undefined;
  }

  /** The name at a rank, or null when the concept has none in this language there. */
  find(rank: number, level: Level, code: number): string | null {
    const key = keyOf(levelIndex.get(level)!, code);
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.keys.length && this.keys[i] === key; i++) {
      if (this.from[i]! <= rank && rank < this.to[i]!) return this.text.toString('utf8', this.offsets[i]!, this.offsets[i + 1]!);
    }
    return null;
  }

  /**
   * Reads every row of the language, or null when the store changed while reading (the release
   * list, seqs or this language's import stamps differ before and after: rows and ranks might not
   * agree) or when it would exceed `maxBytes`.
   */
  static async read(db: Db, language: string, maxBytes: number): Promise<LanguageNames | null> {
    const list = async () =>
      db.$queryRawUnsafe<{ id: number; seq: string; at: number | null }[]>(
        `SELECT r.id, r.seq::text AS seq, (extract(epoch FROM rl.imported_at) * 1000)::float8 AS at
         FROM "release" r LEFT JOIN release_language rl ON rl.release_id = r.id AND rl.language = $1 ORDER BY r.seq`,
        language,
      );
    const before = await list();
    if (before.length >= OPEN_RANK) return null;
    const rankOfSeq = new Map(before.map((r, i) => [r.seq, i]));
    const levels: number[] = [];
    const codes: number[] = [];
    const froms: number[] = [];
    const tos: number[] = [];
    const names: string[] = [];
    let bytes = 0;
    let last: { l: string; code: number; f: string } | undefined;
    for (;;) {
      const rows = await db.$queryRawUnsafe<{ l: string; code: number; f: string; t: string; name: string }[]>(
        `SELECT level::text AS l, code, valid_from::text AS f, valid_to::text AS t, name FROM concept_name
         WHERE language = $1${last ? ` AND (level, code, valid_from) > ($3::"Level", $4::int, $5::bigint)` : ''}
         ORDER BY level, code, valid_from LIMIT $2`,
        language,
        CHUNK_ROWS,
        ...(last ? [last.l, last.code, last.f] : []),
      );
      for (const r of rows) {
        const f = rankOfSeq.get(r.f);
        // Every boundary is a hosted release's seq or OPEN (src/importer/ranges.ts): another means a concurrent change.
        const t = r.t === OPEN_SEQ ? OPEN_RANK : rankOfSeq.get(r.t);
        if (f === undefined || t === undefined) return null;
        levels.push(levelIndex.get(r.l)!);
        codes.push(r.code);
        froms.push(f);
        tos.push(t);
        names.push(r.name);
        bytes += ROW_BYTES + Buffer.byteLength(r.name);
      }
      if (bytes > maxBytes) return null;
      if (rows.length < CHUNK_ROWS) break;
      const z = rows.at(-1)!;
      last = { l: z.l, code: z.code, f: z.f };
      // A turn for others between chunks: PGlite answers in promise callbacks, so the chunks alone
      // ran back to back, every request waiting for the whole read.
      await nextTurn();
    }
    const after = await list();
    const same = after.length === before.length && after.every((r, i) => r.id === before[i]!.id && r.seq === before[i]!.seq && r.at === before[i]!.at);
    if (!same) return null;
    // Sorted by (level order, code, valid_from) here: the enum's order in SQL need not be LEVELS'.
    const n = names.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => levels[a]! - levels[b]! || codes[a]! - codes[b]! || froms[a]! - froms[b]!);
    const keys = new Float64Array(n);
    const from = new Uint16Array(n);
    const to = new Uint16Array(n);
    const offsets = new Uint32Array(n + 1);
    const text = Buffer.allocUnsafe(bytes - n * ROW_BYTES);
    let at = 0;
    order.forEach((j, i) => {
      keys[i] = keyOf(levels[j]!, codes[j]!);
      from[i] = froms[j]!;
      to[i] = tos[j]!;
      offsets[i] = at;
      at += text.write(names[j]!, at, 'utf8');
    });
    offsets[n] = at;
    const releases = new Map(before.filter((r) => r.at !== null).map((r) => [r.id, { rank: rankOfSeq.get(r.seq)!, stamp: r.at! }]));
    return new LanguageNames(language, keys, from, to, offsets, text, releases);
  }
}

/**
 * The non-primary languages' names of every hosted release (LanguageNames per language), read on
 * first use in the background: until then, and for a release imported since (not among those
 * read), nameAt() says "not known" and the caller answers by SQL; such a release starts a new
 * read, and the one kept serves the others meanwhile (their names do not change: a replaced
 * release gets a new id, a language imported again a new stamp).
 */
export class LanguageNameHistories {
  private readonly kept = new Map<string, LanguageNames>();
  private readonly reading = new Map<string, Promise<void>>();
  private readonly lastFailure = new Map<string, { at: number; releases: number }>();
  /** Reads started (tests, bench). */
  reads = 0;

  constructor(
    private readonly db: Db,
    /** The catalog's release list when fresh (without waiting): each lookup's release and its import stamps. */
    private readonly releases: () => readonly ReleaseInfo[] | undefined,
    /** What every language's names may hold together. */
    readonly maxBytes: number,
    private readonly onWarning: (message: string, error: unknown) => void = () => undefined,
  ) {
    memoryGauges.languageNames = { bytes: () => this.bytes(), budget: maxBytes };
  }

  bytes(): number {
    let n = 0;
    for (const h of this.kept.values()) n += h.bytes;
    return n;
  }

  /**
   * The concept's name in `language` in the release: a string, null when it has none there, or
   * undefined when not known here (not read yet, or the release is newer than the read: answer by SQL).
   */
  nameAt(releaseId: number, language: string, level: Level, code: number): string | null | undefined {
    const list = this.releases();
    const r = list?.find((x) => x.id === releaseId);
    if (!r || !r.languages.includes(language) || r.languages[0] === language) return undefined;
    const stamp = r.namesImportedAt?.[language];
    const h = this.kept.get(language);
    const rank = h?.rankOf(releaseId, stamp);
    if (h && rank !== undefined) return h.find(rank, level, code);
    this.read(language, list!.length);
    return undefined;
  }

  /** Starts a read of the language's names unless one is in flight or one failed within RETRY_MS with as many releases hosted. */
  private read(language: string, releases: number): void {
    if (this.reading.has(language)) return;
    const failed = this.lastFailure.get(language);
    if (failed && failed.releases === releases && Date.now() - failed.at < RETRY_MS) return;
    this.reads++;
    const others = this.bytes() - (this.kept.get(language)?.bytes ?? 0);
    const p = LanguageNames.read(this.db, language, this.maxBytes - others)
      .then(
        (h) => {
          if (h) {
            this.kept.set(language, h);
            this.lastFailure.delete(language);
          } else this.lastFailure.set(language, { at: Date.now(), releases });
        },
        (e: unknown) => {
          this.lastFailure.set(language, { at: Date.now(), releases });
          this.onWarning(`the ${language} names of the hosted releases could not be read; code pages read them by SQL`, e);
        },
      )
      .finally(() => this.reading.delete(language));
    this.reading.set(language, p);
  }

  /** Settles when the reads in flight have (tests, bench). */
  async settled(): Promise<void> {
    while (this.reading.size) await Promise.all(this.reading.values());
  }
}
