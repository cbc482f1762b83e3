// The in-memory vocabulary of one release: every PT and LLT name indexed by its
// order-free matching key, plus lay-term and abbreviation aliases, an inverted
// index for partial matching and a typo index. Built once per release and cached
// by the caller; every engine function is a pure function over it.
import { ABBREVIATIONS, CLINICAL_SYNONYMS, COMMON_WORDS, LAY_TERMS, type AbbreviationEntry } from './lexicon.ts';
import { bagKey, boundedEditDistance, contentCanons, fold, phraseWords, tokenize, type RawForms, type Token } from './text.ts';

/** What a vocabulary is built from: a release's PT/LLT names and grade definitions (loaded by src/assessment). */
export interface VocabularySource {
  terms: VocabularyTerm[];
  grades: GradeDefinitions;
}

export interface VocabularyTerm {
  code: number;
  name: string;
  level: 'PT' | 'LLT';
  /** The PT the term belongs to (a PT's own code for a PT). */
  ptCode: number;
  /** LLT currency; PTs are always current. */
  current: boolean;
}

/** CTCAE-style grade definitions per term code: grade 1–5 → text, grade 0 → the term's definition. */
export type GradeDefinitions = Map<number, Record<number, string>>;

export type AliasKind = 'lay' | 'abbreviation' | 'variant';

export interface Alias {
  term: number;
  kind: AliasKind;
  /** The phrase as written in the built-in list or the variant name. */
  phrase: string;
}

interface TypoIndex {
  /** First two letters → vocabulary words (normalised spelling) of 5+ letters. */
  buckets: Map<string, string[]>;
}

interface Postings {
  /** canon → term indices containing it (once per term). */
  byCanon: Map<string, Int32Array>;
}

export class Vocabulary {
  /** Terms as given, in input order; engine results refer to them by code. */
  readonly terms: readonly VocabularyTerm[];
  /** Grade definitions per code, when the release has them. */
  readonly grades: ReadonlyMap<number, Readonly<Record<number, string>>>;
  /** Order-free key → term indices (`terms[i]`). */
  readonly index = new Map<string, number[]>();
  /** Order-free key → aliases (lay phrases, abbreviations, name variants) the release itself lacks. */
  readonly aliases = new Map<string, Alias[]>();
  /** Per term: its content canons in written order, space-separated. */
  readonly orderKeys: string[];
  /** Every canon that occurs in a name or alias: a window of text can only match through these. */
  readonly canons = new Set<string>();
  /** Normalised spellings of the words in names (typo correction targets) → canon. */
  readonly words = new Map<string, string>();
  /** Built-in abbreviations in force (the release has no term named by the abbreviation). */
  readonly abbreviations = new Map<string, { entry: AbbreviationEntry; canons: string[] }>();
  /**
   * Built-in abbreviations left out because their expansion is not written with the release's own
   * words (checked when the vocabulary is built: every word of the expansion must occur in some
   * PT/LLT name), so a built-in expansion can never point at something the release does not name.
   */
  readonly unresolvedAbbreviations: string[] = [];
  /** PT code → index of the PT's own term. */
  readonly ptIndex = new Map<number, number>();
  /** Longest name in content words (bounds the matching window). */
  maxWords = 1;
  private typoIndex: TypoIndex | undefined;
  private postingIndex: Postings | undefined;

  constructor(terms: readonly VocabularyTerm[], grades: GradeDefinitions | undefined) {
    this.terms = terms;
    this.grades = grades ?? new Map();
    this.orderKeys = new Array<string>(terms.length);
  }

  get size(): number {
    return this.terms.length;
  }

  /** The PT term for a PT code, if the vocabulary has it. */
  pt(code: number): VocabularyTerm | undefined {
    const i = this.ptIndex.get(code);
    return i === undefined ? undefined : this.terms[i];
  }

  /**
   * Builds the lazily built indexes (inverted index for partial matches, typo index) now,
   * so the first classification does not pay for them (~0.1 s on a full-size release).
   */
  warm(): this {
    this.postingIndex ??= this.buildPostings();
    this.typoIndex ??= this.buildTypoIndex();
    return this;
  }

  /** Name of the PT with this code, if the vocabulary has it. */
  ptName(code: number): string | undefined {
    return this.pt(code)?.name;
  }

  /**
   * Content canons of a token, abbreviation expanded; null for a function word.
   * `relaxedCase` expands case-sensitive abbreviations written in lower case too (short descriptions);
   * 'lower' (an all-lower-case text) does so except for those that are also English words ("hit").
   */
  tokenCanons(t: Token | RawForms, relaxedCase: boolean | 'lower' = false): string[] | null {
    if (t.stop) return null;
    const a = this.abbreviations.get(t.lower);
    if (a && (!a.entry.caseSensitive || t.upper || relaxedCase === true || (relaxedCase === 'lower' && !a.entry.englishWord))) return a.canons;
    return [t.canon];
  }

