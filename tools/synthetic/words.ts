/**
 * Vocabulary for the synthetic terminology. Real anatomical / medical word parts and English
 * qualifiers, combined by names.ts into pseudo-medical terms. No real MedDRA SOC names or codes.
 * Every string here must be Latin-1 (code points ≤ 0xFF) and free of '$', CR and LF.
 */

const w = (s: string): string[] => s.split('|').filter((x) => x.length > 0);

export type ThemeKind =
  | 'disease'
  | 'infection'
  | 'neoplasm'
  | 'congenital'
  | 'pregnancy'
  | 'general'
  | 'investigation'
  | 'injury'
  | 'procedure'
  | 'social'
  | 'product';

export interface Theme {
  /** Synthetic SOC name. */
  name: string;
  /** 5-character-ish SOC abbreviation. */
  abbrev: string;
  kind: ThemeKind;
  /** false → PTs of this SOC get no secondary paths and the SOC is never a secondary target. */
  multiaxial: boolean;
  /** Relative number of HLGTs. */
  hlgtWeight: number;
  /** Relative number of PTs. */
  ptWeight: number;
  /** Combining forms (without linking vowel), e.g. "gastr". */
  roots: string[];
  /** Organ adjectives, e.g. "gastric". */
  adjs: string[];
  /** Body parts / sites (nouns). */
  parts: string[];
  /** Theme-specific condition nouns. */
  conds: string[];
  /** Sub-topics used in HLGT/HLT names, e.g. "motility". */
  topics: string[];
}

