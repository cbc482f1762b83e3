// Search normalisation per language and script. The index (foldName) and the query side
// (foldQuery) must agree, so both are built from one fold here.
//
// What is folded, and why:
// - Everywhere: NFKC (full-width ＡＬＴ = ALT, half-width ｱﾚﾙｷﾞｰ = アレルギー, ligatures ﬁ = fi,
//   compatibility ideographs = unified ones); lower case (locale-aware; Turkish dotted and
//   dotless i both end as `i`, so a query typed on any keyboard meets); typographic
//   apostrophes and dashes to ASCII; whitespace collapsed.
// - Latin, Greek, Cyrillic, Arabic and Hebrew letters lose their combining marks (é = e,
//   ё = е, ά = α, harakat dropped); letters with no decomposition are spelled out:
//   ß → ss, œ → oe, æ → ae, ø → o, ł → l, đ/ð → d, þ → th, ı → i, final ς → σ; Arabic/Persian
//   letter variants (ی/ي, ک/ك, ى) meet and tatweel goes. Marks on other scripts are kept
//   (kana voicing marks, Indic vowel signs carry meaning).
// - German umlauts: a German name with ä/ö/ü is indexed twice, with the umlaut folded
//   (Übelkeit → ubelkeit) and transliterated (→ uebelkeit); the query is only folded. So
//   `ubelkeit`, `uebelkeit` and `Übelkeit` all meet, while words that merely contain
//   "ue/oe/ae" (queen, aerosol, does, Duodenum, Poesie) are left alone on both sides:
//   folding ue → u everywhere would also merge genuinely different words and would
//   change every English and Latin word a German user types. The cost is a second key
//   only for names that have an umlaut.
// - CJK (any text with Han, kana or Hangul): hiragana → katakana (users type either for
//   loanwords and lay words); the long-vowel mark ー and the dashes typed for it
//   (－ ‐ ｰ - … after kana) are dropped for matching, because their presence is the
//   most variable part of katakana spelling (JIS Z 8301 drops the final one:
//   コンピュータ/コンピューター, and typists hit a hyphen); the small ヵ/ヶ counters → カ
//   (ヶ月/カ月/か月); the katakana word separators ・ ゠ are dropped (ギラン・バレー =
//   ギランバレー); whitespace next to CJK characters is dropped (the scripts do not
//   separate words; Korean spacing is notoriously inconsistent); a few medical kanji
//   variants meet (頚 = 頸, 膣 = 腟, 彎 = 弯, 附 = 付).
//   NOT folded: ヴ/ブ and small/large kana (ァ/ア, ッ/ツ: different words, e.g. ファ/フア),
//   voiced/unvoiced kana, simplified/traditional Chinese (needs a dictionary, and a wrong
//   merge is worse than a miss), kanji/kana spellings of one word (嘔吐/おう吐).
import { tryCanonicalLanguageTag } from './languageTags.ts';

export type Script = 'latin' | 'cjk' | 'other';

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\u3005\u3006\u3007]/u;
const LATIN_LETTER = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;

/** 'cjk' if the text has any Han, kana or Hangul; 'other' if its letters are mostly of another non-Latin script; else 'latin'. */
export function scriptOf(text: string): Script {
  if (CJK_CHAR.test(text)) return 'cjk';
  let latin = 0;
  let other = 0;
  for (const ch of text) {
    if (!LETTER.test(ch)) continue;
    if (LATIN_LETTER.test(ch)) latin++;
    else other++;
  }
  return other > latin ? 'other' : 'latin';
}

const CJK_LANGUAGES = new Set(['ja', 'zh', 'ko', 'yue', 'cmn', 'wuu', 'hak', 'nan', 'gan', 'hsn', 'lzh']);
const CJK_SCRIPTS = new Set(['hani', 'hans', 'hant', 'jpan', 'kore', 'hira', 'kana', 'hrkt', 'hang']);

/** Whether a language tag is Chinese, Japanese or Korean (or written in one of their scripts). */
export function isCjkLanguage(tag: string): boolean {
  const subtags = (tryCanonicalLanguageTag(tag) ?? tag).toLowerCase().split('-');
  return CJK_LANGUAGES.has(subtags[0]!) || subtags.slice(1).some((s) => CJK_SCRIPTS.has(s));
}

