// ICH E2A seriousness: each criterion is met by an affirmed cue in the narrative
// (negated, ruled-out, historical, family and hypothetical mentions do not count).
// Confidences are logistic calibrations of the rule evidence, fitted on the dev half of the
// project's labelled narrative set (data/eval/narratives.json; see docs/nlp.md, Calibration).
import {
  calibrateCriterion,
  calibrateSerious,
  type CalibrationParams,
  type CriterionFeatureInput,
  type SeriousFeatureInput,
} from './calibration.ts';
import { CALIBRATION } from './calibration-params.ts';
import { analyseSentences, findCues, quote, type CueHit } from './cues.ts';

export type Criterion = 'death' | 'life_threatening' | 'hospitalization' | 'disability' | 'congenital_anomaly' | 'medically_important';

export const CRITERIA: readonly Criterion[] = ['death', 'life_threatening', 'hospitalization', 'disability', 'congenital_anomaly', 'medically_important'];

export interface CriterionAssessment {
  met: boolean;
  /** Confidence in `met` (whichever way it went). */
  confidence: number;
  /** Verbatim evidence, with its context when it did not count. */
  reasons: string[];
}

export interface SeriousnessAssessment {
  serious: boolean;
  /** Confidence in `serious`. */
  confidence: number;
  criteria: Record<Criterion, CriterionAssessment>;
}

interface Rule {
  re: RegExp;
  /** Confidence that the criterion is met when the cue is affirmed. */
  strength: number;
}

const r = (source: string, strength: number): Rule => ({ re: new RegExp(source, 'giu'), strength });

export const SERIOUSNESS_RULES: Record<Criterion, Rule[]> = {
  death: [
    r(String.raw`\b(?:died|dies|death|deaths|deceased|fatal(?:ly|ity|ities)?|passed away|demise)\b`, 0.95),
    r(String.raw`\b(?:patient|pt|he|she|infant|baby)\s+expired\b|\b(?:was )?found dead\b|\bpronounced dead\b|\bdead on arrival\b|\bbrain[- ]dead\b`, 0.95),
    r(String.raw`\b(?:resuscitation|CPR) (?:was |were )?unsuccessful\b|\bunsuccessful(?:ly)? resuscitat\w*|\bcould not be resuscitated\b`, 0.9),
  ],
  life_threatening: [
    r(String.raw`\blife[- ]?threatening\b|\bthreat to (?:his |her |the patient's )?life\b|\bnear[- ]fatal\b|\b(?:nearly|almost) died\b`, 0.92),
    r(String.raw`\b(?:cardiac|cardiopulmonary|respiratory) arrest\b|\banaphylactic shock\b|\bresuscitat\w*|\bCPR\b|\bcode blue\b`, 0.88),
    r(String.raw`\bintubat\w*|\bmechanical(?:ly)? ventilat\w*|\bvasopressors?\b`, 0.8),
  ],
  hospitalization: [
    r(String.raw`\bhospitali[sz](?:ed|ation|ations|e)\b|\bin[- ]?patient\b|\bre-?admitted\b|\bprolonged (?:hospital )?stay\b`, 0.93),
    r(String.raw`\badmitted\b(?!\s+(?:to\s+)?(?:taking|using|having|that|drinking))|\badmission\b`, 0.88),
    r(String.raw`\b(?:intensive (?:care|therapy)|ICU|ITU|PICU|NICU|CCU|HDU|SCBU)\b|\bkept (?:in )?overnight\b|\bovernight (?:stay|observation)\b`, 0.82),
  ],
  disability: [
    r(String.raw`\bdisab(?:led|ility|ilities|ling)\b|\bincapacit\w+|\bpermanent(?:ly)? (?:damage|damaged|impairment|impaired|loss|disability|deficit)\b`, 0.88),
    r(String.raw`\bpersistent (?:disability|impairment|deficit|weakness|paralysis)\b|\b(?:unable to|cannot|can no longer|no longer able to) (?:work|walk|perform|care for)\b|\bwheelchair\b`, 0.75),
    r(String.raw`\bparaly(?:sed|sis|zed)\b|\b(?:para|quadri|tetra|hemi)pleg\w+|\bblind(?:ness)?\b|\bdeaf(?:ness)?\b|\bloss of (?:vision|sight|hearing)\b`, 0.7),
  ],
  congenital_anomaly: [
    r(String.raw`\bcongenital\b|\bbirth defects?\b|\bmalformations?\b|\bteratogen\w*|\bneural tube defects?\b|\bspina bifida\b|\bcleft (?:lip|palate)\b`, 0.9),
    r(String.raw`\b(?:baby|infant|neonate|newborn|child) (?:was )?born with\b|\b(?:fetal|foetal) (?:anomal\w+|abnormalit\w+|malformation\w*)\b`, 0.88),
  ],
  medically_important: [
    r(String.raw`\bmedically (?:important|significant)\b|\bimportant medical event\b`, 0.9),
    r(String.raw`\b(?:required|requiring|needed) (?:urgent |emergency |medical |surgical )?(?:intervention|surgery|treatment)\b|\bto prevent (?:permanent|serious|further)\b`, 0.65),
    r(String.raw`\bemergency (?:room|department|treatment|surgery|services?)\b|\b(?:ER|ED|A&E) visit\b|\bseen in (?:the )?(?:ER|ED|A&E)\b`, 0.65),
    r(String.raw`\b(?:seizures?|convulsions?|anaphyla\w+|bronchospasm|agranulocytosis|stevens[- ]johnson|toxic epidermal necrolysis|(?:liver|hepatic|renal|kidney) failure|pulmonary embolism|deep vein thrombosis|DVT|stroke|myocardial infarction|heart attack|sepsis|septic shock|pancreatitis|suicid\w+|overdose)\b`, 0.7),
    // More important medical events (EMA IME-list types).
    r(String.raw`\b(?:meningitis|encephalitis|myelitis|guillain[- ]barr[eé]|GBS|intussusception|torsades?(?: de pointes)?|ventricular (?:fibrillation|tachycardia)|acute kidney injury|diabetic ketoacidosis|DKA|febrile neutropenia|aplastic an(?:a)?emia|angioedema|(?:GI|gastrointestinal|intracranial|cerebral) (?:bleed\w*|ha?emorrhage)|ha?ematemesis|(?:venous|sinus|arterial) thrombosis|thromboembolism)\b`, 0.7),
    r(String.raw`\b(?:blood )?transfus\w+|\b(?:IV|intravenous) (?:epinephrine|adrenaline|steroids?|antibiotics)\b|\bepinephrine\b|\badrenaline\b|\bepi-?pen\b`, 0.65),
  ],
};

