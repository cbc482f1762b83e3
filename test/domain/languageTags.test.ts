// Language identity: MSSO names ↔ BCP 47 tags, file encodings, tag canonicalisation,
// Accept-Language negotiation and the query > header > primary precedence.
import { describe, expect, it } from 'vitest';
import {
  MSSO_LANGUAGES,
  canonicalLanguageTag,
  LanguageTagError,
  languageDisplayName,
  medAsciiEncoding,
  mssoNameForTag,
  negotiateLanguage,
  parseLanguageTag,
  selectLanguage,
  tagForMssoLanguage,
} from '../../src/domain/languageTags.ts';

describe('MSSO language names', () => {
  it.each([
    ['English', 'en'], ['Japanese', 'ja'], ['German', 'de'], ['French', 'fr'], ['Spanish', 'es'], ['Italian', 'it'],
    ['Portuguese', 'pt'], ['Dutch', 'nl'], ['Czech', 'cs'], ['Hungarian', 'hu'], ['Chinese', 'zh'], ['Korean', 'ko'],
    ['Russian', 'ru'], ['Greek', 'el'], ['Swedish', 'sv'], ['Danish', 'da'], ['Polish', 'pl'], ['Latvian', 'lv'],
    ['Lithuanian', 'lt'], ['Estonian', 'et'], ['Finnish', 'fi'], ['Norwegian', 'no'], ['Bulgarian', 'bg'],
    ['Croatian', 'hr'], ['Romanian', 'ro'], ['Slovak', 'sk'], ['Slovenian', 'sl'], ['Arabic', 'ar'], ['Persian', 'fa'],
  ])('%s → %s', (name, tag) => {
    expect(tagForMssoLanguage(name)).toBe(tag);
    expect(mssoNameForTag(tag)).toBe(name);
  });

  it('reads Brazilian Portuguese in every spelling distributions and folder names use', () => {
    for (const s of ['Portuguese_Brazilian', 'portuguese brazilian', 'Brazilian_Portuguese', 'BRAZILIAN PORTUGUESE', 'Portuguese-Brazilian', ' Portuguese (Brazil) ']) {
      expect(tagForMssoLanguage(s), s).toBe('pt-BR');
    }
    expect(mssoNameForTag('pt-br')).toBe('Portuguese_Brazilian');
  });

  it('is case-, space- and underscore-insensitive and rejects unknown names', () => {
    expect(tagForMssoLanguage('  japanese ')).toBe('ja');
    expect(tagForMssoLanguage('GERMAN')).toBe('de');
    expect(tagForMssoLanguage('Klingon')).toBeUndefined();
    expect(tagForMssoLanguage('')).toBeUndefined();
    expect(mssoNameForTag('tlh')).toBeUndefined();
    expect(mssoNameForTag('not a tag')).toBeUndefined();
  });

  it('every table entry has a canonical tag, a distinct tag and round-trips', () => {
    const tags = MSSO_LANGUAGES.map((l) => l.tag);
    expect(new Set(tags).size).toBe(tags.length);
    for (const l of MSSO_LANGUAGES) {
      expect(canonicalLanguageTag(l.tag)).toBe(l.tag);
      expect(tagForMssoLanguage(l.name)).toBe(l.tag);
    }
  });
});

