// Relay connections over the service layer's pages: offset cursors, `first` bounded, and the
// page's total (and any extra fields the use case returns) on the connection object.
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { checkFirst } from '../services/arguments.ts';
import type { Page, PageRequest } from '../services/paging.ts';

export async function offsetConnection<T, P extends Page<T>>(
  args: DefaultConnectionArguments,
  size: { default: number; max: number },
  fetch: (page: PageRequest) => Promise<P>,
) {
  checkFirst(args.first);
  let page: P | undefined;
  const conn = await resolveOffsetConnection({ args, defaultSize: size.default, maxSize: size.max }, async (req) => {
    page = await fetch(req);
    return page.items;
  });
  const { items: _items, total, ...extra } = page!;
  return { ...conn, ...(extra as Omit<P, 'items' | 'total'>), totalCount: total };
}

/** Resolver of a connection's `totalCount` field (set by offsetConnection). */
export const totalCount = (connection: unknown): number => (connection as { totalCount: number }).totalCount;
