// One event description → ranked PT predictions. Whole-term matches (exact, reordered,
// lay, abbreviation, typo-corrected) and partial overlaps found through the inverted
// index are scored alike by IDF-weighted coverage of the term and of the text, so the
// most specific term that the text fully covers ranks first.
import { calibrateText, round } from './calibration.ts';
import { cuesCovering, findContextCues, type ContextKind } from './context.ts';
import { matchTerms, prepareTokens, type TermMatch } from './match.ts';
import { tokenize } from './text.ts';
import { findComparisons } from './values.ts';
import { termPreference, type Vocabulary } from './vocabulary.ts';

export interface Evidence {
  /** Exactly `source.slice(start, end)`. */
  text: string;
  start: number;
  end: number;
}

export interface CodePrediction {
  ptCode: number;
  /** The term actually matched (an LLT, or the PT's own LLT when the PT name matched). */
  matchedLlt?: { code: number; name: string };
  /** Calibrated probability that this PT is the right code for the description. */
  confidence: number;
  /** Uncalibrated score (0–1). */
  rawScore: number;
  reasons: string[];
  evidence: Evidence[];
}

export interface ClassifyOptions {
  /** Predictions returned (default 10). */
  limit?: number;
}

/** Contexts whose words are not evidence for a code of this event. */
const EXCLUDING: ReadonlySet<ContextKind> = new Set(['negated', 'uncertain', 'historical', 'family']);

/** Narrative filler: carries no event meaning, barely counts against coverage. */
const FILLER = new Set([
  'patient', 'pt', 'develop', 'experienc', 'report', 'day', 'week', 'hour', 'minut', 'month', 'year', 'dose', 'after',
  'follow', 'receiv', 'vaccin', 'start', 'took', 'taken', 'take', 'second', 'first', 'third', 'two', 'three', 'also',
  'then', 'and', 'or', 'she', 'he', 'they', 'we', 'i', 'me', 'him', 'was', 'had', 'got', 'felt', 'feel', 'becam', 'later',
  'sever', 'mild', 'moder', 'repeat', 'overnight', 'next', 'onset', 'episod', 'sudden', 'suddenli', 'complain', 'present',
  'note', 'observ', 'occur', 'admit', 'treat', 'drug', 'medic', 'therapi', 'event', 'reaction', 'advers', 'signific',
]);

/** Where a finding sits relative to the product's route: the site words a term of that kind has. */
const SITE_CONTEXT: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/\b(?:treated|application|applied)\s+(?:area|site|skin|region)\b|\bsites?\s+of\s+application\b|\bapplication[- ]associated\b/i, ['applic', 'site']],
  [/\binject(?:ed|ion)\s+(?:area|site|arm|limb|extremity|hand|leg|thigh|buttock|region)\b|\bsites?\s+of\s+injection\b/i, ['inject', 'site']],
  [/\binfus(?:ed|ion)\s+(?:area|site|arm|limb|extremity|hand|vein|region)\b|\bsites?\s+of\s+infusion\b/i, ['infus', 'site']],
];

export interface TextCandidate {
  ptCode: number;
  /** Best term of the PT (index into vocab.terms). */
  term: number;
  rawScore: number;
  /** The whole term was found as a phrase (exact, reordered, lay, abbreviation, typo or list item). */
  phrase: boolean;
  match?: TermMatch;
  reasons: string[];
  evidence: Evidence[];
}

interface TextWord {
  canon: string;
  weight: number;
  tokens: number[];
}

// A term's distinct canons and a canon's idf, per vocabulary, computed once: the candidate
// loop below split and de-duplicated ~300 names and recomputed their idfs on every request.
const canonsByVocab = new WeakMap<Vocabulary, (string[] | undefined)[]>();
function termCanons(vocab: Vocabulary, t: number): string[] {
  let all = canonsByVocab.get(vocab);
  if (!all) canonsByVocab.set(vocab, (all = []));
  return (all[t] ??= [...new Set((vocab.orderKeys[t] ?? '').split(' ').filter((c) => c !== ''))]);
}
const idfByVocab = new WeakMap<Vocabulary, Map<string, number>>();
function idfOf(vocab: Vocabulary, canon: string): number {
  let m = idfByVocab.get(vocab);
  if (!m) idfByVocab.set(vocab, (m = new Map()));
  let v = m.get(canon);
  if (v === undefined) m.set(canon, (v = vocab.idf(canon)));
  return v;
}

