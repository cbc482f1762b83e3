// A page request and its answer, as every listing use case takes and returns them. The
// surfaces map their own paging onto this: GraphQL connections (offset cursors), REST
// page/limit.
export interface PageRequest {
  offset: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export const emptyPage = <T>(): Page<T> => ({ items: [], total: 0 });

export function slicePage<T>(all: readonly T[], page: PageRequest): Page<T> {
  return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
}
