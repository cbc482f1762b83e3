// Whole product labels → PT predictions: the label is segmented (sections kept,
// bullets and table rows as units), each unit is matched against the vocabulary,
// mentions are weighed by section and context (negated, animal, population,
// indication…), and the evidence is aggregated per PT (noisy-or) and calibrated.
import { calibrateLabel, round, type LabelFeatureInput } from './calibration.ts';
import { cuesCovering, findContextCues, type ContextCue, type ContextKind } from './context.ts';
import { matchTerms, siteListMatches, valueMatches, type TermMatch } from './match.ts';
import { segmentLabel, type LabelUnit, type UnitKind } from './segment.ts';
import { tokenize, type Token } from './text.ts';
import type { Vocabulary } from './vocabulary.ts';

/** Kind of label section (request option `sectionType`, or detected from the heading or the text). */
export const SECTION_TYPES = [
  'adverse_reactions', 'warnings_precautions', 'boxed_warning', 'specific_populations', 'overdosage', 'clinical_studies',
  'indications', 'other',
] as const;
export type SectionType = (typeof SECTION_TYPES)[number];

/** The clause-level context a mention was found in; only `adverse_event` mentions are coded unless asked. */
export const LABEL_CONTEXTS = ['adverse_event', 'indication', 'population', 'animal', 'negated', 'hypothetical', 'overdose'] as const;
export type LabelContext = (typeof LABEL_CONTEXTS)[number];

export interface LabelSnippet {
  /** Stable within one result: "u<unit index>". */
  id: string;
  /** Context of the mention within its sentence or clause. */
  context: LabelContext;
  /** The mention itself (the evidence span): exactly `label.slice(start, end)`. */
  mention: { text: string; start: number; end: number };
  /** Top-level label section the snippet sits in ("ADVERSE REACTIONS"), or "" when the label has no headings. */
  section: string;
  /** Exactly `label.slice(start, end)`. */
  text: string;
  start: number;
  end: number;
  /** Uncalibrated likelihood that the snippet reports this PT as an adverse reaction (0–1). */
  likelihood: number;
  /** Calibrated confidence of the PT on this snippet's evidence alone. */
  confidence: number;
  explanations: string[];
}

export interface LabelPrediction {
  ptCode: number;
  /** Calibrated: among predictions given confidence p, about p are PTs of the label. */
  confidence: number;
  /** Uncalibrated aggregate (noisy-or of snippet likelihoods). */
  rawScore: number;
  reasons: string[];
  supportingSnippets: LabelSnippet[];
}

export interface LabelOptions {
  /** Cap on returned PTs (default 25; the REST layer allows at most 100). */
  maxResults?: number;
  /** PTs below this calibrated confidence are dropped (default 0.25). */
  minConfidence?: number;
  /** Snippets kept per PT, best first (default 5). */
  maxSnippets?: number;
  /** Kind of section the text is (units before any heading are read as that section); detected when absent. */
  sectionType?: SectionType;
  /** Contexts whose mentions are coded (default: adverse_event only). */
  contexts?: readonly LabelContext[];
  /** Also list the candidates dropped because of their context (classifyLabelDetailed). */
  includeExcluded?: boolean;
  /** Read text before the first heading as the section type detected from its wording (default false: measured, it drops real findings — docs/nlp.md). */
  weighDetected?: boolean;
  /** Read text before the first heading as a confidently detected overdose, study or indication text (default true; false for the per-fold comparison). */
  weighConfident?: boolean;
  /** Read a pasted contraindications text's conditions as the patients excluded (default true; false for the per-label comparison). */
  readContraindications?: boolean;
}

/** A candidate code dropped because none of its mentions is in a requested context. */
export interface ExcludedCandidate {
  ptCode: number;
  context: LabelContext;
  mention: { text: string; start: number; end: number };
  snippet: { text: string; start: number; end: number; section: string };
  explanations: string[];
}

export interface LabelClassification {
  codes: LabelPrediction[];
  /** The section type used: the request's, else the first heading's, else detected from the text (null: unknown). */
  sectionType: SectionType | null;
  sectionTypeSource: 'request' | 'heading' | 'text' | 'none';
  excluded: ExcludedCandidate[];
}

/** How much a section's mentions speak for an adverse reaction. */
export const SECTION_WEIGHT: Readonly<Record<string, number>> = {
  '': 1,
  'BOXED WARNING': 1,
  'WARNINGS AND PRECAUTIONS': 1,
  'SPECIAL WARNINGS AND PRECAUTIONS': 1,
  WARNINGS: 1,
  PRECAUTIONS: 0.9,
  'ADVERSE REACTIONS': 1,
  'UNDESIRABLE EFFECTS': 1,
  'SIDE EFFECTS': 1,
  'POSTMARKETING EXPERIENCE': 1,
  'CLINICAL TRIALS EXPERIENCE': 1,
  OVERDOSAGE: 0.7,
  'DRUG ABUSE AND DEPENDENCE': 0.7,
  'PATIENT COUNSELING INFORMATION': 0.6,
  'MEDICATION GUIDE': 0.6,
  'DRUG INTERACTIONS': 0.5,
  'USE IN SPECIFIC POPULATIONS': 0.5,
  'DOSAGE AND ADMINISTRATION': 0.5,
  'RECENT MAJOR CHANGES': 0.5,
  'HIGHLIGHTS OF PRESCRIBING INFORMATION': 0.8,
  CONTRAINDICATIONS: 0.3,
  'CLINICAL PHARMACOLOGY': 0.3,
  'CLINICAL STUDIES': 0.3,
  'NONCLINICAL TOXICOLOGY': 0.15,
  'DOSAGE FORMS AND STRENGTHS': 0.05,
  'INDICATIONS AND USAGE': 0.05,
  INDICATIONS: 0.05,
  DESCRIPTION: 0.05,
  REFERENCES: 0.05,
  'HOW SUPPLIED': 0.02,
  'HOW SUPPLIED/STORAGE AND HANDLING': 0.02,
};

const FETAL_HARM = new Set(['fetal harm', 'harm to the fetus']);
/**
 * Round 13: lay entries that are a label's own clinical wording ("drowsiness", "sweating"): in a label they are as
 * strong as a name variant (on the development labels, 16 of 16 such mentions at the threshold's edge were gold).
 */
const LABEL_WORDING = new Set(['drowsy', 'drowsiness', 'sweating']);
/**
 * "Antidepressants increased the risk of suicidal thoughts and behaviors": as strong, but only in pasted text without
 * a heading. Everywhere, the refitted TAC calibrators move and one honest fold loses (docs/nlp.md, round 13).
 */
