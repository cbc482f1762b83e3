// Which interface language: the user's explicit choice (the header's selector: `ui=` in the URL,
// remembered in localStorage), else the browser's preferred languages (exact tag, then primary
// subtag, as language.ts defaults the names), else English.
import { UI_LANGUAGES } from './i18n.ts';

const STORAGE = 'terminology-explorer.ui';

export function storedUi(): string | undefined {
  try {
    const v = localStorage.getItem(STORAGE) ?? undefined;
    return v && UI_LANGUAGES.includes(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function rememberUi(tag: string): void {
  try {
    localStorage.setItem(STORAGE, tag);
  } catch {
    // Storage disabled: the choice lives in the URL only.
  }
}

/** The supported interface language best matching `preferred` (BCP 47 tags, most wanted first). */
export function matchUi(preferred: readonly string[]): string | undefined {
  const lower = UI_LANGUAGES.map((u) => u.toLowerCase());
  for (const p of preferred) {
    const want = p.toLowerCase();
    const exact = lower.indexOf(want);
    if (exact >= 0) return UI_LANGUAGES[exact];
    const base = want.split('-')[0]!;
    const near = lower.findIndex((u) => u.split('-')[0] === base);
    if (near >= 0) return UI_LANGUAGES[near];
  }
  return undefined;
}

/** The interface language and whether the user chose it (URL or storage) rather than the browser. */
export function resolveUi(asked: string | null, preferred: readonly string[]): { ui: string; chosen: boolean } {
  const explicit = (asked ? matchUi([asked]) : undefined) ?? storedUi();
  return explicit ? { ui: explicit, chosen: true } : { ui: matchUi(preferred) ?? 'en', chosen: false };
}
