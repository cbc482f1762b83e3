// Small built-in word lists. They complement the release's own terms (whose LLTs
// already carry many lay terms and abbreviations) and hold no terminology content:
// expansions and lay phrases are plain English and are resolved against whatever
// vocabulary is loaded, so an entry whose target the release lacks is simply unused.

/** Function words dropped from matching keys ("pain in extremity" = "extremity pain"). */
export const KEY_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'with', 'by', 'from', 'as', 'into', 'onto', 'upon',
  'within', 'its', 'it', 'this', 'that', 'these', 'those', 'his', 'her', 'their', 'is', 'are', 'was', 'were',
  'be', 'been', 'being', 'nos', 'has', 'have', 'had', 'my', 'your', 'our', 'related', 'associated',
]);

/**
 * Canonical forms for word stems (Porter2 output) that mean the same thing in term
 * names and narratives: "elevation of ALT" = "ALT increased", "worsening" = "aggravated".
 * Applied identically to vocabulary names and text, so they only merge, never invent.
 */
export const CANONICAL_STEMS: ReadonlyMap<string, string> = new Map([
  ['increas', '+inc'], ['elev', '+inc'], ['rais', '+inc'], ['rise', '+inc'], ['rose', '+inc'],
  ['decreas', '+dec'], ['reduc', '+dec'], ['reduct', '+dec'], ['diminish', '+dec'], ['declin', '+dec'],
  ['abnorm', '+abn'], ['abnormal', '+abn'], ['chang', '+abn'],
  ['worsen', '+agg'], ['aggrav', '+agg'], ['exacerb', '+agg'],
  ['heart', 'cardiac'], ['liver', 'hepat'], ['kidney', 'renal'], ['ocular', 'eye'], ['facial', 'face'],
  ['pulmonari', 'lung'], ['cutan', 'skin'], ['dermatolog', 'skin'], ['cerebr', 'brain'], ['nasal', 'nose'],
  ['muscular', 'muscl'], ['visual', 'vision'], ['allergi', 'allerg'], ['mycot', 'fungal'], ['tumor', 'neoplasm'], ['infecti', 'infect'], ['haematolog', 'hematolog'],
  ['ach', 'pain'], ['bleed', 'hemorrhag'], ['fever', 'pyrexia'], ['febril', 'pyrexia'],
  ['dilat', 'dilat'], ['hospitalis', 'hospit'], ['hospitaliz', 'hospit'],
  // Adjective ↔ noun of the same organ or finding (the stems Porter2 leaves apart).
  ['transaminas', 'aminotransferas'], ['electrocardiograph', 'electrocardiogram'], ['herpet', 'herp'],
  ['cholestat', 'cholestas'], ['venous', 'vein'], ['stomach', 'gastric'], ['ophthalm', 'eye'],
  ['vagina', 'vagin'], ['uterus', 'uterin'], ['ovari', 'ovarian'], ['esophagus', 'esophag'], ['dermal', 'skin'],
  ['pharynx', 'pharyng'], ['larynx', 'laryng'], ['bronchus', 'bronchial'], ['trachea', 'tracheal'],
  ['cornea', 'corneal'], ['retina', 'retin'], ['urethra', 'urethr'],
  // -otic ↔ -osis of the same lesion ("thrombotic events" = thrombosis, "necrotic skin lesions").
  ['thrombot', 'thrombos'], ['necrot', 'necros'], ['fibrot', 'fibros'], ['sclerot', 'scleros'], ['stenot', 'stenos'],
  ['cirrhot', 'cirrhos'], ['osteoporot', 'osteoporos'], ['ketot', 'ketos'],
  // Generic heads: "liver disease" is coded as Liver disorder, "ocular manifestations" as Eye symptom.
  ['diseas', 'disord'], ['manifest', 'symptom'],
  // Organ damage is coded as injury ("optic nerve damage" → Optic nerve injury).
  ['damag', 'injuri'],
]);