/** 27 synthetic SOCs in their (synthetic) international order. */
export const THEMES: Theme[] = [
  {
    name: 'Synthetic microbial and parasitic infestations',
    abbrev: 'SyMic',
    kind: 'infection',
    multiaxial: true,
    hlgtWeight: 12,
    ptWeight: 2000,
    roots: w('sept|bacter|vir|myc|parasit'),
    adjs: w('bacterial|viral|fungal|parasitic|protozoal|mycobacterial|helminthic|rickettsial|spirochaetal|opportunistic|nosocomial|zoonotic'),
    parts: w('bloodstream|wound|catheter site|surgical site|skin structure|soft tissue|upper respiratory tract|lower respiratory tract|urinary tract|central nervous system|bone|joint|lymph node|gastrointestinal tract'),
    conds: w('infection|abscess|sepsis|bacteraemia|viraemia|fungaemia|cellulitis|colonisation|carrier state|infestation|reactivation|empyema|gangrene|septic shock|endotoxaemia'),
    topics: w('bacterial|viral|fungal|parasitic|protozoal|mycobacterial|site unspecified|opportunistic'),
  },
  {
    name: 'Synthetic growths and proliferative lesions',
    abbrev: 'SyGro',
    kind: 'neoplasm',
    multiaxial: true,
    hlgtWeight: 40,
    ptWeight: 2100,
    roots: w('aden|fibr|lip|angi|chondr|oste|my|neur|lymph|melan|papill|blast'),
    adjs: w('glandular|squamous|basal cell|transitional cell|neuroendocrine|mesenchymal|germ cell|lymphoid|myeloid|stromal|ductal|lobular|follicular|clear cell|small cell|papillary|mucinous|serous'),
    parts: w('breast|colon|rectum|lung|bronchus|liver|pancreas|kidney|bladder|prostate|ovary|uterus|cervix|thyroid|skin|bone|brain|stomach|oesophagus|tongue|larynx|lymph node|soft tissue|adrenal gland|pituitary gland|testis|eye|bile duct|small intestine'),
    conds: w('carcinoma|adenoma|sarcoma|lymphoma|papilloma|neoplasm|adenocarcinoma|metastases|carcinoma in situ|blastoma|polyp|cyst|leukaemia|myeloma|hamartoma|tumour'),
    topics: w('benign|malignant|metastatic|in situ|haematopoietic|unspecified malignancy|recurrent'),
  },
  {
    name: 'Synthetic haematic and lymphoid disorders',
    abbrev: 'SyHae',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 5,
    ptWeight: 300,
    roots: w('cyt|haem|lymphaden|splen|thromb|leuc|erythr|neutr|eosin|granul'),
    adjs: w('haematological|lymphatic|splenic|marrow|erythroid|myeloid|platelet|coagulation|haemolytic|lymphoid'),
    parts: w('bone marrow|spleen|lymph node|thymus|platelet|red blood cell|white blood cell|plasma'),
    conds: w('anaemia|cytopenia|thrombocytopenia|neutropenia|lymphopenia|eosinophilia|leucocytosis|polycythaemia|coagulopathy|haemolysis|splenomegaly|lymphadenopathy|pancytopenia|methaemoglobinaemia|hypercoagulation'),
    topics: w('anaemic|coagulation|haemolytic|marrow|splenic|white cell|platelet'),
  },
  {
    name: 'Synthetic immune response disorders',
    abbrev: 'SyImm',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 4,
    ptWeight: 200,
    roots: w('immun|anaphyl|allerg|sarc'),
    adjs: w('allergic|anaphylactic|autoimmune|immune|hypersensitivity|atopic|immunodeficient|inflammatory|transplant'),
    parts: w('immune system|mast cell|complement system|antibody|graft|transplant'),
    conds: w('hypersensitivity|anaphylaxis|allergy|immunodeficiency|graft rejection|graft versus host disease|cytokine release|serum sickness|angioedema|immunosuppression|autoimmunity|sarcoidosis'),
    topics: w('allergic|autoimmune|immunodeficiency|transplant rejection|anaphylactic'),
  },
  {
    name: 'Synthetic glandular and hormonal disorders',
    abbrev: 'SyGla',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 6,
    ptWeight: 250,
    roots: w('thyr|adren|pituitar|parathyr|gonad|hypophys'),
    adjs: w('thyroid|adrenal|pituitary|parathyroid|hypothalamic|endocrine|gonadal|adrenocortical'),
    parts: w('thyroid gland|adrenal gland|pituitary gland|parathyroid gland|hypothalamus|pineal gland'),
    conds: w('hypothyroidism|hyperthyroidism|hypoparathyroidism|hyperparathyroidism|adrenal insufficiency|hypogonadism|hyperprolactinaemia|thyroiditis|goitre|hypopituitarism|hormone imbalance'),
    topics: w('thyroid|adrenal|pituitary|gonadal|hormone secretion'),
  },
  {
    name: 'Synthetic nutritional and metabolic-balance disorders',
    abbrev: 'SyNut',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 14,
    ptWeight: 500,
    roots: w('lip|glyc|prote|uric|calc|natr|kal'),
    adjs: w('metabolic|nutritional|electrolyte|lipid|glucose|acid-base|fluid|vitamin|mineral|protein'),
    parts: w('appetite|body fluid|electrolyte balance|lipid metabolism|glucose metabolism|iron store|vitamin level'),
    conds: w('hypoglycaemia|hyperglycaemia|hyponatraemia|hypernatraemia|hypokalaemia|hyperkalaemia|hypocalcaemia|hypercalcaemia|dehydration|fluid overload|acidosis|alkalosis|malnutrition|cachexia|obesity|dyslipidaemia|hyperuricaemia|vitamin deficiency|decreased appetite|iron overload'),
    topics: w('electrolyte|glucose|lipid|acid-base|nutritional|vitamin|fluid balance'),
  },
  {
    name: 'Synthetic mood and behavioural disorders',
    abbrev: 'SyMoo',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 22,
    ptWeight: 600,
    roots: w('psych|neur|phren|somn'),
    adjs: w('affective|anxious|psychotic|cognitive|behavioural|emotional|dissociative|compulsive|sleep-related|mood'),
    parts: w('mood|sleep|behaviour|thinking|perception|memory|attention|libido|impulse control'),
    conds: w('anxiety|depression|insomnia|agitation|confusional state|hallucination|delusion|mania|apathy|irritability|panic attack|nightmare|euphoric mood|paranoia|dysphoria|abnormal dreams|restlessness|nervousness|disorientation'),
    topics: w('anxiety|mood|psychotic|sleep|cognitive|behavioural|dissociative|impulse control'),
  },
  {
    name: 'Synthetic neural and neuromuscular disorders',
    abbrev: 'SyNeu',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 20,
    ptWeight: 1100,
    roots: w('neur|encephal|mening|myel|radicul|cerebr|crani|plex|gangli|axon'),
    adjs: w('neurological|cerebral|spinal|cranial nerve|peripheral nerve|cerebellar|extrapyramidal|autonomic|neuromuscular|cortical|meningeal|sensory|motor'),
    parts: w('brain|spinal cord|cranial nerve|nerve root|peripheral nerve|cerebellum|basal ganglia|brainstem|meninges|facial nerve|optic nerve|sciatic nerve'),
    conds: w('headache|dizziness|seizure|tremor|paraesthesia|neuropathy|neuralgia|somnolence|syncope|ataxia|dyskinesia|dystonia|hypoaesthesia|paresis|paralysis|dysgeusia|migraine|aphasia|amnesia|coma|myoclonus|nystagmus'),
    topics: w('seizure|movement|headache|neuropathic|cerebrovascular|encephalopathic|demyelinating|sensory|motor'),
  },
  {
    name: 'Synthetic ocular and visual disorders',
    abbrev: 'SyOcu',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 12,
    ptWeight: 700,
    roots: w('kerat|conjunctiv|retin|uve|scler|irid|blephar|ocul|ophthalm|choroid|dacry'),
    adjs: w('ocular|corneal|retinal|conjunctival|lenticular|choroidal|vitreous|optic|lacrimal|palpebral|orbital|macular|scleral'),
    parts: w('eye|eyelid|cornea|retina|lens|iris|conjunctiva|vitreous|macula|lacrimal gland|orbit|eyelash|optic disc|sclera'),
    conds: w('vision blurred|visual impairment|cataract|glaucoma|diplopia|photophobia|lacrimation increased|dry eye|eye pain|ocular hyperaemia|blindness|scotoma|floaters|eye irritation'),
    topics: w('visual|corneal|retinal|lacrimal|lid|lens|glaucomatous|uveal'),
  },
  {
    name: 'Synthetic auditory and vestibular disorders',
    abbrev: 'SyAud',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 4,
    ptWeight: 150,
    roots: w('ot|tympan|labyrinth|myring|cochle|vestibul'),
    adjs: w('aural|auricular|cochlear|vestibular|tympanic|labyrinthine|middle ear|inner ear|external ear'),
    parts: w('ear|ear canal|eardrum|middle ear|inner ear|cochlea|auricle|mastoid'),
    conds: w('tinnitus|vertigo|hearing loss|hypoacusis|hyperacusis|ear pain|ear discomfort|otorrhoea|deafness|ear congestion|motion sickness'),
    topics: w('hearing|vestibular|external ear|middle ear|inner ear'),
  },
  {
    name: 'Synthetic cardiac rhythm and myocardial disorders',
    abbrev: 'SyCar',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 5,
    ptWeight: 400,
    roots: w('cardi|myocard|pericard|endocard|valvul|coron'),
    adjs: w('cardiac|myocardial|pericardial|endocardial|valvular|atrial|ventricular|coronary|sinus|atrioventricular|aortic valve|mitral valve'),
    parts: w('heart|myocardium|pericardium|atrium|ventricle|heart valve|coronary artery|sinus node|atrioventricular node|chordae tendineae'),
    conds: w('palpitations|tachycardia|bradycardia|arrhythmia|fibrillation|flutter|heart failure|angina|cardiomyopathy|extrasystoles|conduction disorder|heart block|cardiac arrest|murmur'),
    topics: w('rhythm|conduction|myocardial|valvular|pericardial|ischaemic|heart failure'),
  },
  {
    name: 'Synthetic vascular and circulatory disorders',
    abbrev: 'SyVas',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 9,
    ptWeight: 500,
    roots: w('angi|arter|phleb|vascul|aort|ven|lymphang'),
    adjs: w('vascular|arterial|venous|aortic|capillary|lymphatic|peripheral vascular|circulatory|embolic|thrombotic'),
    parts: w('artery|vein|aorta|capillary|lymphatic vessel|vena cava|carotid artery|femoral artery|jugular vein|portal vein'),
    conds: w('hypertension|hypotension|flushing|haematoma|vasculitis|thrombophlebitis|aneurysm|dissection|embolism|thrombosis|varicose vein|circulatory collapse|peripheral coldness|pallor|shock|lymphoedema'),
    topics: w('blood pressure|arterial|venous|embolic and thrombotic|vasculitic|lymphatic|haemorrhagic'),
  },
  {
    name: 'Synthetic airway and pulmonary disorders',
    abbrev: 'SyAir',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 9,
    ptWeight: 700,
    roots: w('pneum|bronch|trache|laryng|pharyng|rhin|pleur|sinus|alveol'),
    adjs: w('pulmonary|bronchial|tracheal|laryngeal|pharyngeal|nasal|pleural|alveolar|respiratory|thoracic|mediastinal|sinus|diaphragmatic'),
    parts: w('lung|bronchus|trachea|larynx|pharynx|nose|nasal cavity|pleura|alveolus|paranasal sinus|vocal cord|diaphragm|mediastinum'),
    conds: w('cough|dyspnoea|wheezing|epistaxis|rhinorrhoea|nasal congestion|dysphonia|hypoxia|respiratory failure|pneumothorax|asthma|bronchospasm|hiccups|sneezing|apnoea|atelectasis|haemoptysis'),
    topics: w('bronchial|pulmonary vascular|pleural|upper respiratory|lower respiratory|respiratory failure|nasal'),
  },
  {
    name: 'Synthetic digestive tract disorders',
    abbrev: 'SyDig',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 21,
    ptWeight: 1200,
    roots: w('gastr|enter|col|duoden|oesophag|proct|ile|jejun|gingiv|stomat|gloss|cheil|sialaden|pancreat|append|diverticul'),
    adjs: w('gastric|intestinal|colonic|duodenal|oesophageal|rectal|anal|ileal|jejunal|abdominal|oral|peritoneal|mesenteric|gastrointestinal|pyloric|caecal|salivary|dental|gingival|lingual|pancreatic'),
    parts: w('stomach|duodenum|colon|rectum|anus|oesophagus|ileum|jejunum|caecum|appendix|tongue|lip|gum|tooth|palate|abdomen|peritoneum|mesentery|pylorus|anal canal|salivary gland|pancreas'),
    conds: w('nausea|vomiting|diarrhoea|constipation|dyspepsia|flatulence|abdominal distension|dysphagia|ileus|volvulus|haemorrhoids|reflux|colic|eructation|faecal incontinence|melaena|haematemesis|steatorrhoea|odynophagia'),
    topics: w('motility|inflammatory|haemorrhagic|ulceration and perforation|stenosis and obstruction|dental and gingival|oral soft tissue|pancreatic|peritoneal'),
  },
  {
    name: 'Synthetic liver and biliary disorders',
    abbrev: 'SyLiv',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 4,
    ptWeight: 300,
    roots: w('hepat|cholecyst|cholang|chol|biliar'),
    adjs: w('hepatic|biliary|hepatocellular|cholestatic|portal|gallbladder|bile duct|hepatobiliary'),
    parts: w('liver|gallbladder|bile duct|hepatic vein|portal vein|sphincter of Oddi|common bile duct'),
    conds: w('jaundice|hepatotoxicity|cholestasis|hepatic failure|hepatic steatosis|cholelithiasis|hepatomegaly|ascites|portal hypertension|hepatic fibrosis|cirrhosis|biliary colic|hyperbilirubinaemia'),
    topics: w('hepatocellular|cholestatic|biliary|portal|hepatic vascular'),
  },
  {
    name: 'Synthetic dermal and cutaneous disorders',
    abbrev: 'SyDer',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 10,
    ptWeight: 800,
    roots: w('derm|dermat|kerat|onych|trich|follicul|hidraden|seb'),
    adjs: w('cutaneous|dermal|epidermal|subcutaneous|follicular|sebaceous|nail|hair|sweat gland|mucocutaneous|palmar|plantar'),
    parts: w('skin|scalp|nail|hair|face|hand|foot|trunk|axilla|groin|sweat gland|hair follicle|lip|palm|sole'),
    conds: w('rash|pruritus|urticaria|erythema|alopecia|hyperhidrosis|dry skin|eczema|blister|acne|skin exfoliation|photosensitivity reaction|skin lesion|hyperpigmentation|hypopigmentation|pemphigoid|psoriasis|skin ulcer|dermatosis'),
    topics: w('eczematous|pigmentation|appendage|bullous|exfoliative|photosensitivity|cornification'),
  },
  {
    name: 'Synthetic skeletal, muscular and joint disorders',
    abbrev: 'SySke',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 9,
    ptWeight: 700,
    roots: w('arthr|oste|my|tendin|synov|burs|fasci|chondr|spondyl|rhabdomy'),
    adjs: w('articular|muscular|skeletal|tendon|synovial|spinal|vertebral|ligamentous|cartilaginous|periarticular|myofascial|musculoskeletal'),
    parts: w('joint|knee|hip|shoulder|elbow|wrist|ankle|back|neck|spine|muscle|tendon|ligament|bone|jaw|finger|toe|limb|pelvis|rib'),
    conds: w('arthralgia|myalgia|back pain|muscle spasms|muscular weakness|joint swelling|musculoskeletal stiffness|osteoporosis|osteonecrosis|rhabdomyolysis|pain in extremity|arthritis|bursitis|tendonitis|joint effusion|muscle atrophy'),
    topics: w('joint|muscle|bone|tendon and ligament|spinal|connective tissue|synovial'),
  },
  {
    name: 'Synthetic kidney and bladder disorders',
    abbrev: 'SyKid',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 7,
    ptWeight: 350,
    roots: w('nephr|glomerul|pyel|cyst|urethr|ureter|ur'),
    adjs: w('renal|glomerular|tubular|urinary|vesical|ureteric|urethral|bladder|interstitial renal|prerenal'),
    parts: w('kidney|bladder|ureter|urethra|renal pelvis|glomerulus|renal tubule|urinary tract'),
    conds: w('dysuria|pollakiuria|haematuria|proteinuria|urinary retention|urinary incontinence|nocturia|polyuria|oliguria|anuria|renal failure|acute kidney injury|nephrolithiasis|hydronephrosis|renal colic|micturition urgency'),
    topics: w('renal failure|glomerular|tubular|urolithiasis|bladder|urethral|ureteric'),
  },
  {
    name: 'Synthetic gestational and neonatal conditions',
    abbrev: 'SyGes',
    kind: 'pregnancy',
    multiaxial: true,
    hlgtWeight: 7,
    ptWeight: 400,
    roots: w('placent|amni|chori|obstet'),
    adjs: w('gestational|foetal|neonatal|placental|amniotic|maternal|perinatal|obstetric|puerperal|umbilical'),
    parts: w('placenta|amniotic fluid|umbilical cord|foetus|neonate|uterus|cervix|membranes'),
    conds: w('abortion spontaneous|premature labour|premature delivery|pre-eclampsia|foetal growth restriction|oligohydramnios|polyhydramnios|placenta praevia|postpartum haemorrhage|neonatal jaundice|stillbirth|ectopic pregnancy|hyperemesis|premature rupture of membranes|foetal distress syndrome'),
    topics: w('maternal|foetal|neonatal|labour and delivery|placental|puerperal|abortive'),
  },
  {
    name: 'Synthetic genital and mammary disorders',
    abbrev: 'SyGen',
    kind: 'disease',
    multiaxial: true,
    hlgtWeight: 17,
    ptWeight: 700,
    roots: w('mast|metr|oophor|salping|orch|epididym|prostat|vagin|vulv|cervic|endometr|balan'),
    adjs: w('mammary|uterine|ovarian|testicular|penile|vaginal|vulval|cervical|endometrial|prostatic|menstrual|scrotal|genital|adnexal'),
    parts: w('breast|nipple|uterus|ovary|fallopian tube|cervix|vagina|vulva|testis|penis|scrotum|prostate|epididymis|endometrium'),
    conds: w('dysmenorrhoea|menorrhagia|amenorrhoea|metrorrhagia|erectile dysfunction|gynaecomastia|breast pain|vaginal discharge|infertility|ovarian cyst|pelvic pain|galactorrhoea|menstruation irregular|premenstrual syndrome|ejaculation disorder'),
    topics: w('menstrual|breast|ovarian|uterine|cervical|testicular|prostatic|sexual function|vulvovaginal'),
  },
  {
    name: 'Synthetic inherited and developmental disorders',
    abbrev: 'SyInh',
    kind: 'congenital',
    multiaxial: true,
    hlgtWeight: 16,
    ptWeight: 1800,
    roots: w('chondr|cardi|nephr|encephal|crani|dactyl|gloss|gnath|cephal'),
    adjs: w('chromosomal|familial|hereditary|developmental|skeletal|cardiac|renal|craniofacial|neural tube|limb|cutaneous|metabolic|vascular'),
    parts: w('heart|kidney|limb|skull|palate|lip|spine|brain|eye|ear|hand|foot|digit|face|ureter|aorta|septum'),
    conds: w('anomaly|aplasia|hypoplasia|agenesis|atresia|malformation|duplication|dysplasia|deformity|deficiency|syndrome|fusion|cleft|stenosis|ectopia'),
    topics: w('chromosomal|metabolic|cardiovascular|musculoskeletal|neurological|renal and urinary|cutaneous|craniofacial'),
  },
  {
    name: 'Synthetic systemic and site-of-administration conditions',
    abbrev: 'SySys',
    kind: 'general',
    multiaxial: true,
    hlgtWeight: 7,
    ptWeight: 600,
    roots: w(''),
    adjs: w('systemic|generalised|peripheral|local|febrile|inflammatory|constitutional'),
    parts: w('injection site|infusion site|application site|implant site|catheter site|vaccination site|incision site|instillation site|administration site|medical device site|stoma site|puncture site|vessel puncture site'),
    conds: w('fatigue|pyrexia|malaise|asthenia|chills|oedema peripheral|feeling hot|feeling cold|feeling abnormal|feeling jittery|thirst|hyperthermia|hypothermia|chest discomfort|inflammation|influenza like illness|crying|gait disturbance|general physical health deterioration|therapeutic response decreased|drug ineffective|death|sudden death'),
    topics: w('administration site|febrile|body temperature|general signs and symptoms|therapeutic and nontherapeutic effects|fatal outcomes|oedema'),
  },
  {
    name: 'Synthetic laboratory and measurement findings',
    abbrev: 'SyLab',
    kind: 'investigation',
    multiaxial: false,
    hlgtWeight: 24,
    ptWeight: 6000,
    roots: w('hepat|nephr|cardi|gastr|thyr|haem|neur|pneum|oste|derm|adren|pancreat|my|lymph|endocrin'),
    adjs: w('hepatic|renal|cardiac|gastric|thyroid|haematological|neurological|pulmonary|bone|skin|adrenal|pancreatic|muscle|lymphocyte|endocrine|coagulation|immunology|urinary|cerebrospinal|vitamin|lipid|electrolyte|enzyme|toxicology|microbiology'),
    parts: w('liver|kidney|heart|stomach|thyroid gland|lung|bone|skin|adrenal gland|pancreas|muscle|brain|spleen|bladder|colon|oesophagus|breast|eye|joint|abdomen|chest|spine|pelvis|head|neck'),
    conds: w('alanine aminotransferase|aspartate aminotransferase|bilirubin|creatinine|urea|haemoglobin|haematocrit|platelet count|white blood cell count|neutrophil count|lymphocyte count|eosinophil count|sodium|potassium|calcium|magnesium|phosphorus|glucose|cholesterol|triglycerides|amylase|lipase|troponin|creatine kinase|lactate dehydrogenase|albumin|total protein|ferritin|transferrin|cortisol|thyroxine|prolactin|insulin|C-reactive protein|fibrinogen|fibrin D dimer|prothrombin time|activated partial thromboplastin time|international normalised ratio|alkaline phosphatase|gamma-glutamyltransferase|ammonia|lactic acid|uric acid|bicarbonate|chloride|osmolality|immunoglobulin G|complement factor C3|vitamin B12|folate|zinc|copper|iron|reticulocyte count|mean cell volume|ejection fraction|heart rate|blood pressure|body temperature|weight|oxygen saturation|respiratory rate|QT interval|PR interval|QRS complex|glomerular filtration rate|carbon dioxide|pH|procalcitonin|natriuretic peptide|ketone body|antinuclear antibody|tumour marker|hormone level'),
    topics: w('hepatobiliary|renal and urinary|cardiac and vascular|haematology|enzyme|metabolism|endocrine|immunology|microbiology|toxicology|physical examination|imaging|electrophysiology|lipid|protein|electrolyte'),
  },
  {
    name: 'Synthetic trauma, toxicity and procedural complications',
    abbrev: 'SyTra',
    kind: 'injury',
    multiaxial: true,
    hlgtWeight: 10,
    ptWeight: 3000,
    roots: w('tox|traum'),
    adjs: w('traumatic|procedural|post procedural|accidental|intentional|occupational|iatrogenic|radiation|thermal|chemical|toxic|vaccination'),
    parts: w('head|face|skull|neck|chest|rib|abdomen|back|spine|pelvis|hip|femur|tibia|fibula|ankle|foot|toe|shoulder|humerus|elbow|radius|ulna|wrist|hand|finger|knee|eye|ear|nose|tooth|jaw|skin|muscle|tendon|ligament|nerve|spleen|liver|kidney'),
    conds: w('fracture|contusion|laceration|abrasion|sprain|strain|dislocation|crush injury|burn|avulsion|puncture wound|haematoma|fall|overdose|poisoning|toxicity|exposure|medication error|wound dehiscence|seroma|incision site complication|anastomotic leak|post procedural haemorrhage'),
    topics: w('bone and joint injuries|skin injuries|poisoning and toxicity|medication errors|procedural complications|exposures|burns|head injuries'),
  },
  {
    name: 'Synthetic interventions and procedures',
    abbrev: 'SyInt',
    kind: 'procedure',
    multiaxial: false,
    hlgtWeight: 29,
    ptWeight: 2800,
    roots: w('gastr|col|nephr|hepat|cholecyst|append|mast|hyster|oophor|thyroid|splen|arthr|laryng|trache|oesophag|pancreat|cyst|prostat|crani|lamin|spondyl|angi|phleb|rhin|tonsill|adenoid|orch|salping|pleur|lob|pneum|enter|duoden|ile|jejun|proct'),
    adjs: w('gastric|colonic|renal|hepatic|biliary|mammary|uterine|ovarian|thyroid|splenic|articular|laryngeal|tracheal|oesophageal|pancreatic|bladder|prostatic|cranial|spinal|vascular|venous|nasal|tonsillar|testicular|pleural|pulmonary|intestinal|rectal|cardiac|coronary|ocular|dental|skin'),
    parts: w('stomach|colon|kidney|liver|gallbladder|appendix|breast|uterus|ovary|thyroid gland|spleen|joint|knee|hip|shoulder|larynx|trachea|oesophagus|pancreas|bladder|prostate|skull|spine|artery|vein|nose|tonsil|testis|pleura|lung|small intestine|rectum|heart valve|coronary artery|eye|lens|tooth|skin|hernia|wound|bone|tendon|nerve|lymph node'),
    conds: w('repair|resection|biopsy|excision|drainage|transplant|reconstruction|fixation|replacement|debridement|catheterisation|embolisation|ablation|dilatation|stent insertion|irrigation|amputation|decompression|bypass|implantation|removal|closure|suture|injection|aspiration|ligation|grafting|manipulation|prophylaxis|therapy'),
    topics: w('therapeutic|diagnostic|surgical|endoscopic|transplantation|vascular therapeutic|prophylactic|radiotherapeutic|rehabilitation'),
  },
  {
    name: 'Synthetic social and environmental circumstances',
    abbrev: 'SySoc',
    kind: 'social',
    multiaxial: false,
    hlgtWeight: 10,
    ptWeight: 400,
    roots: w(''),
    adjs: w('family|employment|housing|caregiver|financial|legal|educational|travel|dietary|substance|tobacco|alcohol|gambling|leisure|shift work|bereavement|language|cultural|transport|social media|neighbourhood|marital|parental|carer|military service'),
    parts: w('family|workplace|school|household|community|prison|hospital|care home|partner|child|elderly relative|neighbour'),
    conds: w('problem|stress|loss|difficulty|dependence|exposure|change|conflict|disruption|insecurity|isolation|abuse|neglect|support issue|access issue|use|misuse|withdrawal'),
    topics: w('family|economic|legal|educational|lifestyle|substance use|environmental|social support'),
  },
  {
    name: 'Synthetic device and product problems',
    abbrev: 'SyDev',
    kind: 'product',
    multiaxial: false,
    hlgtWeight: 6,
    ptWeight: 700,
    roots: w(''),
    adjs: w('device|product|container|delivery system|packaging|label|storage|supply|manufacturing|quality'),
    parts: w('needle|cartridge|plunger|tubing|battery|valve|label|packaging|seal|cap|reservoir|catheter|lead|sensor|pump|adhesive|connector|display|alarm|filter|syringe|vial|blister|inhaler|patch|pen injector|infusion set|implant'),
    conds: w('breakage|leakage|malfunction|occlusion|dislocation|contamination|discolouration|deformation|failure|issue|defect|migration|obstruction|displacement|physical issue|odour abnormal|counterfeit|temperature excursion|expired|shortage|mislabelled|use error|incompatibility|connection issue|power source issue'),
    topics: w('device|product quality|packaging|labelling|supply and distribution|manufacturing|storage'),
  },
];

