// A change set computed off the serving thread (offThread.ts), as it comes back: its records as one
// UTF-8 text of JSON rows (each a stored row as read back, listing.ts asStored) and their offsets,
// not an object per record. Nothing is parsed on the serving thread but a page's rows when asked
// (EncodedListing), and the rows are stored from slices of the same text (store.ts). A far pair's
// 217k records were ~7 objects each on the serving heap, marked by its every major GC while held.
import type { Level } from '../levels.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';
import type { ChangeRecord, ChangeType } from './engine.ts';
import { groupOf, listingOrder, pageOfGroups, type Listing } from './listing.ts';
import { storedJson } from './storedJson.ts';
import type { ChangeCounts, ChangePage, StoredChange } from './pageTypes.ts';

export interface EncodedChanges {
  /** The records' JSON texts joined by commas. */
  text: Uint8Array;
  /** Where record i starts in text; it ends at off[i + 1] - 1 (the comma; off[n] = text.length + 1). */
  off: Uint32Array;
  counts: ChangeCounts;
  /** Listing order (listing.ts) with where each (level, type) starts, when built for a page; null: level, then code. */
  start: Int32Array | null;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Records per turn while joining (encodeIndexes.ts joins on the serving thread: a far pair's ~65 MB, ~0.1 s whole). */
const JOIN_SLICE = 16_384;

/** Records' JSON texts joined into one EncodedChanges, in `order` (listing order: `start` says where each group begins) or as given, with a turn for others between slices. */
async function joinEncoded(json: readonly string[], order: ArrayLike<number> | null, counts: ChangeCounts, start: Int32Array | null): Promise<EncodedChanges> {
  const n = json.length;
  const off = new Uint32Array(n + 1);
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    if (k % JOIN_SLICE === JOIN_SLICE - 1) await nextTurn();
    off[k] = bytes;
    bytes += Buffer.byteLength(json[order ? order[k]! : k]!) + 1;
  }
  off[n] = bytes;
  const text = new Uint8Array(Math.max(0, bytes - 1));
  for (let k = 0; k < n; k++) {
    if (k % JOIN_SLICE === JOIN_SLICE - 1) await nextTurn();
    encoder.encodeInto(json[order ? order[k]! : k]!, text.subarray(off[k]));
    if (k + 1 < n) text[off[k + 1]! - 1] = 0x2c; // ','
  }
  return { text, off, counts, start };
}

/**
 * A change set's records gathered as they are described (encodeRanged.ts, encodeIndexes.ts): each
 * one's JSON text (storedJson.ts) and what the listing's order needs of it, its objects left to die
 * young; joined once all are in.
 */
export class RecordTexts {
  private readonly json: string[] = [];
  private readonly group: number[] = [];
  private readonly code: number[] = [];
  readonly counts: ChangeCounts = { added: 0, updated: 0, retired: 0 };

  add(c: ChangeRecord): void {
    this.json.push(storedJson(c));
    this.group.push(groupOf(c));
    this.code.push(c.code);
    this.counts[c.changeType]++;
  }

  /** Joined in the listing's order given the records' term ranks (a page is asked), else as added (level, then code). */
  async joined(rank: ArrayLike<number> | null): Promise<EncodedChanges> {
    if (!rank) return joinEncoded(this.json, null, this.counts, null);
    await nextTurn();
    const { order, start } = listingOrder(this.group, rank, this.code);
    await nextTurn();
    return joinEncoded(this.json, order, this.counts, start);
  }
}

export const encodedSize = (e: EncodedChanges): number => e.off.length - 1;

/** Records [from, to) as one JSON array text (json_to_recordset's input). */
export function encodedSlice(e: EncodedChanges, from: number, to: number): string {
  return to > from ? `[${decoder.decode(e.text.subarray(e.off[from]!, e.off[to]! - 1))}]` : '[]';
}

/** One record as a stored row reads back. */
const encodedRow = (e: EncodedChanges, i: number): StoredChange => JSON.parse(decoder.decode(e.text.subarray(e.off[i]!, e.off[i + 1]! - 1))) as StoredChange;

/** The listing of encoded records in listing order: a page parses its rows only. */
export class EncodedListing implements Listing {
  readonly bytes: number;
  private readonly start: Int32Array;

  constructor(private readonly e: EncodedChanges) {
    if (!e.start) throw new Error('encoded changes not in listing order');
    this.start = e.start;
    this.bytes = e.text.byteLength + e.off.byteLength;
  }

  get size(): number {
    return encodedSize(this.e);
  }

  page(f: { level?: Level | undefined; changeType?: ChangeType | undefined }, offset: number, limit: number): ChangePage {
    return pageOfGroups(this.start, f, offset, limit, (i) => encodedRow(this.e, i));
  }
}
