// The change records of two releases read through views over indexes in memory (indexDiff.ts
// eachChangeOverBase: one base, or two: twoBases()), encoded as they are described (encoded.ts),
// as the changes worker answers a ranged read: one JSON text per record, the listing's order over
// them when a page is asked, one UTF-8 buffer. Runs on the serving thread in slices (the indexes
// are here); no diff row or record outlives its slice, so the serving heap's collections do not
// mark a far pair's ~217k records while they are listed and stored (issue 32, helper farpair).
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { eachChangeOverBase, type DiffIndex } from './indexDiff.ts';
import { RecordTexts, type EncodedChanges } from './encoded.ts';
import { termRanks } from './termOrder.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** `list`: in the listing's order (a page is asked; the terms' order is one statement); else level, then code (only stored). */
export async function encodeChangesOverBase(db: Db, from: { version: string; index: DiffIndex }, to: { version: string; index: DiffIndex }, list: boolean): Promise<EncodedChanges> {
  const records = new RecordTexts();
  const terms: string[] = [];
  await eachChangeOverBase(from, to, (c) => {
    records.add(c);
    if (list) terms.push(c.term);
  });
  return records.joined(list ? await termRanks(db, terms) : null);
}