/** Real SOC names, to make sure no synthetic SOC ever takes one (checked in check.ts). */
export const FORBIDDEN_SOC_NAME_FRAGMENTS = w(
  'infections and infestations|neoplasms benign|blood and lymphatic system disorders|immune system disorders|endocrine disorders|metabolism and nutrition disorders|psychiatric disorders|nervous system disorders|eye disorders|ear and labyrinth disorders|cardiac disorders|vascular disorders|respiratory, thoracic and mediastinal disorders|gastrointestinal disorders|hepatobiliary disorders|skin and subcutaneous tissue disorders|musculoskeletal and connective tissue disorders|renal and urinary disorders|pregnancy, puerperium and perinatal conditions|reproductive system and breast disorders|congenital, familial and genetic disorders|general disorders and administration site conditions|investigations|injury, poisoning and procedural complications|surgical and medical procedures|social circumstances|product issues',
);

/** Qualifiers placed before a term ("Acute ..."). */
export const PRE_QUALS = w(
  'acute|chronic|subacute|recurrent|transient|persistent|intermittent|progressive|acquired|primary|secondary|idiopathic|drug-induced|post-infective|haemorrhagic|erosive|ulcerative|obstructive|localised|generalised|focal|diffuse|bilateral|mild|severe|atypical|allergic|toxic|nodular|cystic|interstitial|necrotising|granulomatous|fulminant|asymptomatic|paroxysmal|exertional|nocturnal|infantile|juvenile|adult-onset|refractory|functional|autoimmune|immune-mediated|ischaemic|degenerative|inflammatory|reactive|benign|traumatic|postoperative|early-onset|late-onset|episodic|latent|subclinical|complicated|uncomplicated|resistant|relapsing',
);