/**
 * Prefixes of site and time that leave the word's organ or event unchanged for coding:
 * "intracerebral" bleeding is cerebral, "subconjunctival" conjunctival, "periorbital" orbital,
 * "postprocedural" procedural. Used only for words the vocabulary does not know as written.
 * (Not hyper-/hypo-/an-/dys-: those change the meaning.)
 */
export const LOCATIVE_PREFIXES: readonly string[] = [
  'intra', 'extra', 'inter', 'supra', 'infra', 'retro', 'trans', 'peri', 'para', 'endo', 'post', 'sub', 'pre', 'epi',
];

/** Irregular plurals and Latin/Greek forms that a stemmer leaves apart. */
export const IRREGULAR_FORMS: ReadonlyMap<string, string> = new Map([
  ['feet', 'foot'], ['teeth', 'tooth'], ['women', 'woman'], ['men', 'man'], ['children', 'child'], ['mice', 'mouse'],
  ['emboli', 'embolus'], ['thrombi', 'thrombus'], ['calculi', 'calculus'], ['fungi', 'fungus'], ['bronchi', 'bronchus'],
  ['varices', 'varix'], ['vertebrae', 'vertebra'], ['bacteria', 'bacterium'], ['nuclei', 'nucleus'],
  ['threw', 'throw'], ['thrown', 'throw'], ['felt', 'feel'], ['fainted', 'faint'], ['bled', 'bleed'],
]);

/** Frequent misspellings in reporter narratives (typo tolerance catches many others). */
export const MISSPELLINGS: ReadonlyMap<string, string> = new Map([
  ['diarhea', 'diarrhea'], ['diarrea', 'diarrhea'], ['diarreah', 'diarrhea'], ['diahrrea', 'diarrhea'], ['diarhoea', 'diarrhoea'],
  ['nausia', 'nausea'], ['nausua', 'nausea'], ['vomitting', 'vomiting'], ['vommiting', 'vomiting'], ['vomitted', 'vomited'],
  ['pruritis', 'pruritus'], ['parasthesia', 'paresthesia'], ['parasthesias', 'paresthesias'], ['headach', 'headache'],
  ['dizzyness', 'dizziness'], ['fatige', 'fatigue'], ['hemorrage', 'hemorrhage'], ['haemorrage', 'haemorrhage'],
  ['siezure', 'seizure'], ['seizer', 'seizure'], ['anaphalaxis', 'anaphylaxis'], ['anaphylaxsis', 'anaphylaxis'],
  ['rythm', 'rhythm'], ['arrythmia', 'arrhythmia'], ['tachicardia', 'tachycardia'], ['insomina', 'insomnia'],
  ['neutropnia', 'neutropenia'], ['pnuemonia', 'pneumonia'], ['pneumonai', 'pneumonia'], ['rashes', 'rash'],
  ['pnemonia', 'pneumonia'], ['neumonia', 'pneumonia'], ['hyperhydrosis', 'hyperhidrosis'], ['diarrohea', 'diarrhoea'],
  ['diarrhae', 'diarrhea'], ['dysponea', 'dyspnoea'], ['dyspnoe', 'dyspnoea'], ['bradicardia', 'bradycardia'],
  ['tachycardiac', 'tachycardia'], ['hypertention', 'hypertension'], ['hypotention', 'hypotension'],
  ['arrythmias', 'arrhythmias'], ['anaphylatic', 'anaphylactic'], ['anaphalactic', 'anaphylactic'],
  ['urticara', 'urticaria'], ['erythma', 'erythema'], ['oedma', 'oedema'], ['edma', 'edema'], ['thrombocytopenea', 'thrombocytopenia'],
  ['leukopaenia', 'leukopenia'], ['leucopenia', 'leukopenia'], ['leucocytosis', 'leukocytosis'], ['haemorhage', 'haemorrhage'],
  ['hemorhage', 'hemorrhage'], ['hemmorhage', 'hemorrhage'],
  ['vertigos', 'vertigo'], ['insomnea', 'insomnia'], ['somnolance', 'somnolence'], ['parasthesiae', 'paraesthesiae'],
  ['paresthesiae', 'paresthesias'], ['abdomnal', 'abdominal'], ['abdominial', 'abdominal'], ['nausious', 'nauseous'],
]);

