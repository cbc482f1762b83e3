// Search normalisation per language and script, on real German, French and Japanese
// medical words, plus properties every fold must keep (idempotent, NFKC-invariant, the
// query side meets the index side).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cjkGrams,
  cjkIndexGrams,
  cjkQueryGrams,
  foldName,
  foldQuery,
  isCjkLanguage,
  longestCommonSubstring,
  scoreCjkFolded,
  scoreCjkMatch,
  scriptOf,
} from '../../src/domain/languageText.ts';

/** Whether a query meets a name: its fold equals, or is contained in, one of the name's keys. */
const meets = (query: string, name: string, lang: string) => foldName(name, lang).some((k) => k.includes(foldQuery(query, lang)));

describe('Latin-script folding', () => {
  it('folds case and diacritics: Übelkeit, Hämoglobin, Ménière', () => {
    expect(foldQuery('Übelkeit', 'de')).toBe('ubelkeit');
    expect(foldQuery('Hämoglobin erniedrigt', 'de')).toBe('hamoglobin erniedrigt');
    expect(foldQuery('  Morbus   Ménière ', 'de')).toBe('morbus meniere');
    expect(foldQuery('Kopfschmerzen', 'de')).toBe('kopfschmerzen');
  });

  it('ubelkeit, uebelkeit and Übelkeit all meet the German name', () => {
    for (const q of ['ubelkeit', 'uebelkeit', 'Übelkeit', 'ÜBELKEIT', 'Ubelkeit', 'Uebelkeit']) expect(meets(q, 'Übelkeit', 'de'), q).toBe(true);
    expect(foldName('Übelkeit', 'de')).toEqual(['ubelkeit', 'uebelkeit']);
    expect(meets('haemoglobin', 'Hämoglobin erniedrigt', 'de')).toBe(true);
    expect(meets('hamoglobin', 'Hämoglobin erniedrigt', 'de')).toBe(true);
    expect(meets('Schwindelgefuehl', 'Schwindelgefühl', 'de')).toBe(true);
    expect(meets('Hoergeraet', 'Hörgerät', 'de')).toBe(true);
  });

  it('leaves words that merely contain ue/oe/ae alone (one key; queries unchanged)', () => {
    for (const w of ['Queen', 'Aerosol', 'does', 'Duodenum', 'Poesie', 'Israel']) {
      expect(foldName(w, 'de'), w).toEqual([w.toLowerCase()]);
      expect(foldQuery(w, 'de')).toBe(w.toLowerCase());
      expect(meets(w, w, 'de')).toBe(true);
    }
    expect(meets('aerosol', 'Aerosol-Inhalation', 'de')).toBe(true);
    // The transliteration is German: a French or English name gets no second key.
    expect(foldName('Ménière', 'fr')).toEqual(['meniere']);
    expect(foldName('Übelkeit', 'en')).toEqual(['ubelkeit']);
  });

  it('ß and ss meet (either case, and capital ẞ)', () => {
    expect(foldQuery('Blutgefäßerkrankung', 'de')).toBe('blutgefasserkrankung');
    expect(meets('Blutgefässerkrankung', 'Blutgefäßerkrankung', 'de')).toBe(true);
    expect(meets('blutgefaesserkrankung', 'Blutgefäßerkrankung', 'de')).toBe(true);
    expect(foldQuery('GROẞ', 'de')).toBe('gross');
    expect(foldQuery('STRASSE', 'de')).toBe(foldQuery('Straße', 'de'));
  });

  it('French ligatures and accents: œdème, cæcum', () => {
    expect(foldQuery('Œdème périphérique', 'fr')).toBe('oedeme peripherique');
    expect(meets('oedeme', 'Œdème', 'fr')).toBe(true);
    expect(meets('Œdème', 'Oedème', 'fr')).toBe(true);
    expect(foldQuery('cæcum', 'fr')).toBe('caecum');
    expect(foldQuery('Nausées et vomissements', 'fr')).toBe('nausees et vomissements');
  });

  it('typographic apostrophes and dashes meet the ASCII ones', () => {
    expect(foldQuery('Ménière’s disease')).toBe("meniere's disease");
    expect(foldQuery('Guillain–Barré-Syndrom', 'de')).toBe('guillain-barre-syndrom');
  });

  it('Turkish dotted and dotless i meet, whatever the keyboard', () => {
    const name = 'İLAÇ ALERJİSİ';
    expect(foldQuery(name, 'tr')).toBe('ilac alerjisi');
    expect(foldQuery('ilaç alerjısı', 'tr')).toBe('ilac alerjisi');
    expect(foldQuery(name)).toBe('ilac alerjisi');
  });

  it('other scripts: Greek accents and final sigma, Cyrillic ё, Arabic/Persian letter variants', () => {
    expect(foldQuery('Ναυτία', 'el')).toBe('ναυτια');
    expect(foldQuery('ΠΟΝΟΚΈΦΑΛΟΣ', 'el')).toBe(foldQuery('πονοκέφαλος', 'el'));
    expect(foldQuery('Тошнота', 'ru')).toBe('тошнота');
    expect(foldQuery('Ёж', 'ru')).toBe('еж');
    expect(foldQuery('سردرد', 'fa')).toBe(foldQuery('سردرد', 'ar'));
    expect(foldQuery('بیماری', 'fa')).toBe(foldQuery('بيماري', 'ar'));
  });
});