/** Qualifiers placed after a term ("Gastritis erosive"). */
export const POST_QUALS = w(
  'erosive|acute|chronic|aggravated|recurrent|haemorrhagic|toxic|allergic|infective|ulcerative|exacerbated|worsened|localised|generalised|bilateral|unilateral|congenital|postoperative|relapsed|in remission|stage I|stage II|stage III|grade 1|grade 2|grade 3',
);

/** Laterality / position modifiers. */
export const LATERALITY = w('left|right|bilateral|unilateral|upper|lower|anterior|posterior|medial|lateral|proximal|distal');

/** Sub-structure adjectives ("renal *tubular* oedema"). */
export const SUB_ADJS = w(
  'tubular|glomerular|ductal|valvular|mucosal|submucosal|luminal|capsular|cortical|medullary|interstitial|epithelial|endothelial|sphincter|vascular|parenchymal|stromal|perivascular|periductal|neural|fibrous|marginal|segmental|lobar|superficial|deep|papillary|follicular',
);

/** General condition nouns ("renal *oedema*"). */
export const CONDS = w(
  'disorder|oedema|haemorrhage|inflammation|ulcer|erosion|stenosis|obstruction|perforation|fistula|necrosis|atrophy|hypertrophy|hyperplasia|dysplasia|fibrosis|calcification|cyst|polyp|mass|lesion|dysfunction|failure|insufficiency|impairment|pain|discomfort|spasm|rupture|thrombosis|embolism|infarction|ischaemia|prolapse|hernia|dilatation|discharge|congestion|enlargement|deformity|degeneration|effusion|adhesion|anomaly|haematoma|disease|irritation|injury|hypoplasia|sclerosis|neuropathy|oedema|infection|abscess|granuloma|scarring|swelling|tenderness',
);

