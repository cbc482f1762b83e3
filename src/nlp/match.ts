// Dictionary matching: every window of a token sequence whose order-free key is a
// term name (or an alias) is a candidate; the longest, most exact candidates win
// (the most specific term), and coordinated lists share modifiers
// ("increases in ALT and AST" → ALT increased + AST increased).
import type { Token } from './text.ts';
import { bagKey, fold, MAX_STEM_LENGTH, wordForms } from './text.ts';
import { ABBREVIATIONS, COMMON_WORDS, LOCATIVE_PREFIXES, NOT_AFTER, NOT_BEFORE } from './lexicon.ts';
import { termPreference, type Vocabulary } from './vocabulary.ts';
import { findComparisons } from './values.ts';

export type MatchKind = 'exact' | 'reordered' | 'variant' | 'lay' | 'coordination';

export interface TermMatch {
  /** Token range [from, to) in the analysed token array. */
  from: number;
  to: number;
  /** Character range in the source text; `text === source.slice(start, end)`. */
  start: number;
  end: number;
  text: string;
  /** Index into `vocab.terms` of the term chosen. */
  term: number;
  kind: MatchKind;
  /** A built-in abbreviation was expanded to match. */
  abbreviation: boolean;
  /** Words corrected by typo tolerance. */
  typos: { from: string; to: string }[];
  /** Content words matched (specificity). */
  words: number;
  /** Lay phrase or variant used, or the phrase a coordinated modifier came from. */
  via?: string;
}

export interface MatchOptions {
  /** Correct unknown words within a small edit distance (narratives: yes; edited labels: no). */
  typos?: boolean;
  /** Distribute shared words over coordinated lists (default true). */
  coordination?: boolean;
  /** Prefer "nausea" + "vomiting" over a combined "nausea and vomiting" term (default false). */
  splitConjunctions?: boolean;
  /** Reuse forms already computed with prepareTokens for the same tokens. */
  prepared?: Prepared;
}

/** Per-token matching forms: canons (null for function words), vocabulary-known flag, typo fix, abbreviation flag. */
export interface Prepared {
  canons: (string[] | null)[];
  known: boolean[];
  typo: ({ from: string; to: string } | undefined)[];
  abbr: boolean[];
}

const KIND_RANK: Record<MatchKind, number> = { exact: 0, reordered: 1, variant: 2, lay: 3, coordination: 4 };
const CONJ = new Set(['and', 'or', 'nor', 'and/or']);
const MAX_STOP_RUN = 2;