const SUICIDAL_THOUGHTS = new Set(['suicidal thoughts', 'suicidal thought', 'suicidal thinking']);
const KIND_BASE: Record<TermMatch['kind'], number> = { exact: 0.9, reordered: 0.85, variant: 0.75, lay: 0.6, coordination: 0.8 };
const UNIT_WEIGHT: Record<UnitKind, number> = { sentence: 1, bullet: 1, 'table-row': 1, heading: 0.95, category: 0.02 };
const CONTEXT_WEIGHT: Partial<Record<ContextKind, number>> = {
  negated: 0.03,
  uncertain: 0.3,
  historical: 0.3,
  family: 0.1,
  population: 0.25,
  hypothetical: 0.9,
  monitoring: 0.45,
  indication: 0.1,
  animal: 0.15,
};
const CATEGORY_PREFIX = /^[^.:;]{0,60}\b(?:disorders?|system|body as a whole|general|special senses|infections and infestations|investigations)\s*:/i;
/** Body-system headings that open a table row or list line without a colon ("Infections and infestations Malaria 18 (3)"). */
const CATEGORY_LEAD =
  /^\s*(?:infections and infestations|neoplasms,? benign,? malignant,? and unspecified(?:\s*\((?:incl\.?|including) cysts and polyps\))?|neoplasms? benign and malignant|injury,? poisoning,? and procedural complications)\b\s*[:\-–]?/i;

export interface MentionEvidence {
  match: TermMatch;
  likelihood: number;
  explanations: string[];
  cues: ContextCue[];
  /** Set by labelCandidates. */
  context?: LabelContext;
}

/** Likelihood that a matched mention in a label unit is an adverse reaction of the product, with its explanations. */
/** Words that may stand before a finding without making it part of a longer name. */
const HEAD_OK = new Set([
  'serious', 'severe', 'mild', 'moderate', 'fatal', 'new', 'common', 'rare', 'other', 'any', 'possible', 'significant',
  'persistent', 'transient', 'including', 'include', 'includes', 'were', 'was', 'and', 'or', 'reported', 'occurred', 'cause',
  'causes', 'caused', 'of', 'grade', 'all', 'treatment', 'emergent', 'and/or', 'such', 'as', 'e', 'g', 'experienced',
  'developed', 'with', 'had', 'more', 'most', 'frequent', 'frequently', 'symptomatic', 'clinically', 'worsening', 'life',
  'threatening', 'sometimes', 'occasional', 'recurrent', 'unexplained', 'marked', 'prolonged', 'sudden', 'acute', 'chronic',
  'disorders', 'disorder', 'conditions', 'infestations', 'investigations', 'greater', 'higher', 'progressive', 'body',
  'generalized', 'generalised', 'localized', 'localised', 'diffuse', 'transient', 'mild', 'fatal', 'nonfatal',
]);

export function weighMention(
  vocab: Vocabulary,
  unit: LabelUnit,
  m: TermMatch,
  cues: readonly ContextCue[],
  tokens: readonly Token[] = [],
): MentionEvidence {
  const term = vocab.terms[m.term]!;
  const explanations: string[] = [];
  let l = KIND_BASE[m.kind];
  // Round 11: "(can cause) fetal harm" is a clinical statement (Foetal damage) in pasted text and population sections.
  // Not yet under the headings TAC's labels have: there the refitted calibrators move and TAC folds lose (docs/nlp.md).
  if (m.kind === 'lay' && FETAL_HARM.has(m.via ?? '') && (unit.section === '' || unit.section === 'USE IN SPECIFIC POPULATIONS')) l = KIND_BASE.variant;
  if (m.kind === 'lay' && (LABEL_WORDING.has(m.via ?? '') || (SUICIDAL_THOUGHTS.has(m.via ?? '') && unit.section === ''))) l = KIND_BASE.variant;
  const how =
    m.kind === 'exact' ? 'matched' : m.kind === 'reordered' ? 'matched (words reordered)' : m.kind === 'coordination' ? `matched as a list item of "${m.via}"` : `matched via ${m.kind} "${m.via}"`;
  explanations.push(`"${m.text}" ${how} ${term.level} "${term.name}"`);
  if (m.abbreviation) {
    l *= 0.9;
    explanations.push('abbreviation expanded');
  }
  if (m.typos.length > 0) {
    l *= 0.7;
    explanations.push(`spelling corrected: ${m.typos.map((t) => `${t.from} → ${t.to}`).join(', ')}`);
  }
  // A one-word match right after another descriptive word is often the head of a longer,
  // unmatched phrase ("genital mycotic infections" → not simply "Infection").
  if (m.words === 1 && m.kind !== 'coordination' && m.from > 0) {
    const prev = tokens[m.from - 1]!;
    if (
      !tokens[m.from]!.breakBefore &&
      !prev.stop &&
      !prev.numeric &&
      !HEAD_OK.has(prev.lower) &&
      /^\p{L}+$/u.test(prev.text) &&
      !/(?:ed|ing|ly)$/.test(prev.lower) &&
      vocab.canons.has(prev.canon)
    ) {
      l *= 0.7;
      explanations.push(`head of the longer phrase "${prev.text} ${m.text}"`);
    }
  }
  // A population section weighs its mentions down (most name the population), except in a sentence that reports
  // what the product did to it ("the frequency of serious infection … was higher", "may cause fetal harm").
  const sw =
    (unit.section === 'USE IN SPECIFIC POPULATIONS' && (REPORTS_EVENT.test(unit.text) || POPULATION_EVENT.test(unit.text))) || (INTERACTION_SECTIONS.has(unit.section) && (CAUSES.test(unit.text) || COMBINATION_EVENT.test(unit.text)))
      ? 1
      : SECTION_WEIGHT[unit.section] ?? 0.6;
  l *= sw;
  explanations.push(unit.section ? `section ${unit.section}${sw < 1 ? ` (weight ${sw})` : ''}` : 'no section heading');
  const uw = UNIT_WEIGHT[unit.kind];
  l *= uw;
  if (unit.kind !== 'sentence') explanations.push(unit.kind === 'category' ? 'table category heading, not a reaction' : `in a ${unit.kind}`);
  const prefix = CATEGORY_PREFIX.exec(unit.text) ?? CATEGORY_LEAD.exec(unit.text);
  if (prefix && m.end <= unit.start + prefix[0].length) {
    l *= 0.02;
    explanations.push('body-system category label, not a reaction');
  }
  const kinds = new Set<ContextKind>();
  for (const c of cues) {
    const w = CONTEXT_WEIGHT[c.kind];
    if (w === undefined || kinds.has(c.kind)) continue;
    kinds.add(c.kind);
    l *= w;
    explanations.push(`${c.kind}: "${c.trigger}"`);
  }
  return { match: m, likelihood: Math.max(0, Math.min(1, l)), explanations, cues: [...cues] };
}

/** A sentence that reports an event of the product (not only names a population). */
// Round 7: an increased risk or an association stated of the product ("infants … have an increased risk of premature
// delivery", "has been associated with reversible infertility"), outcomes seen or observed ("have been seen in infants
// born to …", "congenital anomalies were observed") and "has also / infrequently been reported" report events too.
const REPORTS_EVENT =
  /\b(?:adverse (?:reactions?|events?|experiences?|effects?)|side effects?|cases? of|reports? of|(?:has|have|was|were) (?:also )?(?:been )?(?:\w+ly )?reported|(?:has|have) (?:also )?been (?:seen|observed)|(?:was|were) observed|may cause|can cause|(?:frequency|incidence|rate) of|(?:increased|higher|greater) risks? of|(?:has|have) been associated with)\b/i;