/** All PT candidates for a description, best first, uncalibrated. */
export function textCandidates(text: string, vocab: Vocabulary, limit = 10): TextCandidate[] {
  const tokens = tokenize(text);
  if (tokens.length === 0) return [];
  // A short description ("ttp", "increased ast"), or one written all in lower case, may write
  // abbreviations in lower case: case cannot tell "ast" from a word there.
  const prepared = prepareTokens(tokens, vocab, true, tokens.length <= 4 ? true : !/\p{Lu}/u.test(text) ? 'lower' : false);
  const matches = matchTerms(text, tokens, vocab, { typos: true, prepared });
  const cues = findContextCues(text, tokens);
  const excluded = new Uint8Array(tokens.length);
  for (const c of cues) if (EXCLUDING.has(c.kind)) for (let k = c.scopeFrom; k < c.scopeTo; k++) excluded[k] = 1;

  // The description's words (canons), weighted by informativeness.
  const words = new Map<string, TextWord>();
  for (let j = 0; j < tokens.length; j++) {
    const cs = prepared.canons[j];
    if (!cs || excluded[j] || tokens[j]!.numeric) continue;
    for (const c of cs) {
      let w = words.get(c);
      if (!w) {
        const weight = FILLER.has(c) ? 0.05 : prepared.known[j] ? vocab.idf(c) : 0.3;
        words.set(c, (w = { canon: c, weight, tokens: [] }));
      }
      w.tokens.push(j);
    }
  }
  // A value compared with a threshold ("Hb < 9 g/dL", "ALT > 5 × ULN") states the direction
  // of the finding when no word does.
  if (!words.has('+inc') && !words.has('+dec')) {
    const cmp = findComparisons(text).filter((c) => !tokens.some((t, j) => excluded[j] && t.start < c.end && c.start < t.end));
    const dir = cmp[0]?.direction;
    if (dir && vocab.canons.has(dir)) {
      const toks = tokens.flatMap((t, j) => (cmp.some((c) => t.start < c.end && c.start < t.end) ? [j] : []));
      words.set(dir, { canon: dir, weight: vocab.idf(dir), tokens: toks });
    }
  }
  // A site written as the treated / injected / infused area is the application / injection /
  // infusion site ("erythema in the treated area", "swelling of the injected hand").
  for (const [re, canons] of SITE_CONTEXT) {
    const m = re.exec(text);
    if (!m || canons.every((c) => words.has(c)) || !canons.every((c) => vocab.canons.has(c))) continue;
    const toks = tokens.flatMap((t, j) => (!excluded[j] && t.start < m.index + m[0].length && m.index < t.end ? [j] : []));
    if (toks.length === 0) continue;
    for (const c of canons) if (!words.has(c)) words.set(c, { canon: c, weight: vocab.idf(c), tokens: toks });
  }
  let textTotal = 0;
  for (const w of words.values()) textTotal += w.weight;
  if (textTotal === 0) return [];

  // Candidate terms: whole-term matches, plus terms sharing informative words.
  const byTerm = new Map<number, TermMatch | undefined>();
  for (const m of matches) {
    const mc = cuesCovering(cues, m.from, m.to);
    if (mc.some((c) => EXCLUDING.has(c.kind))) continue;
    byTerm.set(m.term, m);
  }
  const overlap = new Map<number, number>();
  const maxDf = Math.max(200, vocab.size * 0.05);
  for (const w of words.values()) {
    if (w.weight < 0.1) continue;
    const post = vocab.postings(w.canon);
    if (!post || post.length > maxDf) continue;
    for (const t of post) overlap.set(t, (overlap.get(t) ?? 0) + w.weight);
  }
  const pool = [...overlap.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 300).map(([t]) => t);
  for (const t of pool) if (!byTerm.has(t)) byTerm.set(t, undefined);

  const best = new Map<number, TextCandidate>();
  for (const [t, m] of byTerm) {
    const term = vocab.terms[t]!;
    const canons = termCanons(vocab, t);
    if (canons.length === 0) continue;
    let shared = 0;
    let termTotal = 0;
    let substantive = false;
    const hitTokens: number[] = [];
    for (const c of canons) {
      const idf = idfOf(vocab, c);
      termTotal += idf;
      const w = words.get(c);
      if (w) {
        shared += idf;
        hitTokens.push(...w.tokens);
        if (!c.startsWith('+')) substantive = true;
      }
    }
    const phrase = m !== undefined;
    // Sharing only "increased"/"abnormal" with a term says nothing about which term.
    if (!phrase && !substantive) continue;
    const termCov = phrase ? 1 : termTotal > 0 ? shared / termTotal : 0;
    const sharedText = phrase ? Math.max(shared, termTotal) : shared;
    const textCov = Math.min(1, sharedText / textTotal);
    if (termCov <= 0) continue;
    let raw = termCov * termCov * (0.55 + 0.45 * textCov);
    if (!phrase) raw *= 0.85;
    if (m && m.typos.length > 0) raw *= 0.92;
    if (m && m.kind === 'lay') raw *= 0.97;
    if (!term.current) raw *= 0.97;
    const reasons: string[] = [];
    if (m) {
      const how =
        m.kind === 'exact' ? 'matched' : m.kind === 'reordered' ? 'matched (words reordered)' : m.kind === 'lay' ? `lay term "${m.via}" for` : m.kind === 'variant' ? 'matched variant of' : `list item of "${m.via}" matched`;
      reasons.push(`"${m.text}" ${how} ${term.level} "${term.name}"`);
      if (m.abbreviation) reasons.push('abbreviation expanded');
      for (const ty of m.typos) reasons.push(`spelling corrected: ${ty.from} → ${ty.to}`);
    } else {
      const sharedWords = [...new Set(hitTokens)].sort((a, b) => a - b).map((k) => tokens[k]!.text);
      reasons.push(`partial match: shares "${sharedWords.join(' ')}" with ${term.level} "${term.name}"`);
    }
    if (!term.current) reasons.push('matched term is non-current');
    const spans = m ? [{ start: m.start, end: m.end }] : spansOf(tokens, hitTokens);
    const cand: TextCandidate = {
      ptCode: term.ptCode,
      term: t,
      rawScore: raw,
      phrase,
      ...(m ? { match: m } : {}),
      reasons,
      evidence: spans.map((s) => ({ text: text.slice(s.start, s.end), start: s.start, end: s.end })),
    };
    const prior = best.get(term.ptCode);
    if (!prior || raw > prior.rawScore + 1e-12 || (Math.abs(raw - prior.rawScore) <= 1e-12 && termPreference(vocab, t, prior.term) < 0)) {
      best.set(term.ptCode, cand);
    }
  }
  return [...best.values()]
    .sort((a, b) => b.rawScore - a.rawScore || (b.phrase ? 1 : 0) - (a.phrase ? 1 : 0) || a.ptCode - b.ptCode)
    .slice(0, Math.max(limit, 2));
}

