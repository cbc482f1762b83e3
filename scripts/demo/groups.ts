// The invented HLGT/HLT grouping of the demo releases. NOT MedDRA: these are
// plain descriptive groups written for this project, placing every CTCAE term
// of a SOC under one HLT of that SOC.
//
// GROUPS[soc name] = { HLGT name: { HLT name: matchers } }, in display order.
// A matcher is an exact CTCAE term name (case-insensitive) or a RegExp. For a
// term of a SOC, exact names win over RegExps; RegExps are tried in declaration
// order; a term matching nothing falls into "<SOC short> disorders NEC" (the
// build reports it). An HLT with no matchers only receives PTs through
// SECONDARY_PATHS or the 5.0.1 changes.
//
// Terms that moved SOC between CTCAE versions are matched in both SOCs.

export type Matcher = string | RegExp;
export type HltRules = Record<string, Matcher[]>;
export type HlgtRules = Record<string, HltRules>;

export const GROUPS: Record<string, HlgtRules> = {
  'Infections and infestations': {
    'Systemic and bloodstream infections': {
      'Sepsis and bloodstream infections': ['Sepsis', 'Bacteremia', 'Fungemia', 'Viremia'],
      'Cardiovascular, lymphatic and splenic infections': [
        'Endocarditis infective',
        'Arteritis infective',
        'Phlebitis infective',
        'Lymph gland infection',
        'Splenic infection',
      ],
      'Device and procedural site infections': [
        'Catheter related infection',
        'Device related infection',
        'Stoma site infection',
        'Wound infection',
      ],
    },
    'Viral infections': {
      'Herpes virus infections': [
        'Cytomegalovirus infection reactivation',
        'Epstein-Barr virus infection reactivation',
        'Herpes simplex reactivation',
        'Shingles',
      ],
      'Hepatitis virus infections': ['Hepatitis B reactivation', 'Hepatitis viral'],
      'Coronavirus infections': [],
    },
    'Respiratory tract and ear infections': {
      'Upper respiratory tract and ear infections': [
        'Upper respiratory infection',
        'Sinusitis',
        'Rhinitis infective',
        'Pharyngitis',
        'Laryngitis',
        'Tracheitis',
        'Otitis externa',
        'Otitis media',
      ],
      'Lower respiratory tract infections': [
        'Lung infection',
        'Bronchial infection',
        'Pleural infection',
        'Mediastinal infection',
      ],
    },
    'Digestive system infections': {
      'Gastrointestinal tract infections': [
        'Abdominal infection',
        'Anorectal infection',
        'Appendicitis',
        'Appendicitis perforated',
        'Cecal infection',
        'Duodenal infection',
        'Enterocolitis infectious',
        'Esophageal infection',
        'Small intestine infection',
        'Peritoneal infection',
      ],
      'Oral and dental infections': ['Gum infection', 'Lip infection', 'Tooth infection', 'Salivary gland infection'],
      'Hepatobiliary and pancreatic infections': [
        'Biliary tract infection',
        'Gallbladder infection',
        'Hepatic infection',
        'Pancreas infection',
      ],
    },
    'Urinary and reproductive tract infections': {
      'Urinary tract infections': ['Urinary tract infection', 'Bladder infection', 'Kidney infection', 'Urethral infection'],
      'Genital tract and breast infections': [
        'Breast infection',
        'Cervicitis infection',
        'Ovarian infection',
        'Pelvic infection',
        'Penile infection',
        'Prostate infection',
        'Scrotal infection',
        'Uterine infection',
        'Vaginal infection',
        'Vulval infection',
      ],
    },
    'Skin, soft tissue, bone and joint infections': {
      'Skin, nail and mucosal infections': [
        'Skin infection',
        'Folliculitis',
        'Nail infection',
        'Paronychia',
        'Papulopustular rash',
        'Rash pustular',
        'Mucosal infection',
        'Thrush',
      ],
      'Soft tissue, bone and joint infections': [
        'Soft tissue infection',
        'Bone infection',
        'Joint infection',
        'Infective myositis',
      ],
    },
    'Nervous system and eye infections': {
      'Nervous system infections': [
        'Encephalitis infection',
        'Encephalomyelitis infection',
        'Meningitis',
        'Myelitis',
        'Cranial nerve infection',
        'Peripheral nerve infection',
      ],
      'Eye and periorbital infections': [
        'Conjunctivitis',
        'Conjunctivitis infective',
        'Corneal infection',
        'Endophthalmitis',
        'Eye infection',
        'Periorbital infection',
      ],
    },
  },

  'Neoplasms benign, malignant and unspecified (incl cysts and polyps)': {
    'Treatment related neoplasms': {
      'Treatment related secondary malignancies': [
        'Leukemia secondary to oncology chemotherapy',
        'Myelodysplastic syndrome',
        'Treatment related secondary malignancy',
      ],
    },
    'Tumor complications and benign neoplasms': {
      'Tumor complications': ['Tumor hemorrhage', 'Tumor pain'],
      'Benign skin neoplasms': ['Skin papilloma'],
    },
  },

  'Blood and lymphatic system disorders': {
    'Red blood cell disorders': {
      'Anemias and red cell disorders': ['Anemia', 'Hemolysis', 'Methemoglobinemia'],
    },
    'White blood cell disorders': {
      'Neutropenic conditions': ['Febrile neutropenia'],
      'Leukocyte count increased conditions': ['Leukocytosis', 'Eosinophilia'],
      'Histiocytic disorders': [],
    },
    'Coagulation and thrombotic microangiopathy disorders': {
      'Coagulopathies and thrombotic microangiopathies': [
        'Disseminated intravascular coagulation',
        'Thrombotic thrombocytopenic purpura',
        'Hemolytic uremic syndrome',
      ],
    },
    'Bone marrow, spleen and lymph node disorders': {
      'Marrow hypoplasia, spleen and lymph node conditions': ['Bone marrow hypocellular', 'Lymph node pain', 'Spleen disorder'],
    },
  },

  'Immune system disorders': {
    'Allergic conditions': {
      'Allergic and anaphylactic reactions': ['Allergic reaction', 'Anaphylaxis'],
      'Immune complex reactions': ['Serum sickness'],
    },
    'Autoimmune and immune activation disorders': {
      'Autoimmune disorders NEC': ['Autoimmune disorder'],
      'Cytokine release conditions': ['Cytokine release syndrome'],
    },
  },

  'Endocrine disorders': {
    'Thyroid gland disorders': {
      'Thyroid function disorders': ['Hypothyroidism', 'Hyperthyroidism'],
    },
    'Parathyroid gland disorders': {
      'Parathyroid function disorders': ['Hyperparathyroidism', 'Hypoparathyroidism'],
    },
    'Adrenal and pituitary disorders': {
      'Adrenal cortical disorders': ['Adrenal insufficiency', 'Cushingoid'],
      'Pituitary disorders': ['Hypophysitis', 'Hypopituitarism'],
    },
    'Gonadal and growth endocrine disorders': {
      'Puberty and growth disorders': ['Delayed puberty', 'Precocious puberty', 'Growth accelerated'],
      'Androgen disorders': ['Testosterone deficiency', 'Virilization'],
    },
  },

  'Metabolism and nutrition disorders': {
    'Electrolyte and fluid balance conditions': {
      'Sodium and potassium imbalance': ['Hyperkalemia', 'Hypokalemia', 'Hypernatremia', 'Hyponatremia'],
      'Calcium, magnesium and phosphate imbalance': [/^hyp(er|o)(calc|magnes|phosphat)/i],
      'Fluid volume disorders': ['Dehydration'],
    },
    'Acid-base disorders': {
      'Acidosis and alkalosis': ['Acidosis', 'Alkalosis'],
    },
    'Glucose metabolism disorders': {
      'Blood glucose disorders': ['Hyperglycemia', 'Glucose intolerance', 'Hypoglycemia'],
    },
    'Lipid metabolism disorders': {
      'Elevated blood lipids': ['Hyperlipidemia', 'Hypertriglyceridemia'],
    },
    'Appetite and nutritional disorders': {
      'Appetite disorders': ['Anorexia'],
      'Body weight and protein nutrition conditions': ['Obesity', 'Hypoalbuminemia'],
    },
    'Metabolic disorders NEC': {
      'Purine metabolism and tumor lysis disorders': ['Hyperuricemia', 'Tumor lysis syndrome'],
      'Iron overload and alcohol intolerance': ['Iron overload', 'Alcohol intolerance'],
    },
  },

  'Psychiatric disorders': {
    'Mood disorders': {
      'Depressive conditions': ['Depression'],
      'Elevated mood conditions': ['Mania', 'Euphoria'],
      'Suicidal behavior': ['Suicidal ideation', 'Suicide attempt'],
    },
    'Anxiety and agitation': {
      'Anxiety, agitation and restlessness': ['Anxiety', 'Agitation', 'Restlessness', 'Irritability'],
    },
    'Psychotic and perceptual disorders': {
      'Psychotic conditions': ['Psychosis', 'Delusions', 'Hallucinations'],
    },
    'Confusional states and personality changes': {
      'Confusion, delirium and personality changes': ['Confusion', 'Delirium', 'Personality change'],
    },
    'Sleep disorders': {
      'Insomnia conditions': ['Insomnia'],
    },
    'Sexual dysfunctions': {
      'Libido and orgasm disorders': ['Libido decreased', 'Libido increased', 'Anorgasmia', 'Delayed orgasm'],
    },
  },

  'Nervous system disorders': {
    'Cranial nerve disorders': {
      'Ocular motor nerve disorders': [
        'Abducens nerve disorder',
        'Oculomotor nerve disorder',
        'Trochlear nerve disorder',
        'IVth nerve disorder',
      ],
      'Cranial nerve disorders NEC': [
        'Accessory nerve disorder',
        'Acoustic nerve disorder NOS',
        'Facial muscle weakness',
        'Facial nerve disorder',
        'Glossopharyngeal nerve disorder',
        'Hypoglossal nerve disorder',
        'Olfactory nerve disorder',
        'Recurrent laryngeal nerve palsy',
        'Trigeminal nerve disorder',
        'Vagus nerve disorder',
      ],
    },
    'Headaches and neurological pain': {
      'Headache conditions': ['Headache'],
      'Neuralgias and neuropathic pain': ['Neuralgia', 'Phantom pain', 'Sinus pain'],
    },
    'Peripheral nerve and neuromuscular disorders': {
      'Peripheral neuropathies and radiculopathies': [
        'Peripheral motor neuropathy',
        'Peripheral sensory neuropathy',
        'Guillain-Barre syndrome',
        'Brachial plexopathy',
        'Radiculitis',
        'Myasthenia gravis',
      ],
      'Sensory abnormalities': ['Paresthesia', 'Dysesthesia', 'Tendon reflex decreased'],
    },
    'Cerebrovascular disorders': {
      'Cerebral ischemia and hemorrhage': [
        'Stroke',
        'Transient ischemic attacks',
        'Ischemia cerebrovascular',
        'Intracranial hemorrhage',
      ],
    },
    'Encephalopathies and central nervous system structural disorders': {
      'Encephalopathies': [
        'Encephalopathy',
        'Leukoencephalopathy',
        'Reversible posterior leukoencephalopathy syndrome',
        'Central nervous system necrosis',
      ],
      'Cerebrospinal fluid and meningeal disorders': [
        'Hydrocephalus',
        'Edema cerebral',
        'Cerebrospinal fluid leakage',
        'Meningismus',
        'Arachnoiditis',
      ],
      'Spinal cord disorders': ['Spinal cord compression', 'Myelitis', 'Pyramidal tract syndrome'],
    },
    'Movement disorders and seizures': {
      'Seizure disorders': ['Seizure'],
      'Movement disorders': [
        'Akathisia',
        'Ataxia',
        'Extrapyramidal disorder',
        'Movements involuntary',
        'Nystagmus',
        'Spasticity',
        'Tremor',
      ],
      'Lateralized muscle weakness': ['Muscle weakness left-sided', 'Muscle weakness right-sided'],
    },
    'Consciousness, cognition and balance disorders': {
      'Disturbances of consciousness and sleepiness': [
        'Depressed level of consciousness',
        'Lethargy',
        'Somnolence',
        'Hypersomnia',
      ],
      'Dizziness, presyncope and syncope': ['Dizziness', 'Syncope', 'Presyncope', 'Vasovagal reaction'],
      'Cognitive and memory disorders': ['Amnesia', 'Cognitive disturbance', 'Concentration impairment', 'Memory impairment'],
    },
    'Speech, smell and taste disorders': {
      'Speech and language disorders': ['Aphonia', 'Dysarthria', 'Dysphasia'],
      'Smell and taste disturbances': ['Anosmia', 'Dysgeusia'],
    },
  },

  'Eye disorders': {
    'Vision disorders': {
      'Visual impairment': ['Blurred vision', 'Night blindness', 'Vision decreased'],
      'Visual disturbances': ['Flashing lights', 'Floaters', 'Photophobia'],
    },
    'Retinal, vitreous and optic nerve disorders': {
      'Retinal and vitreous disorders': [/^retin/i, 'Vitreous hemorrhage'],
      'Optic nerve disorders': ['Optic nerve disorder', 'Papilledema'],
    },
    'Anterior eye segment disorders': {
      'Conjunctival disorders': ['Conjunctivitis'],
      'Corneal disorders': ['Corneal ulcer', 'Keratitis'],
      'Cataract and glaucoma conditions': ['Cataract', 'Glaucoma'],
      'Uveal and scleral disorders': ['Uveitis', 'Scleral disorder'],
    },
    'Ocular adnexa disorders': {
      'Lacrimal disorders': ['Dry eye', 'Watering eyes'],
      'Eyelid and periorbital disorders': ['Eyelid function disorder', 'Periorbital edema'],
    },
    'Ocular pain and motility disorders': {
      'Eye pain and eye movement conditions': ['Eye pain', 'Extraocular muscle paresis'],
    },
  },

  'Ear and labyrinth disorders': {
    'Hearing disorders': {
      'Hearing loss and tinnitus': ['Hearing impaired', 'Tinnitus'],
    },
    'Inner ear and vestibular disorders': {
      'Vestibular disorders': ['Vertigo', 'Vestibular disorder'],
    },
    'External and middle ear disorders': {
      'Ear pain and discomfort': ['Ear pain', 'External ear pain'],
      'External ear disorders': ['External ear inflammation'],
      'Middle ear disorders': ['Middle ear inflammation'],
    },
  },

  'Cardiac disorders': {
    'Cardiac arrhythmias': {
      'Supraventricular arrhythmias': [
        'Atrial fibrillation',
        'Atrial flutter',
        'Paroxysmal atrial tachycardia',
        'Supraventricular tachycardia',
      ],
      'Sinus node rate and rhythm disorders': ['Sinus bradycardia', 'Sinus tachycardia', 'Sick sinus syndrome'],
      'Ventricular arrhythmias and cardiac arrest': [
        'Ventricular arrhythmia',
        'Ventricular fibrillation',
        'Ventricular tachycardia',
        'Asystole',
        'Cardiac arrest',
      ],
      'Cardiac conduction disorders': [
        /atrioventricular block/i,
        'Mobitz type I',
        'Conduction disorder',
        'Wolff-Parkinson-White syndrome',
      ],
    },
    'Coronary artery disorders': {
      'Ischemic coronary conditions': ['Acute coronary syndrome', 'Myocardial infarction', 'Chest pain - cardiac'],
    },
    'Heart failures and myocardial disorders': {
      'Heart failure conditions': [
        'Heart failure',
        'Left ventricular systolic dysfunction',
        'Right ventricular dysfunction',
      ],
      'Cardiomyopathies and myocarditis': ['Restrictive cardiomyopathy', 'Myocarditis'],
    },
    'Pericardial disorders': {
      'Pericardial inflammation and effusion': [/^pericard/i, 'Constrictive pericarditis'],
    },
    'Cardiac valve disorders': {
      'Heart valve diseases': [/valve disease$/i],
    },
    'Cardiac signs and symptoms': {
      'Cardiac signs and symptoms NEC': ['Palpitations', 'Cyanosis'],
    },
  },

  'Vascular disorders': {
    'Blood pressure disorders': {
      'Blood pressure abnormalities': ['Hypertension', 'Hypotension'],
    },
    'Embolism and thrombosis': {
      'Venous and arterial thromboembolism': ['Thromboembolic event', 'Arterial thromboembolism'],
      'Phlebitis and thrombophlebitis': ['Phlebitis', 'Superficial thrombophlebitis'],
    },
    'Arterial and venous disorders NEC': {
      'Vascular inflammations': ['Vasculitis'],
      'Ischemic vascular conditions': ['Peripheral ischemia', 'Visceral arterial ischemia'],
      'Vascular leakage and obstruction': ['Capillary leak syndrome', 'Superior vena cava syndrome'],
      'Hematomas': ['Hematoma'],
    },
    'Vasomotor conditions': {
      'Flushing and hot flashes': ['Flushing', 'Hot flashes'],
    },
    'Lymphatic vessel disorders': {
      'Lymphatic drainage disorders': ['Lymph leakage', 'Lymphedema', 'Lymphocele'],
    },
  },

  'Respiratory, thoracic and mediastinal disorders': {
    'Respiratory signs and symptoms': {
      'Breathing abnormalities': ['Dyspnea', 'Apnea', 'Sleep apnea', 'Wheezing', 'Stridor'],
      'Cough and airway reflex symptoms': ['Cough', 'Productive cough', 'Hiccups', 'Sneezing', 'Postnasal drip'],
      'Voice disorders': ['Hoarseness', 'Voice alteration'],
    },
    'Lower respiratory tract disorders': {
      'Respiratory failure and hypoxia': ['Respiratory failure', 'Adult respiratory distress syndrome', 'Hypoxia'],
      'Pneumonitis and lung parenchymal conditions': ['Pneumonitis', 'Pulmonary fibrosis', 'Retinoic acid syndrome'],
      'Pulmonary edema and pulmonary vascular conditions': ['Pulmonary edema', 'Pulmonary hypertension'],
      'Bronchial conditions': ['Bronchospasm', 'Bronchial obstruction', 'Bronchial stricture', 'Atelectasis', 'Aspiration'],
    },
    'Pleural and mediastinal disorders': {
      'Pleural conditions': ['Pleural effusion', 'Pleuritic pain', 'Pneumothorax', 'Chylothorax'],
    },
    'Upper respiratory tract disorders': {
      'Nasal and sinus conditions': ['Allergic rhinitis', 'Nasal congestion', 'Rhinorrhea', 'Sinus disorder', 'Sinus pain'],
      'Laryngeal and tracheal conditions': [/^laryn/i, /^tracheal/i],
      'Pharyngeal and throat conditions': [/^pharyn/i, 'Sore throat', 'Oropharyngeal pain'],
    },
    'Respiratory tract hemorrhages and fistulae': {
      'Respiratory tract hemorrhages': [
        'Epistaxis',
        'Bronchopulmonary hemorrhage',
        'Laryngeal hemorrhage',
        'Pharyngeal hemorrhage',
        'Mediastinal hemorrhage',
        'Pleural hemorrhage',
      ],
      'Respiratory tract fistulae': [
        'Bronchial fistula',
        'Bronchopleural fistula',
        'Laryngeal fistula',
        'Pharyngeal fistula',
        'Pulmonary fistula',
        'Tracheal fistula',
      ],
    },
  },

  'Gastrointestinal disorders': {
    'Gastrointestinal motility and defecation conditions': {
      'Diarrhea and malabsorption': ['Diarrhea', 'Malabsorption'],
      'Malabsorption conditions': [],
      'Constipation and fecal incontinence': ['Constipation', 'Fecal incontinence'],
      'Gastrointestinal hypomotility': ['Ileus', 'Gastroparesis'],
    },
    'Gastrointestinal signs and symptoms': {
      'Nausea and vomiting symptoms': ['Nausea', 'Vomiting'],
      'Dyspeptic and swallowing symptoms': ['Dyspepsia', 'Belching', 'Dysphagia'],
      'Flatulence and bloating': ['Abdominal distension', 'Bloating', 'Flatulence'],
      'Gastrointestinal and abdominal pains': ['Abdominal pain', 'Gastrointestinal pain', 'Stomach pain', 'Esophageal pain'],
    },
    'Gastrointestinal hemorrhages and vascular conditions': {
      'Upper gastrointestinal hemorrhages': [
        'Upper gastrointestinal hemorrhage',
        'Esophageal hemorrhage',
        'Esophageal varices hemorrhage',
        'Gastric hemorrhage',
        'Duodenal hemorrhage',
      ],
      'Lower gastrointestinal hemorrhages': [
        'Lower gastrointestinal hemorrhage',
        'Jejunal hemorrhage',
        'Ileal hemorrhage',
        'Cecal hemorrhage',
        'Colonic hemorrhage',
        'Rectal hemorrhage',
        'Anal hemorrhage',
        'Hemorrhoidal hemorrhage',
      ],
      'Intestinal ischemic conditions': ['Visceral arterial ischemia'],
    },
    'Gastrointestinal ulceration, perforation and obstruction': {
      'Gastrointestinal ulcers': [/ulcer$/i],
      'Gastrointestinal perforations': [/perforation$/i],
      'Gastrointestinal obstructions': [/obstruction/i],
      'Gastrointestinal stenoses': [/stenosis$/i],
      'Gastrointestinal fistulae': [/fistula$/i],
      'Gastrointestinal necroses': [/necrosis$/i],
    },
    'Gastrointestinal inflammatory conditions': {
      'Colitis and enterocolitis': ['Colitis', 'Enterocolitis', 'Typhlitis', 'Proctitis'],
      'Esophageal and gastric inflammation': ['Esophagitis', 'Gastritis', 'Gastroesophageal reflux disease'],
      'Gastrointestinal mucositis': ['Anal mucositis', 'Rectal mucositis', 'Small intestinal mucositis'],
    },
    'Anal and rectal conditions': {
      'Anal fissures and hemorrhoids': ['Anal fissure', 'Rectal fissure', 'Hemorrhoids'],
      'Anorectal pain': ['Anal pain', 'Rectal pain'],
    },
    'Oral cavity, dental and salivary conditions': {
      'Oral mucositis and stomatitis': ['Mucositis oral', 'Cheilitis'],
      'Oral soft tissue conditions': ['Oral pain', 'Lip pain', 'Gingival pain', 'Oral dysesthesia', 'Oral hemorrhage'],
      'Dental and periodontal conditions': [
        'Dental caries',
        'Periodontal disease',
        'Tooth development disorder',
        'Tooth discoloration',
        'Toothache',
      ],
      'Salivary gland conditions': ['Dry mouth', 'Salivary duct inflammation'],
    },
    'Pancreatic and peritoneal conditions': {
      'Pancreatitis and pancreatic injury': [
        'Pancreatitis',
        'Pancreatic duct stenosis',
        'Pancreatic fistula',
        'Pancreatic hemorrhage',
        'Pancreatic necrosis',
      ],
      'Peritoneal and retroperitoneal conditions': [
        'Ascites',
        'Chylous ascites',
        'Peritoneal necrosis',
        'Retroperitoneal hemorrhage',
        'Intra-abdominal hemorrhage',
      ],
    },
  },

  'Hepatobiliary disorders': {
    'Hepatic disorders': {
      'Hepatic failure and necrosis': ['Hepatic failure', 'Hepatic necrosis'],
      'Hepatic hemorrhage and pain': ['Hepatic hemorrhage', 'Hepatic pain'],
      'Hepatic vascular disorders': [
        'Portal hypertension',
        'Portal vein thrombosis',
        'Budd-Chiari syndrome',
        'Sinusoidal obstruction syndrome',
      ],
      'Hepatic inflammatory conditions': [],
    },
    'Gallbladder disorders': {
      'Gallbladder inflammation, injury and obstruction': ['Cholecystitis', /^gallbladder/i],
    },
    'Bile duct disorders': {
      'Bile duct obstruction and injury': ['Bile duct stenosis', 'Biliary fistula', 'Perforation bile duct'],
    },
  },

  'Skin and subcutaneous tissue disorders': {
    'Skin appendage conditions': {
      'Hair disorders': ['Alopecia', 'Hair color changes', 'Hair texture abnormal', 'Hirsutism', 'Hypertrichosis'],
      'Nail disorders': [/^nail/i],
      'Sweat gland disorders': ['Hyperhidrosis', 'Hypohidrosis', 'Body odor'],
    },
    'Rashes, eruptions and erythemas': {
      'Rashes, eruptions and urticaria': ['Rash acneiform', 'Rash maculo-papular', 'Urticaria'],
      'Erythemas': ['Erythema multiforme', 'Erythroderma', 'Palmar-plantar erythrodysesthesia syndrome'],
    },
    'Dermatitis, pruritus and dry skin conditions': {
      'Dermatitis and eczema conditions': ['Eczema', 'Bullous dermatitis'],
      'Pruritus conditions': ['Pruritus'],
      'Dry and keratinizing skin conditions': ['Dry skin', 'Hyperkeratosis'],
    },
    'Severe cutaneous adverse reactions': {
      'Epidermal necrolysis conditions': ['Stevens-Johnson syndrome', 'Toxic epidermal necrolysis'],
    },
    'Pigmentation, vascular and photosensitivity skin conditions': {
      'Pigmentation and photosensitivity disorders': ['Skin hyperpigmentation', 'Skin hypopigmentation', 'Photosensitivity'],
      'Skin vascular conditions': ['Purpura', 'Telangiectasia'],
    },
    'Skin structure and subcutaneous tissue conditions': {
      'Skin atrophy, induration and ulceration': ['Skin atrophy', 'Skin induration', 'Skin ulceration'],
      'Subcutaneous fat disorders': ['Fat atrophy', 'Lipohypertrophy'],
      'Skin pain conditions': ['Pain of skin', 'Scalp pain'],
      'Subcutaneous tissue conditions NEC': ['Subcutaneous emphysema', 'Periorbital edema'],
    },
  },

  'Musculoskeletal and connective tissue disorders': {
    'Joint disorders': {
      'Arthropathies and joint pain': ['Arthralgia', 'Arthritis', 'Joint effusion'],
      'Joint mobility disorders': [/^joint range of motion/i],
    },
    'Muscle disorders': {
      'Muscle weakness conditions': [/muscle weakness/i],
      'Myopathies and myalgia': ['Myalgia', 'Myositis', 'Rhabdomyolysis'],
      'Muscle spasms and cramps': ['Muscle cramp', 'Trismus'],
    },
    'Bone disorders': {
      'Osteonecrosis conditions': ['Avascular necrosis', 'Osteonecrosis', 'Osteonecrosis of jaw'],
      'Bone density and growth disorders': ['Osteoporosis', 'Growth suppression', 'Unequal limb length', 'Exostosis'],
    },
    'Spinal and musculoskeletal deformities': {
      'Skeletal deformities': ['Kyphosis', 'Lordosis', 'Scoliosis', 'Musculoskeletal deformity'],
    },
    'Musculoskeletal pain conditions': {
      'Back and neck pain': ['Back pain', 'Neck pain'],
      'Musculoskeletal pain NEC': ['Bone pain', 'Buttock pain', 'Chest wall pain', 'Flank pain', 'Pain in extremity'],
    },
    'Soft tissue and tendon disorders': {
      'Soft tissue necroses': [/necrosis/i],
      'Soft tissue fibrosis': ['Fibrosis deep connective tissue', 'Superficial soft tissue fibrosis'],
      'Tendon and ligament disorders': ['Rotator cuff injury'],
    },
  },

  'Renal and urinary disorders': {
    'Renal disorders': {
      'Renal failure and impairment': ['Acute kidney injury', 'Chronic kidney disease'],
      'Glomerular conditions': ['Nephrotic syndrome'],
      'Urolithiases and renal colic': ['Renal calculi', 'Renal colic'],
    },
    'Urinary abnormalities': {
      'Urinalysis abnormalities': ['Hematuria', 'Proteinuria', 'Glucosuria', 'Hemoglobinuria', 'Urine discoloration'],
    },
    'Bladder and urethral disorders': {
      'Micturition disorders and urinary tract pain': [
        'Dysuria',
        'Urinary frequency',
        'Urinary incontinence',
        'Urinary retention',
        'Urinary urgency',
        'Urinary tract pain',
      ],
      'Bladder and urinary tract inflammation': ['Cystitis noninfective', 'Bladder spasm'],
    },
    'Urinary tract injuries and obstruction': {
      'Urinary tract obstruction and injury': [
        'Urinary tract obstruction',
        'Urinary fistula',
        'Bladder perforation',
        'Renal hemorrhage',
      ],
    },
  },

  'Pregnancy, puerperium and perinatal conditions': {
    'Pregnancy outcome conditions': {
      'Fetal loss and death': ['Fetal death', 'Pregnancy loss'],
      'Preterm delivery conditions': ['Premature delivery'],
    },
    'Fetal and pregnancy complications': {
      'Fetal growth disorders': ['Fetal growth retardation'],
      'Pregnancy conditions NEC': ['Unintended pregnancy'],
    },
  },

  'Reproductive system and breast disorders': {
    'Menstrual and menopausal conditions': {
      'Menstrual disorders': ['Amenorrhea', 'Dysmenorrhea', 'Irregular menstruation', 'Menorrhagia'],
      'Menopausal conditions': ['Premature menopause'],
    },
    'Female genital tract disorders': {
      'Uterine disorders': [/^uterine/i],
      'Vulvovaginal disorders': [/^vagin/i, 'Female genital tract fistula', 'Dyspareunia'],
      'Ovarian and fallopian tube disorders': [/^ovar/i, /^fallopian/i, 'Ovulation pain', 'Hematosalpinx'],
    },
    'Male reproductive disorders': {
      'Prostatic disorders': [/^prostat/i],
      'Testicular, scrotal and penile disorders': [/^testicular/i, /^spermatic/i, 'Scrotal pain', 'Penile pain'],
    },
    'Sexual function and fertility disorders': {
      'Erectile and ejaculatory disorders': ['Erectile dysfunction', 'Ejaculation disorder'],
      'Spermatogenesis disorders': ['Azoospermia', 'Oligospermia'],
    },
    'Breast disorders': {
      'Breast conditions': ['Breast atrophy', 'Breast pain', 'Gynecomastia', 'Nipple deformity', 'Lactation disorder'],
    },
    'Genital and pelvic conditions NEC': {
      'Pelvic and perineal conditions': ['Pelvic pain', 'Perineal pain', 'Pelvic floor muscle weakness'],
      'Genital edema and feminization': ['Genital edema', 'Feminization acquired'],
    },
  },

  'General disorders and administration site conditions': {
    'Body temperature conditions': {
      'Fever, chills and hypothermia': ['Fever', 'Chills', 'Hypothermia'],
    },
    'General signs and symptoms': {
      'Asthenic conditions': ['Fatigue', 'Malaise'],
      'General symptoms NEC': ['Flu like symptoms', 'Gait disturbance', 'Irritability'],
    },
    'Edema conditions NEC': {
      'Generalized and localized edema': ['Generalized edema', 'Localized edema'],
      'Edema of specific body sites': ['Edema face', 'Edema limbs', 'Edema trunk', 'Neck edema'],
    },
    'Pain and discomfort NEC': {
      'Pain and discomfort conditions NEC': ['Pain', 'Facial pain', 'Non-cardiac chest pain'],
    },
    'Fatal outcomes and disease progression': {
      'Death and sudden death': ['Death NOS', 'Sudden death NOS', 'Death neonatal'],
      'Disease progression and organ failure': ['Disease progression', 'Multi-organ failure'],
    },
    'Administration site reactions': {
      'Injection, infusion and vaccination site reactions': [
        'Injection site reaction',
        'Infusion site extravasation',
        'Vaccination site lymphadenopathy',
      ],
      'Infusion reactions NEC': ['Infusion related reaction'],
    },
  },

  Investigations: {
    'Hematology investigations': {
      'White blood cell analyses': [/lympho/i, 'Neutrophil count decreased', 'White blood cell decreased'],
      'Red cell and platelet analyses': ['Platelet count decreased', 'Hemoglobin increased', 'Haptoglobin decreased'],
      'Coagulation analyses': ['Activated partial thromboplastin time prolonged', 'INR increased', 'Fibrinogen decreased'],
    },
    'Hepatobiliary and pancreatic investigations': {
      'Liver function analyses': [
        'Alanine aminotransferase increased',
        'Aspartate aminotransferase increased',
        'Alkaline phosphatase increased',
        'Blood bilirubin increased',
        'GGT increased',
      ],
      'Pancreatic enzyme analyses': ['Lipase increased', 'Serum amylase increased', 'Pancreatic enzymes decreased'],
    },
    'Cardiac investigations': {
      'Cardiac biomarker and function analyses': [
        'Cardiac troponin I increased',
        'Cardiac troponin T increased',
        'CPK increased',
        'Ejection fraction decreased',
      ],
      'Electrocardiogram investigations': [/^electrocardiogram/i],
    },
    'Endocrine investigations': {
      'Pituitary and hypothalamic hormone analyses': [
        'Blood antidiuretic hormone abnormal',
        'Blood corticotrophin decreased',
        'Blood gonadotrophin abnormal',
        'Blood prolactin abnormal',
        'Growth hormone abnormal',
        'Thyroid stimulating hormone increased',
      ],
    },
    'Renal and blood chemistry investigations': {
      'Renal function analyses': ['Creatinine increased', 'Urine output decreased'],
      'Blood chemistry analyses NEC': [
        'Blood bicarbonate decreased',
        'Blood lactate dehydrogenase increased',
        'Cholesterol high',
      ],
    },
    'Respiratory investigations': {
      'Pulmonary function analyses': [
        'Carbon monoxide diffusing capacity decreased',
        'Forced expiratory volume decreased',
        'Vital capacity abnormal',
      ],
    },
    'Physical examination findings': {
      'Body weight changes': ['Weight gain', 'Weight loss'],
    },
  },

  'Injury, poisoning and procedural complications': {
    'Stoma and anastomotic complications': {
      'Anastomotic leaks': [/anastomotic leak$/i],
      'Intestinal stoma complications': [
        /intestinal stoma/i,
        'Gastrointestinal stoma necrosis',
        'Stenosis of gastrointestinal stoma',
        'Stomal ulcer',
      ],
      'Urinary stoma complications': [/urostomy/i],
    },
    'Intraoperative and procedural injuries': {
      'Intraoperative organ injuries': [/^intraoperative/i],
      'Procedural hemorrhages': ['Intraoperative hemorrhage', 'Postoperative hemorrhage'],
      'Procedural complications NEC': [
        'Postoperative thoracic procedure complication',
        'Fallopian tube perforation',
        'Uterine perforation',
        'Vascular access complication',
      ],
      'Tracheal procedural complications': ['Tracheal hemorrhage', 'Tracheal obstruction', 'Tracheostomy site bleeding'],
    },
    'Vascular injuries': {
      'Arterial injuries': ['Aortic injury', 'Arterial injury', 'Injury to carotid artery', 'Intraoperative arterial injury'],
      'Venous injuries': [/vena cava|jugular vein/i, 'Venous injury', 'Intraoperative venous injury'],
    },
    'Fractures and physical injuries': {
      'Fractures': [/fracture$/i],
      'Physical injuries NEC': ['Fall', 'Bruising', 'Burn'],
    },
    'Radiation, infusion and vaccination reactions': {
      'Radiation skin injuries': ['Dermatitis radiation', 'Radiation recall reaction (dermatologic)'],
      'Infusion and vaccination complications': ['Infusion related reaction', 'Vaccination complication'],
    },
    'Wound complications': {
      'Wound healing complications': ['Wound complication', 'Wound dehiscence', 'Seroma'],
    },
  },

  'Surgical and medical procedures': {},

  'Social circumstances': {
    'Life stage circumstances': {
      'Menopausal circumstances': ['Menopause'],
    },
  },

  'Congenital, familial and genetic disorders': {},
};

