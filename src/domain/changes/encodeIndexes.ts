// The change records of two releases read through views over indexes in memory (indexDiff.ts
// eachChangeOverBase: one base, or two: twoBases()), encoded as they are described (encoded.ts),
// as the changes worker answers a ranged read: one JSON text per record, the listing's order over
// them when a page is asked, one UTF-8 buffer. Runs on the serving thread in slices (the indexes
// are here); no diff row or record outlives its slice, so the serving heap's collections do not
// mark a far pair's ~217k records while they are listed and stored (issue 32, helper farpair).
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { eachChangeOverBase, type DiffIndex } from './indexDiff.ts';
import { joinEncoded, type EncodedChanges } from './encoded.ts';
import { groupOf, listingOrder } from './listing.ts';
import type { ChangeCounts } from './pageTypes.ts';
import { storedJson } from './storedJson.ts';
import { termRanks } from './termOrder.ts';
import { nextTurn } from '../../runtime/nextTurn.ts';

type Db = Pick<PrismaClient, '$queryRawUnsafe'>;

/** `list`: in the listing's order (a page is asked; the terms' order is one statement); else level, then code (only stored). */
export async function encodeChangesOverBase(db: Db, from: { version: string; index: DiffIndex }, to: { version: string; index: DiffIndex }, list: boolean): Promise<EncodedChanges> {
  const json: string[] = [];
  const group: number[] = [];
  const code: number[] = [];
  const terms: string[] = [];
  const counts: ChangeCounts = { added: 0, updated: 0, retired: 0 };
  await eachChangeOverBase(from, to, (c) => {
    json.push(storedJson(c));
    group.push(groupOf(c));
    code.push(c.code);
    counts[c.changeType]++;
    if (list) terms.push(c.term);
  });
  let order: ArrayLike<number> | null = null;
  let start: Int32Array | null = null;
  if (list) {
    const rank = await termRanks(db, terms);
    await nextTurn();
    ({ order, start } = listingOrder(group, rank, code));
    await nextTurn();
  }
  return joinEncoded(json, order, counts, start);
}