/** Symptom nouns used with body parts ("Knee *pain*"). */
export const SYMPTOMS = w(
  'pain|discomfort|swelling|oedema|tenderness|pruritus|numbness|paraesthesia|hypoaesthesia|hyperaesthesia|erythema|stiffness|mass|haemorrhage|ulcer|lesion|rash|spasm|weakness|deformity|cyst|inflammation|injury|atrophy|hypertrophy|discolouration|induration|nodule|necrosis|warmth|irritation|cramp',
);

/** Compound suffixes for combining forms ("gastr" + "itis"). Second value = weight. */
export const DISEASE_SUFFIXES: [string, number][] = [
  ['itis', 10],
  ['algia', 4],
  ['opathy', 6],
  ['omegaly', 2],
  ['osis', 3],
  ['oma', 1],
  ['ectasia', 1],
  ['orrhoea', 1],
  ['osclerosis', 1],
  ['omalacia', 1],
  ['olithiasis', 1],
  ['ospasm', 1],
  ['otrophy', 1],
  ['odynia', 1],
];

export const PROCEDURE_SUFFIXES: [string, number][] = [
  ['ectomy', 6],
  ['otomy', 4],
  ['oscopy', 4],
  ['ostomy', 3],
  ['oplasty', 3],
  ['opexy', 1],
  ['orrhaphy', 1],
  ['ography', 2],
];