/**
 * Round 9: more wording of a population sentence that states an outcome of the product or a risk of it ("may result
 * in", "greater risk for", "risk of … lactic acidosis increases", "maternal NSAID use … associated with fetal renal
 * dysfunction", "the prevalence of tardive dyskinesia", "a predisposing factor for myopathy", "patients receiving
 * zolpidem reported confusion"). Not a bare "associated with" ("insomnia associated with ADHD" names the population).
 */
const POPULATION_EVENT = /\b(?:may |can |will )?(?:result|results|resulted) in\b|\b(?:may |can )?leads? to\b|\b(?:increased|higher|greater) risks? for\b|\brisks? of\b|\b(?:use|exposure|treatment)\b[^.;]{0,80}?\bassociated with\b|\bprevalence of\b|\bpredisposing factors? for\b|\b(?:receiving|taking|treated with) \S+ reported\b/i;

/** What the product does, as a contraindication states it ("can cause fetal harm", "causes … congenital malformations"). */
const CAUSES = /\b(?:can |may |will )?(?:cause|causes|caused|result in|results in|lead to|leads to)\b/i;
/**
 * A pasted contraindications text (round 8): its first sentence says the product "is / are contraindicated". Its lines
 * name the patients excluded ("severe bradycardia, … decompensated heart failure", "Hypersensitivity to any
 * ingredient."), not events — except where a sentence reports what the product does (REPORTS_EVENT, CAUSES).
 */
