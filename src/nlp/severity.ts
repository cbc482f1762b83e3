// Severity: CTCAE-style 5-level grade (1 Mild … 5 Death) and the 3-level scale
// (mild | moderate | severe). Explicit cues decide first ("grade 3", "died",
// "life-threatening", "hospitalised", "required IV fluids", "moderate"); when the
// predicted PT has grade definitions in the vocabulary, the narrative is also matched
// against them (shared words, and counts such as "6 episodes" against "3-5 episodes").
// Confidences are logistic calibrations of the rule evidence, fitted on the dev half of the
// project's labelled narrative set (data/eval/narratives.json; see docs/nlp.md, Calibration).
import {
  calibrateCtcae,
  calibrateSimple,
  type CalibrationParams,
  type CtcaeFeatureInput,
  type GradeSource,
  type SimpleFeatureInput,
} from './calibration.ts';
import { CALIBRATION } from './calibration-params.ts';
import { analyseSentences, findCues, quote, type AnalysedSentence } from './cues.ts';
import { tokenize } from './text.ts';
import type { Vocabulary } from './vocabulary.ts';

export type SeveritySystem = '5-level' | '3-level';
export type SimpleGrade = 'mild' | 'moderate' | 'severe';

export const CTCAE_LABELS: Readonly<Record<number, string>> = { 1: 'Mild', 2: 'Moderate', 3: 'Severe', 4: 'Life-threatening', 5: 'Death' };

export interface SeverityAssessment {
  ctcae?: { value: { grade: number; label: string }; confidence: number; reasons: string[] };
  simple?: { value: { grade: SimpleGrade }; confidence: number; reasons: string[] };
}

export interface SeverityOptions {
  systems: readonly SeveritySystem[];
  /** The event's PT (e.g. classifyText's top prediction): its grade definitions are consulted when the vocabulary has them. */
  ptCode?: number;
  vocab?: Vocabulary;
  /** Calibration parameters (default: the shipped ones). */
  calibration?: CalibrationParams;
}

interface GradeRule {
  re: RegExp;
  grade: number;
  strength: number;
  what: string;
}

const g = (source: string, grade: number, strength: number, what: string): GradeRule => ({ re: new RegExp(source, 'giu'), grade, strength, what });

const GRADE_RULES: GradeRule[] = [
  g(String.raw`\b(?:died|death|deceased|fatal(?:ity)?|passed away|(?:found|pronounced) dead|dead on arrival)\b|\b(?:resuscitation|CPR) (?:was |were )?unsuccessful\b`, 5, 0.9, 'death'),
  g(String.raw`\blife[- ]?threatening\b|\b(?:cardiac|respiratory|cardiopulmonary) arrest\b|\bintubat\w*|\bmechanical(?:ly)? ventilat\w*|\bvasopressors?\b|\bresuscitat\w*|\banaphylactic shock\b|\burgent intervention\b|\b(?:intensive (?:care|therapy)|ICU|ITU|PICU)\b`, 4, 0.8, 'life-threatening consequences or urgent intervention'),
  g(String.raw`\bhospitali[sz](?:ed|ation|e)\b|\badmitted\b|\badmission\b|\bin[- ]?patient\b`, 3, 0.75, 'hospitalisation'),
  // Outpatient IV hydration is grade 2 in CTCAE's gastrointestinal and metabolic terms; transfusion,
  // parenteral nutrition and tube feeding are grade 3.
  g(String.raw`\b(?:IV|intravenous|i\.v\.) (?:fluids?|hydration|rehydration|saline)\b`, 2, 0.6, 'IV fluids'),
  g(String.raw`\b(?:blood )?transfus\w+|\bTPN\b|\btotal parenteral nutrition\b|\btube feeding\b`, 3, 0.6, 'transfusion, parenteral nutrition or tube feeding'),
  g(String.raw`\b(?:IM|intramuscular|IV|intravenous|i\.v\.) (?:epinephrine|adrenaline|steroids?|corticosteroids?|hydrocortisone|antihistamines?|antibiotics?|immunoglobulin|IVIG)\b|\bIVIG\b`, 3, 0.6, 'parenteral (IV/IM) treatment'),
  g(String.raw`\b(?:surgical|operative) (?:intervention|drainage|repair|reduction)\b|\b(?:needed|needing|required|requiring) surgery\b|\btaken to theatre\b`, 3, 0.6, 'operative intervention'),
  g(String.raw`\blimiting self[- ]care\b|\b(?:cannot|can't|could not|unable to) (?:wash|dress|feed|bathe|look after)\b|\bneeds? help to (?:wash|dress|eat)\b|\bbed[- ]?(?:ridden|bound)\b|\bunable to (?:work|walk|eat|drink|get out of bed|perform daily)\b|\bincapacitat\w*|\bdisabling\b`, 3, 0.7, 'limits self-care'),
  g(String.raw`\bsevere(?:ly)?\b|\bsev\b|\bintense\b|\bexcruciating\b|\bunbearable\b`, 3, 0.65, '"severe"'),
  g(String.raw`\bprescri(?:bed|ption)\b|\b(?:treated|managed) with (?:oral |topical )?\w+`, 2, 0.5, 'medical intervention'),
  g(String.raw`\bmoderate(?:ly)?\b|\bmod\b|\blimiting instrumental\b|\b(?:required|requiring|needed|prescribed) (?:oral |outpatient )?(?:medication|treatment|antibiotics|steroids|antiemetics?|analgesics?|therapy)\b|\bmedical intervention\b|\boutpatient\b`, 2, 0.6, 'moderate or needing medical intervention'),
  g(String.raw`\bmild(?:ly)?\b|\bslight(?:ly)?\b|\bminor\b|\basymptomatic\b|\bself[- ]limit\w+|\b(?:without|no) (?:treatment|intervention)\b|\bintervention not indicated\b|\btransient\b`, 1, 0.6, 'mild'),
];