export const PROCEDURE_QUALS = w(
  'partial|total|laparoscopic|open|elective|emergency|revision|robotic-assisted|endoscopic|percutaneous|bilateral|radical|minimally invasive|staged|diagnostic|therapeutic|prophylactic|exploratory',
);

export const DIRECTIONS: [string, number][] = [
  ['increased', 10],
  ['decreased', 8],
  ['abnormal', 6],
  ['normal', 2],
  ['present', 1],
  ['absent', 1],
  ['positive', 2],
  ['negative', 1],
  ['prolonged', 1],
  ['shortened', 1],
  ['fluctuation', 1],
];

export const SPECIMENS = w('blood|serum|plasma|urine|cerebrospinal fluid|synovial fluid|faecal|sputum|ascitic fluid|pleural fluid|saliva|tissue');

export const IMAGING = w(
  'ultrasound|computerised tomogram|magnetic resonance imaging|X-ray|biopsy|endoscopy|scintigraphy|angiogram|positron emission tomogram|Doppler ultrasound|histology|cytology',
);

export const MEASURES = w('enzyme|function test|marker|antibody|biopsy|scan|imaging|examination|test|clearance|index|level|uptake|volume|pressure|size');

export const GENERATED_ANALYTE_SUFFIXES = w('globulin|ase|peptide|kinin|tropin|statin|lectin|ferrin|plasmin|cytokine|ogen|amine');

