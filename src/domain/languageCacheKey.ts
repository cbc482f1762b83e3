// The part of a cache key that Accept-Language decides (issue 28). A header changes an answer
// only through the language it negotiates for each release read, and that depends only on the
// release's hosted languages: so the key is the negotiated tag per distinct set of hosted
// languages. Headers that negotiate alike ("de", "de-DE, fr;q=0.1") share cache entries;
// headers that negotiate differently never do. No header negotiates the primary languages.
import { selectLanguage } from './languageTags.ts';

interface Hosting {
  languages: readonly string[];
}

/** Per release list (replaced whenever the list is read again): header → key. Bounded. */
const memo = new WeakMap<readonly Hosting[], Map<string, string>>();
const MAX_MEMO = 1000;

export function negotiatedLanguageKey(header: string | null | undefined, releases: readonly Hosting[]): string {
  const h = header ?? '';
  let byHeader = memo.get(releases);
  if (!byHeader) memo.set(releases, (byHeader = new Map()));
  const known = byHeader.get(h);
  if (known !== undefined) return known;
  const sets = new Map<string, readonly string[]>();
  for (const r of releases) sets.set(r.languages.join(','), r.languages);
  const key = [...sets.values()]
    .map((hosted) => {
      const primary = hosted[0] ?? 'en';
      const sel = h ? selectLanguage({ header: h }, hosted, primary) : undefined;
      return sel?.kind === 'one' ? sel.language : primary;
    })
    .join(',');
  // Clients send few distinct headers; a flood of distinct ones only resets the memo.
  if (byHeader.size >= MAX_MEMO) byHeader.clear();
  byHeader.set(h, key);
  return key;
}
