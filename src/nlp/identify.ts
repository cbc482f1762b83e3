// Narrative → discrete adverse-event statements (no codes). Each clause is matched
// against the release's terms (which normalises lay language, abbreviations and typos);
// negated, ruled-out, historical, family and conditional mentions are left out; one
// event per distinct finding, described by a self-contained sentence drawn from the text.
import { calibrateIdentify, type CalibrationParams, type IdentifyFeatureInput } from './calibration.ts';
import { CALIBRATION } from './calibration-params.ts';
import { findContextCues, cuesCovering, type ContextCue } from './context.ts';
import { matchTerms, prepareTokens, type TermMatch } from './match.ts';
import { splitClauses, splitSentences, type TextSpan } from './segment.ts';
import { tokenize, type Token } from './text.ts';
import type { Vocabulary } from './vocabulary.ts';

export interface IdentifiedEvent {
  /** A self-contained statement of one adverse event, in the narrative's words. */
  description: string;
  /** Verbatim quotes of the evidence: the finding as written, then the clause it sits in. */
  reasons: string[];
  /**
   * 0–1: how likely this is a genuine adverse-event statement — a logistic calibration of the
   * rule evidence (match kind, typo, context, repeated mentions), fitted on TAC 2017 label
   * sections (see docs/nlp.md, Calibration).
   */
  confidence: number;
  /** Span of the narrative the statement comes from (the clause; the finding itself in a list). */
  start: number;
  end: number;
  /** Spans of the finding as written, each mention merged into the event (the matched words), in order. */
  mentions: { start: number; end: number }[];
}

const SKIP_HYPOTHETICAL = new Set([
  'if', 'in case of', 'unless', 'in the event of', 'monitor', 'monitor for', 'watch for', 'risk of', 'risks of', 'at risk for',
  'at risk of', 'should', 'potential', 'potential for',
]);
const KIND_CONF: Record<TermMatch['kind'], number> = { exact: 0.9, reordered: 0.85, variant: 0.8, lay: 0.82, coordination: 0.78 };
const EVENT_VERB = /\b(?:developed|experienced|suffered(?: from)?|complained of|presented with|reported|noticed|had)\s+(?:an?\s+|some\s+|(?:severe|mild|moderate|marked)\s+)*([a-z][a-z -]{2,40}?)(?=\s*[,.;]|\s+(?:and|after|on|for|which|that|but|since|following|at|in|within|the)\b|\s*$)/gi;
// A list separator may end in an article: "a headache and a fever".
const LIST_SEP = /^[\s,/]*(?:(?:and|or|and\/or|as well as)\b[\s,]*)?(?:(?:an?|the|some)\s+)?$/i;
const NOT_EVENT_WORDS = /^(?:(?:no|any|the|a|his|her|their|been|to|it|this|that|dose|doses|vaccine|treatment|therapy|medication|surgery)\b|.*\b(?:dose|vaccin\w*|injection)$)/i;

interface Found {
  ptCode: number;
  match?: TermMatch;
  mentionStart: number;
  mentionEnd: number;
  mention: string;
  /** Rule strength: match kind × context factor × typo penalty. */
  confidence: number;
  features: Omit<IdentifyFeatureInput, 'mentions'>;
}

/** An identified event with the rule evidence behind it (for calibration and evaluation). */
export interface IdentifiedEventDetail {
  /** The event with its uncalibrated rule-strength confidence (noisy-or over repeated mentions). */
  event: IdentifiedEvent;
  /** Calibration features of the event (strongest mention; number of mentions merged). */
  features: IdentifyFeatureInput;
  /** Character spans of every mention merged into the event (the finding as written). */
  mentions: { start: number; end: number }[];
}

/** Population, indication or animal context: named in the text, not necessarily happening. */
const OTHER_CONTEXT = new Set(['population', 'indication', 'animal']);

