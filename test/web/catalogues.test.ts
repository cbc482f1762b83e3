// The explorer's interface catalogues (web/src/messages): every language has exactly English's
// keys, the same {placeholders} in each message, plural forms its own plural rules know, and is
// actually translated; and the message functions pick forms and format numbers per language.
// No browser, no database: the catalogues are plain modules.
import { describe, expect, it } from 'vitest';
import { formatDate, formatNumber, loadCatalogue, setUiLanguage, t, UI_LANGUAGE_NAMES, UI_LANGUAGES } from '../../web/src/i18n.ts';
import { en } from '../../web/src/messages/en.ts';
import { de } from '../../web/src/messages/de.ts';
import { fr } from '../../web/src/messages/fr.ts';
import { es } from '../../web/src/messages/es.ts';
import { it as itCatalogue } from '../../web/src/messages/it.ts';
import { pt } from '../../web/src/messages/pt.ts';
import { ja } from '../../web/src/messages/ja.ts';
import { zh } from '../../web/src/messages/zh.ts';
import { matchUi } from '../../web/src/uiChoice.ts';

type Message = string | Record<string, string>;
const forms = (m: Message): string[] => (typeof m === 'string' ? [m] : Object.values(m));
const placeholders = (m: Message): string[] => [...new Set(forms(m).flatMap((f) => [...f.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!)))].sort();

// Identical to English on purpose: codes, abbreviations, names of the product and formats.
const SAME_AS_ENGLISH = 0.12;
/** The catalogues other than English, as web/src/i18n.ts loads them (by tag). */
const CATALOGUES = { de, fr, es, it: itCatalogue, 'pt-BR': pt, ja, 'zh-Hans': zh };

describe('interface catalogues', () => {
  it('hosts English and the languages MedDRA users most often work in', () => {
    expect(UI_LANGUAGES[0]).toBe('en');
    for (const tag of ['de', 'fr', 'es', 'it', 'pt-BR', 'ja', 'zh-Hans']) expect(UI_LANGUAGES).toContain(tag);
    // Each names itself differently in the selector.
    expect(new Set(UI_LANGUAGES.map((tag) => UI_LANGUAGE_NAMES[tag])).size).toBe(UI_LANGUAGES.length);
    expect(Object.keys(CATALOGUES).sort()).toEqual(UI_LANGUAGES.filter((x) => x !== 'en').sort());
  });

  for (const [tag, catalogue] of Object.entries(CATALOGUES)) {
    it(`${tag}: exactly English's keys, the same placeholders, its own plural forms, translated`, () => {
      const cat = catalogue as unknown as Record<string, Message>;
      const source = en as unknown as Record<string, Message>;
      expect(Object.keys(cat).filter((k) => !(k in source)), 'extra keys').toEqual([]);
      expect(Object.keys(source).filter((k) => !(k in cat)), 'missing keys').toEqual([]);
      const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories as string[];
      for (const [key, m] of Object.entries(source)) {
        const tr = cat[key]!;
        expect(typeof tr, `${key}: plural in English, plural here (and a string stays a string)`).toBe(typeof m);
        expect(placeholders(tr), `${key}: placeholders`).toEqual(placeholders(m));
        for (const f of forms(tr)) expect(f.trim(), `${key}: empty`).not.toBe('');
        if (typeof tr !== 'string') {
          expect(tr.other, `${key}: "other" form`).toBeTruthy();
          for (const c of Object.keys(tr)) expect(categories, `${key}: form "${c}" is not a plural category of ${tag}`).toContain(c);
          if (categories.includes('one')) expect(tr.one, `${key}: "one" form`).toBeTruthy();
        }
      }
      const same = Object.keys(source).filter((k) => JSON.stringify(cat[k]) === JSON.stringify(source[k]));
      expect(same.length / Object.keys(source).length, `left in English: ${same.join(', ')}`).toBeLessThan(SAME_AS_ENGLISH);
    });
  }

  it('loads a catalogue when first wanted, then picks plural forms and formats numbers and dates per language', async () => {
    try {
      // Not loaded yet: the language stays English.
      expect(setUiLanguage('de')).toBe(false);
      expect(t('nav.browse')).toBe('Browse');
      for (const tag of UI_LANGUAGES) await loadCatalogue(tag);
      expect(setUiLanguage('de')).toBe(true);
      expect(t('search.count', { count: 1 })).toBe('1 Ergebnis');
      expect(t('search.count', { count: 12345 })).toBe('12.345 Ergebnisse');
      expect(formatDate('2024-03-01')).toBe('01.03.2024');
      setUiLanguage('fr');
      expect(t('search.count', { count: 0 })).toMatch(/^0 \S+$/);
      expect(formatNumber(12345)).toBe('12\u202f345');
      setUiLanguage('ja');
      expect(t('search.count', { count: 1 })).toBe(t('search.count', { count: 2 }).replace('2', '1'));
      setUiLanguage('en');
      expect(t('search.count', { count: 1 })).toBe('1 result');
      expect(t('compare.countFiltered', { count: 17, added: 1, updated: 2, retired: 14 })).toBe('17 changes match the filters (added 1, updated 2, retired 14)');
      expect(formatDate('2024-03-01')).toBe('Mar 1, 2024');
      // An unknown tag leaves the language as it was.
      expect(setUiLanguage('xx')).toBe(false);
      expect(t('nav.browse')).toBe('Browse');
    } finally {
      setUiLanguage('en');
    }
  });

  it('matches the browser’s languages exactly, then by primary subtag, else nothing', () => {
    expect(matchUi(['de-AT', 'en'])).toBe('de');
    expect(matchUi(['pt-PT'])).toBe('pt-BR');
    expect(matchUi(['zh-CN'])).toBe('zh-Hans');
    expect(matchUi(['nl-NL', 'fr-CA'])).toBe('fr');
    expect(matchUi(['nl', 'sv'])).toBeUndefined();
  });
});
