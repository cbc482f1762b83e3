// Offline adverse-event coding engine: pure functions over an in-memory vocabulary of
// one release (build it once with buildVocabulary and cache it). No database, network
// or model download. See docs/nlp.md for behaviour, calibration and evaluation figures.

// Vocabulary
export { buildVocabulary, Vocabulary, phraseCanons, type VocabularyTerm, type VocabularySource, type GradeDefinitions, type Alias, type AliasKind } from './vocabulary.ts';

// 1. identify
export { identifyEvents, identifyEventDetails, type IdentifiedEvent, type IdentifiedEventDetail } from './identify.ts';
// 2. classify an event description
export { classifyText, textCandidates, type CodePrediction, type ClassifyOptions, type Evidence, type TextCandidate } from './classify.ts';
// 3. seriousness
export { assessSeriousness, seriousnessEvidence, CRITERIA, SERIOUSNESS_RULES, type Criterion, type CriterionAssessment, type SeriousnessAssessment } from './seriousness.ts';
// 4. severity
export { assessSeverity, severityEvidence, CTCAE_LABELS, type SeverityAssessment, type SeverityOptions, type SeveritySystem, type SimpleGrade } from './severity.ts';
// 5. product labels
export {
  classifyLabel,
  classifyLabelDetailed,
  detectSectionType,
  confidentSectionType,
  resolveSectionType,
  mentionContext,
  SECTION_TYPES,
  LABEL_CONTEXTS,
  labelCandidates,
  weighMention,
  SECTION_WEIGHT,
  type LabelPrediction,
  type LabelClassification,
  type ExcludedCandidate,
  type LabelContext,
  type SectionType,
  type LabelSnippet,
  type LabelOptions,
  type LabelCandidate,
  type MentionEvidence,
} from './label.ts';

// Building blocks
export { tokenize, fold, normalizeSpelling, wordForms, bagKey, boundedEditDistance, type Token } from './text.ts';
export { splitSentences, splitClauses, segmentLabel, sectionOf, trimSpan, LABEL_SECTIONS, type TextSpan, type LabelUnit, type UnitKind } from './segment.ts';
export { findContextCues, cuesCovering, type ContextCue, type ContextKind } from './context.ts';
export { matchTerms, prepareTokens, type TermMatch, type MatchKind, type MatchOptions, type Prepared } from './match.ts';
export { analyseSentences, findCues, type CueHit, type AnalysedSentence } from './cues.ts';
export { ABBREVIATIONS, LAY_TERMS, MISSPELLINGS, CANONICAL_STEMS, KEY_STOPWORDS, type AbbreviationEntry } from './lexicon.ts';
export {
  calibrateLabel,
  calibrateText,
  calibrateIdentify,
  calibrateCriterion,
  calibrateSerious,
  calibrateCtcae,
  calibrateSimple,
  applyLogistic,
  fitLogistic,
  expectedCalibrationError,
  type CalibrationParams,
  type LogisticModel,
} from './calibration.ts';
export { CALIBRATION } from './calibration-params.ts';