export interface AbbreviationEntry {
  /** Plain-English expansion, matched against the loaded vocabulary like any text. */
  expansion: string;
  /** Only an all-capitals occurrence counts ("MI", not "mi"; "PE", not "pe"). */
  caseSensitive: boolean;
  /**
   * Also an everyday English word ("HIT", "TEN", "ED"): an all-lower-case text, which otherwise may
   * write abbreviations in lower case, still needs the capitals for it.
   */
  englishWord?: boolean;
}

const abbr = (expansion: string, caseSensitive = false, englishWord = false): AbbreviationEntry => ({
  expansion,
  caseSensitive,
  ...(englishWord ? { englishWord } : {}),
});

/**
 * Common clinical abbreviations. Used only when the release has no term named by the
 * abbreviation itself (its own LLTs win: a release with an "ARDS" LLT decides what ARDS is).
 */
export const ABBREVIATIONS: ReadonlyMap<string, AbbreviationEntry> = new Map([
  ['alt', abbr('alanine aminotransferase')], ['sgpt', abbr('alanine aminotransferase')],
  ['ast', abbr('aspartate aminotransferase', true)], ['sgot', abbr('aspartate aminotransferase')],
  ['ggt', abbr('gamma-glutamyltransferase')], ['alp', abbr('alkaline phosphatase', true)],
  ['ldh', abbr('blood lactate dehydrogenase')], ['cpk', abbr('blood creatine phosphokinase')],
  ['ck', abbr('blood creatine phosphokinase', true)], ['bun', abbr('blood urea nitrogen', true)],
  ['wbc', abbr('white blood cell')], ['rbc', abbr('red blood cell')], ['hgb', abbr('hemoglobin')],
  ['hb', abbr('hemoglobin', true)], ['hct', abbr('hematocrit')], ['anc', abbr('neutrophil count', true)],
  ['inr', abbr('international normalised ratio')], ['aptt', abbr('activated partial thromboplastin time')],
  ['ptt', abbr('partial thromboplastin time')], ['tsh', abbr('blood thyroid stimulating hormone')],
  ['ldl', abbr('low density lipoprotein')], ['hdl', abbr('high density lipoprotein')],
  ['ecg', abbr('electrocardiogram')], ['ekg', abbr('electrocardiogram')], ['bp', abbr('blood pressure', true)],
  ['hr', abbr('heart rate', true)], ['lvef', abbr('ejection fraction')],
  ['mi', abbr('myocardial infarction', true)], ['ami', abbr('acute myocardial infarction', true)],
  ['dvt', abbr('deep vein thrombosis')], ['pe', abbr('pulmonary embolism', true)], ['vte', abbr('venous thromboembolism')],
  ['chf', abbr('congestive heart failure')], ['cad', abbr('coronary artery disease', true, true)],
  ['af', abbr('atrial fibrillation', true)], ['afib', abbr('atrial fibrillation')], ['htn', abbr('hypertension')],
  ['cva', abbr('cerebrovascular accident')], ['tia', abbr('transient ischemic attack', true)],
  ['uri', abbr('upper respiratory tract infection')], ['urti', abbr('upper respiratory tract infection')],
  ['uti', abbr('urinary tract infection')], ['lrti', abbr('lower respiratory tract infection')],
  ['tb', abbr('tuberculosis', true)], ['hbv', abbr('hepatitis b virus')], ['hcv', abbr('hepatitis c virus')],
  ['cmv', abbr('cytomegalovirus')], ['hsv', abbr('herpes simplex')], ['vzv', abbr('varicella zoster virus')],
  ['pml', abbr('progressive multifocal leukoencephalopathy')], ['ards', abbr('acute respiratory distress syndrome')],
  ['sjs', abbr('stevens-johnson syndrome')], ['ten', abbr('toxic epidermal necrolysis', true, true)],
  ['dress', abbr('drug reaction with eosinophilia and systemic symptoms', true)],
  ['ild', abbr('interstitial lung disease')], ['copd', abbr('chronic obstructive pulmonary disease')],
  ['aki', abbr('acute kidney injury')], ['arf', abbr('acute renal failure', true)], ['ckd', abbr('chronic kidney disease')],
  ['pres', abbr('posterior reversible encephalopathy syndrome', true)], ['tls', abbr('tumour lysis syndrome', true)],
  ['hus', abbr('haemolytic uraemic syndrome', true)], ['ttp', abbr('thrombotic thrombocytopenic purpura', true)],
  ['dic', abbr('disseminated intravascular coagulation', true)], ['gerd', abbr('gastrooesophageal reflux disease')],
  ['onj', abbr('osteonecrosis of jaw')], ['crs', abbr('cytokine release syndrome', true)],
  ['nms', abbr('neuroleptic malignant syndrome', true)], ['siadh', abbr('inappropriate antidiuretic hormone secretion')],
  ['hlh', abbr('haemophagocytic lymphohistiocytosis', true)], ['gi', abbr('gastrointestinal', true)],
  ['cns', abbr('central nervous system', true)], ['sob', abbr('dyspnoea', true, true)], ['loc', abbr('loss of consciousness', true)],
  ['ha', abbr('headache', true, true)], ['bm', abbr('bowel movement', true)],
  ['egfr', abbr('glomerular filtration rate')], ['gfr', abbr('glomerular filtration rate')],
  ['fev1', abbr('forced expiratory volume')], ['dlco', abbr('carbon monoxide diffusing capacity')],
  ['iop', abbr('intraocular pressure')], ['bmd', abbr('bone density')],
  ['ptld', abbr('post transplant lymphoproliferative disorder')], ['pcp', abbr('pneumocystis jirovecii pneumonia', true)],
  ['pah', abbr('pulmonary arterial hypertension', true)], ['rpls', abbr('reversible posterior leukoencephalopathy syndrome')],
  ['ana', abbr('antinuclear antibody', true, true)], ['jcv', abbr('jc virus')], ['sirs', abbr('systemic inflammatory response syndrome', true)],
  // Further common adverse-event abbreviations (general clinical usage).
  ['pjp', abbr('pneumocystis jirovecii pneumonia')], ['ppe', abbr('palmar-plantar erythrodysaesthesia', true)],
  ['hfs', abbr('hand-foot syndrome', true)], ['hfsr', abbr('hand-foot skin reaction')],
  ['cdad', abbr('clostridium difficile associated diarrhoea')], ['cdi', abbr('clostridium difficile infection', true)],
  ['nsf', abbr('nephrogenic systemic fibrosis', true)], ['crps', abbr('complex regional pain syndrome')],
  ['ich', abbr('intracranial haemorrhage', true)], ['sah', abbr('subarachnoid haemorrhage', true)],
  ['pvt', abbr('portal vein thrombosis', true)], ['cvst', abbr('cerebral venous sinus thrombosis')],
  ['eps', abbr('extrapyramidal symptoms', true)], ['td', abbr('tardive dyskinesia', true)],
  ['mcv', abbr('mean cell volume', true)], ['mch', abbr('mean cell haemoglobin', true)],
  ['shbg', abbr('sex hormone binding globulin')], ['tbg', abbr('thyroxine binding globulin', true)],
  ['pth', abbr('parathyroid hormone', true)], ['acth', abbr('adrenocorticotropic hormone')],
  ['hpa', abbr('hypothalamic pituitary adrenal', true)], ['chd', abbr('coronary heart disease', true)],
  ['acs', abbr('acute coronary syndrome', true)], ['stemi', abbr('ST segment elevation myocardial infarction')],
  ['nstemi', abbr('non-ST segment elevation myocardial infarction')], ['svt', abbr('supraventricular tachycardia', true)],
  ['vt', abbr('ventricular tachycardia', true)], ['vf', abbr('ventricular fibrillation', true)],
  ['lbbb', abbr('left bundle branch block')], ['rbbb', abbr('right bundle branch block')],
  ['lvh', abbr('left ventricular hypertrophy', true)], ['lvd', abbr('left ventricular dysfunction', true)],
  ['nodat', abbr('new onset diabetes after transplantation')], ['pvan', abbr('polyomavirus associated nephropathy')],
  ['mas', abbr('macrophage activation syndrome', true, true)], ['ams', abbr('altered mental status', true)],
  ['sbo', abbr('small bowel obstruction', true)], ['ibs', abbr('irritable bowel syndrome', true)],
  ['ibd', abbr('inflammatory bowel disease', true)], ['gord', abbr('gastrooesophageal reflux disease')],
  ['gib', abbr('gastrointestinal haemorrhage', true)], ['ugib', abbr('upper gastrointestinal haemorrhage')],
  ['lgib', abbr('lower gastrointestinal haemorrhage')], ['rls', abbr('restless legs syndrome', true)],
  ['nash', abbr('non-alcoholic steatohepatitis', true)], ['nafld', abbr('non-alcoholic fatty liver disease')],
  ['dili', abbr('drug-induced liver injury', true)], ['hit', abbr('heparin-induced thrombocytopenia', true, true)],
  ['itp', abbr('immune thrombocytopenia', true)], ['aiha', abbr('autoimmune haemolytic anaemia')],
  ['tma', abbr('thrombotic microangiopathy', true)], ['mds', abbr('myelodysplastic syndrome', true)],
  ['aml', abbr('acute myeloid leukaemia', true)], ['cll', abbr('chronic lymphocytic leukaemia', true)],
  ['nhl', abbr('non-hodgkin lymphoma', true)], ['bcc', abbr('basal cell carcinoma', true)],
  ['scc', abbr('squamous cell carcinoma', true)], ['nmsc', abbr('non-melanoma skin cancer')],
  ['ebv', abbr('epstein-barr virus', true)], ['rsv', abbr('respiratory syncytial virus', true)],
  ['hpv', abbr('papilloma viral infection', true)], ['vap', abbr('ventilator associated pneumonia', true)],
  ['dka', abbr('diabetic ketoacidosis', true)], ['esrd', abbr('end stage renal disease')],
  ['atn', abbr('acute tubular necrosis', true)], ['pid', abbr('pelvic inflammatory disease', true)],
  ['nec', abbr('necrotising enterocolitis', true)], ['ivh', abbr('intraventricular haemorrhage', true)],
  ['pph', abbr('postpartum haemorrhage', true)], ['ohss', abbr('ovarian hyperstimulation syndrome')],
  ['irr', abbr('infusion related reaction', true)], ['isr', abbr('injection site reaction', true)],
  ['qtc', abbr('electrocardiogram qt corrected interval', true)],
  ['ed', abbr('erectile dysfunction', true, true)], ['bph', abbr('benign prostatic hyperplasia', true)],
  ['sle', abbr('systemic lupus erythematosus', true)], ['ptsd', abbr('post-traumatic stress disorder')],
  ['ocd', abbr('obsessive-compulsive disorder', true)],
]);