const EXPLICIT = /\b(?:ctcae\s*(?:v(?:ersion)?\s*\d+(?:\.\d+)?\s*)?)?grade\s*([1-5]|i{1,3}|iv|v)(?:\s*(?:-|–|\/|to|or)\s*([1-5]|i{1,3}|iv|v))?\b|\bG([1-5])\b/giu;
const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5 };
const gradeOf = (s: string): number => (/^\d$/.test(s) ? Number(s) : ROMAN[s.toLowerCase()] ?? 0);

interface Evidence {
  grade: number;
  confidence: number;
  reasons: string[];
  source?: GradeSource;
}

function explicitGrade(text: string, sentences: readonly AnalysedSentence[]): Evidence | undefined {
  let best: Evidence | undefined;
  for (const hit of findCues(text, sentences, EXPLICIT)) {
    if (!hit.affirmed) continue;
    EXPLICIT.lastIndex = 0;
    const m = EXPLICIT.exec(hit.text);
    if (!m) continue;
    const a = gradeOf(m[1] ?? m[3] ?? '');
    const b = m[2] ? gradeOf(m[2]) : 0;
    const grade = Math.max(a, b);
    if (grade < 1 || grade > 5) continue;
    const confidence = b ? 0.8 : 0.95;
    if (!best || grade > best.grade) best = { grade, confidence, reasons: [`explicit grade: ${quote(hit)}`] };
  }
  return best;
}

function cueGrade(text: string, sentences: readonly AnalysedSentence[]): { best?: Evidence; all: Evidence[] } {
  const all: Evidence[] = [];
  for (const rule of GRADE_RULES) {
    for (const hit of findCues(text, sentences, rule.re)) {
      if (!hit.affirmed) continue;
      all.push({ grade: rule.grade, confidence: rule.strength, reasons: [`${rule.what}: ${quote(hit)}`] });
    }
  }
  // The worst documented outcome decides; agreeing cues add confidence.
  const sorted = [...all].sort((a, b) => b.grade - a.grade || b.confidence - a.confidence);
  const top = sorted[0];
  if (!top) return { all };
  const agreeing = sorted.filter((e) => e.grade === top.grade);
  const confidence = 1 - agreeing.reduce((p, e) => p * (1 - e.confidence * 0.6), 1 - top.confidence);
  return { best: { grade: top.grade, confidence: Math.min(0.95, confidence), reasons: agreeing.flatMap((e) => e.reasons) }, all };
}