function excluded(cues: readonly ContextCue[]): { skip: boolean; factor: number } {
  let factor = 1;
  for (const c of cues) {
    if (c.kind === 'negated' || c.kind === 'uncertain' || c.kind === 'historical' || c.kind === 'family' || c.kind === 'monitoring') {
      return { skip: true, factor: 0 };
    }
    if (c.kind === 'hypothetical') {
      if (SKIP_HYPOTHETICAL.has(c.trigger.toLowerCase())) return { skip: true, factor: 0 };
      factor *= 0.6;
    }
    if (c.kind === 'possible') factor *= 0.75;
  }
  return { skip: false, factor };
}

// Trailing trims by hand: a regex such as /[\s,;:]+$/ retries from every position of a long
// run ("nausea" + 100k blanks + "x vomiting") and is quadratic.
const SEPARATORS = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\u00a0', ',', ';', ':']);

function trimEndOf(s: string, chars: ReadonlySet<string>): string {
  let e = s.length;
  while (e > 0 && (chars.has(s[e - 1]!) || /\s/.test(s[e - 1]!))) e--;
  return s.slice(0, e);
}

const WITH_DOT = new Set([...SEPARATORS, '.']);
const TAIL_WORD = /\b(?:(?:and|or|then|with|of|from|due to|secondary to|followed by|after which)(?:\s+(?:an?|the|some))?)$/i;

/** Drops trailing separators and linking words ("…, and then"). */
function trimLinkingTail(s: string): string {
  let t = trimEndOf(s, SEPARATORS);
  for (;;) {
    // The longest linking phrase is 17 characters; look at a bounded tail only.
    const m = TAIL_WORD.exec(t.slice(-24));
    if (!m) return t;
    t = trimEndOf(t.slice(0, t.length - m[0].length), SEPARATORS);
  }
}

function tidy(s: string): string {
  let t = trimEndOf(s.replace(/\s+/g, ' ').trim().replace(/^(?:and|but|then|also|however|although|though|whereas)\b[\s,]*/i, ''), WITH_DOT);
  if (t.length > 0) t = t[0]!.toUpperCase() + t.slice(1);
  return t.length > 0 ? `${t}.` : t;
}

function wordsIn(tokens: readonly Token[], start: number, end: number): number {
  return tokens.filter((t) => t.start >= start && t.end <= end).length;
}

