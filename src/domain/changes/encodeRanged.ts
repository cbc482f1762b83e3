// The change records from the boundary rows (rangedDiff.ts), encoded as they are described
// (encoded.ts): one JSON text per record instead of its objects, then, for a page, the listing's
// order (listing.ts) over them, and one UTF-8 buffer. Runs on the changes worker (offThread.ts),
// whose statements the serving thread runs; or in the thread when no worker can be had.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { ChangeRecord } from './engine.ts';
import { RecordTexts, type EncodedChanges } from './encoded.ts';
import { eachChangeFromRanges, type RangedOptions } from './rangedDiff.ts';
import { termRanks } from './termOrder.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

export interface EncodeOptions extends RangedOptions {
  /** In the listing's order (a page is asked); else level, then code (only stored). */
  list: boolean;
}

export async function encodeChangesFromRanges(db: Db, from: { id: number; version: string }, to: { id: number; version: string }, opts: EncodeOptions): Promise<EncodedChanges> {
  const records = new RecordTexts();
  const termAt: number[] = [];
  const terms: string[] = [];
  // The term order asked beside the names (rangedDiff.ts) when a page is asked and statements overlap.
  const ranged: RangedOptions = { ...opts, termOrder: opts.list && opts.termOrder };
  const early = ranged.termOrder && ranged.overlap;
  const { ranks } = await eachChangeFromRanges(db, from, to, ranged, (c: ChangeRecord, t: number) => {
    // The record's objects die young (a scavenge), its text stays: written directly (storedJson.ts), no copy made first.
    records.add(c);
    if (early) termAt.push(t);
    else if (opts.list) terms.push(c.term);
  });
  if (!opts.list) return records.joined(null);
  return records.joined(ranks ? await ranks.then((r) => Int32Array.from(termAt, (i) => r[i]!)) : await termRanks(db, terms));
}