/**
 * Lay and reporter phrases → candidate term names (first one the release has wins).
 * Only used where the release has no term spelled like the phrase itself.
 */
export const LAY_TERMS: ReadonlyArray<readonly [phrase: string, targets: readonly string[]]> = [
  ['throwing up', ['vomiting']], ['threw up', ['vomiting']], ['throw up', ['vomiting']], ['puking', ['vomiting']],
  ['vomited', ['vomiting']], ['being sick', ['vomiting']],
  ['feeling sick', ['nausea']], ['felt sick', ['nausea']], ['sick to stomach', ['nausea']], ['queasy', ['nausea']],
  ['nauseated', ['nausea']], ['nauseous', ['nausea']],
  ['tummy ache', ['abdominal pain']], ['stomach ache', ['abdominal pain']], ['belly pain', ['abdominal pain']],
  ['stomach pain', ['abdominal pain']], ['tummy pain', ['abdominal pain']], ['stomach cramps', ['abdominal pain']],
  ['loose stools', ['diarrhoea', 'diarrhea']], ['watery stools', ['diarrhoea', 'diarrhea']],
  ['passed out', ['syncope', 'loss of consciousness']], ['fainted', ['syncope']], ['blacked out', ['loss of consciousness', 'syncope']],
  ['heart attack', ['myocardial infarction']], ['high blood pressure', ['hypertension']], ['low blood pressure', ['hypotension']],
  ['shortness of breath', ['dyspnoea', 'dyspnea']], ['short of breath', ['dyspnoea', 'dyspnea']],
  ['breathlessness', ['dyspnoea', 'dyspnea']], ['trouble breathing', ['dyspnoea', 'dyspnea']],
  ['difficulty breathing', ['dyspnoea', 'dyspnea']], ['can not sleep', ['insomnia']], ['trouble sleeping', ['insomnia']],
  ['sleeplessness', ['insomnia']], ['itching', ['pruritus']], ['itchy', ['pruritus']], ['itchiness', ['pruritus']],
  ['hair loss', ['alopecia']], ['losing hair', ['alopecia']], ['dizzy', ['dizziness']], ['lightheaded', ['dizziness']],
  ['light headed', ['dizziness']], ['tired', ['fatigue']], ['tiredness', ['fatigue']], ['exhausted', ['fatigue']],
  ['hives', ['urticaria']], ['high temperature', ['pyrexia']],
  ['runny nose', ['rhinorrhoea', 'rhinorrhea']], ['stuffy nose', ['nasal congestion']], ['blocked nose', ['nasal congestion']],
  ['sore throat', ['oropharyngeal pain', 'pharyngitis']], ['nosebleed', ['epistaxis']], ['nose bleed', ['epistaxis']],
  ['pins and needles', ['paraesthesia', 'paresthesia']], ['tingling', ['paraesthesia', 'paresthesia']],
  ['numbness', ['hypoaesthesia', 'hypoesthesia']], ['blurry vision', ['vision blurred']], ['blurred vision', ['vision blurred']],
  ['ringing in the ears', ['tinnitus']], ['ringing in ears', ['tinnitus']], ['racing heart', ['palpitations', 'tachycardia']],
  ['pounding heart', ['palpitations']], ['heart racing', ['palpitations', 'tachycardia']], ['fast heartbeat', ['tachycardia']],
  ['swelling', ['swelling', 'oedema', 'edema']], ['swollen ankles', ['oedema peripheral', 'peripheral swelling']],
  ['swollen legs', ['oedema peripheral', 'peripheral swelling']], ['joint pain', ['arthralgia']], ['muscle pain', ['myalgia']],
  ['muscle aches', ['myalgia']], ['achy muscles', ['myalgia']], ['back ache', ['back pain']], ['backache', ['back pain']],
  ['chest tightness', ['chest discomfort']], ['heartburn', ['dyspepsia']], ['indigestion', ['dyspepsia']],
  ['constipated', ['constipation']], ['bloating', ['abdominal distension']], ['bloated', ['abdominal distension']],
  ['convulsions', ['seizure', 'convulsion']],
  ['bruising', ['contusion']], ['bruise', ['contusion']], ['confused', ['confusional state']], ['confusion', ['confusional state']],
  ['depressed', ['depression']], ['anxious', ['anxiety']], ['sleepy', ['somnolence']], ['drowsy', ['somnolence']],
  ['drowsiness', ['somnolence']], ['loss of appetite', ['decreased appetite']], ['poor appetite', ['decreased appetite']],
  ['weight gain', ['weight increased']], ['weight loss', ['weight decreased']], ['chills', ['chills']],
  ['shivering', ['chills']], ['sweating', ['hyperhidrosis']], ['night sweats', ['night sweats']],
  ['sunburn', ['sunburn']], ['skin rash', ['rash']], ['red skin', ['erythema']], ['skin redness', ['erythema']],
  ['blood in urine', ['haematuria', 'hematuria']], ['blood in stool', ['haematochezia', 'hematochezia']],
  ['coughing up blood', ['haemoptysis', 'hemoptysis']], ['vomiting blood', ['haematemesis', 'hematemesis']],
  ['yellow skin', ['jaundice']], ['yellowing of the skin', ['jaundice']], ['kidney failure', ['renal failure']],
  ['liver failure', ['hepatic failure']], ['stroke', ['cerebrovascular accident', 'stroke']],
  ['blood clot', ['thrombosis']], ['clot in the lung', ['pulmonary embolism']], ['allergic reaction', ['hypersensitivity']],
  ['injection site pain', ['injection site pain']], ['sore arm', ['injection site pain', 'pain in extremity']],
  ['pain in arm', ['pain in extremity']], ['pain in leg', ['pain in extremity']], ['leg pain', ['pain in extremity']],
  ['arm pain', ['pain in extremity']], ['cold sweat', ['cold sweat']], ['low platelets', ['thrombocytopenia']],
  ['low white cell count', ['white blood cell count decreased', 'leukopenia']], ['low blood sugar', ['hypoglycaemia', 'hypoglycemia']],
  ['high blood sugar', ['hyperglycaemia', 'hyperglycemia']], ['low potassium', ['hypokalaemia', 'hypokalemia']],
  ['high potassium', ['hyperkalaemia', 'hyperkalemia']], ['low sodium', ['hyponatraemia', 'hyponatremia']],
  ['mortality', ['death']], ['increased urination', ['pollakiuria']], ['frequent urination', ['pollakiuria']],
  ['hepatic toxicity', ['hepatotoxicity']], ['liver toxicity', ['hepatotoxicity']], ['cardiac toxicity', ['cardiotoxicity']],
  ['renal toxicity', ['nephrotoxicity']], ['kidney toxicity', ['nephrotoxicity']], ['neurologic toxicity', ['neurotoxicity']],
  ['neurological toxicity', ['neurotoxicity']], ['hematologic toxicity', ['haematotoxicity', 'hematotoxicity']],
  ['hematological toxicity', ['haematotoxicity', 'hematotoxicity']], ['skin toxicity', ['skin toxicity']],
  ['fatal', ['death']], ['fatality', ['death']], ['fatalities', ['death']], ['died', ['death']], ['passed away', ['death']],
  // Lay wording here; weighed as a clinical synonym (0.75) only in pasted text and population sections (round 11,
  // label.ts weighMention): everywhere, the TAC calibrators move and honest folds lose (rounds 9-11, docs/nlp.md).
  ['fetal harm', ['foetal damage', 'fetal damage']], ['harm to the fetus', ['foetal damage', 'fetal damage']],
  // Thoughts of suicide are ideation; without these the stem "suicid" reads them as a completed suicide.
  ['suicidal thoughts', ['suicidal ideation']], ['suicidal thought', ['suicidal ideation']], ['suicidal thinking', ['suicidal ideation']],
];

