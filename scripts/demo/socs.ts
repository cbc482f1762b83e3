// The System Organ Classes as CTCAE uses them, in the internationally agreed
// order (docs: /work/shared/spec/meddra-ascii-format.md). The codes are the ones
// CTCAE itself prints on its "<SOC> - Other, specify" rows; the build checks
// that the CSVs agree with this table.

export interface SocDef {
  /** Position in the international SOC order (1-based, spec list incl. Product issues). */
  intlOrder: number;
  code: number;
  name: string;
  abbrev: string;
  /** Short label used for invented catch-all groups ("<short> disorders NEC"). */
  short: string;
}

export const SOCS: readonly SocDef[] = [
  { intlOrder: 1, code: 10021881, name: 'Infections and infestations', abbrev: 'Infec', short: 'Infections' },
  {
    intlOrder: 2,
    code: 10029104,
    name: 'Neoplasms benign, malignant and unspecified (incl cysts and polyps)',
    abbrev: 'Neopl',
    short: 'Neoplasm',
  },
  { intlOrder: 3, code: 10005329, name: 'Blood and lymphatic system disorders', abbrev: 'Blood', short: 'Blood' },
  { intlOrder: 4, code: 10021428, name: 'Immune system disorders', abbrev: 'Immun', short: 'Immune' },
  { intlOrder: 5, code: 10014698, name: 'Endocrine disorders', abbrev: 'Endo', short: 'Endocrine' },
  { intlOrder: 6, code: 10027433, name: 'Metabolism and nutrition disorders', abbrev: 'Metab', short: 'Metabolic' },
  { intlOrder: 7, code: 10037175, name: 'Psychiatric disorders', abbrev: 'Psych', short: 'Psychiatric' },
  { intlOrder: 8, code: 10029205, name: 'Nervous system disorders', abbrev: 'Nerv', short: 'Nervous system' },
  { intlOrder: 9, code: 10015919, name: 'Eye disorders', abbrev: 'Eye', short: 'Eye' },
  { intlOrder: 10, code: 10013993, name: 'Ear and labyrinth disorders', abbrev: 'Ear', short: 'Ear' },
  { intlOrder: 11, code: 10007541, name: 'Cardiac disorders', abbrev: 'Card', short: 'Cardiac' },
  { intlOrder: 12, code: 10047065, name: 'Vascular disorders', abbrev: 'Vasc', short: 'Vascular' },
  {
    intlOrder: 13,
    code: 10038738,
    name: 'Respiratory, thoracic and mediastinal disorders',
    abbrev: 'Resp',
    short: 'Respiratory',
  },
  { intlOrder: 14, code: 10017947, name: 'Gastrointestinal disorders', abbrev: 'Gastr', short: 'Gastrointestinal' },
  { intlOrder: 15, code: 10019805, name: 'Hepatobiliary disorders', abbrev: 'Hepat', short: 'Hepatobiliary' },
  { intlOrder: 16, code: 10040785, name: 'Skin and subcutaneous tissue disorders', abbrev: 'Skin', short: 'Skin' },
  {
    intlOrder: 17,
    code: 10028395,
    name: 'Musculoskeletal and connective tissue disorders',
    abbrev: 'Musc',
    short: 'Musculoskeletal',
  },
  { intlOrder: 18, code: 10038359, name: 'Renal and urinary disorders', abbrev: 'Renal', short: 'Renal' },
  {
    intlOrder: 19,
    code: 10036585,
    name: 'Pregnancy, puerperium and perinatal conditions',
    abbrev: 'Preg',
    short: 'Pregnancy',
  },
  {
    intlOrder: 20,
    code: 10038604,
    name: 'Reproductive system and breast disorders',
    abbrev: 'Repro',
    short: 'Reproductive',
  },
  {
    intlOrder: 21,
    code: 10010331,
    name: 'Congenital, familial and genetic disorders',
    abbrev: 'Cong',
    short: 'Congenital',
  },
  {
    intlOrder: 22,
    code: 10018065,
    name: 'General disorders and administration site conditions',
    abbrev: 'Genrl',
    short: 'General',
  },
  { intlOrder: 23, code: 10022891, name: 'Investigations', abbrev: 'Inv', short: 'Investigation' },
  {
    intlOrder: 24,
    code: 10022117,
    name: 'Injury, poisoning and procedural complications',
    abbrev: 'Inj&P',
    short: 'Injury',
  },
  { intlOrder: 25, code: 10042613, name: 'Surgical and medical procedures', abbrev: 'Surg', short: 'Procedural' },
  { intlOrder: 26, code: 10041244, name: 'Social circumstances', abbrev: 'SocCi', short: 'Social' },
  // 27 Product issues (10077536) is not a CTCAE SOC.
];

const byName = new Map(SOCS.map((s) => [s.name.toLowerCase(), s]));
const byCode = new Map(SOCS.map((s) => [s.code, s]));

export function socByName(name: string): SocDef {
  const soc = byName.get(name.trim().toLowerCase());
  if (!soc) throw new Error(`Unknown SOC name: ${JSON.stringify(name)}`);
  return soc;
}

export function socByCode(code: number): SocDef {
  const soc = byCode.get(code);
  if (!soc) throw new Error(`Unknown SOC code: ${code}`);
  return soc;
}