const isGerman = (lang: string | undefined): boolean => lang !== undefined && /^(de|gsw)(-|$)/i.test(lang.trim());

// ---------------------------------------------------------------- the fold

// Apostrophe-likes (spacing accents such as ´ are not: NFKC makes them an accent on a space, dropped below).
const PRE = /[\u2018\u2019\u201B\u02BC\u0060\u2032]/g;

const LETTER_MAP: Record<string, string> = {
  ß: 'ss', œ: 'oe', æ: 'ae', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ŀ: 'l', ĸ: 'k',
  ς: 'σ',
  // Arabic/Persian: Persian yeh and keheh vs Arabic yeh and kaf, alef maksura; tatweel is decoration.
  '\u06CC': '\u064A', '\u06A9': '\u0643', '\u0649': '\u064A', '\u0640': '',
  // Medical kanji variants (the first of each pair is the common or extended form).
  頚: '頸', 膣: '腟', 彎: '弯', 附: '付',
};
const LETTER_RE = new RegExp(`[${Object.keys(LETTER_MAP).join('')}]`, 'gu');

// Combining marks on scripts where they are accents, not letters, and marks on nothing (a
// spacing accent such as ´ or ¨ is a space plus a mark after NFKC).
const STRIP_MARKS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\u0640\s]|^)\p{M}+/gu;

const DASHES = '\\-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2500\u2501\u30FC\uFF70';
const DASH_RE = new RegExp(`[${DASHES}]`);
const LATIN_DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g;
const KANA = /[\p{Script=Katakana}\p{Script=Hiragana}]/u;
const KANA_SEPARATORS = /[\u30FB\u30A0]/g;
const SPACE_BY_CJK = new RegExp(`\\s+(?=${CJK_CHAR.source})|(?<=${CJK_CHAR.source})\\s+`, 'gu');

/** Locale for lower-casing: the tag if Intl knows it, else none (plain Unicode lower case). */
function lower(s: string, lang: string | undefined): string {
  if (lang !== undefined) {
    try {
      return s.toLocaleLowerCase(lang);
    } catch {
      // malformed tag: fall through
    }
  }
  return s.toLowerCase();
}

function foldKana(s: string): string {
  let out = '';
  let afterKana = false;
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    // Hiragana (and its iteration marks) → katakana: a fixed offset of 0x60.
    if ((c >= 0x3041 && c <= 0x3096) || c === 0x309d || c === 0x309e) c += 0x60;
    let k = String.fromCodePoint(c);
    if (k === '\u30F5' || k === '\u30F6') k = 'カ';
    if (DASH_RE.test(k) && (afterKana || k === '\u30FC' || k === '\uFF70')) {
      // A long-vowel mark (or a dash typed for one after kana): dropped for matching.
      continue;
    }
    afterKana = KANA.test(k);
    out += k;
  }
  return out;
}