function spansOf(tokens: readonly { start: number; end: number }[], idx: number[]): { start: number; end: number }[] {
  const sorted = [...new Set(idx)].sort((a, b) => a - b);
  const out: { start: number; end: number; last: number }[] = [];
  for (const k of sorted) {
    const t = tokens[k]!;
    const prev = out[out.length - 1];
    if (prev && prev.last === k - 1) {
      prev.end = t.end;
      prev.last = k;
    } else out.push({ start: t.start, end: t.end, last: k });
  }
  return out.map(({ start, end }) => ({ start, end }));
}

/** Ranked PT predictions for one adverse-event description. */
export function classifyText(text: string, vocab: Vocabulary, opts: ClassifyOptions = {}): CodePrediction[] {
  const limit = opts.limit ?? 10;
  const cands = textCandidates(text, vocab, limit);
  const top = cands[0]?.rawScore ?? 0;
  const second = cands[1]?.rawScore ?? 0;
  return cands.slice(0, limit).map((c, rank) => {
    const margin = rank === 0 ? top - second : c.rawScore - top;
    const confidence = calibrateText({ rawScore: c.rawScore, rank, margin, phrase: c.phrase });
    const term = vocab.terms[c.term]!;
    return {
      ptCode: c.ptCode,
      matchedLlt: { code: term.code, name: term.name },
      confidence: round(confidence),
      rawScore: round(c.rawScore),
      reasons: c.reasons,
      evidence: c.evidence,
    };
  });
}
