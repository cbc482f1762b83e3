// Every state of the explorer lives in the query string of `/`, so a link reproduces the view
// and the back button works. Typing replaces the current entry; opening something pushes one.
import { useEffect, useState } from 'preact/hooks';

export type Params = Record<string, string | undefined>;

/** Keys of each view; switching views drops the others' keys. */
const VIEW_KEYS: Record<string, string[]> = {
  browse: ['q', 'ql', 'level', 'soc', 'after', 'before', 'code', 'lvl', 'path', 'tab', 'nc'],
  compare: ['from', 'to', 'ct', 'level', 'after', 'before'],
  workbench: ['mode', 'floor', 'all'],
  smqs: ['sq', 'smq', 'scope', 'after', 'before'],
  impact: ['from', 'to'],
  bin: ['against'],
};

export type View = 'browse' | 'compare' | 'workbench' | 'smqs' | 'impact' | 'bin';

export function current(): URLSearchParams {
  return new URLSearchParams(location.search);
}

export function viewOf(p: URLSearchParams): View {
  const v = p.get('view');
  return v === 'compare' || v === 'workbench' || v === 'smqs' || v === 'impact' || v === 'bin' ? v : 'browse';
}

/** The URL for `changes` applied over the current state (undefined or '' removes a key). */
export function hrefWith(changes: Params, base: URLSearchParams = current()): string {
  const next = new URLSearchParams(base);
  const view = changes.view !== undefined ? changes.view || 'browse' : viewOf(base);
  if (view !== viewOf(base)) for (const k of Object.keys(VIEW_KEYS).flatMap((v) => VIEW_KEYS[v]!)) next.delete(k);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '' || (k === 'view' && v === 'browse')) next.delete(k);
    else next.set(k, v);
  }
  // A stable order keeps links comparable.
  next.sort();
  const s = next.toString();
  return s ? `/?${s}` : '/';
}

const listeners = new Set<() => void>();

export function navigate(changes: Params, opts: { replace?: boolean } = {}): void {
  go(hrefWith(changes), opts);
}

export function go(href: string, opts: { replace?: boolean } = {}): void {
  if (href === location.pathname + location.search) return;
  if (opts.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  for (const l of listeners) l();
}

window.addEventListener('popstate', () => {
  for (const l of listeners) l();
});

/** The current query string, re-rendering on every navigation. */
export function useParams(): URLSearchParams {
  const [search, setSearch] = useState(location.search);
  useEffect(() => {
    const l = () => setSearch(location.search);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return new URLSearchParams(search);
}

/** A plain click on an in-app link navigates without reloading; others (new tab…) are the browser's. */
export function onLinkClick(e: MouseEvent): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = e.currentTarget as HTMLAnchorElement;
  e.preventDefault();
  go(a.getAttribute('href')!);
}

/** Set by a navigation that should move focus to the new view's heading (opening a search result). */
export const focusRequest = { heading: false };