export function prepareTokens(tokens: readonly Token[], vocab: Vocabulary, typos: boolean, relaxedCase: boolean | 'lower' = false): Prepared {
  const n = tokens.length;
  const p: Prepared = { canons: new Array(n), known: new Array(n), typo: new Array(n), abbr: new Array(n) };
  // A unit written all in capitals says nothing by its case: "TEN WOMEN" is still ten women.
  let words = 0;
  let shouting = true;
  for (const t of tokens) if (/^\p{L}{2,}$/u.test(t.text)) { words++; if (!t.upper) { shouting = false; break; } }
  shouting &&= words >= 4;
  for (let j = 0; j < n; j++) {
    const t = tokens[j]!;
    let c = vocab.tokenCanons(t, relaxedCase);
    p.abbr[j] = c !== null && c.length > 0 && c[0] !== t.canon;
    let known = c !== null && c.every((x) => vocab.canons.has(x));
    // An everyday word that is also an acronym ("ten" / TEN, "hit" / HIT) is the word unless written in capitals,
    // even when the release names a term by the acronym itself ("ten women" is not toxic epidermal necrolysis).
    if (known && (!t.upper || shouting) && relaxedCase !== true && !p.abbr[j] && ABBREVIATIONS.get(t.lower)?.englishWord) known = false;
    // "double-blind", "dose-dependent", "nervous system": not findings.
    const prev = j > 0 && !t.breakBefore ? tokens[j - 1]!.lower : undefined;
    const next = j + 1 < n && !tokens[j + 1]!.breakBefore ? tokens[j + 1]!.lower : undefined;
    // A unit after a number is a measure, not a finding ("500 ms" is milliseconds, not MS).
    const afterNumber = j > 0 && tokens[j - 1]!.numeric && UNIT_WORDS.has(t.lower);
    if (afterNumber || (prev !== undefined && NOT_AFTER.get(t.lower)?.has(prev)) || (next !== undefined && NOT_BEFORE.get(t.lower)?.has(next))) {
      p.canons[j] = c;
      p.known[j] = false;
      continue;
    }
    // An unknown word made of a site prefix and a known word ("intracerebral", "subconjunctival",
    // "postprocedural"), or, in narratives, of two known words run together ("anaphylacticshock").
    if (c !== null && !known && !p.abbr[j] && !t.upper) {
      const parts = decompose(t.norm, vocab, typos);
      if (parts) {
        c = parts.canons;
        known = true;
        if (parts.joined) p.typo[j] = { from: t.text, to: parts.words.join(' ') };
      }
    }
    if (c !== null && !known && typos && !t.upper) {
      const fix = vocab.correctTypo(t.norm);
      if (fix && vocab.canons.has(fix.canon)) {
        c = [fix.canon];
        known = true;
        p.typo[j] = { from: t.text, to: fix.word };
      }
    }
    p.canons[j] = c;
    p.known[j] = known;
  }
  // A prefix written apart from its word ("hyper tension", "pre-hypertension", "post-procedural"):
  // when prefix + word is a word of the release's names, the pair reads as that word.
  for (let j = 0; j + 1 < n; j++) {
    const a = tokens[j]!;
    const b = tokens[j + 1]!;
    // One character apart: a space or a hyphen.
    if (!JOIN_PREFIXES.has(a.norm) || p.abbr[j + 1] || b.start - a.end !== 1) continue;
    const joined = a.norm + b.norm;
    const canon = vocab.words.get(joined);
    if (canon === undefined || !vocab.canons.has(canon)) continue;
    p.canons[j] = null;
    p.known[j] = false;
    p.canons[j + 1] = [canon];
    p.known[j + 1] = true;
    if (typos) p.typo[j + 1] = { from: `${a.text} ${b.text}`, to: joined };
  }
  return p;
}

/** Units of measure that are also abbreviations of findings (MS, PE, …) or terms' words. */
const UNIT_WORDS = new Set(['ms', 'msec', 'min', 'mm', 'cm', 'mg', 'ml', 'kg', 'g', 'l', 'h', 'hr', 'hrs', 'mmhg', 'bpm', 'iu', 'u', 'mcg', 'ng', 'pg', 'mmol', 'mol', 'meq', 'dl', 'mcl', 'ul', 'pe']);

/** Prefixes sometimes written apart from their word. */
const JOIN_PREFIXES = new Set(['hyper', 'hypo', 'pre', 'post', 'peri', 'intra', 'extra', 'sub', 'supra', 'anti', 'para', 'poly', 'tachy', 'brady', 'dys']);


const isKnown = (vocab: Vocabulary, w: string): string | undefined => {
  const c = wordForms(w).canon;
  return vocab.canons.has(c) ? c : undefined;
};

/**
 * Splits an unknown word into known parts: a locative prefix and a known word ("intracerebral" →
 * cerebral; "postprocedural" → post procedural when the release writes "post" as a word), or,
 * with `joined` (narratives), two known words of 4+ letters written as one ("sensoryneuropathy").
 */
export function decompose(norm: string, vocab: Vocabulary, joined: boolean): { canons: string[]; words: string[]; joined: boolean } | undefined {
  // Past the stemming cap a "word" is not a clinical term, and trying its splits would cost
  // quadratic time (one request must never freeze the server).
  if (norm.length < 7 || norm.length > MAX_STEM_LENGTH || !/^[a-z]+$/.test(norm) || COMMON_WORDS.has(norm)) return undefined;
  for (const prefix of LOCATIVE_PREFIXES) {
    if (!norm.startsWith(prefix) || norm.length - prefix.length < 4) continue;
    const rest = norm.slice(prefix.length);
    const c = isKnown(vocab, rest);
    if (!c) continue;
    const pc = isKnown(vocab, prefix);
    return pc && (prefix === 'post' || prefix === 'pre') ? { canons: [pc, c], words: [prefix, rest], joined: false } : { canons: [c], words: [rest], joined: false };
  }
  if (!joined || norm.length < 9) return undefined;
  for (let i = norm.length - 4; i >= 4; i--) {
    const a = isKnown(vocab, norm.slice(0, i));
    const b = a ? isKnown(vocab, norm.slice(i)) : undefined;
    if (a && b) return { canons: [a, b], words: [norm.slice(0, i), norm.slice(i)], joined: true };
  }
  return undefined;
}

