// Segmentation with exact offsets: sentences and clauses for narratives, and for
// product labels sections (headings kept), bullet items, table rows and sentences.
// Every span satisfies `span.text === source.slice(span.start, span.end)`.

export interface TextSpan {
  start: number;
  end: number;
  text: string;
}

export type UnitKind = 'sentence' | 'bullet' | 'table-row' | 'heading' | 'category';

export interface LabelUnit extends TextSpan {
  kind: UnitKind;
  /** Top-level label section ("ADVERSE REACTIONS"), or "" before any heading. */
  section: string;
  /** Numbered or capitalised sub-heading in force ("6.1 Clinical Trials Experience"), or "". */
  subsection: string;
}

// Words before a full stop that do not end a sentence.
const NON_FINAL = new Set([
  'e.g', 'i.e', 'vs', 'approx', 'dr', 'mr', 'mrs', 'ms', 'no', 'fig', 'al', 'st', 'etc', 'incl', 'excl', 'ca', 'cf',
  'resp', 'min', 'max', 'nos', 'u.s', 'jr', 'sr', 'figs', 'ref', 'vol', 'pt', 'pts', 'hr', 'hrs', 'wk', 'wks', 'mo',
]);

/** Trims a span to its non-blank content (null when empty). */
export function trimSpan(source: string, start: number, end: number): TextSpan | null {
  while (start < end && /\s/.test(source[start]!)) start++;
  while (end > start && /\s/.test(source[end - 1]!)) end--;
  return start < end ? { start, end, text: source.slice(start, end) } : null;
}