  /**
   * Closest vocabulary word to an unknown word, within one edit (two for words of
   * nine letters or more), or undefined. Common English words are never corrected.
   */
  correctTypo(norm: string): { word: string; canon: string } | undefined {
    // Memoised: a pure function of the word, and narratives repeat their words; the scan of
    // the word's buckets (edit distance to each) was ~40 % of a 2 KB identify. Bounded.
    const memo = (this.typoMemo ??= new Map());
    if (memo.has(norm)) return memo.get(norm);
    const found = this.findTypo(norm);
    if (memo.size >= 50_000) memo.clear();
    memo.set(norm, found);
    return found;
  }

  private typoMemo: Map<string, { word: string; canon: string } | undefined> | undefined;

  private findTypo(norm: string): { word: string; canon: string } | undefined {
    if (norm.length < 6 || COMMON_WORDS.has(norm) || /\d/.test(norm)) return undefined;
    const idx = (this.typoIndex ??= this.buildTypoIndex());
    const max = norm.length >= 9 ? 2 : 1;
    let best: string | undefined;
    let bestD = max + 1;
    for (const key of new Set([norm.slice(0, 2), norm[0]! + norm[2]!, norm[1]! + norm[0]!])) {
      for (const w of idx.buckets.get(key) ?? []) {
        if (Math.abs(w.length - norm.length) > max) continue;
        const d = boundedEditDistance(norm, w, max);
        if (d < bestD || (d === bestD && best !== undefined && w < best)) {
          bestD = d;
          best = w;
        }
      }
    }
    if (best === undefined) return undefined;
    return { word: best, canon: this.words.get(best)! };
  }

  /** Term indices whose names contain a canon (inverted index, built on first use). */
  postings(canon: string): Int32Array | undefined {
    const p = (this.postingIndex ??= this.buildPostings());
    return p.byCanon.get(canon);
  }

  /** Inverse document frequency of a canon over names (unknown canons get the maximum). */
  idf(canon: string): number {
    const df = this.postings(canon)?.length ?? 0;
    return Math.log(1 + this.terms.length / (df + 1));
  }

  private buildTypoIndex(): TypoIndex {
    const buckets = new Map<string, string[]>();
    const add = (k: string, w: string) => {
      const b = buckets.get(k);
      if (b) b.push(w);
      else buckets.set(k, [w]);
    };
    for (const w of [...this.words.keys()].sort()) {
      if (w.length < 5 || /\d/.test(w)) continue;
      // Keyed by the first letters, and twice more, so a typo in the second or third letter still finds it.
      add(w.slice(0, 2), w);
      add(w[0]! + w[2]!, w);
      add(w[1]! + w[0]!, w);
    }
    return { buckets };
  }

  private buildPostings(): Postings {
    const lists = new Map<string, number[]>();
    for (let i = 0; i < this.terms.length; i++) {
      const key = this.orderKeys[i];
      if (!key) continue;
      for (const c of new Set(key.split(' '))) {
        const l = lists.get(c);
        if (l) l.push(i);
        else lists.set(c, [i]);
      }
    }
    const byCanon = new Map<string, Int32Array>();
    for (const [c, l] of lists) byCanon.set(c, Int32Array.from(l));
    return { byCanon };
  }
}

/** Content canons of a name or phrase, abbreviations expanded as the vocabulary does for text. */
export function phraseCanons(vocab: Vocabulary, phrase: string): string[] {
  const out: string[] = [];
  for (const t of phraseWords(phrase)) {
    const c = vocab.tokenCanons(t);
    if (c) out.push(...c);
  }
  return out;
}

const PATHOGEN_INFECTION =
  /^((?:\S+ )?\S*(?:virus|coccus|cocci|coccal|bacter|bacterium|ella|monas|myces|plasma|spora|sporidium|cystis|candida|aspergillus|clostridium|listeria|chlamydia|giardia|cryptococcus|histoplasma|mycobacterium))(?: virus)? infection$/;

function push<K, V>(map: Map<K, V[]>, k: K, v: V) {
  const l = map.get(k);
  if (l) l.push(v);
  else map.set(k, [v]);
}

/** Preference among terms sharing a key: PT, then current LLT, then lowest code. */
export function termPreference(vocab: Vocabulary, a: number, b: number): number {
  const ta = vocab.terms[a]!;
  const tb = vocab.terms[b]!;
  const rank = (t: VocabularyTerm) => (t.level === 'PT' ? 0 : t.current ? 1 : 2);
  return rank(ta) - rank(tb) || ta.code - tb.code;
}