function pickTerm(vocab: Vocabulary, candidates: readonly number[], ordered: string, surface: string): { term: number; exact: boolean } {
  let best = -1;
  let bestScore = -Infinity;
  for (const i of candidates) {
    const t = vocab.terms[i]!;
    let s = 0;
    if (vocab.orderKeys[i] === ordered) s += 2;
    if (fold(t.name) === surface) s += 3;
    if (!t.current) s -= 4;
    if (best < 0 || s > bestScore || (s === bestScore && termPreference(vocab, i, best) < 0)) {
      best = i;
      bestScore = s;
    }
  }
  return { term: best, exact: vocab.orderKeys[best] === ordered };
}

/** All term matches in a token sequence (usually one sentence), non-overlapping, in text order. */
export function matchTerms(source: string, tokens: readonly Token[], vocab: Vocabulary, opts: MatchOptions = {}): TermMatch[] {
  const n = tokens.length;
  if (n === 0) return [];
  const p = opts.prepared ?? prepareTokens(tokens, vocab, opts.typos ?? false);
  const raw: TermMatch[] = [];
  const maxWindow = vocab.maxWords + 4;
  for (let i = 0; i < n; i++) {
    if (!p.known[i]) continue;
    const bag: string[] = [];
    let stopRun = 0;
    let words = 0;
    for (let j = i; j < n && j < i + maxWindow + MAX_STOP_RUN; j++) {
      const t = tokens[j]!;
      if (j > i && t.breakBefore) break;
      const c = p.canons[j];
      if (c === null || c === undefined) {
        if (++stopRun > MAX_STOP_RUN) break;
        continue;
      }
      if (!p.known[j]) break;
      stopRun = 0;
      bag.push(...c);
      words++;
      if (words > maxWindow) break;
      const key = bagKey(bag);
      const hits = vocab.index.get(key);
      const aliases = hits ? undefined : vocab.aliases.get(key);
      if (!hits && !aliases) continue;
      const typos = [];
      let abbreviation = false;
      for (let k = i; k <= j; k++) {
        const ty = p.typo[k];
        if (ty) typos.push(ty);
        if (p.abbr[k]) abbreviation = true;
      }
      const start = tokens[i]!.start;
      const end = t.end;
      const base = { from: i, to: j + 1, start, end, text: source.slice(start, end), abbreviation, typos, words: bag.length };
      if (hits) {
        const ordered = bag.join(' ');
        const surface = tokens.slice(i, j + 1).map((x) => x.lower).join(' ');
        const { term, exact } = pickTerm(vocab, hits, ordered, surface);
        raw.push({ ...base, term, kind: exact ? 'exact' : 'reordered' });
      } else if (aliases) {
        const a = [...aliases].sort((x, y) => termPreference(vocab, x.term, y.term))[0]!;
        raw.push({ ...base, term: a.term, kind: a.kind === 'lay' ? 'lay' : 'variant', via: a.phrase });
      }
    }
  }
  let candidates = raw;
  if (opts.splitConjunctions) {
    // Candidates by start token: the sub-matches of a window start inside it (a scan of
    // every candidate per window was quadratic on a long unpunctuated list).
    const byFrom = new Map<number, TermMatch[]>();
    for (const o of raw) {
      const list = byFrom.get(o.from);
      if (list) list.push(o);
      else byFrom.set(o.from, [o]);
    }
    const within = (m: TermMatch, lo: number, hi: number, end: number) => {
      for (let f = lo; f < hi; f++) for (const o of byFrom.get(f) ?? []) if (o !== m && o.to <= end) return true;
      return false;
    };
    candidates = raw.filter((m) => {
      for (let k = m.from + 1; k < m.to - 1; k++) {
        if (!CONJ.has(tokens[k]!.lower)) continue;
        if (within(m, m.from, k, k) && within(m, k + 1, m.to, m.to)) return false;
      }
      return true;
    });
  }
  const accepted = select(candidates, n);
  if (opts.coordination ?? true) coordinate(source, tokens, vocab, p, accepted);
  return accepted.sort((a, b) => a.from - b.from);
}

