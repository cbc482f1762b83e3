// The made-up release 5.0.1: CTCAE v5.0 plus a handful of changes of every
// kind a MedDRA version report knows, so that release comparison can be
// demonstrated. Nothing here comes from MedDRA or from a real CTCAE version.
// Terms are named as in 5.0 (before the change); the build fails if a change
// does not apply cleanly.

export type Change =
  | { kind: 'pt-renamed'; pt: string; to: string; why: string }
  | { kind: 'llt-renamed'; llt: string; to: string; why: string }
  | { kind: 'llt-noncurrent'; llt: string; why: string }
  | { kind: 'llt-current'; llt: string; why: string }
  | { kind: 'primary-soc-moved'; pt: string; toHlt: string; why: string }
  | { kind: 'link-added'; pt: string; hlt: string; why: string }
  | { kind: 'link-removed'; pt: string; hlt: string; why: string }
  | { kind: 'llt-moved'; llt: string; toPt: string; why: string }
  | { kind: 'pt-demoted'; pt: string; toPt: string; why: string }
  | { kind: 'llt-promoted'; llt: string; hlt: string; why: string }
  | { kind: 'new-pt'; name: string; hlt: string; why: string }
  | { kind: 'new-llt'; name: string; pt: string; why: string };

export const RELEASE_501_CHANGES: Change[] = [
  // New HLTs come with the new PTs / the moved PT below.
  {
    kind: 'new-pt',
    name: 'Immune effector cell-associated neurotoxicity syndrome',
    hlt: 'Encephalopathies',
    why: 'neurotoxicity of CAR-T and bispecific therapies',
  },
  {
    kind: 'new-pt',
    name: 'Hemophagocytic lymphohistiocytosis',
    hlt: 'Histiocytic disorders',
    why: 'new HLT "Histiocytic disorders" under "White blood cell disorders"',
  },
  {
    kind: 'new-pt',
    name: 'COVID-19',
    hlt: 'Coronavirus infections',
    why: 'new HLT "Coronavirus infections" under "Viral infections"',
  },
  { kind: 'new-llt', name: 'ICANS', pt: 'Immune effector cell-associated neurotoxicity syndrome', why: 'abbreviation' },
  { kind: 'new-llt', name: 'HLH', pt: 'Hemophagocytic lymphohistiocytosis', why: 'abbreviation' },
  {
    kind: 'new-llt',
    name: 'Haemophagocytic lymphohistiocytosis',
    pt: 'Hemophagocytic lymphohistiocytosis',
    why: 'British spelling',
  },
  { kind: 'new-llt', name: 'COVID', pt: 'COVID-19', why: 'short form' },
  { kind: 'new-llt', name: 'SARS-CoV-2 infection', pt: 'COVID-19', why: 'virus name' },
  { kind: 'new-llt', name: 'Coronavirus disease 2019', pt: 'COVID-19', why: 'long form' },
  { kind: 'new-llt', name: 'Cancer-related fatigue', pt: 'Fatigue', why: 'common verbatim' },
  { kind: 'new-llt', name: 'Morbilliform rash', pt: 'Rash maculo-papular', why: 'descriptive synonym' },
  { kind: 'new-llt', name: 'Immune-mediated colitis', pt: 'Colitis', why: 'checkpoint-inhibitor verbatim' },
  { kind: 'new-llt', name: 'Watery stools', pt: 'Diarrhea', why: 'lay phrasing' },

  { kind: 'pt-renamed', pt: 'Mobitz type I', to: 'Mobitz type I atrioventricular block', why: 'aligned with Mobitz (type) II' },
  { kind: 'pt-renamed', pt: 'Cholesterol high', to: 'Blood cholesterol increased', why: 'investigation naming style' },
  { kind: 'pt-renamed', pt: 'Watering eyes', to: 'Lacrimation increased', why: 'clinical wording' },

  { kind: 'llt-renamed', llt: 'Loose stools', to: 'Loose stool', why: 'singular form' },
  { kind: 'llt-renamed', llt: 'Dizzy spells', to: 'Dizzy spell', why: 'singular form' },
  { kind: 'llt-renamed', llt: 'Pins and needles', to: 'Pins and needles sensation', why: 'clearer wording' },

  { kind: 'llt-noncurrent', llt: 'Runs', why: 'too colloquial to code reliably' },
  { kind: 'llt-noncurrent', llt: 'Hypo', why: 'ambiguous abbreviation' },
  { kind: 'llt-noncurrent', llt: 'Cold', why: 'too vague' },

  { kind: 'llt-current', llt: 'Lumbago', why: 'still widely used by clinicians' },
  { kind: 'llt-current', llt: 'Nerves', why: 'frequent lay verbatim' },

  {
    kind: 'primary-soc-moved',
    pt: 'Hot flashes',
    toHlt: 'Menopausal conditions',
    why: 'primary SOC Vascular -> Reproductive (the former secondary path)',
  },
  {
    kind: 'primary-soc-moved',
    pt: 'Allergic rhinitis',
    toHlt: 'Allergic and anaphylactic reactions',
    why: 'primary SOC Respiratory -> Immune (the former secondary path)',
  },

  { kind: 'link-added', pt: 'Tumor lysis syndrome', hlt: 'Renal failure and impairment', why: 'new secondary path (Renal)' },
  { kind: 'link-added', pt: 'Thrush', hlt: 'Oral mucositis and stomatitis', why: 'new secondary path (Gastrointestinal)' },
  { kind: 'link-removed', pt: 'Weight loss', hlt: 'Body weight and protein nutrition conditions', why: 'secondary path dropped' },
  { kind: 'link-removed', pt: 'Endocarditis infective', hlt: 'Heart valve diseases', why: 'secondary path dropped' },
  {
    kind: 'link-removed',
    pt: 'Malabsorption',
    hlt: 'Diarrhea and malabsorption',
    why: 'moved within its SOC to the new HLT "Malabsorption conditions"',
  },
  {
    kind: 'link-added',
    pt: 'Malabsorption',
    hlt: 'Malabsorption conditions',
    why: 'new HLT under "Gastrointestinal motility and defecation conditions" (primary path)',
  },

  { kind: 'llt-moved', llt: 'Heartburn', toPt: 'Gastroesophageal reflux disease', why: 'closer concept' },
  { kind: 'llt-moved', llt: 'Restless legs', toPt: 'Akathisia', why: 'closer concept' },
  { kind: 'llt-moved', llt: 'Sore mouth', toPt: 'Oral pain', why: 'closer concept' },

  {
    kind: 'pt-demoted',
    pt: 'Avascular necrosis',
    toPt: 'Osteonecrosis',
    why: 'CTCAE v5.0 note: "Use new term: Osteonecrosis"',
  },
  { kind: 'pt-demoted', pt: 'Obesity', toPt: 'Weight gain', why: 'CTCAE v5.0 note: "this term is being retired"' },

  { kind: 'llt-promoted', llt: 'Night sweats', hlt: 'Sweat gland disorders', why: 'distinct concept from Hyperhidrosis' },
  {
    kind: 'llt-promoted',
    llt: 'Constrictive pericarditis',
    hlt: 'Pericardial inflammation and effusion',
    why: 'the CTCAE v4.03 term, non-current LLT in 5.0, back as a PT',
  },
];