/**
 * Clinical synonyms a label writes for a PT (not lay wording: matched as name variants, as strong as the release's
 * own spellings). Round 8, from drug-interaction text: another drug's toxicity brought on by the combination,
 * a worsening organ function.
 */
export const CLINICAL_SYNONYMS: ReadonlyArray<readonly [phrase: string, targets: readonly string[]]> = [
  ['lithium toxicity', ['toxicity to various agents']], ['salicylate toxicity', ['toxicity to various agents']],
  ['digoxin toxicity', ['toxicity to various agents']], ['digitalis toxicity', ['toxicity to various agents']],
  ['deterioration in renal function', ['renal impairment']], ['deterioration of renal function', ['renal impairment']],
  ['anaphylactic-like reactions', ['anaphylactoid reaction']], ['anaphylactic-like reaction', ['anaphylactoid reaction']],
  ['electrolyte depletion', ['electrolyte imbalance']],
  // Round 14, population and pregnancy wording of a finding: growth and fetal-heart findings as labels write them,
  // and the neonatal withdrawal syndrome named as such (not the bare "withdrawal symptoms": annotated either way).
  ['inhibition of bone growth', ['growth retardation']], ['suppression of growth', ['growth retardation']],
  ['growth suppression', ['growth retardation']], ['premature closure of the ductus arteriosus', ['ductus arteriosus premature closure']],
  ['premature closure of the fetal ductus arteriosus', ['ductus arteriosus premature closure']],
  ['neonatal opioid withdrawal syndrome', ['drug withdrawal syndrome neonatal']],
  ['neonatal withdrawal syndrome', ['drug withdrawal syndrome neonatal']], ['neonatal withdrawal symptoms', ['drug withdrawal syndrome neonatal']],
];