/** Greedy: most words first, then the more exact kind, fewer typos, earlier start. */
function select(raw: TermMatch[], n: number): TermMatch[] {
  const sorted = [...raw].sort(
    (a, b) =>
      b.words - a.words ||
      KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
      a.typos.length - b.typos.length ||
      a.from - b.from ||
      a.to - b.to,
  );
  const used = new Uint8Array(n);
  const out: TermMatch[] = [];
  for (const m of sorted) {
    let free = true;
    for (let k = m.from; k < m.to; k++) if (used[k]) free = false;
    if (!free) continue;
    for (let k = m.from; k < m.to; k++) used[k] = 1;
    out.push(m);
  }
  return out;
}

// One optional dash between blanks, written so a long blank run is not re-scanned (quadratic).
const SPACE_GAP = /^[ \t]*(?:-[ \t]*)?$/;
const LIST_GAP = /^\s*[,/]\s*$/;
const PAREN_LEAD = new Set(['includes', 'including', 'include', 'e', 'g', 'eg', 'such', 'as', 'mainly', 'mostly', 'primarily', 'predominantly', 'i', 'particularly', 'especially']);

/** Non-empty subsets of positions, largest first (positions ≤ 5). */
function subsets(slots: readonly number[]): number[][] {
  const n = Math.min(slots.length, 5);
  const out: number[][] = [];
  for (let mask = (1 << n) - 1; mask > 0; mask--) {
    const s: number[] = [];
    for (let b = 0; b < n; b++) if (mask & (1 << b)) s.push(slots[b]!);
    out.push(s);
  }
  return out.sort((a, b) => b.length - a.length);
}

/**
 * Coordinated lists: a multi-word match lends its other words to list items next to it
 * ("bacterial, viral or fungal infections", "elevations of ALT and AST",
 * "abdominal pain/discomfort"), and a match distributes over a parenthesised list
 * ("rash (includes macular, papular)" → rash macular, rash papular). A one-word match of
 * an item gives way when the combined reading is a term.
 */