describe('medAsciiEncoding', () => {
  it('decodes English and Western European languages as Windows-1252, the others as UTF-8', () => {
    for (const w of ['English', 'German', 'French', 'Spanish', 'Italian', 'Portuguese', 'Portuguese_Brazilian', 'Dutch', 'Danish', 'Swedish', 'Norwegian', 'Finnish']) {
      expect(medAsciiEncoding(w), w).toBe('latin1');
    }
    for (const u of ['Japanese', 'Chinese', 'Korean', 'Russian', 'Greek', 'Czech', 'Hungarian', 'Polish', 'Bulgarian', 'Arabic', 'Persian', 'Latvian']) {
      expect(medAsciiEncoding(u), u).toBe('utf8');
    }
  });

  it('keeps the importer’s former list (the names it accepted before this table)', () => {
    for (const w of ['english', 'french', 'german', 'italian', 'spanish', 'portuguese', 'portuguese-brazilian', 'brazilian portuguese', 'dutch', 'danish', 'swedish', 'norwegian', 'finnish', 'icelandic', 'latin american spanish']) {
      expect(medAsciiEncoding(w), w).toBe('latin1');
    }
  });

  it('takes a BCP 47 tag (the --language override), regional variants like their language; unknown → UTF-8', () => {
    expect(medAsciiEncoding('de')).toBe('latin1');
    expect(medAsciiEncoding('de-AT')).toBe('latin1');
    expect(medAsciiEncoding('pt-BR')).toBe('latin1');
    expect(medAsciiEncoding('ja')).toBe('utf8');
    expect(medAsciiEncoding('zh-Hant')).toBe('utf8');
    expect(medAsciiEncoding('Klingon')).toBe('utf8');
    expect(medAsciiEncoding('')).toBe('utf8');
  });
});

describe('language tags', () => {
  it('canonicalises case and deprecated subtags', () => {
    expect(canonicalLanguageTag('PT-br')).toBe('pt-BR');
    expect(canonicalLanguageTag(' ja-jp ')).toBe('ja-JP');
    expect(canonicalLanguageTag('zh-hans-cn')).toBe('zh-Hans-CN');
    expect(canonicalLanguageTag('iw')).toBe('he');
    expect(canonicalLanguageTag('en')).toBe('en');
  });

  it('rejects malformed tags with a clear message', () => {
    expect(() => canonicalLanguageTag('en_US')).toThrow(LanguageTagError);
    expect(() => canonicalLanguageTag('en_US')).toThrow('"en_US" is not a well-formed BCP 47 language tag (BCP 47 separates subtags with "-": "en-US")');
    expect(parseLanguageTag('english please')).toEqual({ ok: false, message: '"english please" is not a well-formed BCP 47 language tag' });
    expect(parseLanguageTag('')).toEqual({ ok: false, message: 'a language tag is required (BCP 47, e.g. "en", "ja", "pt-BR")' });
    expect(parseLanguageTag('*').ok).toBe(false);
    expect(parseLanguageTag('a'.repeat(10_000))).toEqual({
      ok: false,
      message: `"${'a'.repeat(64)}…" is not a language tag: longer than 64 characters`,
    });
  });

  it('names languages for messages', () => {
    expect(languageDisplayName('ja')).toBe('Japanese');
    expect(languageDisplayName('de')).toBe('German');
    expect(languageDisplayName('pt-BR')).toBe('Brazilian Portuguese');
  });
});

