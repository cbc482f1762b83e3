// The narrative endpoints code English text only (their lexicon, cues and calibration are
// English). A narrative in another language is refused with 422 LANGUAGE_NOT_SUPPORTED rather
// than answered with silent, wrong English-only results (issue 28, item 6). Detection is cheap
// and conservative: a text in a non-Latin script (CJK, Cyrillic, Greek, Arabic …), or a Latin
// text whose function words are clearly of another language; anything undecided is English.
import { scriptOf } from './languageText.ts';
import { DomainError } from './errors.ts';

/** The narrative languages supported (BCP 47). */
export const NARRATIVE_LANGUAGES = ['en'] as const;

const STOPWORDS: Record<string, Set<string>> = {
  en: new Set('the and of with was were to in on a an is are after had has have his her he she patient this that for not no'.split(' ')),
  de: new Set('der die das und mit nicht ist ein eine einem einen nach bei wurde wurden sich auf von zu im dem des den keine'.split(' ')),
  fr: new Set('le la les et des avec une est du au aux pour dans sur pas été il elle ne après un'.split(' ')),
  es: new Set('el los las y con una del que por para en se fue tras sin al no un'.split(' ')),
  it: new Set('il lo gli e con una del della che per di si dopo non è un nel alla'.split(' ')),
  pt: new Set('o os as e com uma do da que por para em foi após não um no na'.split(' ')),
  nl: new Set('de het een en met van niet is werd na bij op voor zijn'.split(' ')),
};

/** Words examined: a narrative's first ones say what language it is in. */
const SAMPLE_WORDS = 400;

/** The language a narrative is detected in (BCP 47, or a script name), 'en' when undecided. */
export function narrativeLanguage(text: string): string {
  const sample = text.slice(0, 4000);
  const script = scriptOf(sample);
  if (script === 'cjk') return /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sample) ? 'ja' : /\p{Script=Hangul}/u.test(sample) ? 'ko' : 'zh';
  if (script === 'other') return 'und';
  const words = (sample.toLowerCase().match(/\p{L}+/gu) ?? []).slice(0, SAMPLE_WORDS);
  const hits: Record<string, number> = {};
  for (const w of words) for (const [lang, set] of Object.entries(STOPWORDS)) if (set.has(w)) hits[lang] = (hits[lang] ?? 0) + 1;
  const en = hits.en ?? 0;
  let best = 'en';
  let bestHits = en;
  for (const [lang, n] of Object.entries(hits)) if (lang !== 'en' && n > bestHits) [best, bestHits] = [lang, n];
  // Clearly another language: at least three of its function words and twice English's.
  return best !== 'en' && bestHits >= 3 && bestHits >= 2 * en ? best : 'en';
}

/** Refuses a narrative not in a supported language: 422 LANGUAGE_NOT_SUPPORTED naming what is supported. */
export function requireNarrativeLanguage(text: string): void {
  const lang = narrativeLanguage(text);
  if ((NARRATIVE_LANGUAGES as readonly string[]).includes(lang)) return;
  throw new DomainError(
    'LANGUAGE_NOT_SUPPORTED',
    `The narrative appears to be in ${lang === 'und' ? 'a non-Latin script' : `language '${lang}'`}; the narrative endpoints code English narratives only (supported: ${NARRATIVE_LANGUAGES.join(', ')}). Names in answers follow lang / Accept-Language; the text itself must be English.`,
    undefined,
    { detectedLanguage: lang, supportedLanguages: [...NARRATIVE_LANGUAGES] },
  );
}