function coordinate(source: string, tokens: readonly Token[], vocab: Vocabulary, p: Prepared, accepted: TermMatch[]) {
  const n = tokens.length;
  const used = new Uint8Array(n);
  const owner = new Int32Array(n).fill(-1);
  accepted.forEach((m, i) => {
    for (let k = m.from; k < m.to; k++) {
      used[k] = 1;
      if (m.to - m.from === 1 && m.words === 1 && m.kind !== 'coordination') owner[k] = i;
    }
  });
  const removed = new Set<number>();
  const usable = (q: number) =>
    q >= 0 && q < n && (!used[q] || owner[q]! >= 0) && p.known[q] === true && !!p.canons[q] && !CONJ.has(tokens[q]!.lower);
  const conj = (q: number) => q >= 0 && q < n && CONJ.has(tokens[q]!.lower);

  const combine = (m: TermMatch, slotSets: number[][], run: number[], dir: 1 | -1 | 0): number | undefined => {
    const itemCanons = run.flatMap((r) => p.canons[r]!);
    const ownPt = run.length === 1 && owner[run[0]!]! >= 0 ? vocab.terms[accepted[owner[run[0]!]!]!.term]!.ptCode : undefined;
    for (const set of slotSets) {
      // Overriding an item's own match needs the seed's leading words ("injection site pain,
      // bruising") or trailing words ("ALT and AST elevations"), not a middle word
      // ("stroke and transient ischemic attack" is no "ischemic stroke").
      if (ownPt !== undefined && dir !== 0) {
        const all = [...new Set([...slotSets.flat()])].sort((a, b) => a - b);
        const edge = dir === 1 ? all.slice(0, set.length) : all.slice(all.length - set.length);
        if (edge.join() !== [...set].sort((a, b) => a - b).join()) continue;
      }
      const bag = set.flatMap((s) => p.canons[s]!);
      bag.push(...itemCanons);
      const hits = vocab.index.get(bagKey(bag));
      if (!hits) continue;
      const best = [...hits].sort((a, b) => termPreference(vocab, a, b))[0]!;
      const pt = vocab.terms[best]!.ptCode;
      if (pt === vocab.terms[m.term]!.ptCode || pt === ownPt) continue;
      return best;
    }
    return undefined;
  };
  const emit = (m: TermMatch, run: number[], term: number, slots: number) => {
    const from = run[0]!;
    const to = run[run.length - 1]! + 1;
    const start = tokens[from]!.start;
    const end = tokens[to - 1]!.end;
    for (let r = from; r < to; r++) {
      used[r] = 1;
      if (owner[r]! >= 0) removed.add(owner[r]!);
      owner[r] = -1;
    }
    const words = run.reduce((s, r) => s + p.canons[r]!.length, 0) + slots;
    accepted.push({
      from, to, start, end, text: source.slice(start, end), term, kind: 'coordination',
      abbreviation: run.some((r) => p.abbr[r]), typos: [], words, via: m.text,
    });
  };
  /** Tries the longest item run first (runs are in text order; `anchorEnd` says which end touches the separator). */
  const tryRun = (m: TermMatch, slotSets: number[][], run: number[], anchorStart: boolean, dir: 1 | -1 | 0): number[] | undefined => {
    for (let len = run.length; len >= 1; len--) {
      const sub = anchorStart ? run.slice(0, len) : run.slice(run.length - len);
      const term = combine(m, slotSets, sub, dir);
      if (term !== undefined) {
        emit(m, sub, term, slotSets[0]!.length);
        return sub;
      }
    }
    return undefined;
  };

  const seeds = accepted.filter((m) => m.kind !== 'coordination');
  for (const m of seeds) {
    const slots: number[] = [];
    for (let k = m.from; k < m.to; k++) if (p.canons[k]) slots.push(k);
    // Lists lend all but one of the seed's words ("viral infections" → "fungal" + infections).
    const lend = slots.length >= 2 ? subsets(slots).filter((s) => s.length < slots.length) : [];
    if (lend.length > 0) {
      // Forward: "<m>, X and Y".
      let pos = m.to;
      for (let item = 0; item < 6 && pos < n; item++) {
        let k = pos;
        let ok = LIST_GAP.test(tokens[k]!.gapBefore);
        if (conj(k) && (ok || SPACE_GAP.test(tokens[k]!.gapBefore))) {
          ok = true;
          k++;
          if (conj(k)) k++;
          if (k >= n || !SPACE_GAP.test(tokens[k]!.gapBefore)) break;
        }
        if (!ok || k >= n) break;
        const run: number[] = [];
        for (let q = k; q < n && run.length < 3 && usable(q) && (q === k || SPACE_GAP.test(tokens[q]!.gapBefore)); q++) run.push(q);
        const got = run.length ? tryRun(m, lend, run, true, 1) : undefined;
        if (!got) break;
        pos = got[got.length - 1]! + 1;
      }
      // Backward: "X, Y and <m>".
      pos = m.from;
      for (let item = 0; item < 6 && pos > 0; item++) {
        let k = pos - 1;
        let ok = LIST_GAP.test(tokens[pos]!.gapBefore);
        if (!ok && SPACE_GAP.test(tokens[pos]!.gapBefore) && conj(k)) {
          ok = true;
          k--;
          if (conj(k)) k--;
          if (k < 0 || !(SPACE_GAP.test(tokens[k + 1]!.gapBefore) || LIST_GAP.test(tokens[k + 1]!.gapBefore))) break;
        }
        if (!ok || k < 0) break;
        const run: number[] = [];
        for (let q = k; q >= 0 && run.length < 3 && usable(q); q--) {
          run.unshift(q);
          if (!SPACE_GAP.test(tokens[q]!.gapBefore)) break;
        }
        const got = run.length ? tryRun(m, lend, run, false, -1) : undefined;
        if (!got) break;
        pos = got[0]!;
      }
    }
    // Parenthesised list after the match: "rash (includes generalized, macular, papular)".
    let k = m.to;
    if (k < n && /\(\s*$/.test(tokens[k]!.gapBefore)) {
      const all = subsets(slots);
      while (k < n && PAREN_LEAD.has(tokens[k]!.lower) && !/\)/.test(tokens[k]!.gapBefore)) k++;
      for (let item = 0; item < 8 && k < n; item++) {
        if (item > 0 && /\)/.test(tokens[k]!.gapBefore)) break;
        while (conj(k)) k++;
        const run: number[] = [];
        for (let q = k; q < n && run.length < 3 && usable(q) && (q === k || SPACE_GAP.test(tokens[q]!.gapBefore)); q++) run.push(q);
        if (run.length === 0) break;
        tryRun(m, all, run, true, 0);
        // Next item: after the next list separator inside the parentheses.
        let q = run[run.length - 1]! + 1;
        while (q < n && !LIST_GAP.test(tokens[q]!.gapBefore) && !conj(q) && !/\)/.test(tokens[q]!.gapBefore)) q++;
        if (q >= n || /\)/.test(tokens[q]!.gapBefore)) break;
        k = q;
      }
    }
  }
  if (removed.size > 0) {
    const keep = accepted.filter((_, i) => !removed.has(i));
    accepted.length = 0;
    accepted.push(...keep);
  }
}