/**
 * Secondary (multiaxial) placements, by CTCAE term name: extra HLTs in other
 * SOCs. A listed HLT that lies in the term's primary SOC of a release is
 * ignored for that release (it is the primary placement there), which lets the
 * terms CTCAE moved between SOCs keep their old placement as a secondary path.
 */
export const SECONDARY_PATHS: Record<string, string[]> = {
  // Terms whose primary SOC changed between CTCAE v4.03 and v5.0.
  'Periorbital edema': ['Eyelid and periorbital disorders', 'Subcutaneous tissue conditions NEC'],
  'Visceral arterial ischemia': ['Intestinal ischemic conditions', 'Ischemic vascular conditions'],
  Conjunctivitis: ['Eye and periorbital infections', 'Conjunctival disorders'],
  Myelitis: ['Nervous system infections', 'Spinal cord disorders'],
  'Infusion related reaction': [
    'Infusion and vaccination complications',
    'Infusion reactions NEC',
    'Allergic and anaphylactic reactions',
  ],
  'Muscle weakness left-sided': ['Lateralized muscle weakness', 'Muscle weakness conditions'],
  'Muscle weakness right-sided': ['Lateralized muscle weakness', 'Muscle weakness conditions'],
  Irritability: ['Anxiety, agitation and restlessness', 'General symptoms NEC'],
  'Sinus pain': ['Nasal and sinus conditions', 'Neuralgias and neuropathic pain'],
  // Clinically sensible second homes.
  'Hemolytic uremic syndrome': ['Renal failure and impairment'],
  'Hepatitis viral': ['Hepatic inflammatory conditions'],
  'Urinary tract infection': ['Bladder and urinary tract inflammation'],
  'Lung infection': ['Pneumonitis and lung parenchymal conditions'],
  Pharyngitis: ['Pharyngeal and throat conditions'],
  'Otitis media': ['Middle ear disorders'],
  'Endocarditis infective': ['Heart valve diseases'],
  Meningitis: ['Cerebrospinal fluid and meningeal disorders'],
  'Enterocolitis infectious': ['Colitis and enterocolitis'],
  Paronychia: ['Nail disorders'],
  'Dermatitis radiation': ['Dermatitis and eczema conditions'],
  'Osteonecrosis of jaw': ['Dental and periodontal conditions'],
  'Hot flashes': ['Menopausal conditions'],
  'Pulmonary hypertension': ['Blood pressure abnormalities'],
  'Portal vein thrombosis': ['Venous and arterial thromboembolism'],
  'Allergic rhinitis': ['Allergic and anaphylactic reactions'],
  'Guillain-Barre syndrome': ['Autoimmune disorders NEC'],
  'Weight loss': ['Body weight and protein nutrition conditions'],
};