/** Discrete adverse-event statements in a narrative, in order of appearance (calibrated confidences). */
export function identifyEvents(text: string, vocab: Vocabulary, params: CalibrationParams = CALIBRATION): IdentifiedEvent[] {
  return identifyEventDetails(text, vocab).map((d) => ({ ...d.event, confidence: round(calibrateIdentify(d.features, params)) }));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** identifyEvents with the rule evidence of each event and uncalibrated confidences. */
export function identifyEventDetails(text: string, vocab: Vocabulary): IdentifiedEventDetail[] {
  const events: (IdentifiedEventDetail & { strength: number })[] = [];
  const byPt = new Map<number, IdentifiedEventDetail & { strength: number }>();
  for (const sentence of splitSentences(text)) {
    for (const clause of splitClauses(text, sentence)) {
      const tokens = tokenize(text, clause.start, clause.end);
      if (tokens.length === 0) continue;
      const prepared = prepareTokens(tokens, vocab, true);
      const matches = matchTerms(text, tokens, vocab, { typos: true, splitConjunctions: true, prepared });
      const cues = findContextCues(text, tokens);
      const found: Found[] = [];
      for (const m of matches) {
        const { skip, factor } = excluded(cuesCovering(cues, m.from, m.to));
        if (skip) continue;
        let confidence = KIND_CONF[m.kind] * factor;
        if (m.typos.length > 0) confidence *= 0.85;
        const other = cuesCovering(cues, m.from, m.to).some((c) => OTHER_CONTEXT.has(c.kind));
        found.push({
          ptCode: vocab.terms[m.term]!.ptCode,
          match: m,
          mentionStart: m.start,
          mentionEnd: m.end,
          mention: m.text,
          confidence,
          features: { kind: m.kind, typo: m.typos.length > 0, factor, words: m.words, otherContext: other, abbreviation: m.abbreviation },
        });
      }
      if (found.length === 0 && matches.length === 0) {
        // No known term: a reporting verb and its object may still state an event.
        EVENT_VERB.lastIndex = 0;
        let vm: RegExpExecArray | null;
        while ((vm = EVENT_VERB.exec(clause.text)) !== null) {
          const obj = vm[1]!.trim();
          if (NOT_EVENT_WORDS.test(obj)) continue;
          const start = clause.start + vm.index + vm[0].lastIndexOf(obj);
          const end = start + obj.length;
          const from = tokens.findIndex((t) => t.start >= start);
          const covering = from >= 0 ? cuesCovering(cues, from, from + 1) : [];
          const { skip, factor } = excluded(covering);
          if (skip) continue;
          found.push({
            ptCode: -1 - start,
            mentionStart: start,
            mentionEnd: end,
            mention: text.slice(start, end),
            confidence: 0.35,
            features: { kind: 'verb', typo: false, factor, words: 0, otherContext: covering.some((c) => OTHER_CONTEXT.has(c.kind)), abbreviation: false },
          });
        }
      }
      if (found.length === 0) continue;
      found.sort((a, b) => a.mentionStart - b.mentionStart);
      const single = new Set(found.map((f) => f.ptCode)).size === 1;
      const first = found[0]!;
      const last = found[found.length - 1]!;
      // A plain list ("nausea, vomiting and diarrhoea") shares the clause's subject and circumstances.
      const contiguous = found.every((f, i) => i === 0 || LIST_SEP.test(text.slice(found[i - 1]!.mentionEnd, f.mentionStart)));
      const prefixOk = wordsIn(tokens, clause.start, first.mentionStart) <= 12;
      const prefix = prefixOk ? trimEndOf(text.slice(clause.start, first.mentionStart), SEPARATORS) : '';
      for (const [i, f] of found.entries()) {
        const prior = byPt.get(f.ptCode);
        if (prior) {
          // The same finding again: one event, more evidence.
          const ev = prior.event;
          if (!ev.reasons.includes(f.mention)) ev.reasons.push(f.mention);
          if (!ev.reasons.includes(clause.text)) ev.reasons.push(clause.text);
          ev.confidence = round(Math.min(0.98, 1 - (1 - ev.confidence) * (1 - f.confidence * 0.5)));
          prior.mentions.push({ start: f.mentionStart, end: f.mentionEnd });
          const mentions = prior.features.mentions + 1;
          if (f.confidence > prior.strength) {
            prior.features = { ...f.features, mentions };
            prior.strength = f.confidence;
          } else prior.features.mentions = mentions;
          continue;
        }
        let description: string;
        let span: TextSpan;
        if (single) {
          description = tidy(clause.text);
          span = clause;
        } else if (contiguous) {
          // "The patient developed nausea, vomiting and diarrhoea after dose 2" → one statement per finding.
          const suffix = wordsIn(tokens, last.mentionEnd, clause.end) <= 12 ? text.slice(last.mentionEnd, clause.end).replace(/^[\s,;:]+/, '') : '';
          description = tidy(`${prefix} ${f.mention} ${suffix}`);
          span = { start: f.mentionStart, end: f.mentionEnd, text: f.mention };
        } else {
          // Findings in sequence ("tummy ache, then diarrhoea x6 per day"): each keeps its own words.
          const next = found[i + 1];
          const own = trimLinkingTail(text.slice(f.mentionStart, next ? next.mentionStart : clause.end));
          description = tidy(i === 0 ? `${prefix} ${own}` : own);
          span = { start: f.mentionStart, end: f.mentionStart + own.length, text: own };
        }
        const ev: IdentifiedEvent = {
          description,
          reasons: single && f.mention === clause.text ? [f.mention] : [f.mention, clause.text],
          confidence: round(f.confidence),
          start: span.start,
          end: span.end,
          mentions: [{ start: f.mentionStart, end: f.mentionEnd }],
        };
        // One list: a repeated mention pushed on the detail is on the event too.
        const detail = { event: ev, features: { ...f.features, mentions: 1 }, mentions: ev.mentions, strength: f.confidence };
        byPt.set(f.ptCode, detail);
        events.push(detail);
      }
    }
  }
  return events
    .sort((a, b) => a.event.start - b.event.start || a.event.end - b.event.end)
    .map(({ event, features, mentions }) => ({ event, features, mentions }));
}