describe('CJK folding', () => {
  it('NFKC: full-width Latin and digits, lower-cased', () => {
    expect(foldQuery('ＡＬＴ増加', 'ja')).toBe('alt増加');
    expect(foldQuery('ALT増加', 'ja')).toBe('alt増加');
    expect(foldQuery('Ｃ－反応性蛋白増加', 'ja')).toBe('c-反応性蛋白増加');
    expect(foldQuery('ＣＯＶＩＤ－１９', 'ja')).toBe('covid-19');
  });

  it('half-width kana, hiragana and the long-vowel mark variants meet アレルギー', () => {
    const key = foldName('アレルギー', 'ja');
    expect(key).toEqual(['アレルギ']);
    for (const q of ['ｱﾚﾙｷﾞｰ', 'アレルギー', 'あれるぎー', 'アレルギ－', 'アレルギ‐', 'アレルギ-', 'アレルギ', 'ｱﾚﾙｷﾞ-']) {
      expect(foldQuery(q, 'ja'), q).toBe('アレルギ');
    }
    expect(meets('あれるぎー', 'アレルギー性鼻炎', 'ja')).toBe(true);
    expect(meets('ｱﾚﾙｷﾞｰ性', 'アレルギー性皮膚炎', 'ja')).toBe(true);
  });

  it('keeps voicing and small kana distinct (ヴ/ブ, ア/ァ, ツ/ッ are not folded)', () => {
    expect(foldQuery('ヴ')).not.toBe(foldQuery('ブ'));
    expect(foldQuery('ファ')).not.toBe(foldQuery('フア'));
    expect(foldQuery('ギ')).not.toBe(foldQuery('キ'));
    expect(foldQuery('ッ')).not.toBe(foldQuery('ツ'));
  });

  it('katakana separators, counters, spaces and medical kanji variants', () => {
    expect(foldQuery('ギラン・バレー症候群', 'ja')).toBe(foldQuery('ギランバレー症候群', 'ja'));
    expect(foldQuery('ギラン･バレー症候群', 'ja')).toBe('ギランバレ症候群');
    expect(foldQuery('3ヶ月', 'ja')).toBe(foldQuery('3か月', 'ja'));
    expect(foldQuery('3ヵ月', 'ja')).toBe(foldQuery('3カ月', 'ja'));
    expect(foldQuery('肝機能 障害', 'ja')).toBe('肝機能障害');
    expect(foldQuery('肝機能　障害', 'ja')).toBe('肝機能障害'); // ideographic space
    expect(foldQuery('頚部痛', 'ja')).toBe(foldQuery('頸部痛', 'ja'));
    expect(foldQuery('膣出血', 'ja')).toBe(foldQuery('腟出血', 'ja'));
    expect(foldQuery('Covid 19 肺炎', 'ja')).toBe('covid 19肺炎');
  });

  it('Han-only words pass unchanged: 悪心, 頭痛, 肝機能障害', () => {
    for (const w of ['悪心', '頭痛', '肝機能障害', '発熱性好中球減少症', '嘔吐']) expect(foldQuery(w, 'ja')).toBe(w);
  });

  it('Korean: NFKC, spaces dropped', () => {
    expect(foldQuery('두통', 'ko')).toBe('두통');
    expect(foldQuery('간 기능 이상', 'ko')).toBe('간기능이상');
  });
});

