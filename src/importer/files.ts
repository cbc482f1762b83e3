// The MedAscii files we read, with their column counts (see docs of the format in
// the README). `fields` counts the values before the trailing `$`.
export interface FileSpec {
  name: string;
  fields: number;
  required: boolean;
}

export const FILES = {
  release: { name: 'meddra_release.asc', fields: 5, required: true },
  soc: { name: 'soc.asc', fields: 10, required: true },
  hlgt: { name: 'hlgt.asc', fields: 9, required: true },
  hlt: { name: 'hlt.asc', fields: 9, required: true },
  pt: { name: 'pt.asc', fields: 11, required: true },
  llt: { name: 'llt.asc', fields: 11, required: true },
  socHlgt: { name: 'soc_hlgt.asc', fields: 2, required: true },
  hlgtHlt: { name: 'hlgt_hlt.asc', fields: 2, required: true },
  hltPt: { name: 'hlt_pt.asc', fields: 2, required: true },
  mdhier: { name: 'mdhier.asc', fields: 12, required: true },
  intlOrd: { name: 'intl_ord.asc', fields: 2, required: true },
  smqList: { name: 'smq_list.asc', fields: 9, required: false },
  smqContent: { name: 'smq_content.asc', fields: 9, required: false },
  history: { name: 'meddra_history_english.asc', fields: 6, required: false },
  /** Project extension (not MedDRA): CTCAE grade definitions per term, shipped with the demo releases. */
  grades: { name: 'ctcae_grade.asc', fields: 7, required: false },
} as const satisfies Record<string, FileSpec>;

export type FileKey = keyof typeof FILES;

/**
 * The fields (0-based) that hold names, per file: what differs between two language folders of
 * one release (the demo's and the synthetic generator's translations write these; every other field is copied).
 */
export const NAME_FIELDS: Readonly<Record<string, readonly number[]>> = {
  'soc.asc': [1],
  'hlgt.asc': [1],
  'hlt.asc': [1],
  'pt.asc': [1],
  'llt.asc': [1],
  'mdhier.asc': [4, 5, 6, 7],
  'smq_list.asc': [1],
};