const RANGE_UNITS = /(episodes?|stools?|times|bowel movements?|loose stools?)/;

/** Numeric ranges in a grade definition: "3 - 5 episodes", "<4 stools", ">=6 episodes". */
function rangesOf(def: string): { lo: number; hi: number }[] {
  const out: { lo: number; hi: number }[] = [];
  const d = def.replace(/≥/g, '>=').replace(/≤/g, '<=');
  for (const m of d.matchAll(/(\d+)\s*(?:-|–|to)\s*(\d+)\s*(?=\w)/g)) if (RANGE_UNITS.test(d.slice(m.index!, m.index! + 40))) out.push({ lo: Number(m[1]), hi: Number(m[2]) });
  for (const m of d.matchAll(/(>=|>|<=|<)\s*(\d+)/g)) {
    if (!RANGE_UNITS.test(d.slice(m.index!, m.index! + 40))) continue;
    const n = Number(m[2]);
    if (m[1] === '>=') out.push({ lo: n, hi: Infinity });
    else if (m[1] === '>') out.push({ lo: n + 1, hi: Infinity });
    else if (m[1] === '<=') out.push({ lo: 0, hi: n });
    else out.push({ lo: 0, hi: n - 1 });
  }
  return out;
}

const WORD_NUMBERS: Record<string, number> = { once: 1, twice: 2, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
const GENERIC = new Set(['indic', 'intervent', 'not', 'with', 'or', 'and', 'of', 'to', 'in', 'the', 'a', 'per', 'day', 'baselin', 'symptom', 'consequ', 'over', 'life', 'threaten']);

/** Matches the narrative against a term's grade definitions (grades 1–5). */
function definitionGrade(text: string, defs: Readonly<Record<number, string>>): Evidence | undefined {
  const tokens = tokenize(text);
  const words = new Set(tokens.filter((t) => !t.stop).map((t) => t.canon));
  // Counts in the narrative: "6 episodes", "vomited six times".
  const counts: number[] = [];
  const lower = text.toLowerCase();
  for (const m of lower.matchAll(/\b(\d+|once|twice|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*(?:x\s*)?(?:\w+\s+){0,2}?(episodes?|stools?|times|bowel movements?)\b/g)) {
    counts.push(WORD_NUMBERS[m[1]!] ?? Number(m[1]));
  }
  for (const m of lower.matchAll(/\b(once|twice)\b/g)) counts.push(WORD_NUMBERS[m[1]!]!);
  const scores: { grade: number; score: number; why: string }[] = [];
  for (let grade = 1; grade <= 5; grade++) {
    const def = defs[grade];
    if (!def) continue;
    let score = 0;
    const shared: string[] = [];
    for (const t of tokenize(def)) {
      if (t.stop || GENERIC.has(t.canon) || t.numeric) continue;
      if (words.has(t.canon) && !shared.includes(t.text.toLowerCase())) {
        shared.push(t.text.toLowerCase());
        score += 1;
      }
    }
    let why = shared.length ? `shares "${shared.join(', ')}" with grade ${grade} definition "${def}"` : '';
    for (const rg of rangesOf(def)) {
      const n = counts.find((c) => c >= rg.lo && c <= rg.hi);
      if (n !== undefined) {
        score += 2;
        why = `count ${n} falls in grade ${grade} definition "${def}"`;
      }
    }
    if (score > 0) scores.push({ grade, score, why });
  }
  scores.sort((a, b) => b.score - a.score || b.grade - a.grade);
  const top = scores[0];
  if (!top) return undefined;
  const second = scores[1]?.score ?? 0;
  if (top.score === second) return undefined;
  return { grade: top.grade, confidence: Math.min(0.75, 0.4 + 0.12 * (top.score - second)), reasons: [top.why] };
}

function simpleFrom(text: string, sentences: readonly AnalysedSentence[], ctcae: Evidence): { grade: SimpleGrade; confidence: number; reasons: string[]; stated: boolean } {
  const words: [SimpleGrade, RegExp][] = [
    ['severe', /\bsevere(?:ly)?\b|\bsev\b|\bintense\b|\bexcruciating\b|\bunbearable\b/giu],
    ['moderate', /\bmoderate(?:ly)?\b|\bmod\b/giu],
    ['mild', /\bmild(?:ly)?\b|\bslight(?:ly)?\b|\bminor\b/giu],
  ];
  for (const [grade, re] of words) {
    const hit = findCues(text, sentences, re).find((h) => h.affirmed);
    if (hit) {
      // An outcome worse than the word ("mild … hospitalised") still makes it severe.
      if (ctcae.grade >= 3 && grade !== 'severe' && ctcae.confidence >= 0.7) break;
      return { grade, confidence: 0.85, reasons: [`stated: ${quote(hit)}`], stated: true };
    }
  }
  const grade: SimpleGrade = ctcae.grade <= 1 ? 'mild' : ctcae.grade === 2 ? 'moderate' : 'severe';
  return { grade, confidence: Math.round(Math.min(0.9, ctcae.confidence * 0.95 + (ctcae.grade >= 3 ? 0.05 : 0)) * 1e4) / 1e4, reasons: [`from grade ${ctcae.grade}`, ...ctcae.reasons], stated: false };
}

/** The rule evidence behind a severity assessment (uncalibrated rule strengths), for calibration and evaluation. */
export interface SeverityEvidence {
  ctcae: CtcaeFeatureInput & { reasons: string[] };
  simple: SimpleFeatureInput & { reasons: string[] };
}

/** Severity of the event a narrative describes, in the grading systems asked for; calibrated confidences. */
export function assessSeverity(text: string, opts: SeverityOptions): SeverityAssessment {
  const ev = severityEvidence(text, opts);
  const params = opts.calibration ?? CALIBRATION;
  const out: SeverityAssessment = {};
  if (opts.systems.includes('5-level')) {
    const { grade, reasons } = ev.ctcae;
    out.ctcae = { value: { grade, label: CTCAE_LABELS[grade]! }, confidence: round(calibrateCtcae(ev.ctcae, params)), reasons };
  }
  if (opts.systems.includes('3-level')) {
    out.simple = { value: { grade: ev.simple.grade }, confidence: round(calibrateSimple(ev.simple, params)), reasons: ev.simple.reasons };
  }
  return out;
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** assessSeverity (both systems) before calibration, with the features the calibration reads. */
export function severityEvidence(text: string, opts: Pick<SeverityOptions, 'ptCode' | 'vocab'> = {}): SeverityEvidence {
  const sentences = analyseSentences(text);
  const explicit = explicitGrade(text, sentences);
  const cues = cueGrade(text, sentences).best;
  const defs = opts.ptCode !== undefined ? opts.vocab?.grades.get(opts.ptCode) : undefined;
  const fromDefs = defs ? definitionGrade(text, defs) : undefined;
  let ev: Evidence;
  if (explicit) ev = { ...explicit, source: 'explicit' };
  else if (cues && fromDefs) {
    ev =
      fromDefs.grade === cues.grade
        ? { grade: cues.grade, confidence: Math.min(0.95, 1 - (1 - cues.confidence) * (1 - fromDefs.confidence)), reasons: [...cues.reasons, ...fromDefs.reasons], source: 'agree' }
        : cues.grade >= 4 || cues.confidence >= fromDefs.confidence
          ? { ...cues, confidence: cues.confidence * 0.85, reasons: [...cues.reasons, `grade definitions suggested grade ${fromDefs.grade}`], source: 'conflict' }
          : { ...fromDefs, reasons: [...fromDefs.reasons, `cues suggested grade ${cues.grade}`], source: 'conflict' };
  } else if (cues) ev = { ...cues, source: 'cue' };
  else if (fromDefs) ev = { ...fromDefs, source: 'definition' };
  else ev = { grade: 1, confidence: 0.4, reasons: ['no severity cue: mild assumed'], source: 'default' };
  const s = simpleFrom(text, sentences, ev);
  return {
    ctcae: { grade: ev.grade, source: ev.source!, rawConfidence: round(ev.confidence), reasons: ev.reasons },
    simple: { grade: s.grade, stated: s.stated, rawConfidence: s.confidence, default: ev.source === 'default', reasons: s.reasons },
  };
}
