// The explorer's languages (issue 28): which of the release's hosted languages names are shown
// in (`lang=`), the optional second one beside them (`lang2=`), and each language's own name.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { uiLanguage } from './i18n.ts';

/** The languages in effect below the shell; `language` undefined until the release list is known. */
export interface Languages {
  /** BCP 47 tag names are requested and shown in. */
  language?: string;
  /** The second language shown beside the first, when chosen. */
  second?: string;
  /** The selected release's hosted languages, primary first. */
  hosted: string[];
}

export const LanguageContext = createContext<Languages>({ hosted: [] });

export function useLanguages(): Languages {
  return useContext(LanguageContext);
}

/** A language's name in that language ("Deutsch", "日本語"), capitalised as a list entry; the tag when unknown. */
export function ownName(tag: string): string {
  return displayName(tag, tag);
}

/** A language's name in the interface's language ("Japanese", "Japanisch"), e.g. for "matched in Japanese". */
export function localName(tag: string): string {
  return displayName(tag, uiLanguage());
}

function displayName(tag: string, inLanguage: string): string {
  try {
    const name = new Intl.DisplayNames([inLanguage], { type: 'language' }).of(tag) ?? tag;
    return name.charAt(0).toLocaleUpperCase(inLanguage) + name.slice(1);
  } catch {
    return tag;
  }
}

/**
 * The default language: the first of the browser's preferred languages (navigator.languages)
 * the release hosts, matched exactly or by its primary subtag (de-DE → de), else the release's
 * primary language.
 */
export function defaultLanguage(hosted: string[], preferred: readonly string[]): string | undefined {
  const lower = hosted.map((h) => h.toLowerCase());
  for (const p of preferred) {
    const want = p.toLowerCase();
    const exact = lower.indexOf(want);
    if (exact >= 0) return hosted[exact];
    const base = want.split('-')[0]!;
    const near = lower.findIndex((h) => h === base || h.split('-')[0] === base);
    if (near >= 0) return hosted[near];
  }
  return hosted[0];
}

/** The language and second language in effect for a release, from the URL and the browser. */
export function resolveLanguages(params: URLSearchParams, hosted: string[], preferred: readonly string[]): Languages {
  const asked = params.get('lang') ?? undefined;
  // A language the release does not host (another release's link) gives way to the default.
  const language = asked && hosted.includes(asked) ? asked : hosted.length ? defaultLanguage(hosted, preferred) : asked;
  const asked2 = params.get('lang2') ?? undefined;
  const second = asked2 && asked2 !== language && (!hosted.length || hosted.includes(asked2)) ? asked2 : undefined;
  return { language, second, hosted };
}