/**
 * Builds the vocabulary of one release from its PT and LLT rows (SOC/HLGT/HLT rows
 * are ignored). Deterministic; about 0.5 s for a full-size release of 110k terms.
 */
export function buildVocabulary(terms: VocabularyTerm[], extra: { grades?: GradeDefinitions } = {}): Vocabulary {
  const list = terms.filter((t) => t.level === 'PT' || t.level === 'LLT');
  const vocab = new Vocabulary(list, extra.grades);

  // Abbreviations the release names itself ("ARDS" as an LLT) keep the release's meaning.
  const singleWordNames = new Set<string>();
  for (const t of list) if (!/\s/.test(t.name)) singleWordNames.add(fold(t.name));
  for (const [abbr, entry] of ABBREVIATIONS) {
    if (singleWordNames.has(abbr)) continue;
    const canons = contentCanons(tokenize(entry.expansion));
    if (canons.length > 0) vocab.abbreviations.set(abbr, { entry, canons });
  }

  const nameCanons = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    if (t.level === 'PT') vocab.ptIndex.set(t.code, i);
    const toks = phraseWords(t.name);
    const canons: string[] = [];
    const literal: string[] = [];
    let expanded = false;
    for (const tok of toks) {
      const c = vocab.tokenCanons(tok);
      if (!c) continue;
      if (c.length === 1 && c[0] === tok.canon) {
        canons.push(tok.canon);
        if (tok.norm.length >= 5 && !vocab.words.has(tok.norm)) vocab.words.set(tok.norm, tok.canon);
      } else {
        for (const x of c) canons.push(x);
        expanded = true;
      }
      literal.push(tok.canon);
      vocab.canons.add(tok.canon);
    }
    for (const c of literal) nameCanons.add(c);
    for (const c of canons) if (!expanded) nameCanons.add(c);
    const orderKey = canons.join(' ');
    vocab.orderKeys[i] = orderKey;
    if (canons.length === 0) continue;
    if (expanded) for (const c of canons) vocab.canons.add(c);
    if (canons.length > vocab.maxWords) vocab.maxWords = canons.length;
    push(vocab.index, canons.length === 1 ? orderKey : bagKey(canons), i);
    // "AST increased" is also found as written ("ast increased"), abbreviation unexpanded.
    if (expanded) {
      for (const c of literal) vocab.canons.add(c);
      push(vocab.aliases, bagKey(literal), { term: i, kind: 'variant' as const, phrase: t.name });
    }
    // "Cancer of skin (excl melanoma)" is also found as "cancer of skin".
    const paren = t.name.indexOf('(');
    if (paren > 0) {
      const bare = phraseCanons(vocab, t.name.slice(0, paren));
      if (bare.length > 0) push(vocab.aliases, bagKey(bare), { term: i, kind: 'variant' as const, phrase: t.name.slice(0, paren).trim() });
    }
  }

  // Expansions checked against the release's names: an expansion whose words the release never
  // writes is dropped (the abbreviation then stays an unknown word).
  for (const [abbr, a] of vocab.abbreviations) {
    if (a.canons.every((c) => nameCanons.has(c))) continue;
    vocab.abbreviations.delete(abbr);
    vocab.unresolvedAbbreviations.push(abbr);
  }

  // A pathogen named alone ("cytomegalovirus", "legionella") means its infection.
  for (let i = 0; i < list.length; i++) {
    const name = list[i]!.name;
    if (!/infection$/i.test(name)) continue;
    const m = PATHOGEN_INFECTION.exec(fold(name));
    if (!m) continue;
    const canons = phraseCanons(vocab, m[1]!);
    const key = bagKey(canons);
    if (canons.length === 0 || vocab.index.has(key)) continue;
    push(vocab.aliases, key, { term: i, kind: 'variant' as const, phrase: m[1]! });
  }

  // Lay phrases and clinical synonyms: only where the release has no term spelled like the phrase.
  for (const [phrase, targets, kind] of [...LAY_TERMS.map(([p, t]) => [p, t, 'lay'] as const), ...CLINICAL_SYNONYMS.map(([p, t]) => [p, t, 'variant'] as const)]) {
    const canons = phraseCanons(vocab, phrase);
    const key = bagKey(canons);
    if (canons.length === 0 || vocab.index.has(key)) continue;
    for (const target of targets) {
      const hits = vocab.index.get(bagKey(phraseCanons(vocab, target)));
      if (!hits) continue;
      const best = [...hits].sort((a, b) => termPreference(vocab, a, b))[0]!;
      push(vocab.aliases, key, { term: best, kind, phrase });
      for (const c of canons) vocab.canons.add(c);
      break;
    }
  }
  return vocab;
}
