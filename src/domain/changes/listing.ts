// A computed change set's listing in memory: its records in the order listChanges() pages
// them (level, change type, term in the database's collation, code), with counts under the
// level filter. A change set between releases far apart (first → last of a long chain: ~50k
// records) is answered from here as soon as it is computed, while its rows are written in the
// background (store.ts), and from here again while it stays in memory: a page is a slice, no
// statement. Answers are the same as the stored set's through SQL (test/domain/changes-index.test.ts):
// terms are ordered as the database's collation orders them (here when it collates bytewise, else
// by one statement), and metadata keys are put in the order jsonb gives them back.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { LEVELS, type Level } from '../levels.ts';
import type { ChangeRecord, ChangeType } from './engine.ts';
import { byCodePoints, presetTermRanks, termRanks } from './termOrder.ts';
import type { ChangeCounts, ChangePage, StoredChange } from './store.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

const TYPES: readonly ChangeType[] = ['added', 'updated', 'retired'];

/** Key orders by key list: metadata objects come in a handful of shapes, each sorted once. */
const keyOrders = new Map<string, string[]>();
function jsonbKeyOrder(keys: string[]): string[] {
  const id = keys.join('\u0000');
  let order = keyOrders.get(id);
  if (!order) {
    order = [...keys].sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || byCodePoints(a, b));
    if (keyOrders.size < 1_000) keyOrders.set(id, order);
  }
  return order;
}

/**
 * A value with its objects' keys in jsonb's order (shorter keys first, by utf-8 length, then
 * bytewise), as a stored value reads back: an answer from memory is then byte-identical to
 * one from the store.
 */
export function inJsonbOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(inJsonbOrder);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of jsonbKeyOrder(Object.keys(v))) out[k] = inJsonbOrder((v as Record<string, unknown>)[k]);
  return out;
}

/** A record as a stored row reads back (listChanges()): CHANGE_COLUMNS' key order, metadata keys in jsonb's. */
const asStored = (r: ChangeRecord): StoredChange => ({
  level: r.level,
  code: r.code,
  changeType: r.changeType,
  term: r.term,
  details: r.details,
  previousTerm: r.previousTerm,
  metadata: inJsonbOrder(r.metadata) as ChangeRecord['metadata'],
});

export class ChangeListing {
  private constructor(
    /** Records in listing order. */
    private readonly items: readonly ChangeRecord[],
    /** Where each (level, type) starts in items, by level × 3 + type; its end is the next one's start. */
    private readonly start: Int32Array,
    readonly bytes: number,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /**
   * The listing of `records`; one statement orders their terms. Only the order is made here: an
   * answer's shape (key order as stored, metadata keys in jsonb's order) is made for the page asked.
   */
  static async of(db: Db, records: readonly ChangeRecord[]): Promise<ChangeListing> {
    const ranks = await (presetTermRanks(records) ?? termRanks(db, records.map((r) => r.term)));
    // One number per record in listing order but for the code: (level, type) above the term rank,
    // exact (15 × the ranks' width is small); the code breaks ties ((level, code) is unique, so no two are
    // equal). Ranks go up to the number of distinct terms: a fixed 2¹⁷ per group (before round 12)
    // let the ranks of a set over 131,072 terms spill into the next type's or level's place.
    const n = records.length;
    let width = 1;
    for (let i = 0; i < n; i++) width = Math.max(width, ranks[i]! + 1);
    const key = new Float64Array(n);
    const code = new Int32Array(n);
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      key[i] = (LEVELS.indexOf(r.level) * 3 + TYPES.indexOf(r.changeType)) * width + ranks[i]!;
      code[i] = r.code;
      // Strings at two bytes a character, ~100 bytes per metadata value, ~200 bytes of objects per record.
      bytes += 2 * (r.term.length + r.details.length + (r.previousTerm?.length ?? 0)) + 100 * (Object.keys(r.metadata.before).length + Object.keys(r.metadata.after).length + r.metadata.kinds.length) + 200;
    }
    const order = Int32Array.from(records, (_, i) => i).sort((a, b) => key[a]! - key[b]! || code[a]! - code[b]!);
    const items: ChangeRecord[] = new Array(n);
    for (let k = 0; k < n; k++) items[k] = records[order[k]!]!;
    const start = new Int32Array(LEVELS.length * 3 + 1);
    for (const r of records) start[LEVELS.indexOf(r.level) * 3 + TYPES.indexOf(r.changeType) + 1]!++;
    for (let k = 0; k < LEVELS.length * 3; k++) start[k + 1]! += start[k]!;
    return new ChangeListing(items, start, bytes + 12 * n);
  }

  /** As listChanges() without hierarchy filters: counts per type under the level filter, and one page. Slices only: no pass over the set. */
  page(f: { level?: Level | undefined; changeType?: ChangeType | undefined }, offset: number, limit: number): ChangePage {
    const levels = f.level ? [LEVELS.indexOf(f.level)] : LEVELS.map((_, l) => l);
    const counts: ChangeCounts = { added: 0, updated: 0, retired: 0 };
    for (const l of levels) TYPES.forEach((t, k) => (counts[t] += this.start[l * 3 + k + 1]! - this.start[l * 3 + k]!));
    const total = f.changeType ? counts[f.changeType] : counts.added + counts.updated + counts.retired;
    // Items are ordered by level, then type: the matching ones are one range per level (and type).
    const items: StoredChange[] = [];
    let skip = offset;
    for (const l of levels) {
      const from = this.start[l * 3 + (f.changeType ? TYPES.indexOf(f.changeType) : 0)]!;
      const to = this.start[l * 3 + (f.changeType ? TYPES.indexOf(f.changeType) + 1 : 3)]!;
      const take = Math.max(0, Math.min(to - from - skip, limit - items.length));
      for (let i = from + Math.min(skip, to - from), end = i + take; i < end; i++) items.push(asStored(this.items[i]!));
      skip = Math.max(0, skip - (to - from));
      if (items.length >= limit) break;
    }
    return { total, counts, items };
  }
}