describe('negotiateLanguage', () => {
  const hosted = ['en', 'ja', 'de'];

  it('takes the highest q-value among hosted languages', () => {
    expect(negotiateLanguage('de;q=0.5, ja;q=0.8, fr', hosted, 'en')).toBe('ja');
    expect(negotiateLanguage('fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5', hosted, 'en')).toBe('de');
    expect(negotiateLanguage('DE', hosted, 'en')).toBe('de');
  });

  it('falls back to the primary language when nothing hosted matches, or there is no header', () => {
    expect(negotiateLanguage('fr, it;q=0.5', hosted, 'en')).toBe('en');
    expect(negotiateLanguage(undefined, hosted, 'en')).toBe('en');
    expect(negotiateLanguage('', hosted, 'ja')).toBe('ja');
    expect(negotiateLanguage('   ', hosted, 'ja')).toBe('ja');
    expect(negotiateLanguage(';;;,,,===', hosted, 'en')).toBe('en');
  });

  it('matches a regional range to its language (ja-JP → ja)', () => {
    expect(negotiateLanguage('ja-JP', hosted, 'en')).toBe('ja');
    expect(negotiateLanguage('de-CH;q=0.9, en;q=0.8', hosted, 'en')).toBe('de');
  });

  it('matches a language range to a hosted regional tag only when the plain language is not hosted', () => {
    expect(negotiateLanguage('pt', ['en', 'pt-BR'], 'en')).toBe('pt-BR');
    expect(negotiateLanguage('pt', ['en', 'pt-BR', 'pt'], 'en')).toBe('pt');
    expect(negotiateLanguage('pt-BR', ['en', 'pt', 'pt-BR'], 'en')).toBe('pt-BR');
    expect(negotiateLanguage('pt-BR', ['en', 'pt'], 'en')).toBe('pt');
  });

  it('wildcards take the primary first; q=0 excludes', () => {
    expect(negotiateLanguage('*', hosted, 'ja')).toBe('ja');
    expect(negotiateLanguage('*, ja;q=0', hosted, 'ja')).toBe('en');
    expect(negotiateLanguage('ja;q=0, en;q=0', hosted, 'ja')).toBe('ja'); // everything excluded: the primary anyway
    expect(negotiateLanguage('de;q=0, *;q=0.1', ['de', 'en'], 'de')).toBe('en');
  });

  it('breaks ties by header order, then by hosted order', () => {
    expect(negotiateLanguage('de, ja', hosted, 'en')).toBe('de');
    expect(negotiateLanguage('ja, de', hosted, 'en')).toBe('ja');
  });

  it('accepts the header as a list of values and bounds a huge one', () => {
    expect(negotiateLanguage(['fr', 'ja;q=0.5'], hosted, 'en')).toBe('ja');
    const huge = `${'xx;q=0.1, '.repeat(50_000)}ja`;
    expect(negotiateLanguage(huge, hosted, 'en')).toBe('en'); // "ja" lies beyond the bound
    expect(negotiateLanguage(`ja, ${'x'.repeat(5000)}`, hosted, 'en')).toBe('ja');
  });
});

describe('selectLanguage', () => {
  const hosted = ['en', 'ja', 'de'];

  it('query > header > primary', () => {
    expect(selectLanguage({ query: 'de', header: 'ja' }, hosted, 'en')).toEqual({ kind: 'one', language: 'de', source: 'query' });
    expect(selectLanguage({ header: 'ja' }, hosted, 'en')).toEqual({ kind: 'one', language: 'ja', source: 'header' });
    expect(selectLanguage({ header: 'fr' }, hosted, 'en')).toEqual({ kind: 'one', language: 'en', source: 'primary' });
    expect(selectLanguage({}, hosted, 'en')).toEqual({ kind: 'one', language: 'en', source: 'primary' });
    expect(selectLanguage({ query: '', header: 'de' }, hosted, 'en')).toEqual({ kind: 'one', language: 'de', source: 'header' });
    expect(selectLanguage({ query: null, header: null }, hosted, 'ja')).toEqual({ kind: 'one', language: 'ja', source: 'primary' });
  });

  it('canonicalises the query and answers with the hosted spelling', () => {
    expect(selectLanguage({ query: 'JA' }, hosted, 'en')).toEqual({ kind: 'one', language: 'ja', source: 'query' });
    expect(selectLanguage({ query: 'pt-br' }, ['en', 'pt-BR'], 'en')).toEqual({ kind: 'one', language: 'pt-BR', source: 'query' });
  });

  it('a query naming an unhosted language is an error naming the hosted ones (primary first)', () => {
    expect(selectLanguage({ query: 'fr', header: 'de' }, ['ja', 'en', 'de'], 'en')).toEqual({ kind: 'not-hosted', requested: 'fr', hosted: ['en', 'ja', 'de'] });
    // No prefix matching for an explicit choice: the header is the lenient way.
    expect(selectLanguage({ query: 'ja-JP' }, hosted, 'en')).toEqual({ kind: 'not-hosted', requested: 'ja-JP', hosted });
  });

  it('a malformed query is invalid, with the reason', () => {
    const r = selectLanguage({ query: 'ja_JP' }, hosted, 'en');
    expect(r).toEqual({ kind: 'invalid', requested: 'ja_JP', message: expect.stringContaining('not a well-formed BCP 47 language tag') });
  });

  it('`*` means every hosted language, primary first', () => {
    expect(selectLanguage({ query: '*', header: 'de' }, ['ja', 'en', 'de'], 'en')).toEqual({ kind: 'all', languages: ['en', 'ja', 'de'], source: 'query' });
  });
});