/** Separators, then spaces next to CJK, then kana; repeated while a step exposes work for another (bounded). */
function foldCjk(s: string): string {
  for (let i = 0; i < 4; i++) {
    const next = foldKana(s.replace(KANA_SEPARATORS, '').replace(SPACE_BY_CJK, '')).replace(SPACE_BY_CJK, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

function fold(text: string, lang: string | undefined): string {
  // NFKC makes ″ into ′′: apostrophe-likes are mapped after it.
  let s = text.normalize('NFKC').replace(PRE, "'");
  s = lower(s, lang);
  // Marks first, then letters: ǿ → ø → o in one pass (the fold must be idempotent).
  s = s.normalize('NFD').replace(STRIP_MARKS, '$1').normalize('NFC');
  s = s.replace(LETTER_RE, (ch) => LETTER_MAP[ch] ?? ch);
  if (CJK_CHAR.test(s)) s = foldCjk(s);
  return s.replace(LATIN_DASHES, '-').replace(/\s+/g, ' ').trim();
}

/**
 * The query-side key of a search text (see the header for what is folded).
 * `lang` is the language the text is in when known (its lower-casing rules); the result
 * meets every key `foldName` gives a name of any language.
 */
export function foldQuery(text: string, lang?: string): string {
  return fold(text, lang);
}

/**
 * The index keys of a name, first the one `foldQuery(name)` gives, then alternatives
 * (today: the umlaut-transliterated form of a German name with ä/ö/ü). Distinct, never empty.
 */
export function foldName(text: string, lang?: string): string[] {
  const base = fold(text, lang);
  if (!isGerman(lang)) return [base];
  const composed = text.normalize('NFC');
  if (!/[äöüÄÖÜ]/.test(composed)) return [base];
  const expanded = fold(
    composed.replace(/[äöüÄÖÜ]/g, (ch) => ({ ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' })[ch]!),
    lang,
  );
  return expanded === base ? [base] : [base, expanded];
}

// ---------------------------------------------------------------- CJK n-grams

/**
 * Distinct character n-grams of a folded text (code points, not UTF-16 units), within
 * each space-separated segment; a segment shorter than n is its own gram, so a one-
 * character text gives its unigram. Pass text folded by foldName/foldQuery.
 */
export function cjkGrams(folded: string, n = 2): string[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError('n must be a positive integer');
  const out = new Set<string>();
  for (const segment of folded.split(' ')) {
    const cps = Array.from(segment);
    if (cps.length === 0) continue;
    if (cps.length < n) {
      out.add(segment);
      continue;
    }
    for (let i = 0; i + n <= cps.length; i++) out.add(cps.slice(i, i + n).join(''));
  }
  return [...out];
}

/** Keys to index a folded name under: its unigrams and bigrams (so one-character queries find it too). */
export function cjkIndexGrams(folded: string): string[] {
  return [...new Set([...cjkGrams(folded, 1), ...cjkGrams(folded, 2)])];
}

/**
 * Keys a folded query looks up: its bigrams (a one-character query: its unigram). Every
 * name whose folded form contains the folded query holds all of them in cjkIndexGrams.
 */
export function cjkQueryGrams(folded: string): string[] {
  return Array.from(folded.replace(/ /g, '')).length <= 1 ? cjkGrams(folded, 1) : cjkGrams(folded, 2);
}

// ---------------------------------------------------------------- CJK ranking

/** Code points compared by scoreCjk*: MedDRA names are at most 100 characters; this bounds O(n·m). */
export const MAX_CJK_SCORE_LENGTH = 256;

/** Length (in code points) of the longest common substring of a and b. */
export function longestCommonSubstring(a: string, b: string): number {
  const x = Array.from(a).slice(0, MAX_CJK_SCORE_LENGTH);
  const y = Array.from(b).slice(0, MAX_CJK_SCORE_LENGTH);
  let best = 0;
  let prev = new Uint16Array(y.length + 1);
  let cur = new Uint16Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1]! + 1 : 0;
      if (cur[j]! > best) best = cur[j]!;
    }
    [prev, cur] = [cur, prev];
  }
  return best;
}

/**
 * Score in [0, 1] of a folded name for a folded CJK query. 1: equal. [0.6, 1): the name
 * contains the whole query, higher when the query covers more of the name and at its
 * start. [0, 0.55): partial overlap by longest common substring and bigram coverage —
 * so any name containing the whole query ranks above every partial one.
 */
export function scoreCjkFolded(query: string, name: string): number {
  const q = Array.from(query).slice(0, MAX_CJK_SCORE_LENGTH).join('');
  const n = Array.from(name).slice(0, MAX_CJK_SCORE_LENGTH).join('');
  const ql = Array.from(q).length;
  const nl = Array.from(n).length;
  if (ql === 0 || nl === 0) return 0;
  if (q === n) return 1;
  const at = n.indexOf(q);
  if (at >= 0) return 0.6 + 0.35 * (ql / nl) + (at === 0 ? 0.04 : 0);
  const lcs = longestCommonSubstring(q, n);
  if (lcs === 0) return 0;
  // A query gram (one or two code points, never a space) is among the name's cjkIndexGrams
  // exactly when the name contains it: tested so, without building the name's gram set.
  const qGrams = cjkQueryGrams(q);
  const coverage = qGrams.filter((g) => n.includes(g)).length / qGrams.length;
  return 0.55 * (0.5 * (lcs / ql) + 0.3 * coverage + 0.2 * (lcs / nl)) * 0.999;
}

/** scoreCjkFolded after folding both sides (the fold is idempotent, so folded input is fine). */
export function scoreCjkMatch(query: string, name: string, lang?: string): number {
  return scoreCjkFolded(foldQuery(query, lang), foldQuery(name, lang));
}