const SPECIMEN = new Set(['serum', 'plasma', 'blood', 'level', 'valu', 'concentr', 'measur']);

/**
 * Findings written as a value compared with a threshold ("Hemoglobin (g/dL) < 8.5",
 * "AST > 5 × ULN", "platelets below 50,000/mm3"): the analyte written just before the comparison
 * plus the comparison's direction, when the release has that term ("… decreased" / "… increased").
 * Returned as variant matches spanning the analyte and the comparison. Analytes already carrying
 * a direction word are left to the ordinary matching.
 */
export function valueMatches(source: string, tokens: readonly Token[], vocab: Vocabulary): TermMatch[] {
  const n = tokens.length;
  if (n === 0) return [];
  const from = tokens[0]!.start;
  const to = tokens[n - 1]!.end;
  const comparisons = findComparisons(source.slice(from, to));
  if (comparisons.length === 0) return [];
  const p = prepareTokens(tokens, vocab, false);
  const out: TermMatch[] = [];
  for (const c of comparisons) {
    if (!vocab.canons.has(c.direction)) continue;
    const cs = from + c.start;
    const ce = from + c.end;
    const k0 = tokens.findIndex((t) => t.end > cs);
    if (k0 <= 0) continue;
    let kEnd = k0;
    while (kEnd < n && tokens[kEnd]!.start < ce) kEnd++;
    let best: TermMatch | undefined;
    const bag: string[] = [];
    let words = 0;
    for (let i = k0 - 1; i >= 0 && i >= k0 - 6; i--) {
      // The analyte is in the same clause: units and parentheses may intervene ("Hemoglobin (g/dL) <8.5").
      if (/[.;:!?\n]|\s{3,}/.test(source.slice(tokens[i]!.end, tokens[i + 1]!.start))) break;
      const cs2 = p.canons[i];
      if (!cs2 || tokens[i]!.numeric) continue;
      if (!p.known[i]) continue;
      if (cs2.includes('+inc') || cs2.includes('+dec')) break;
      bag.push(...cs2);
      words++;
      // A cell type's value is its count ("platelets < 50"); an analyte in serum or plasma is a blood value.
      const plain = bag.filter((x) => !SPECIMEN.has(x));
      let hits: number[] | undefined;
      for (const b of [bag, [...bag, 'count'], [...plain, 'blood'], [...plain, 'blood', 'count']]) {
        hits = vocab.index.get(bagKey([...b, c.direction]));
        if (hits) break;
      }
      if (!hits) continue;
      const term = [...hits].sort((a, b) => termPreference(vocab, a, b))[0]!;
      const start = tokens[i]!.start;
      const end = Math.max(tokens[kEnd - 1]!.end, Math.min(ce, tokens[kEnd - 1]!.end));
      best = { from: i, to: kEnd, start, end, text: source.slice(start, end), term, kind: 'variant', abbreviation: false, typos: [], words: words + 1, via: source.slice(cs, ce) };
    }
    if (best) out.push(best);
  }
  return out;
}