describe('scriptOf and isCjkLanguage', () => {
  it('classifies text by script', () => {
    expect(scriptOf('Übelkeit')).toBe('latin');
    expect(scriptOf('œdème')).toBe('latin');
    expect(scriptOf('悪心')).toBe('cjk');
    expect(scriptOf('ｱﾚﾙｷﾞｰ')).toBe('cjk');
    expect(scriptOf('ALT増加')).toBe('cjk');
    expect(scriptOf('두통')).toBe('cjk');
    expect(scriptOf('Тошнота')).toBe('other');
    expect(scriptOf('Ναυτία')).toBe('other');
    expect(scriptOf('COVID-19')).toBe('latin');
    expect(scriptOf('123')).toBe('latin');
    expect(scriptOf('')).toBe('latin');
  });

  it('knows the CJK languages', () => {
    for (const t of ['ja', 'ja-JP', 'zh', 'zh-Hant-TW', 'ko', 'KO-kr', 'yue', 'und-Hani']) expect(isCjkLanguage(t), t).toBe(true);
    for (const t of ['en', 'de', 'pt-BR', 'ru', 'el', 'jam']) expect(isCjkLanguage(t), t).toBe(false);
  });
});

describe('CJK n-grams', () => {
  it('bigrams by code point, unigrams for a one-character text', () => {
    expect(cjkGrams('悪心')).toEqual(['悪心']);
    expect(cjkGrams('肝機能障害')).toEqual(['肝機', '機能', '能障', '障害']);
    expect(cjkGrams('癌')).toEqual(['癌']);
    expect(cjkGrams('𠮟責')).toEqual(['𠮟責']); // a supplementary-plane kanji is one character
    expect(cjkGrams('alt増加')).toEqual(['al', 'lt', 't増', '増加']);
    expect(cjkGrams('covid 19肺炎')).toEqual(['co', 'ov', 'vi', 'id', '19', '9肺', '肺炎']);
    expect(cjkGrams('頭痛', 1)).toEqual(['頭', '痛']);
    expect(() => cjkGrams('x', 0)).toThrow(RangeError);
  });

  it('query grams: bigrams, or the unigram of a one-character query', () => {
    expect(cjkQueryGrams('頭痛')).toEqual(['頭痛']);
    expect(cjkQueryGrams('痛')).toEqual(['痛']);
    expect(cjkIndexGrams('頭痛')).toEqual(['頭', '痛', '頭痛']);
  });

  it('every name containing the query holds all its query grams (property)', () => {
    const kana = fc.constantFrom(...'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワンガギグゲゴー'.split(''));
    const han = fc.constantFrom(...'肝機能障害頭痛悪心嘔吐発熱性好中球減少症貧血増加低下炎'.split(''));
    const text = fc.array(fc.oneof(kana, han, fc.constantFrom('a', 'b', '1', ' ')), { minLength: 1, maxLength: 20 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (raw, i, j) => {
        const name = foldName(raw, 'ja')[0]!;
        const cps = Array.from(name);
        const start = i % (cps.length + 1);
        const end = start + (j % (cps.length - start + 1));
        const query = foldQuery(cps.slice(start, end).join(''), 'ja');
        if (query === '' || !name.includes(query)) return; // a slice may end in a space, which the fold trims
        const index = new Set(cjkIndexGrams(name));
        for (const g of cjkQueryGrams(query)) expect(index.has(g), `${g} of ${query} in ${name}`).toBe(true);
      }),
      { numRuns: 500, seed: 28 },
    );
  });
});

