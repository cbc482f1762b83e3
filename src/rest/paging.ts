// The documented pagination envelope: meta {page, limit, total, next, previous},
// next/previous as query strings that keep every other parameter.
import { offsetToCursor } from '@pothos/plugin-relay';

export interface Meta {
  page: number;
  limit: number;
  total: number;
  next: string | null;
  previous: string | null;
}

/** Relay `after` cursor for the first item of a page (offset pagination underneath). */
export function afterCursor(page: number, limit: number): string | null {
  const offset = (page - 1) * limit;
  return offset > 0 ? offsetToCursor(offset - 1) : null;
}

export function pageMeta(
  query: Record<string, string | undefined>,
  page: number,
  limit: number,
  total: number,
  names: { page: string; limit: string } = { page: 'page', limit: 'limit' },
): Meta {
  const link = (p: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== names.page && k !== names.limit) params.set(k, v);
    params.set(names.page, String(p));
    params.set(names.limit, String(limit));
    return `?${params.toString()}`;
  };
  const lastPage = Math.max(1, Math.ceil(total / limit));
  return {
    page,
    limit,
    total,
    next: page < lastPage ? link(page + 1) : null,
    previous: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
  };
}