const SITE_LIST = new RegExp(
  String.raw`\b((?:injection|infusion|application|administration|instillation|vaccination|catheter|implant|puncture)(?:\s+(?:or|and|/)\s+(?:injection|infusion|application|administration))?)[\s-]+sites?\s+(?:reactions?|events?|findings|symptoms|disorders|complications|adverse\s+reactions)\b[^.;]*?\b(?:characteri[sz]ed\s+by|including|included|includes|include|such\s+as|consist(?:ed|ing)?\s+of|manifested\s+(?:as|by)|were|was|comprised?)\s*:?\s*([^.;]+)`,
  'giu',
);

/**
 * Findings listed as kinds of a site reaction inherit the site: "Injection site reactions were
 * characterized by local pruritus, erythema, pain and bruising" → Injection site pruritus, …;
 * "injection or infusion site reactions including phlebitis and swelling" → both sites. Each list
 * item (a few words) is looked up with the site's words, when the release has that term.
 */
export function siteListMatches(source: string, tokens: readonly Token[], vocab: Vocabulary): TermMatch[] {
  const n = tokens.length;
  if (n === 0) return [];
  const from = tokens[0]!.start;
  const unit = source.slice(from, tokens[n - 1]!.end);
  if (!/\bsites?\b/i.test(unit)) return [];
  const out: TermMatch[] = [];
  const p = prepareTokens(tokens, vocab, false);
  for (const m of unit.matchAll(SITE_LIST)) {
    const sites = m[1]!.split(/\s+(?:or|and|\/)\s+/).map((w) => vocab.tokenCanons(wordFormsOf(w)) ?? []);
    const listStart = from + m.index + m[0].length - m[2]!.length;
    const listEnd = from + m.index + m[0].length;
    // Items: token runs between commas / "and" / "or".
    let item: number[] = [];
    const flush = () => {
      const toks = item.filter((k) => p.canons[k] && p.known[k] && !['local', 'mild', 'transient'].includes(tokens[k]!.lower));
      item = [];
      if (toks.length === 0 || toks.length > 3) return;
      const canons = toks.flatMap((k) => p.canons[k]!);
      for (const site of sites) {
        const hits = vocab.index.get(bagKey([...site, 'site', ...canons]));
        if (!hits) continue;
        const term = [...hits].sort((a, b) => termPreference(vocab, a, b))[0]!;
        const a = toks[0]!;
        const b = toks[toks.length - 1]!;
        const start = tokens[a]!.start;
        const end = tokens[b]!.end;
        out.push({ from: a, to: b + 1, start, end, text: source.slice(start, end), term, kind: 'variant', abbreviation: false, typos: [], words: site.length + 1 + canons.length, via: m[0].slice(0, m[0].length - m[2]!.length).trim() });
      }
    };
    for (let k = 0; k < n; k++) {
      const t = tokens[k]!;
      if (t.start < listStart || t.end > listEnd) continue;
      const gap = k > 0 ? source.slice(tokens[k - 1]!.end, t.start) : '';
      if (/[,;/(]/.test(gap) || ['and', 'or', 'and/or'].includes(t.lower)) flush();
      if (['and', 'or', 'and/or'].includes(t.lower)) continue;
      item.push(k);
    }
    flush();
  }
  return out;
}

const wordFormsOf = (w: string) => {
  const lower = fold(w);
  const f = wordForms(lower);
  return { ...f, lower, upper: false, stop: false, numeric: false };
};
