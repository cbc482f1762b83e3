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
import type { ChangeCounts, ChangePage, StoredChange } from './pageTypes.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

const TYPES: readonly ChangeType[] = ['added', 'updated', 'retired'];

/** Key orders by key list: metadata objects come in a handful of shapes, each sorted once. */
const keyOrders = new Map<string, string[]>();
export function jsonbKeyOrder(keys: string[]): string[] {
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
export const asStored = (r: ChangeRecord): StoredChange => ({
  level: r.level,
  code: r.code,
  changeType: r.changeType,
  term: r.term,
  details: r.details,
  previousTerm: r.previousTerm,
  metadata: inJsonbOrder(r.metadata) as ChangeRecord['metadata'],
});

/** A change set's listing in memory: its size, its bytes held (the memory share's accounting), its pages. */
export interface Listing {
  readonly size: number;
  readonly bytes: number;
  /** As listChanges() without hierarchy filters: counts per type under the level filter, and one page. */
  page(f: { level?: Level | undefined; changeType?: ChangeType | undefined }, offset: number, limit: number): ChangePage;
}

/** A record's (level, change type) group: level × 3 + type, the listing's first two keys. */
export const groupOf = (r: Pick<ChangeRecord, 'level' | 'changeType'>) => LEVELS.indexOf(r.level) * 3 + TYPES.indexOf(r.changeType);

/**
 * The listing order of records given by group (groupOf), term rank and code: one number per record
 * but for the code, (group) above the term rank, exact (15 × the ranks' width is small); the code
 * breaks ties ((level, code) is unique, so no two are equal). Ranks go up to the number of distinct
 * terms: a fixed 2¹⁷ per group (before round 12) let the ranks of a set over 131,072 terms spill
 * into the next type's or level's place. With where each group starts in that order.
 */
export function listingOrder(group: ArrayLike<number>, rank: ArrayLike<number>, code: ArrayLike<number>): { order: Int32Array; start: Int32Array } {
  const n = group.length;
  let width = 1;
  for (let i = 0; i < n; i++) width = Math.max(width, rank[i]! + 1);
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = group[i]! * width + rank[i]!;
  const order = new Int32Array(n);
  // Records given in (level, code) order (as both diffs give them): within a group the record's
  // place orders as its code does, so (key, place) packed in one exact double sorts natively, with
  // no comparator call per pair (a far pair's 217k records: one turn of ~0.1 s, on the serving
  // thread for a diff through views). Otherwise, or when the packed number would not be exact, compared.
  const bits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  let inCodeOrder = LEVELS.length * 3 * width * 2 ** bits < 2 ** 53;
  for (let i = 1; i < n && inCodeOrder; i++) inCodeOrder = Math.floor(group[i]! / 3) > Math.floor(group[i - 1]! / 3) || (group[i]! / 3 | 0) === (group[i - 1]! / 3 | 0) && code[i]! > code[i - 1]!;
  if (inCodeOrder) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = key[i]! * 2 ** bits + i;
    packed.sort();
    for (let k = 0; k < n; k++) order[k] = packed[k]! % 2 ** bits;
  } else {
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => key[a]! - key[b]! || code[a]! - code[b]!);
  }
  const start = new Int32Array(LEVELS.length * 3 + 1);
  for (let i = 0; i < n; i++) start[group[i]! + 1]!++;
  for (let k = 0; k < LEVELS.length * 3; k++) start[k + 1]! += start[k]!;
  return { order, start };
}

/** A page of a listing whose items are ordered by level, then type (`start`: where each group begins), `item(i)` its i-th item as stored. Slices only: no pass over the set. */
export function pageOfGroups(
  start: Int32Array,
  f: { level?: Level | undefined; changeType?: ChangeType | undefined },
  offset: number,
  limit: number,
  item: (i: number) => StoredChange,
): ChangePage {
  const levels = f.level ? [LEVELS.indexOf(f.level)] : LEVELS.map((_, l) => l);
  const counts: ChangeCounts = { added: 0, updated: 0, retired: 0 };
  for (const l of levels) TYPES.forEach((t, k) => (counts[t] += start[l * 3 + k + 1]! - start[l * 3 + k]!));
  const total = f.changeType ? counts[f.changeType] : counts.added + counts.updated + counts.retired;
  // Items are ordered by level, then type: the matching ones are one range per level (and type).
  const items: StoredChange[] = [];
  let skip = offset;
  for (const l of levels) {
    const from = start[l * 3 + (f.changeType ? TYPES.indexOf(f.changeType) : 0)]!;
    const to = start[l * 3 + (f.changeType ? TYPES.indexOf(f.changeType) + 1 : 3)]!;
    const take = Math.max(0, Math.min(to - from - skip, limit - items.length));
    for (let i = from + Math.min(skip, to - from), end = i + take; i < end; i++) items.push(item(i));
    skip = Math.max(0, skip - (to - from));
    if (items.length >= limit) break;
  }
  return { total, counts, items };
}

export class ChangeListing implements Listing {
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
    const n = records.length;
    const group = new Int8Array(n);
    const code = new Int32Array(n);
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      group[i] = groupOf(r);
      code[i] = r.code;
      // Strings at two bytes a character, ~100 bytes per metadata value, ~200 bytes of objects per record.
      bytes += 2 * (r.term.length + r.details.length + (r.previousTerm?.length ?? 0)) + 100 * (Object.keys(r.metadata.before).length + Object.keys(r.metadata.after).length + r.metadata.kinds.length) + 200;
    }
    const { order, start } = listingOrder(group, ranks, code);
    const items: ChangeRecord[] = new Array(n);
    for (let k = 0; k < n; k++) items[k] = records[order[k]!]!;
    return new ChangeListing(items, start, bytes + 12 * n);
  }

  page(f: { level?: Level | undefined; changeType?: ChangeType | undefined }, offset: number, limit: number): ChangePage {
    return pageOfGroups(this.start, f, offset, limit, (i) => asStored(this.items[i]!));
  }
}
