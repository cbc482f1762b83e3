// The change list of a pair of releases answered from memory when it can be (listing.ts), else
// nothing: the caller then reads the stored rows (store.ts listChanges()), as it always did.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { hasHierarchyFilter } from '../hierarchyFilter.ts';
import { ChangeListing, type Listing } from './listing.ts';
import { EncodedListing } from './encoded.ts';
import type { ChangeSetMemory } from './memory.ts';
import { changeComputation, type ChangeFilters, type ChangePage, type IndexSource, type ReleaseRef } from './store.ts';

/**
 * A page of the change set from → to without waiting for its rows to be stored: from its
 * listing in memory, else computed now (from the release indexes when given) with its rows
 * written in the background (store.ts). null when a hierarchy filter is set (those are
 * answered by SQL over stored rows) or the set is stored and not in memory: then
 * listChanges() answers from the store, as it always did.
 */
export async function pageFromMemory(
  prisma: PrismaClient,
  memory: ChangeSetMemory,
  from: ReleaseRef,
  to: ReleaseRef,
  f: ChangeFilters,
  offset: number,
  limit: number,
  indexes?: IndexSource,
): Promise<ChangePage | null> {
  if (hasHierarchyFilter(f)) return null;
  const listed = memory.peekListing(from.id, to.id);
  if (listed) return listed.page(f, offset, limit);
  if (memory.isStored(from.id, to.id)) return null;
  const c = await changeComputation(prisma, from, to, indexes, true);
  if (!c) {
    memory.markStored(from.id, to.id);
    return null;
  }
  try {
    const computed = await c.computed;
    const { records, encoded } = computed;
    // Computed (off the thread) only to be stored, not in the listing's order: the store answers once it is.
    if (encoded && !encoded.start && !memory.peekListing(from.id, to.id)) {
      c.listed();
      await c.stored;
      return null;
    }
    // Held until the rows are stored: every page until then is a slice, none waits for the store.
    const build = async (): Promise<Listing> => (encoded ? new EncodedListing(encoded) : ChangeListing.of(prisma, records!));
    const listing = await memory.listing(from.id, to.id, build, c.stored);
    return listing.page(f, offset, limit);
  } finally {
    // The rows are stored once the listing is built (store.ts): the first page does not share its time with them.
    c.listed();
  }
}