export const ORGANISM_PREFIXES = w(
  'Alo|Bra|Cory|Dela|Ento|Fusi|Gral|Helio|Isto|Kor|Lepto|Mora|Nesto|Ortho|Plexo|Quino|Rhabdo|Sero|Tano|Ulva|Vibro|Xeno|Zelo|Calo|Dermo|Fila|Hemi|Limo|Mero|Noro|Pari|Rota|Steno|Tryp|Vero',
);
export const ORGANISM_SUFFIXES = w('bacter|coccus|virus|monas|myces|plasma|spora|vibrio|nella|della|bacillus|sporidium|filaria|trema');

export const INJURIES = w(
  'fracture|contusion|laceration|abrasion|sprain|strain|dislocation|crush injury|burn|avulsion|puncture wound|haematoma|injury|foreign body|bite|frostbite|amputation',
);
export const AGENTS = w(
  'lead|mercury|arsenic|carbon monoxide|solvent|pesticide|herbicide|plant|mushroom|venom|medication|alcohol|cyanide|iron|paracetamol-like analgesic|anticoagulant|sedative|household chemical|radiation|smoke',
);
export const EXPOSURE_ROUTES = w('inhalation|ingestion|skin contact|eye contact|breast milk|partner|during pregnancy|via father|occupational route|environmental route');
export const MED_ERRORS = w(
  'wrong dose administered|wrong route administered|wrong patient|wrong product administered|wrong technique in product usage process|incorrect dose administered|extra dose administered|dose omitted|product administered at inappropriate site|drug dispensing error|prescribing error|transcription error|labelled drug interaction medication error|product storage error|accidental dose increase|inappropriate schedule of administration',
);
export const SITE_REACTIONS = w(
  'reaction|pain|erythema|swelling|pruritus|haematoma|haemorrhage|induration|rash|warmth|nodule|bruising|discolouration|oedema|inflammation|extravasation|necrosis|abscess|cellulitis|atrophy|hypersensitivity|urticaria|vesicles|scar|irritation|infection|mass|dermatitis|anaesthesia|paraesthesia',
);
export const FEELINGS = w('hot|cold|abnormal|jittery|drunk|of body temperature change|of relaxation|guilty|hopeless|detached');

