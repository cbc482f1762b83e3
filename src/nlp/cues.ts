// Finding phrase cues in a narrative with their NegEx context: a cue inside a negated,
// ruled-out, historical or family scope ("did not require hospitalisation", "history of
// stroke") does not count; a hypothetical one ("risk of death") counts weakly.
import { cuesCovering, findContextCues, type ContextCue, type ContextKind } from './context.ts';
import { splitSentences } from './segment.ts';
import { tokenize, type Token } from './text.ts';

export interface CueHit {
  /** Verbatim text of the cue: `source.slice(start, end)`. */
  text: string;
  start: number;
  end: number;
  /** The sentence it sits in (verbatim). */
  sentence: string;
  /** Context kinds whose scope covers the cue. */
  context: ContextKind[];
  /** The cue was stated as a fact (not negated, ruled out, historical, family or hypothetical). */
  affirmed: boolean;
}

export interface AnalysedSentence {
  start: number;
  end: number;
  text: string;
  tokens: Token[];
  cues: ContextCue[];
}

const NOT_AFFIRMED: ReadonlySet<ContextKind> = new Set(['negated', 'uncertain', 'historical', 'family', 'hypothetical', 'monitoring']);

/** Sentences with tokens and context cues (computed once per text). */
export function analyseSentences(text: string): AnalysedSentence[] {
  return splitSentences(text).map((s) => {
    const tokens = tokenize(text, s.start, s.end);
    return { ...s, tokens, cues: findContextCues(text, tokens) };
  });
}

/** Index of the first token ending after `pos` (tokens are in text order). */
function firstEndingAfter(tokens: readonly Token[], pos: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens[mid]!.end > pos) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Every match of `re` (global, case-insensitive expected) with its context. */
export function findCues(text: string, sentences: readonly AnalysedSentence[], re: RegExp): CueHit[] {
  const out: CueHit[] = [];
  for (const s of sentences) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(s.text)) !== null) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      const start = s.start + m.index;
      const end = start + m[0].length;
      // Tokens overlapping the match, found by bisection: a scan per match was quadratic
      // on a long sentence repeating a cue.
      let from = firstEndingAfter(s.tokens, start);
      let to = from;
      while (to < s.tokens.length && s.tokens[to]!.start < end) to++;
      if (to === from) from = to = -1;
      const context = from < 0 ? [] : [...new Set(cuesCovering(s.cues, from, to).map((c) => c.kind))];
      out.push({ text: text.slice(start, end), start, end, sentence: s.text, context, affirmed: !context.some((k) => NOT_AFFIRMED.has(k)) });
    }
  }
  return out;
}

/** "quote" (in context) — a reason string quoting the evidence verbatim. */
export function quote(hit: CueHit): string {
  return `"${hit.text}"${hit.context.length ? ` (${hit.context.join(', ')})` : ''}`;
}