/** The rule evidence behind an assessment (uncalibrated rule strengths), for calibration and evaluation. */
export interface SeriousnessEvidence {
  /** The assessment with rule-strength confidences. */
  raw: SeriousnessAssessment;
  criteria: Record<Criterion, CriterionFeatureInput>;
  serious: SeriousFeatureInput;
}

const ELECTIVE = /\b(?:elective(?:ly)?|as planned|planned (?:admission|surgery|procedure)|pre-?planned|scheduled (?:admission|surgery|procedure))\b/iu;

/** Seriousness of the event(s) a narrative describes, criterion by criterion (ICH E2A); calibrated confidences. */
export function assessSeriousness(text: string, params: CalibrationParams = CALIBRATION): SeriousnessAssessment {
  const ev = seriousnessEvidence(text);
  const criteria = {} as Record<Criterion, CriterionAssessment>;
  for (const c of CRITERIA) criteria[c] = { ...ev.raw.criteria[c], confidence: round(calibrateCriterion(ev.criteria[c], params)) };
  return { serious: ev.raw.serious, confidence: round(calibrateSerious(ev.serious, params)), criteria };
}

/** assessSeriousness before calibration, with the features the calibration reads. */
export function seriousnessEvidence(text: string): SeriousnessEvidence {
  const sentences = analyseSentences(text);
  const criteria = {} as Record<Criterion, CriterionAssessment>;
  const features = {} as Record<Criterion, CriterionFeatureInput>;
  for (const c of CRITERIA) {
    let met = 0;
    let hits = 0;
    let notCounted = false;
    let residual = 0;
    const reasons: string[] = [];
    const seen = new Set<string>();
    // Per sentence, not per hit: a sentence repeating a cue was tested once for each (quadratic).
    const elective = new Map<string, boolean>();
    const isElective = (sentence: string) => {
      let e = elective.get(sentence);
      if (e === undefined) elective.set(sentence, (e = ELECTIVE.test(sentence)));
      return e;
    };
    for (const rule of SERIOUSNESS_RULES[c]) {
      for (const hit of findCues(text, sentences, rule.re)) {
        const key = `${hit.start}:${hit.end}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // ICH E2A: a planned (elective) admission, e.g. for a pre-existing condition, is not a serious outcome.
        if (c === 'hospitalization' && isElective(hit.sentence)) {
          notCounted = true;
          residual = Math.max(residual, 0.1);
          reasons.push(`${quote(hit)} (planned admission) does not count`);
          continue;
        }
        if (hit.affirmed) {
          met = Math.max(met, rule.strength);
          hits++;
          reasons.push(quote(hit));
        } else {
          notCounted = true;
          // A hypothetical or negated mention leaves some doubt.
          residual = Math.max(residual, hit.context.includes('hypothetical') || hit.context.includes('uncertain') ? 0.3 : 0.1);
          reasons.push(`${quote(hit)} does not count`);
        }
      }
    }
    criteria[c] = met > 0 ? { met: true, confidence: met, reasons } : { met: false, confidence: round(0.9 - residual), reasons };
    features[c] = { criterion: c, met: met > 0, strength: met, hits, notCounted };
  }
  const metList = CRITERIA.filter((c) => criteria[c].met);
  let confidence: number;
  if (metList.length > 0) {
    // P(at least one criterion truly met).
    confidence = 1 - metList.reduce((p, c) => p * (1 - criteria[c].confidence), 1);
  } else {
    confidence = Math.min(...CRITERIA.map((c) => criteria[c].confidence));
  }
  const raw: SeriousnessAssessment = { serious: metList.length > 0, confidence: round(confidence), criteria };
  return {
    raw,
    criteria: features,
    serious: {
      serious: raw.serious,
      rawConfidence: raw.confidence,
      criteriaMet: metList.length,
      notCounted: CRITERIA.some((c) => features[c].notCounted),
      onlyMedicallyImportant: metList.length === 1 && metList[0] === 'medically_important',
    },
  };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export type { CueHit };