export const SOCIAL_ISSUES = w(
  'problem|stress|loss|difficulty|dependence|exposure|change|conflict|disruption|insecurity|isolation|abuse|neglect|support issue|access issue|dispute|breakdown|hardship|overload|responsibility',
);

export const PRODUCT_PREFIXES = w('device|product|container|delivery system|packaging|needle|syringe|infusion set|implant|pen injector|inhaler|transdermal patch');

export const PREGNANCY_PATTERNS = w(
  '{c} in pregnancy|gestational {c}|foetal {c}|neonatal {c}|maternal {c}|{c} of labour|postpartum {c}|{c} complicating pregnancy|perinatal {c}|premature {c}',
);

/** Eponyms with Latin-1 accents (exercise encoding) and plain ones. */
export const ACCENTED_EPONYMS = w(
  'Ménière|Sjögren|Guillain-Barré|Behçet|Löfgren|Bürger|Müller|Köhler|Pötzl|Åkerlund|Ørsted|Núñez|Peña|Françon|Déjerine|Rendú|Lévy|Schönlein|Strümpell|Brücke|Jäger|Thévenard|Mañez|Gödecke|Söderberg|Ångström|Hüttner|Lüscher|Séguin|Ibáñez',
);
export const PLAIN_EPONYMS = w(
  'Hartwell|Corrigan|Delmont|Fenwick|Harlow|Kessler|Lindqvist|Marsh|Norberg|Okafor|Prentice|Quist|Ravel|Sorensen|Tanaka|Varga|Whitcombe|Yardley|Zeller|Abernethy|Bellamy|Castellan|Driscoll|Eastman|Fairbairn|Garland|Holloway|Ingram|Jessop',
);
export const EPONYM_HEADS = w('syndrome|disease|phenomenon|sign|anomaly|reaction|variant|complex');

/** Abbreviations used to build LLT variants. */
export const ABBREVIATIONS: [string, string][] = [
  ['increased', 'incr'],
  ['decreased', 'decr'],
  ['abnormal', 'abn'],
  ['haemorrhage', 'haem'],
  ['syndrome', 'synd'],
  ['chronic', 'chr'],
  ['acute', 'ac'],
  ['left', 'L'],
  ['right', 'R'],
  ['bilateral', 'bilat'],
  ['infection', 'infect'],
  ['inflammation', 'inflamm'],
  ['gastrointestinal', 'GI'],
  ['upper respiratory tract', 'URT'],
  ['lower respiratory tract', 'LRT'],
  ['urinary tract', 'UT'],
  ['cerebrospinal fluid', 'CSF'],
  ['blood pressure', 'BP'],
  ['white blood cell count', 'WBC'],
  ['alanine aminotransferase', 'ALT'],
  ['aspartate aminotransferase', 'AST'],
  ['alkaline phosphatase', 'ALP'],
  ['gamma-glutamyltransferase', 'GGT'],
  ['lactate dehydrogenase', 'LDH'],
  ['creatine kinase', 'CK'],
  ['C-reactive protein', 'CRP'],
  ['international normalised ratio', 'INR'],
  ['activated partial thromboplastin time', 'aPTT'],
  ['magnetic resonance imaging', 'MRI'],
  ['computerised tomogram', 'CT scan'],
  ['glomerular filtration rate', 'GFR'],
  ['central nervous system', 'CNS'],
  ['temperature', 'temp'],
  ['examination', 'exam'],
  ['disorder', 'dis'],
  ['function', 'fn'],
  ['procedure', 'proc'],
  ['postoperative', 'postop'],
  ['immunoglobulin', 'Ig'],
];

/** British → US spelling rewrites (applied to lower-case text). */
export const US_SPELLINGS: [RegExp, string][] = [
  [/oedema/g, 'edema'],
  [/oesophag/g, 'esophag'],
  [/haem/g, 'hem'],
  [/anaem/g, 'anem'],
  [/aemia/g, 'emia'],
  [/diarrhoea/g, 'diarrhea'],
  [/orrhoea/g, 'orrhea'],
  [/foet/g, 'fet'],
  [/paed/g, 'ped'],
  [/isation/g, 'ization'],
  [/ised\b/g, 'ized'],
  [/ischaem/g, 'ischem'],
  [/leuc/g, 'leuk'],
  [/tumour/g, 'tumor'],
  [/colour/g, 'color'],
  [/behaviour/g, 'behavior'],
  [/faec/g, 'fec'],
  [/gynaec/g, 'gynec'],
  [/dyspnoea/g, 'dyspnea'],
  [/apnoea/g, 'apnea'],
  [/aesthe/g, 'esthe'],
  [/oestr/g, 'estr'],
  [/centre/g, 'center'],
  [/goitre/g, 'goiter'],
];

/** Words appended to PT names to form LLT variants ("Gastritis aggravated"). */
export const LLT_POST = w(
  'aggravated|worsened|exacerbated|recurrent|NOS|symptom|episode|in remission|unspecified|nonspecific|not otherwise specified|reported|suspected|confirmed|attack|event|flare',
);
export const LLT_PRE = w('mild|moderate|severe|recurrent|transient|persistent|occasional|sudden|early|late|suspected|chronic|acute|intermittent|worsening|new onset|episodic');

export const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XVI', 'XVII', 'XVIII', 'XIX', 'XX'];

export function roman(n: number): string {
  if (n < ROMAN.length) return ROMAN[n] as string;
  const table: [number, string][] = [
    [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
    [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
  ];
  let s = '';
  let v = n;
  for (const [k, r] of table) {
    while (v >= k) {
      s += r;
      v -= k;
    }
  }
  return s;
}