describe('CJK ranking', () => {
  const names = ['肝機能障害', '肝機能検査異常', '肝障害', '腎機能障害', '機能性ディスペプシア', '肝機能障害の増悪'];

  it('ranks names containing the whole query above partial overlaps', () => {
    const ranked = [...names].sort((a, b) => scoreCjkMatch('肝機能障害', b) - scoreCjkMatch('肝機能障害', a));
    expect(ranked.slice(0, 2)).toEqual(['肝機能障害', '肝機能障害の増悪']);
    expect(scoreCjkMatch('肝機能障害', '肝機能障害')).toBe(1);
    const contains = scoreCjkMatch('肝機能障害', '肝機能障害の増悪');
    for (const n of ['肝機能検査異常', '肝障害', '腎機能障害', '機能性ディスペプシア']) expect(scoreCjkMatch('肝機能障害', n), n).toBeLessThan(contains);
    // Among partial overlaps, the longer common run ranks higher.
    expect(scoreCjkMatch('肝機能障害', '腎機能障害')).toBeGreaterThan(scoreCjkMatch('肝機能障害', '肝障害'));
    expect(scoreCjkMatch('肝機能障害', '糖尿病')).toBe(0);
  });

  it('prefers the shorter name and the match at the start among containing names', () => {
    expect(scoreCjkMatch('頭痛', '頭痛')).toBeGreaterThan(scoreCjkMatch('頭痛', '緊張型頭痛'));
    expect(scoreCjkMatch('頭痛', '頭痛発作')).toBeGreaterThan(scoreCjkMatch('頭痛', '片側頭痛'));
  });

  it('folds before scoring: full-width, half-width kana and hiragana queries score like the stored form', () => {
    expect(scoreCjkMatch('ＡＬＴ増加', 'ALT増加')).toBe(1);
    expect(scoreCjkMatch('ｱﾚﾙｷﾞｰ', 'アレルギー')).toBe(1);
    expect(scoreCjkMatch('あれるぎー', 'アレルギー性鼻炎')).toBeGreaterThan(0.6);
  });

  it('contains always beats partial (property)', () => {
    const ch = fc.constantFrom(...'肝機能障害頭痛悪心嘔吐発熱アレルギ'.split(''));
    const s = fc.array(ch, { minLength: 1, maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(s, s, s, (q, pre, other) => {
        const containing = scoreCjkFolded(q, pre + q);
        const partial = other.includes(q) ? 0 : scoreCjkFolded(q, other);
        expect(containing).toBeGreaterThanOrEqual(0.6);
        expect(partial).toBeLessThan(0.55);
        expect(containing).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300, seed: 28 },
    );
  });

  it('longest common substring counts code points and bounds its work', () => {
    expect(longestCommonSubstring('肝機能障害', '腎機能障害')).toBe(4);
    expect(longestCommonSubstring('𠮟責', '𠮟')).toBe(1);
    expect(longestCommonSubstring('x'.repeat(100_000), 'x'.repeat(100_000))).toBe(256);
  });
});

describe('fold properties', () => {
  const words = [
    'Übelkeit', 'Kopfschmerzen', 'Hämoglobin erniedrigt', 'Blutgefäßerkrankung', 'Œdème', 'Ménière’s disease', 'Nausea',
    '悪心', '頭痛', 'ＡＬＴ増加', 'ｱﾚﾙｷﾞｰ', 'アレルギー', '肝機能障害', 'ギラン・バレー症候群', 'あれるぎー', '두통', 'Ναυτία', 'Тошнота',
    'İLAÇ', 'Ǿre', 'ǅemal', 'ﬁbrose', 'Ⅸ', '3ヶ月', 'ﾊﾟﾙｽ', 'ｶﾞﾝﾏ-GTP増加',
  ];
  const anyText = fc.oneof(fc.constantFrom(...words), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.fullUnicodeString({ maxLength: 30 }));
  const langs = fc.constantFrom('en', 'de', 'fr', 'ja', 'zh', 'ko', 'tr', 'el', undefined);

  it('is idempotent (query and every name key)', () => {
    fc.assert(
      fc.property(anyText, langs, (t, lang) => {
        const q = foldQuery(t, lang);
        expect(foldQuery(q, lang)).toBe(q);
        for (const k of foldName(t, lang)) expect(foldQuery(k, lang)).toBe(k);
      }),
      { numRuns: 2000, seed: 28 },
    );
  });

  it('gives the same keys to every Unicode normal form of a text (NFC, NFD, NFKC, NFKD)', () => {
    fc.assert(
      fc.property(anyText, langs, (t, lang) => {
        const k = foldName(t, lang);
        for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD'] as const) expect(foldName(t.normalize(form), lang)).toEqual(k);
      }),
      { numRuns: 1000, seed: 28 },
    );
  });

  it('the query fold of a name is its first key, and a name always meets itself', () => {
    fc.assert(
      fc.property(anyText, langs, (t, lang) => {
        const keys = foldName(t, lang);
        expect(keys[0]).toBe(foldQuery(t, lang));
        expect(new Set(keys).size).toBe(keys.length);
        expect(meets(t, t, lang ?? 'en')).toBe(true);
      }),
      { numRuns: 1000, seed: 28 },
    );
  });

  it('is case-insensitive for Latin-script words', () => {
    fc.assert(
      fc.property(fc.constantFrom('Übelkeit', 'Kopfschmerzen', 'Hämoglobin', 'Œdème', 'Nausées'), (w) => {
        expect(foldQuery(w.toUpperCase(), 'de')).toBe(foldQuery(w.toLowerCase(), 'de'));
      }),
    );
  });
});