export function contraindicationText(text: string): boolean {
  const lead = text.slice(0, 1_000).trimStart().replace(/^(?:[-•*·▪◦]|\(?\d{1,3}[.)])\s+/, '');
  // Caseless text (some sources flatten case) ends a sentence at any ". " (as segment.ts does).
  const end = lead.search(/\p{Lu}/u.test(lead) ? /[.!?]\s+[A-Z([•]|\n/ : /[.!?]\s|\n/);
  if (CONTRA_TITLE.test(lead)) return true;
  return /\bcontraindicated\b/i.test(end < 0 ? lead : lead.slice(0, end + 1));
}
/**
 * Round 14: "If signs and symptoms of respiratory depression … occur, discontinue", "The signs and symptoms of orthostasis
 * (postural hypotension, dizziness …) were detected more frequently": the warned event and what to do, or what was seen
 * (TAC's and the annotation guidelines' "if anaphylaxis occurs, discontinue"), not a watch list. Only after "of" /
 * "consistent with", in a unit that acts or reports, and with no instruction to watch before the cue ("Inform patients
 * of the signs and symptoms of …", "monitor …": annotated either way, left as they were).
 */
const SIGNS_CUE = /^signs (?:and|or) symptoms$/i;
const SIGNS_OF = /^\s*(?:of|consistent with)\b[^.;:]*$/i;
const SIGNS_ACT = /\b(?:discontinu\w*|stop\w*|if|when|were (?:detected|reported|observed|seen)|(?:have|has) had)\b/i;
const SIGNS_WATCH = /\b(?:monitor\w*|observ\w*|educate|inform|alert|watch|advise|instruct|counsel)\b/i;
function warnedSigns(text: string, unit: LabelUnit, c: ContextCue, m: TermMatch): boolean {
  return SIGNS_CUE.test(c.trigger) && SIGNS_OF.test(text.slice(c.end, m.start)) && SIGNS_ACT.test(unit.text) && !SIGNS_WATCH.test(text.slice(unit.start, c.start));
}
/** Round 14: the reason a contraindication gives ("due to the risk of sudden death") or an outcome it reports ("deaths have occurred"). */
const CONTRA_RISK = /\b(?:due to|because of) (?:the|an?) (?:(?:increased|potential|possible) )?risks? (?:of|for)\b|\b(?:have|has) occurred\b/i;
/**
 * Round 14: a pasted text that opens with its own "4 CONTRAINDICATIONS" title run into the first sentence (the title is
 * not a heading line, and the first sentence need not say "contraindicated": "CONTRAINDICATIONS Hypersensitivity to …").
 */
const CONTRA_TITLE = /^(?:\d{1,2}\.?\s+)?(?:CONTRAINDICATIONS|Contraindications)\b/;

/**
 * Round 12: in a pasted contraindications text, a sentence that states what the product or the combination does ("was shown to
 * potentiate the hypotensive effect of nitrates", "is associated with a disulfiram-like reaction", "has been shown to
 * significantly increase … QT interval prolongation") reports an event, as CAUSES does.
 */
const CONTRA_EFFECT = /\bpotentiat\w*|\bintensif\w*|\b(?:is|are|was|were|has been|have been) associated with\b|\bshown to (?:\w+ )?(?:increase|cause|prolong|potentiate)\b/gi;
/** The mention follows such wording in its own clause (no ";" or ":" between: a contraindications list goes on after one). */
function statesEffect(text: string, unit: LabelUnit, m: TermMatch): boolean {
  for (const x of unit.text.matchAll(CONTRA_EFFECT)) {
    const at = unit.start + x.index + x[0].length;
    if (at <= m.start && !/[;:]/.test(text.slice(at, m.start))) return true;
  }
  return false;
}
/** Sections whose sentences state what a combination or the product does only with event wording (round 8). */
const INTERACTION_SECTIONS = new Set(['DRUG INTERACTIONS', 'CONTRAINDICATIONS']);
const COMBINATION_EVENT = /\brisks? (?:of|for)\b|\bpotentiat\w*|\bintensif\w*|\b(?:has|have|was|were) (?:also )?(?:been )?reported\b|\bcases? of\b/i;

const SECTION_OF_TYPE: Record<SectionType, string> = {
  adverse_reactions: 'ADVERSE REACTIONS',
  warnings_precautions: 'WARNINGS AND PRECAUTIONS',
  boxed_warning: 'BOXED WARNING',
  specific_populations: 'USE IN SPECIFIC POPULATIONS',
  overdosage: 'OVERDOSAGE',
  clinical_studies: 'CLINICAL STUDIES',
  indications: 'INDICATIONS AND USAGE',
  other: '',
};
const TYPE_OF_SECTION: Record<string, SectionType> = {
  'ADVERSE REACTIONS': 'adverse_reactions', 'POSTMARKETING EXPERIENCE': 'adverse_reactions', 'CLINICAL TRIALS EXPERIENCE': 'adverse_reactions',
  'UNDESIRABLE EFFECTS': 'adverse_reactions', 'SIDE EFFECTS': 'adverse_reactions', 'WARNINGS AND PRECAUTIONS': 'warnings_precautions',
  'SPECIAL WARNINGS AND PRECAUTIONS': 'warnings_precautions', WARNINGS: 'warnings_precautions', PRECAUTIONS: 'warnings_precautions',
  'BOXED WARNING': 'boxed_warning', 'USE IN SPECIFIC POPULATIONS': 'specific_populations', OVERDOSAGE: 'overdosage',
  'CLINICAL STUDIES': 'clinical_studies', 'INDICATIONS AND USAGE': 'indications', INDICATIONS: 'indications',
};

/** Section type of a text without headings, from its wording (null when nothing tells). */
export function detectSectionType(text: string): SectionType | null {
  const t = text.slice(0, 20_000);
  if (/\boverdos(?:e|es|ages?|ing)\b/i.test(t)) return 'overdosage';
  if (/\b(?:is|are) (?:indicated|approved|authorized) (?:for|to|as|in)\b/i.test(t)) return 'indications';
  if (/\b(?:pregnan(?:t|cy)|lactation|nursing (?:mothers?|infants?|women)|breast[- ]?(?:fed|feeding|milk)|human milk|pediatric use|paediatric use|geriatric use|pediatric patients|elderly patients|(?:hepatic|renal) impairment)\b/i.test(t) && !/\badverse (?:reactions?|events?|experiences?) (?:reported|occurring|observed)\b/i.test(t))
    return 'specific_populations';
  if (/\badverse (?:reactions?|events?|experiences?)\b/i.test(t)) return 'adverse_reactions';
  if (/\b(?:randomi[sz]ed|double-blind|placebo-controlled|primary (?:efficacy )?endpoint|efficacy)\b/i.test(t)) return 'clinical_studies';
  return null;
}

/** Wording of an adverse-event statement: a text that has it is not read as a study, indication or overdose paste. */
const AE_STATEMENT =
  /\badverse (?:reactions?|events?|experiences?|effects?)\b|\bside effects?\b|\bpost-?marketing\b|\bcases? of\b|\b(?:have|has|was|were) been reported\b|\b(?:was|were) reported\b|\bdiscontinu\w*|\bwarn\w*|\btoxicit\w*|\bmay (?:cause|result in|lead to|increase)\b|(?<!\breduc(?:e|es|ed|ing) (?:the )?)\brisk (?:of|for)\b|\b(?:risk|predisposing) factors? for\b|\bincidence of\b/i;
/** Wording of a clinical-study report (design, endpoints, results); three distinct ones make a study text. */
const STUDY_WORDING = [
  /\b(?:study|studies|studied|trial|trials)\b/i, /\bbaseline\b/i, /\brespon(?:se|ses|ders?)\b/i, /\bend ?points?\b/i, /\bplacebo\b/i,
  /\brandomi[sz]ed\b/i, /\befficacy\b/i, /\bimprovement\b/i, /\bp ?[<=≤] ?0?\.\d/i, /\b95 ?% (?:CI|confidence interval)\b/i,
  /\bodds\b|\bhazard ratio\b|\brelative risk\b/i, /\bmean (?:age|change|reduction|increase|percent)\b/i, /\b(?:weeks?|months?|day) \d+\b/i,
  /\bscores?\b/i, /\bprimary (?:analysis|outcome)\b/i, /\bsubjects\b/i, /\benrolled\b/i, /\bstandard of care\b/i,
];
/**
 * Round 13: the design and outcome wording of a trial report ("a randomized, double-blind, multicenter study", "(N=431)",
 * "overall survival", "treatment arms", "phase 3", "NCT01945775"); "until disease progression or unacceptable toxicity"
 * is the design's stopping rule, not a toxicity statement.
 */
const STUDY_DESIGN = [
  /\bopen-label\b|\bdouble-blind(?:ed)?\b|\bmulti-?(?:cent(?:er|re)|national)\b/i, /\b(?:overall|progression-free|disease-free|event-free|recurrence-free) survival\b/i,
  /\b(?:treatment|study|placebo|control) arms?\b|\bboth arms\b/i, /\bphase (?:[1-4]|I{1,3}|IV)\b/i, /\(\s*N\s*=\s*\d/, /\bNCT\d{8}\b/,
];
const STOPPING_RULE = /\buntil (?:(?:radiographic |documented )?disease progression|progression)(?:,)? (?:or|and\/or) (?:unacceptable|intolerable) toxicit\w*|\black of efficacy or toxicit\w*/gi;
const STUDY_ALL = [...STUDY_WORDING, ...STUDY_DESIGN];
/** How an overdose is managed; two distinct ones make an overdose text even when it never says "overdose". */
const POISONING_CARE = [/\bgastric lavage\b/i, /\b(?:induc\w+ (?:of )?)?emesis\b/i, /\bactivated charcoal\b/i, /\bantidote\b/i, /\bpoison control\b/i, /\b(?:symptomatic and )?supportive (?:measures|care|treatment|therapy)\b/i];
const INCIDENCE = /\boccurred in\b|\b\d+(?:\.\d+)? ?% of (?:the )?(?:patients|subjects)\b/i;
const REPORTED_REACTIONS = /\badverse (?:reactions?|events?)\b|\bside effects?\b|\b(?:has|have|was|were) (?:been )?reported\b/i;
/**
 * "X is indicated for", also with the product's class between the verb and "indicated" ("are vitamin K antagonist
 * indicated for:", "are a L-thyroxine (T4) indicated in"). Not "is not indicated / approved for": warnings say that.
 */
const INDICATED = /\b(?:is|are) (?:approved|authorized)(?: (?:for|to|as|in)\b|\s*:)|\b(?:is|are)(?!\s+not\b)(?:\s+[\w()/-]+){0,5}?\s+indicated(?:\s+(?:for|to|as|in)\b|\s*:)/i;
/**
 * Wording of therapeutic purpose (what the product is given for), as old-format indications write it without
 * "is indicated": a verbless line or sentence that opens with the purpose ("For the palliative management of
 * leukemias.", "To induce a remission of proteinuria in …", "As adjunctive therapy …", "Control of severe …"), or a
 * disease qualified by its response to other treatment ("unresponsive to topical corticosteroids", "when used
 * concurrently with appropriate chemotherapy"). A sentence with a finite verb or modal ("Treatment of
 * hyperammonemia may require dialysis") gives advice about the treatment, as warnings do, and is not counted.
 */
const PURPOSE_OPENINGS = [
  /(?:^|[.;:]\s|\n)\s*(?:[-•*·▪◦]\s*|<[^<>]{0,40}>\s*)*(?:for|in) the (?:\w+ )?(?:treatment|management|control|relief|palliation|prevention|prophylaxis) of\b[^.;\n]*/gim,
  /(?:^|[.;:]\s|\n)\s*(?:[-•*·▪◦]\s*|<[^<>]{0,40}>\s*)*to (?:treat|tide|induce|relieve|control|manage|palliate)\b[^.;\n]*/gim,
  /(?:^|[.;:]\s|\n)\s*(?:[-•*·▪◦]\s*|<[^<>]{0,40}>\s*)*as (?:an? )?adjunct(?:ive)?\b[^.;\n]*/gim,
  /(?:^|[.;:]\s|\n)\s*(?:[-•*·▪◦]\s*|<[^<>]{0,40}>\s*)*(?:control|treatment|management|relief|palliation) of\b[^.;\n]*/gim,
];
const PURPOSE_PHRASES = [/\b(?:unresponsive|refractory|intractable) to\b/i, /\bwhen used (?:concurrently |in conjunction |in combination )?with\b/i, /\bdrug of choice\b/i];
const FINITE = /\b(?:is|are|was|were|be|been|has|have|had|may|might|can|could|should|must|will|would|requires?|required|recommended)\b/i;

/** Kinds of purpose wording in the text (stops at k). */
function purposeKinds(text: string, k: number): number {
  let n = 0;
  for (const r of PURPOSE_OPENINGS) {
    // Parenthetical asides ("(selected cases may require …)") are not the sentence's verb.
    for (const m of text.matchAll(r)) if (!FINITE.test(m[0].replace(/\([^)]*\)?/g, ''))) { n++; break; }
    if (n >= k) return n;
  }
  for (const r of PURPOSE_PHRASES) if (r.test(text) && ++n >= k) return n;
  return n;
}

/**
 * Section type of a pasted text without headings, only when its wording leaves little doubt — an overdose
 * text (its first sentence speaks of overdose, or it describes poisoning care), an indication or a study
 * report without any adverse-event statement. Unlike detectSectionType's guess, this type weighs the text
 * (a study's baseline conditions and endpoints, an overdose's manifestations are not reactions of the drug);
 * use-in-population wording is never enough, because warnings paragraphs mention populations too.
 */
export function confidentSectionType(text: string): SectionType | null {
  const t = text.slice(0, 20_000);
  // List markers and numbering ("1.", "•") before the first sentence are not a sentence of their own.
  const lead = t.slice(0, 1_000).trimStart().replace(/^(?:[-•*·▪◦]|\(?\d{1,3}[.)])\s+/, '');
  const firstSentence = lead.slice(0, lead.search(/[.!?]\s+[A-Z]|\n|$/) + 1);
  if (/\boverdos(?:e|es|ages?|ing)\b/i.test(withoutOverdoseAsides(firstSentence)) || atLeast(POISONING_CARE, t, 2)) return 'overdosage';
  // Round 11: a symptom list that says overdose or poisoning only later ("Nervous System: … tremor, ataxia …
  // Isolated instances of overdosage have included …") is an overdose text when it reports no reaction of the
  // product (an incidence among patients is one: "Hypotension occurred in 2% of patients. In case of overdose, …");
  // "cases of (DRUGX) overdose" count overdoses, not reactions.
  if (/\boverdos(?:e|es|ages?|ing)\b|\bpoisoning\b/i.test(withoutOverdoseAsides(t)) && !INCIDENCE.test(t) && !AE_STATEMENT.test(t.replace(/\bcases? of (?:\S+ ){0,2}?overdos/gi, ''))) return 'overdosage';
  // An indication names risk factors of the treated population ("patients with multiple risk factors for …"), so only
  // reported reactions speak against it.
  const reports = REPORTED_REACTIONS.test(t);
  if (INDICATED.test(t) && !reports) return 'indications';
  // Two kinds of purpose wording without reported reactions: an indications list of the old format, which names
  // diseases one after another ("… and selected cases of secondary thrombocytopenia") and never says "indicated".
  if (!reports && purposeKinds(t, 2) >= 2) return 'indications';
  if (AE_STATEMENT.test(t.replace(STOPPING_RULE, ' '))) return null;
  return atLeast(STUDY_ALL, t, 3) ? 'clinical_studies' : null;
}

/** At least k of the patterns occur in the text (stops at the k-th). */
function atLeast(patterns: readonly RegExp[], text: string, k: number): boolean {
  let found = 0;
  for (const r of patterns) if (r.test(text) && ++found >= k) return true;
  return false;
}

const THERAPY_NOUNS = new Set(['dose', 'doses', 'dosage', 'dosages', 'therapy', 'therapies', 'agent', 'agents', 'drug', 'drugs', 'medication', 'medications', 'treatment', 'treatments', 'regimen', 'regimens']);

/**
 * A match that names a therapy rather than an event: an agent noun the term does not end in
 * ("immunosuppressants" is not Immunosuppression), a drug class ("sedative/hypnotic drugs"), or a finding
 * followed by a therapy noun ("immunosuppressive therapy", "anti-tuberculosis treatment").
 */
function namesTherapy(m: TermMatch, tokens: readonly Token[], vocab: Vocabulary): boolean {
  const last = tokens[m.to - 1];
  if (!last) return false;
  const termLast = vocab.terms[m.term]!.name.toLowerCase().split(/\s+/).pop() ?? '';
  const next = tokens[m.to];
  // Round 13: "an opioid overdose reversal agent" names the antidote, not an overdose.
  if (next && !next.breakBefore && next.lower === 'reversal') return true;
  // Round 14: a plural in -ives / -ics names a drug class ("other sedatives", "antipsychotics"), and so does a class
  // adjective before one ("sedative hypnotics"): not Sedation.
  if (/[a-z]{3}(?:ives|ics)$/.test(last.lower) && !/(?:ives|ics)$/.test(termLast)) return true;
  if (next && /^\s*[/-]?\s*$/.test(next.gapBefore) && /(?:ive|ic)$/.test(last.lower) && /[a-z]{3}(?:ives|ics)$/.test(next.lower)) return true;
  // An agent noun names a therapy, unless a longer name says the product's effect ("has CNS-depressant effects"; the
  // bare "depressant effects" of a lower-cased paste stays a therapy word, as it was).
  if (/[a-z]{4}ants?$/.test(last.lower) && !/ants?$/.test(termLast)) return !(m.to - m.from >= 2 && next && !next.breakBefore && EFFECT_NOUNS.has(next.lower));
  // Two class adjectives joined by "/" or "-" name a drug class: "sedative/hypnotic drugs", "sedative-hypnotics",
  // "a sedative-hypnotic" (not Sedation).
  if (next && /^\s*[/-]\s*$/.test(next.gapBefore) && /(?:ive|ic|ant)$/.test(last.lower) && /(?:ive|ic|ant)s?$/.test(next.lower)) {
    const after = tokens[m.to + 1];
    const before = tokens[m.from - 1];
    if (next.lower.endsWith('s') || (after && !after.breakBefore && THERAPY_NOUNS.has(after.lower)) || (before && /^(?:a|an|other)$/.test(before.lower))) return true;
  }
  return !!next && !next.breakBefore && THERAPY_NOUNS.has(next.lower) && /(?:ive|ic|al|ant)$/.test(last.lower) && !THERAPY_NOUNS.has(termLast);
}
const EFFECT_NOUNS = new Set(['effect', 'effects', 'activity', 'properties', 'property', 'action', 'actions']);

/**
 * Round 13: the verb "depend(s / ing / ed) on" ("Effectiveness of clopidogrel depends on conversion …", "Depending on
 * the clinical context, …") shares its stem with Dependence but names no finding.
 */
const DEPEND_VERB = new Set(['depend', 'depends', 'depending', 'depended']);
function dependsOn(m: TermMatch, tokens: readonly Token[]): boolean {
  const next = tokens[m.to];
  return m.to - m.from === 1 && DEPEND_VERB.has(tokens[m.from]!.lower) && !!next && (next.lower === 'on' || next.lower === 'upon');
}

/** People a condition can describe ("hypothyroid patients", "hypertensive subjects", "premenopausal women"). */
const PERSON_NOUNS = new Set([
  'patient', 'patients', 'subject', 'subjects', 'women', 'woman', 'men', 'man', 'children', 'child', 'infants', 'infant',
  'adults', 'adult', 'individuals', 'individual', 'people', 'persons', 'volunteers', 'population', 'populations', 'mothers',
  'neonates', 'girls', 'boys', 'adolescents',
]);
/** A condition written as a modifier of the people who have it is a population, not an event ("in hypothyroid patients"). */
function describesPeople(m: TermMatch, tokens: readonly Token[]): boolean {
  const next = tokens[m.to];
  return !!next && !next.breakBefore && PERSON_NOUNS.has(next.lower);
}

/**
 * Round 9: the mention is the title of a PLR "8.x" subsection ("8.6 Renal Impairment Metformin is …", "(8.5) Hepatic
 * Impairment: Avoid use …"): section 8 is Use in Specific Populations, so its titles name populations.
 */
const SUBSECTION_8 = /^\s*(?:\(8\.\d{1,2}\)|8\.\d{1,2})\s*$/;

/** The mention sits in a bracketed cross-reference ("(see WARNINGS, Infections)", "[see Warnings and Precautions (5.1)]"). */
function inCrossReference(text: string, unitStart: number, at: number): boolean {
  const before = text.slice(Math.max(unitStart, at - 80), at);
  const open = Math.max(before.lastIndexOf('('), before.lastIndexOf('['));
  if (open < 0 || /[)\]]/.test(before.slice(open))) return false;
  return /^[([]\s*see\b/i.test(before.slice(open));
}

/**
 * Dosing and pharmacokinetic wording: in such a statement an organ impairment ("reduced clearance in severe renal
 * impairment", "8.6 Renal Impairment … the maximum dose should not exceed") is the population dosed, not an event.
 */
const ORGAN_IMPAIRMENT = /\b(?:renal|hepatic|kidney|liver)\b.*\b(?:impairment|insufficiency|dysfunction|failure|disease)\b|\b(?:GFR|CLcr|creatinine clearance)\b/i;
const PK_WORDING = /\b(?:AUC|Cmax|clearance|half-life|plasma (?:concentrations?|levels?|exposure)|pharmacokinetics?|(?:dose|dosage|dosing) adjustments?|maximum (?:recommended )?(?:daily )?dose|starting dose|mL\/min)\b/i;
/**
 * Round 10: a reproduction or toxicology study's dose stated against the human one ("at doses ≥0.015 mg/kg/day
 * (approximately 0.24 times the AUC in patients …)", "6.5 times the estimated human exposure based on AUCs", "from
 * Gestation Day 6–16"): the sentence reports an animal study even when it names no species.
 */
const ANIMAL_DOSING = /\btimes (?:the )?(?:maximum |estimated |exposure at the |recommended )*(?:human|MRHD)\b|\btimes the (?:(?:human|clinical|maternal) )?(?:exposure|AUC)s?\b|\btimes the clinical dose\b|\bbased on (?:AUCs?|body surface area|BSA|mg\/m)|\bgestation(?:al)? days?\b|\bGD\s?\d/i;
/**
 * Round 10: the physiology of pregnancy ("Serum cholesterol and triglycerides increase during normal pregnancy",
 * "Stroke volume and heart rate increase during pregnancy", "heart disease may worsen with pregnancy"): what
 * pregnancy does, not the product.
 */
const PREGNANCY_PHYSIOLOGY = /\b(?:increases?|decreases?|rises?|falls?|worsens?|changes?)\s+(?:during|with|in)\s+(?:normal\s+)?pregnancy\b/i;
const OVERDOSE = /\boverdos(?:e|es|ages?|ing)\b|\bdoses? (?:up to|as high as|exceeding)\b/i;
/** Round 12: an overdose as the outcome of abuse or misuse ("… addiction, which can lead to overdose or death") is an event, not an overdose text. */
const OVERDOSE_LEADS = /\b(?:lead(?:s|ing)?|led|result(?:s|ed|ing)?)\s+(?:to|in)\s+(?:an?\s+)?(?:accidental\s+|unintentional\s+|intentional\s+|fatal\s+)?overdos(?:e|es|ages?)\b/gi;
/**
 * Round 14: an overdose as a warned risk ("there is a greater risk for overdose and death", "the risk for overdose and
 * death", "may cause choking, overdose, and death"). Not "to reduce the risk of overdose" or a bare "because of risk of
 * overdose" (a duplicated medicine's: TAC's honest fold 4 loses a code to them).
 */
const OVERDOSE_RISK = /(?<!\breduc\w* (?:the )?)\b(?:(?:greater|increased|higher) risks? (?:of|for)|risks? for|risks? of(?= (?:[\w-]+ )?overdos\w* (?:and|or) (?:[\w-]+ )?death)) (?:an? )?(?:accidental |unintentional |fatal |opioid(?:-related)? )?overdos(?:e|es|ages?)\b|\b(?:may |can )?cause[sd]? (?:[\w-]+, ){0,3}(?:and |or )?(?:accidental |fatal )?overdos(?:e|es)\b/gi;
const OVERDOSE_OUTCOME = new RegExp(`${OVERDOSE_LEADS.source}|${OVERDOSE_RISK.source}`, 'gi');

/**
 * Round 13: overdose words that do not describe an overdose: a cross-reference ("[see Drug Interactions (7.1),
 * Overdosage (10)]", "(see WARNINGS; OVERDOSAGE)"), the reversal agent ("prescribing an opioid overdose reversal
 * agent", "for the emergency treatment of opioid overdose") and an overdose as the outcome of misuse (OVERDOSE_OUTCOME).
 */
const OVERDOSE_ASIDE = /\[\s*see\b[^\]]{0,300}\]|\(\s*see\b(?:[^()]|\([^()]{0,40}\)){0,300}\)|\boverdose reversal agents?\b|\bemergency treatment of (?:known or suspected )?(?:opioid )?overdose\b/gi;
function withoutOverdoseAsides(text: string): string {
  return text.replace(OVERDOSE_ASIDE, ' ').replace(OVERDOSE_OUTCOME, ' ');
}

/** The context of one mention, from the cues covering it and its unit. */
export function mentionContext(unit: LabelUnit, cues: readonly ContextCue[], overdoseWording: boolean): LabelContext {
  const kinds = new Set(cues.map((c) => c.kind));
  if (kinds.has('negated')) return 'negated';
  if (kinds.has('animal')) return 'animal';
  if (unit.section === 'OVERDOSAGE' || overdoseWording) return 'overdose';
  if (kinds.has('indication')) return 'indication';
  if (kinds.has('population') || kinds.has('historical') || kinds.has('family')) return 'population';
  if (kinds.has('monitoring') || kinds.has('uncertain')) return 'hypothetical';
  return 'adverse_event';
}

interface Acc {
  ptCode: number;
  /** Best mention per unit. */
  units: Map<number, { unit: LabelUnit; ev: MentionEvidence }>;
  negated: number;
}

/** A PT candidate before calibration: the features the calibrator reads, and its evidence. */
export interface LabelCandidate {
  ptCode: number;
  rawScore: number;
  /** Snippets with likelihood ≥ 0.3. */
  strongSnippets: number;
  maxLikelihood: number;
  /** Some strong evidence matched a term exactly (words in order). */
  exact: boolean;
  /** Content words of the longest strong match. */
  words: number;
  /** Distinct sections with strong evidence. */
  sections: number;
  reasons: string[];
  snippets: { id: string; unit: LabelUnit; evidence: MentionEvidence }[];
}

/** Every PT mentioned in the label with its uncalibrated evidence (no threshold, no cap). */
export function labelCandidates(text: string, vocab: Vocabulary, sectionType?: SectionType | null, segmented?: LabelUnit[], contraindications = false): LabelCandidate[] {
  const lead = sectionType ? SECTION_OF_TYPE[sectionType] : '';
  const units = (segmented ?? segmentLabel(text)).map((u) => (u.section === '' && lead !== '' ? { ...u, section: lead } : u));
  const acc = new Map<number, Acc>();
  units.forEach((unit, ui) => {
    const tokens = tokenize(text, unit.start, unit.end, { columns: unit.kind === 'table-row' || unit.kind === 'category' });
    // A list item of a site reaction ("injection site reactions including pain and swelling") is the
    // site's finding, not the bare one.
    const sited = siteListMatches(text, tokens, vocab);
    const plain = matchTerms(text, tokens, vocab, { typos: false, splitConjunctions: true }).filter(
      (m) => !sited.some((x) => x.from <= m.from && m.to <= x.to),
    );
    const matches = [...plain.filter((m) => !dependsOn(m, tokens)), ...valueMatches(text, tokens, vocab), ...sited];
    if (matches.length === 0) return;
    const cues = findContextCues(text, tokens);
    let overdose: boolean | undefined;
    let animalDosing: boolean | undefined;
    let pregnancyPhysiology: boolean | undefined;
    for (const m of matches) {
      const ev = weighMention(vocab, unit, m, cuesCovering(cues, m.from, m.to).filter((c) => !warnedSigns(text, unit, c, m)), tokens);
      ev.context = mentionContext(unit, ev.cues, (overdose ??= OVERDOSE.test(unit.text) && OVERDOSE.test(withoutOverdoseAsides(unit.text))));
      if (ev.context === 'adverse_event' && inCrossReference(text, unit.start, m.start)) {
        ev.context = 'hypothetical';
        ev.likelihood *= CONTEXT_WEIGHT.indication!;
        ev.explanations.push('in a cross-reference ("see …"): names a section, not an event');
      }
      if (ev.context === 'adverse_event' && describesPeople(m, tokens)) {
        ev.context = 'population';
        ev.likelihood *= CONTEXT_WEIGHT.population!;
        ev.explanations.push(`describes the people ("${tokens[m.to]!.text}"), not an event`);
      }
      if (ev.context === 'adverse_event' && ORGAN_IMPAIRMENT.test(m.text) && PK_WORDING.test(unit.text)) {
        ev.context = 'population';
        ev.likelihood *= CONTEXT_WEIGHT.population!;
        ev.explanations.push('organ impairment in a dosing or pharmacokinetic statement: the population');
      }
      if (ev.context === 'adverse_event' && contraindications && unit.section === '' && !REPORTS_EVENT.test(unit.text) && !CAUSES.test(unit.text) && !statesEffect(text, unit, m) && !CONTRA_RISK.test(unit.text)) {
        ev.context = 'population';
        ev.likelihood *= CONTEXT_WEIGHT.population!;
        ev.explanations.push('in a contraindications text: the patients the product must not be given to, not an event');
      }
      if (ev.context === 'adverse_event' && SUBSECTION_8.test(text.slice(unit.start, m.start))) {
        ev.context = 'population';
        ev.likelihood *= CONTEXT_WEIGHT.population!;
        ev.explanations.push('the title of a use-in-specific-populations subsection (8.x): the population, not an event');
      }
      if (ev.context === 'adverse_event' && (animalDosing ??= ANIMAL_DOSING.test(unit.text))) {
        ev.context = 'animal';
        ev.likelihood *= CONTEXT_WEIGHT.animal!;
        ev.explanations.push('a study dose stated against the human dose or exposure: an animal study');
      }
      if (ev.context === 'adverse_event' && (pregnancyPhysiology ??= PREGNANCY_PHYSIOLOGY.test(unit.text))) {
        ev.context = 'population';
        ev.likelihood *= CONTEXT_WEIGHT.population!;
        ev.explanations.push('what pregnancy itself does, not the product');
      }
      if (ev.context === 'adverse_event' && namesTherapy(m, tokens, vocab)) {
        ev.context = 'indication';
        ev.likelihood *= CONTEXT_WEIGHT.indication!;
        ev.explanations.push('names a therapy or agent, not an event');
      }
      const pt = vocab.terms[m.term]!.ptCode;
      let a = acc.get(pt);
      if (!a) acc.set(pt, (a = { ptCode: pt, units: new Map(), negated: 0 }));
      if (ev.cues.some((c) => c.kind === 'negated')) a.negated++;
      const prior = a.units.get(ui);
      if (!prior || ev.likelihood > prior.ev.likelihood) a.units.set(ui, { unit, ev });
    }
  });
  const out: LabelCandidate[] = [];
  for (const a of acc.values()) {
    const ranked = [...a.units.entries()].sort((x, y) => y[1].ev.likelihood - x[1].ev.likelihood || x[0] - y[0]);
    let miss = 1;
    let exact = false;
    for (const [, { ev }] of ranked) {
      miss *= 1 - ev.likelihood;
      if (ev.match.kind === 'exact' && ev.likelihood >= 0.5) exact = true;
    }
    const strongUnits = ranked.filter(([, u]) => u.ev.likelihood >= 0.3);
    const strong = strongUnits.length;
    const words = Math.max(1, ...strongUnits.map(([, u]) => u.ev.match.words));
    const sections = new Set(strongUnits.map(([, u]) => u.unit.section)).size;
    const pt = vocab.pt(a.ptCode);
    const best = ranked[0]![1].ev;
    const reasons = [
      `${pt ? `PT "${pt.name}"` : `PT ${a.ptCode}`}: ${best.explanations[0]}`,
      `${ranked.length} supporting snippet${ranked.length === 1 ? '' : 's'}${strong < ranked.length ? ` (${strong} strong)` : ''}`,
      ...[...new Set(ranked.map(([, u]) => u.unit.section).filter((s) => s !== ''))].slice(0, 3).map((s) => `mentioned in ${s}`),
    ];
    if (a.negated > 0) reasons.push(`${a.negated} negated mention${a.negated === 1 ? '' : 's'} discounted`);
    out.push({
      ptCode: a.ptCode,
      rawScore: 1 - miss,
      strongSnippets: strong,
      maxLikelihood: ranked[0]?.[1].ev.likelihood ?? 0,
      exact,
      words,
      sections,
      reasons,
      snippets: ranked.map(([ui, { unit, ev }]) => ({ id: `u${ui}`, unit, evidence: ev })),
    });
  }
  return out;
}

/** The calibrator's view of a candidate. */
export function labelFeatureInput(c: LabelCandidate): LabelFeatureInput {
  return { rawScore: c.rawScore, snippets: c.strongSnippets, maxLikelihood: c.maxLikelihood, exact: c.exact, words: c.words, sections: c.sections };
}

/**
 * Codes a whole product label (raw text, headings kept) into PT predictions, best first.
 * Every prediction carries the snippets it rests on, with exact offsets into `text`.
 */
export function classifyLabel(text: string, vocab: Vocabulary, opts: LabelOptions = {}): LabelPrediction[] {
  return classifyLabelDetailed(text, vocab, opts).codes;
}

/** Which section type applies: the request's, else the first heading's, else the text's wording. */
export function resolveSectionType(
  text: string,
  requested?: SectionType,
  units: readonly LabelUnit[] = segmentLabel(text),
): Pick<LabelClassification, 'sectionType' | 'sectionTypeSource'> & { confident: boolean } {
  if (requested) return { sectionType: requested, sectionTypeSource: 'request', confident: true };
  const first = units.find((u) => u.section !== '');
  if (first) return { sectionType: TYPE_OF_SECTION[first.section] ?? 'other', sectionTypeSource: 'heading', confident: true };
  const confident = confidentSectionType(text);
  const detected = confident ?? detectSectionType(text);
  return detected ? { sectionType: detected, sectionTypeSource: 'text', confident: confident !== null } : { sectionType: null, sectionTypeSource: 'none', confident: false };
}

/** classifyLabel with the section type used and, on request, the candidates dropped for their context. */
export function classifyLabelDetailed(text: string, vocab: Vocabulary, opts: LabelOptions = {}): LabelClassification {
  const maxResults = opts.maxResults ?? 25;
  const minConfidence = opts.minConfidence ?? 0.25;
  const maxSnippets = opts.maxSnippets ?? 5;
  const allowed = new Set<LabelContext>(opts.contexts ?? ['adverse_event']);
  const units = segmentLabel(text);
  const { confident, ...st } = resolveSectionType(text, opts.sectionType, units);
  // Only an explicit or detected type re-weights text before the first heading; a heading speaks for itself.
  // A detected type weighs the text only when the wording leaves little doubt (confidentSectionType); a guess is only reported.
  const lead =
    st.sectionTypeSource === 'request' || (st.sectionTypeSource === 'text' && (opts.weighDetected === true || (opts.weighConfident !== false && confident)))
      ? st.sectionType
      : null;
  const out: LabelPrediction[] = [];
  const excluded: ExcludedCandidate[] = [];
  // A contraindications text reads as one only when nothing else types it (no heading; no type, or "other").
  const contraindications = !units.some((u) => u.section !== '') && (opts.sectionType === undefined || opts.sectionType === 'other') && opts.readContraindications !== false && contraindicationText(text);
  for (const c0 of labelCandidates(text, vocab, lead, units, contraindications)) {
    const { candidate: c, dropped } = byContext(c0, allowed);
    if (!c) {
      if (opts.includeExcluded) excluded.push(excludedOf(c0, dropped!));
      continue;
    }
    const confidence = calibrateLabel(labelFeatureInput(c));
    if (confidence < minConfidence) continue;
    const supportingSnippets: LabelSnippet[] = c.snippets.slice(0, maxSnippets).map(({ id, unit, evidence: ev }) => ({
      id,
      context: ev.context ?? 'adverse_event',
      mention: { text: text.slice(ev.match.start, ev.match.end), start: ev.match.start, end: ev.match.end },
      section: unit.section,
      text: unit.text,
      start: unit.start,
      end: unit.end,
      likelihood: round(ev.likelihood),
      confidence: round(
        calibrateLabel({
          rawScore: ev.likelihood,
          snippets: ev.likelihood >= 0.3 ? 1 : 0,
          maxLikelihood: ev.likelihood,
          exact: ev.match.kind === 'exact',
          words: ev.match.words,
          sections: 1,
        }),
      ),
      explanations: [...ev.explanations, `context: ${ev.context ?? 'adverse_event'}`],
    }));
    out.push({ ptCode: c.ptCode, confidence: round(confidence), rawScore: round(c.rawScore), reasons: c.reasons, supportingSnippets });
  }
  out.sort((x, y) => y.confidence - x.confidence || y.rawScore - x.rawScore || x.ptCode - y.ptCode);
  excluded.sort((x, y) => x.mention.start - y.mention.start || x.ptCode - y.ptCode);
  return { codes: out.slice(0, maxResults), ...st, excluded: excluded.slice(0, maxResults) };
}

/**
 * A candidate seen through the allowed contexts: dropped (with the context that dropped it) when no
 * mention is in one, re-scored on the kept mentions when some are not. The evaluation applies the
 * same step, so its figures are those of the shipped answer.
 */
export function byContext(c0: LabelCandidate, allowed: ReadonlySet<LabelContext>): { candidate?: LabelCandidate; dropped?: LabelContext } {
  // A code the label only ever mentions negated ("no cases of X were reported") is not a finding.
  if (c0.snippets.every((s) => s.evidence.cues.some((cue) => cue.kind === 'negated')) && !allowed.has('negated')) return { dropped: 'negated' };
  const kept = c0.snippets.filter((s) => allowed.has(s.evidence.context ?? 'adverse_event'));
  if (kept.length === 0) return { dropped: c0.snippets[0]!.evidence.context ?? 'adverse_event' };
  return { candidate: kept.length === c0.snippets.length ? c0 : rescore(c0, kept) };
}

function excludedOf(c: LabelCandidate, context: LabelContext): ExcludedCandidate {
  const s = c.snippets[0]!;
  const m = s.evidence.match;
  return {
    ptCode: c.ptCode,
    context,
    mention: { text: m.text, start: m.start, end: m.end },
    snippet: { text: s.unit.text, start: s.unit.start, end: s.unit.end, section: s.unit.section },
    explanations: [...s.evidence.explanations, `context: ${context}`],
  };
}

/** The candidate's features on the kept snippets only (the dropped ones are no evidence). */
function rescore(c: LabelCandidate, kept: LabelCandidate['snippets']): LabelCandidate {
  let miss = 1;
  let exact = false;
  for (const s of kept) {
    miss *= 1 - s.evidence.likelihood;
    if (s.evidence.match.kind === 'exact' && s.evidence.likelihood >= 0.5) exact = true;
  }
  const strong = kept.filter((s) => s.evidence.likelihood >= 0.3);
  return {
    ...c,
    rawScore: 1 - miss,
    strongSnippets: strong.length,
    maxLikelihood: kept[0]!.evidence.likelihood,
    exact,
    words: Math.max(1, ...strong.map((s) => s.evidence.match.words)),
    sections: new Set(strong.map((s) => s.unit.section)).size,
    snippets: kept,
  };
}