/**
 * Words that are not findings in these collocations: "double-blind", "dose-dependent",
 * "nervous system", "dependent on". word → words that may not precede / follow it.
 */
export const NOT_AFTER: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['blind', new Set(['double', 'single', 'triple', 'observer', 'investigator'])],
  ['blinded', new Set(['double', 'single', 'triple', 'observer', 'investigator'])],
  ['dependent', new Set(['dose', 'time', 'concentration', 'exposure', 'highly', 'insulin', 'oxygen', 'ventilator'])],
  ['related', new Set(['dose', 'time', 'exposure'])],
  ['label', new Set(['open'])],
  ['control', new Set(['placebo', 'birth'])],
  ['infected', new Set(['hiv', 'co', '1', '2', 'hbv', 'hcv'])],
]);
export const NOT_BEFORE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['nervous', new Set(['system'])],
  ['dependent', new Set(['on', 'upon'])],
  ['infusion', new Set(['rate', 'time', 'duration'])],
  ['cancer', new Set(['institute'])],
]);

/**
 * Everyday words that typo tolerance must leave alone even though they sit within one
 * edit of a medical word ("fewer" ~ "fever", "months" ~ "mouths").
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set([
  'fewer', 'months', 'month', 'weeks', 'week', 'hours', 'patient', 'patients', 'treated', 'treatment', 'reported',
  'reports', 'occurred', 'observed', 'studies', 'study', 'placebo', 'dosing', 'doses', 'higher', 'lower', 'common',
  'commonly', 'following', 'including', 'compared', 'received', 'receiving', 'clinical', 'trials', 'during', 'because',
  'should', 'would', 'could', 'there', 'their', 'these', 'those', 'which', 'where', 'while', 'after', 'before', 'other',
  'others', 'within', 'without', 'between', 'several', 'second', 'third', 'started', 'stopped', 'resolved', 'recovered',
  'admitted', 'developed', 'experienced', 'complained', 'presented', 'noticed', 'repeatedly', 'overnight', 'morning',
  'evening', 'yesterday', 'husband', 'mother', 'father', 'daughter', 'feeling', 'having', 'getting', 'taking', 'started',
  'therapy', 'medication', 'medicine', 'tablet', 'tablets', 'injection', 'vaccine', 'vaccination', 'dosage', 'increase',
  'decrease', 'increased', 'decreased', 'severe', 'moderate', 'serious', 'hospital', 'emergency', 'discontinued',
  'discontinuation', 'monitor', 'monitoring', 'reaction', 'reactions', 'events', 'adverse', 'effects', 'effect',
  'healthy', 'wealthy', 'weather', 'whether', 'better', 'matter', 'letter', 'latter', 'sister', 'brother', 'doctor',
  'nurses', 'pharmacist', 'visited', 'called', 'minutes', 'minute', 'second', 'seconds', 'hourly', 'daily', 'weekly',
]);
