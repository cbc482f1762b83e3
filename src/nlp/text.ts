// Tokenisation with exact offsets, spelling normalisation (British/American,
// frequent misspellings) and stemming (Porter2, from wink-porter2-stemmer), plus
// the canonical "matching form" of a word that vocabulary names and narratives share.
import stemWord from 'wink-porter2-stemmer';
import { CANONICAL_STEMS, IRREGULAR_FORMS, KEY_STOPWORDS, MISSPELLINGS } from './lexicon.ts';

export interface Token {
  /** Verbatim text: `source.slice(start, end)`. */
  text: string;
  start: number;
  end: number;
  /** Lower-case, accents stripped, possessive "'s" removed. */
  lower: string;
  /** Spelling-normalised form of `lower` (oedema → edema, diarhea → diarrhea, hospitalised → hospitalized). */
  norm: string;
  /** Porter2 stem of `norm` (irregular plurals folded first). */
  stem: string;
  /** Matching form: the stem, or its synonym class (elevated/increased → "+inc", liver → "hepat"). */
  canon: string;
  /** Written in capitals (two letters or more): an abbreviation cue ("MI", "ALT"). */
  upper: boolean;
  /** A function word left out of matching keys. */
  stop: boolean;
  numeric: boolean;
  /** A hard boundary (punctuation, line break, table gap) lies between this token and the previous one. */
  breakBefore: boolean;
  /** The characters between the previous token (or the range start) and this one. */
  gapBefore: string;
}