function isBoundaryAfterStop(source: string, dot: number, limit: number, caseless = false): boolean {
  // What follows: whitespace then a capital, digit, bullet, bracket or quote (or the end).
  let k = dot + 1;
  while (k < limit && /["')\]]/.test(source[k]!)) k++;
  if (k >= limit) return true;
  if (!/\s/.test(source[k]!)) return false;
  while (k < limit && /\s/.test(source[k]!)) k++;
  if (k >= limit) return true;
  // Text that arrives all lower-case has no capitals to start its sentences: any letter will do.
  if (!/[\p{Lu}\d"'(\[*•·-]/u.test(source[k]!) && !(caseless && /\p{Ll}/u.test(source[k]!))) return false;
  if (source[dot] !== '.') return true;
  // The word before the full stop: abbreviations and initials do not end sentences.
  let w = dot;
  while (w > 0 && /[\p{L}.]/u.test(source[w - 1]!)) w--;
  const word = source.slice(w, dot).toLowerCase();
  if (NON_FINAL.has(word)) return false;
  if (/^\p{L}$/u.test(word) && /\p{Lu}/u.test(source[w]!)) return false;
  return true;
}

/**
 * Sentences of `source[from, to)`: split at sentence punctuation followed by a capital,
 * at blank lines, and at line breaks that start a bullet or follow a line ending a sentence.
 */
export function splitSentences(source: string, from = 0, to = source.length): TextSpan[] {
  const out: TextSpan[] = [];
  let start = from;
  const caseless = !/\p{Lu}/u.test(source.slice(from, to));
  const cut = (end: number) => {
    const s = trimSpan(source, start, end);
    if (s) out.push(s);
    start = end;
  };
  for (let i = from; i < to; i++) {
    const ch = source[i]!;
    if (ch === '.' || ch === '!' || ch === '?') {
      if (isBoundaryAfterStop(source, i, to, caseless)) cut(i + 1);
    } else if (ch === '\n') {
      // Blank line, or a new line that starts a list item, or after a line that ended a sentence/heading.
      let k = i + 1;
      while (k < to && (source[k] === ' ' || source[k] === '\t' || source[k] === '\r')) k++;
      const next = source[k];
      const prevLine = source.slice(source.lastIndexOf('\n', i - 1) + 1, i).trim();
      if (
        next === '\n' ||
        next === undefined ||
        /[*•·▪◦‣–-]/.test(next) ||
        /[.:;!?]$/.test(prevLine) ||
        (prevLine.length > 0 && prevLine.length < 60 && next !== undefined && (/\p{Lu}|\d/u.test(next) || (caseless && /\p{Ll}/u.test(next))))
      ) {
        cut(i);
      }
    }
  }
  cut(to);
  return out;
}

const CLAUSE_WORDS = /\b(?:but|however|whereas|although|though)\b/gi;

/** Clauses of a sentence: split at semicolons and contrastive conjunctions ("…, but no rash"). */
export function splitClauses(source: string, span: TextSpan): TextSpan[] {
  const cuts = new Set<number>();
  for (let i = span.start; i < span.end; i++) if (source[i] === ';') cuts.add(i + 1);
  CLAUSE_WORDS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CLAUSE_WORDS.exec(span.text)) !== null) if (m.index > 0) cuts.add(span.start + m.index);
  const points = [span.start, ...[...cuts].sort((a, b) => a - b), span.end];
  const out: TextSpan[] = [];
  for (let k = 0; k + 1 < points.length; k++) {
    let s = trimSpan(source, points[k]!, points[k + 1]!);
    if (!s) continue;
    // Leave out the separator itself.
    let e = s.end;
    while (e > s.start && /[;,]/.test(source[e - 1]!)) e--;
    s = trimSpan(source, s.start, e);
    if (s) out.push(s);
  }
  return out;
}

// --- product labels ------------------------------------------------------------------------

/** Top-level label sections (US PI / SmPC style), longest first so "WARNINGS AND PRECAUTIONS" wins over "WARNINGS". */
export const LABEL_SECTIONS = [
  'WARNINGS AND PRECAUTIONS', 'BOXED WARNING', 'ADVERSE REACTIONS', 'POSTMARKETING EXPERIENCE', 'POST-MARKETING EXPERIENCE',
  'CLINICAL TRIALS EXPERIENCE', 'INDICATIONS AND USAGE', 'DOSAGE AND ADMINISTRATION', 'DOSAGE FORMS AND STRENGTHS',
  'CONTRAINDICATIONS', 'DRUG INTERACTIONS', 'USE IN SPECIFIC POPULATIONS', 'DRUG ABUSE AND DEPENDENCE', 'OVERDOSAGE',
  'DESCRIPTION', 'CLINICAL PHARMACOLOGY', 'NONCLINICAL TOXICOLOGY', 'CLINICAL STUDIES', 'REFERENCES',
  'HOW SUPPLIED/STORAGE AND HANDLING', 'HOW SUPPLIED', 'PATIENT COUNSELING INFORMATION', 'MEDICATION GUIDE',
  'RECENT MAJOR CHANGES', 'HIGHLIGHTS OF PRESCRIBING INFORMATION', 'UNDESIRABLE EFFECTS', 'SPECIAL WARNINGS AND PRECAUTIONS',
  'SIDE EFFECTS', 'WARNINGS', 'PRECAUTIONS', 'INDICATIONS',
] as const;

const SECTION_RE = new RegExp(
  `^(?:\\d{1,2}(?:\\.\\d{1,2})*\\.?\\s+)?(${LABEL_SECTIONS.map((s) => s.replace(/[/]/g, '\\/')).join('|')})\\b\\s*:?`,
  'i',
);
const NUMBERED_SUB_RE = /^\d{1,2}\.\d{1,2}(?:\.\d{1,2})?\.?\s+\S/;
const BULLET_RE = /^[ \t]*(?:[*•·▪◦‣–-]|o(?=\s)|\(?[a-z0-9]{1,2}\)|\d{1,2}\.(?=\s))[ \t]+/;
const CATEGORY_RE = /\b(?:disorders?|infestations|conditions|investigations|complications|procedures|circumstances|system|body as a whole|general|special senses)\s*:?\s*$/i;

function isUpperHeavy(s: string): boolean {
  const letters = s.replace(/[^\p{L}]/gu, '');
  if (letters.length < 4) return false;
  const upper = letters.replace(/[^\p{Lu}]/gu, '').length;
  return upper / letters.length >= 0.8;
}

/** Cells separated by wide gaps (3+ spaces, tabs or bars), each short: a table row, not spaced-out prose. */
function isTableRow(line: string): boolean {
  const cells = line.trim().split(/ {3,}|\t|\|/).map((c) => c.trim()).filter((c) => c !== '');
  if (cells.length < 2) return false;
  if (cells.some((c) => c.length > 90)) return false;
  // Prose with odd spacing has sentence punctuation inside its cells; rows have figures or short labels.
  if (cells.some((c) => /[a-z]{2}[.;] [A-Z]/.test(c))) return false;
  const shortOrNumeric = cells.slice(1).filter((c) => c.length <= 25 || /^[-\d.,%()<>=≥≤ ]+$/.test(c)).length;
  return shortOrNumeric >= Math.ceil((cells.length - 1) / 2);
}

/** Canonical section name for a heading line, or null. */
export function sectionOf(line: string): string | null {
  const s = line.trim();
  const m = SECTION_RE.exec(s);
  if (!m) {
    if (/^WARNING\b/.test(s) && isUpperHeavy(s)) return 'BOXED WARNING';
    return null;
  }
  const name = m[1]!.toUpperCase();
  // "6.1 Clinical Studies Experience" is a subsection, not the CLINICAL STUDIES section.
  if (/^\d{1,2}\.\d/.test(s) && name !== 'POSTMARKETING EXPERIENCE' && name !== 'POST-MARKETING EXPERIENCE' && name !== 'CLINICAL TRIALS EXPERIENCE') return null;
  const numbered = /^\d/.test(s);
  const rest = s.slice(m[0].length).trim();
  // A real heading: numbered or in capitals, or the bare title alone on its line;
  // never a sentence or cross-reference that happens to begin with the words.
  if (!(numbered || isUpperHeavy(m[0]) || (rest === '' && s.length <= 40))) return null;
  if (/[.]$/.test(s) && !isUpperHeavy(s) && rest.length > 0) return null;
  if (name === 'POST-MARKETING EXPERIENCE') return 'POSTMARKETING EXPERIENCE';
  return name;
}

/**
 * Splits a product label into units for classification, keeping headings: each unit
 * carries its section. Table rows and bullet items are units of their own; prose is
 * split into sentences. Heading lines contribute their text after the section name
 * ("BOXED WARNING: WARNING: LACTIC ACIDOSIS" → "LACTIC ACIDOSIS").
 */
export function segmentLabel(source: string): LabelUnit[] {
  const units: LabelUnit[] = [];
  let section = '';
  let subsection = '';
  let pos = 0;
  let proseStart = -1;
  let proseEnd = -1;
  const flushProse = () => {
    if (proseStart < 0) return;
    for (const s of splitSentences(source, proseStart, proseEnd)) units.push({ ...s, kind: 'sentence', section, subsection });
    proseStart = -1;
  };
  const push = (kind: UnitKind, start: number, end: number) => {
    const s = trimSpan(source, start, end);
    if (s) units.push({ ...s, kind, section, subsection });
  };
  while (pos <= source.length) {
    let nl = source.indexOf('\n', pos);
    if (nl < 0) nl = source.length;
    const lineStart = pos;
    const lineEnd = nl > lineStart && source[nl - 1] === '\r' ? nl - 1 : nl;
    const line = source.slice(lineStart, lineEnd);
    pos = nl + 1;
    const trimmed = line.trim();
    if (trimmed === '') {
      flushProse();
      if (nl >= source.length) break;
      continue;
    }
    const lead = line.length - line.trimStart().length;
    const sec = trimmed.length <= 200 ? sectionOf(trimmed) : null;
    if (sec) {
      flushProse();
      const isSub = sec === 'POSTMARKETING EXPERIENCE' || sec === 'CLINICAL TRIALS EXPERIENCE';
      if (isSub) subsection = trimmed;
      else {
        section = sec;
        subsection = '';
      }
      // Text after the section name (and after "WARNING:") is content, e.g. a boxed warning's title.
      const m = SECTION_RE.exec(trimmed);
      let restAt = lineStart + lead + (m ? m[0].length : 0);
      const rest = source.slice(restAt, lineEnd);
      const w = /^\s*(?:WARNING\S*\s*:?)?\s*/.exec(rest);
      if (w) restAt += w[0].length;
      if (restAt < lineEnd) push('heading', restAt, lineEnd);
    } else if (NUMBERED_SUB_RE.test(trimmed) && trimmed.length <= 120 && !/[.;]$/.test(trimmed)) {
      flushProse();
      subsection = trimmed;
      const m = /^\s*\d{1,2}(?:\.\d{1,2})+\.?\s+/.exec(line)!;
      push('heading', lineStart + m[0].length, lineEnd);
    } else if (BULLET_RE.test(line)) {
      flushProse();
      const m = BULLET_RE.exec(line)!;
      // A long bullet may hold several sentences.
      for (const s of splitSentences(source, lineStart + m[0].length, lineEnd)) units.push({ ...s, kind: 'bullet', section, subsection });
    } else if (isTableRow(line)) {
      flushProse();
      const hasDigits = /\d/.test(trimmed);
      push(!hasDigits && CATEGORY_RE.test(trimmed) ? 'category' : 'table-row', lineStart, lineEnd);
    } else if (trimmed.length <= 80 && !/\d/.test(trimmed) && CATEGORY_RE.test(trimmed) && !/[.;]$/.test(trimmed) && !/:\s*\S/.test(trimmed)) {
      // ("Urogenital System: cystitis, menstrual disorder" lists reactions after its colon: not a category line.)
      flushProse();
      push('category', lineStart, lineEnd);
    } else if (trimmed.length <= 100 && isUpperHeavy(trimmed) && !/[.]$/.test(trimmed)) {
      flushProse();
      subsection = trimmed;
      push('heading', lineStart, lineEnd);
    } else {
      if (proseStart < 0) proseStart = lineStart;
      proseEnd = lineEnd;
    }
    if (nl >= source.length) break;
  }
  flushProse();
  return units;
}