const TOKEN_RE = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;
// Hard boundary inside a gap: sentence or list punctuation, brackets, line breaks,
// a tab or a spaced dash; in table rows also a column gap of 3+ spaces (in prose such
// runs are left-overs of line wrapping: "upper      respiratory tract infection").
const BREAK_RE = /[.,;:!?()[\]{}|•*"“”<>=+%/\n\t]|\s-\s|[–—]/;
const COLUMN_GAP_RE = / {3,}/;

export interface TokenizeOptions {
  /** Treat runs of 3+ spaces as column boundaries (table rows). Default false. */
  columns?: boolean;
}

export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** British → American spelling and known misspellings, on a folded lower-case word. */
export function normalizeSpelling(word: string): string {
  let w = MISSPELLINGS.get(word) ?? word;
  if (w.length >= 5) w = w.replace(/ae/g, 'e').replace(/oe/g, 'e');
  if (w.length >= 6) w = w.replace(/our(s?)$/, 'or$1');
  if (w.length >= 7) w = w.replace(/is(e|ed|es|ing|ation|ations)$/, 'iz$1').replace(/ys(e|ed|es|ing)$/, 'yz$1');
  if (w.length >= 5) w = w.replace(/tre(s?)$/, 'ter$1');
  if (w.includes('sulph')) w = w.replace(/sulph/g, 'sulf');
  return w;
}

interface WordForms {
  norm: string;
  stem: string;
  canon: string;
}

const cache = new Map<string, WordForms>();
const CACHE_LIMIT = 300_000;

/**
 * Longest word that is stemmed. Porter2's cost grows with the square of a word's length
 * (a 100k-letter "word" took a minute); no clinical term has a 40-letter word, so a longer
 * one is passed through as it is (and matches nothing).
 */
export const MAX_STEM_LENGTH = 40;

/** Normalised, stemmed and canonical forms of one folded word (memoised). */
export function wordForms(lower: string): WordForms {
  let f = cache.get(lower);
  if (f) return f;
  const norm = lower.length > MAX_STEM_LENGTH ? lower : normalizeSpelling(lower);
  let stem: string;
  if (norm.length > MAX_STEM_LENGTH) stem = norm;
  else if (/^\d+$/.test(norm)) stem = norm.replace(/^0+(?=\d)/, '');
  else if (norm === 'ii') stem = '2';
  else if (norm === 'iii') stem = '3';
  else {
    const base = IRREGULAR_FORMS.get(norm) ?? norm;
    // Inflammation names keep their "-itis" (Porter2 would make "hepatitis" = "hepatic" = "hepat").
    if (/itis$/.test(base)) stem = base;
    else if (/itides$/.test(base)) stem = base.replace(/itides$/, 'itis');
    else stem = base.length <= 3 ? base : stemWord(base);
    // Keep "irritability" apart from "irritation" (Porter2 gives both "irrit"), and
    // adverbs apart from their adjectives ("generally" ≠ "generalised", "aggressively").
    if (/[ai]bility$/.test(base)) stem += '+abil';
    else if (base.length >= 6 && /(?:[^m]ally|ively|ously|ently|antly|ately|edly|ingly|fully|ily)$/.test(base)) stem += '+ly';
    // Porter2 leaves "metastasis" (metastasi) and "metastases" (metastas) apart.
    if (stem.length > 5 && stem.endsWith('si')) stem = stem.slice(0, -1);
  }
  const canon = CANONICAL_STEMS.get(stem) ?? stem;
  f = { norm, stem, canon };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(lower, f);
  return f;
}

export interface RawForms extends WordForms {
  lower: string;
  upper: boolean;
  stop: boolean;
  numeric: boolean;
}

const rawCache = new Map<string, RawForms>();

/** Everything about a token that depends on its text alone (memoised). */
function rawForms(raw: string): RawForms {
  let r = rawCache.get(raw);
  if (r) return r;
  let lower = fold(raw);
  if (lower.endsWith("'s") || lower.endsWith('’s')) lower = lower.slice(0, -2);
  lower = lower.replace(/’/g, "'");
  const forms = wordForms(lower);
  r = {
    ...forms,
    lower,
    upper: raw.length >= 2 && /^[\p{Lu}\p{N}]+$/u.test(raw) && /\p{Lu}/u.test(raw),
    stop: KEY_STOPWORDS.has(lower),
    numeric: /^\d+$/.test(lower),
  };
  if (rawCache.size >= CACHE_LIMIT) rawCache.clear();
  rawCache.set(raw, r);
  return r;
}

/**
 * The words of a short phrase (a term name) as memoised forms, without offsets or gaps:
 * the fast path for building a vocabulary. Same canons as `tokenize` gives for the phrase.
 */
const PHRASE_RE = new RegExp(TOKEN_RE.source, 'gu');

export function phraseWords(text: string): RawForms[] {
  const out: RawForms[] = [];
  const re = PHRASE_RE;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  let prevEnd = 0;
  let adjust = -1;
  while ((m = re.exec(text)) !== null) {
    const w = rawForms(m[0]);
    if (adjust >= 0) {
      const gap = text.slice(prevEnd, m.index);
      // "high/low X" as tokenize reads it (see LEVEL_LITERAL).
      if (gap === ' ' || !BREAK_RE.test(gap) ? !LEVEL_LITERAL.has(w.lower) : true) {
        const prev = out[adjust]!;
        out[adjust] = { ...prev, canon: prev.lower === 'high' ? '+inc' : '+dec' };
      }
      adjust = -1;
    }
    if (w.lower === 'high' || w.lower === 'low') adjust = out.length;
    out.push(w);
    prevEnd = m.index + m[0].length;
  }
  if (adjust >= 0) {
    const prev = out[adjust]!;
    out[adjust] = { ...prev, canon: prev.lower === 'high' ? '+inc' : '+dec' };
  }
  return out;
}

/** Splits `text[from, to)` into word tokens with absolute offsets. Deterministic and allocation-light. */
export function tokenize(text: string, from = 0, to = text.length, opts: TokenizeOptions = {}): Token[] {
  const columns = opts.columns ?? false;
  const out: Token[] = [];
  const slice = from === 0 && to === text.length ? text : text.slice(from, to);
  TOKEN_RE.lastIndex = 0;
  let prevEnd = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN_RE.exec(slice)) !== null) {
    const raw = m[0];
    const start = from + m.index;
    const gap = slice.slice(prevEnd, m.index);
    prevEnd = m.index + raw.length;
    const w = rawForms(raw);
    out.push({
      text: raw,
      start,
      end: start + raw.length,
      lower: w.lower,
      norm: w.norm,
      stem: w.stem,
      canon: w.canon,
      upper: w.upper,
      stop: w.stop,
      numeric: w.numeric,
      breakBefore: out.length === 0 || (gap !== ' ' && (BREAK_RE.test(gap) || (columns && COLUMN_GAP_RE.test(gap)))),
      gapBefore: gap,
    });
  }
  // "high/low X" = "X increased/decreased" ("low platelet counts"), except in fixed
  // phrases such as "high density lipoprotein" or "low dose".
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (t.lower !== 'high' && t.lower !== 'low') continue;
    const next = out[i + 1];
    if (next && !next.breakBefore && LEVEL_LITERAL.has(next.lower)) continue;
    t.canon = t.lower === 'high' ? '+inc' : '+dec';
  }
  return out;
}

const LEVEL_LITERAL = new Set(['density', 'dose', 'doses', 'dosage', 'grade', 'risk', 'molecular', 'frequency', 'pitched', 'output', 'altitude', 'energy', 'intensity', 'fat']);

/** Canonical forms of the content words of a phrase, in order (used for vocabulary names). */
export function contentCanons(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  for (const t of tokens) if (!t.stop) out.push(t.canon);
  return out;
}

/** Order-free matching key of canonical forms: "ALT elevation" and "elevated ALT" share it. */
export function bagKey(canons: readonly string[]): string {
  return canons.length === 1 ? (canons[0] as string) : [...canons].sort().join(' ');
}

/** Damerau–Levenshtein (optimal string alignment) distance, or `max + 1` once it exceeds `max`. */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  const d = prev[m] as number;
  return d > max ? max + 1 : d;
}
