// What a synthetic release is generated from: shared by the first-release generator
// (generate.ts) and the next-release one (next.ts), which would otherwise import each other.
import type { SyntheticRelease } from './model.ts';

export interface SyntheticOptions {
  /** Same seed (and options) → byte-identical output. */
  seed: number;
  /** Written to meddra_release.asc, e.g. '90.0'. */
  version: string;
  /** 1 = full MedDRA-27 size (default); 0.01 = tiny. Every level scales (≥ 3 SOCs, ≤ 27 SOCs). */
  scale?: number;
  /** When given, produce the NEXT release of that one with realistic changes. */
  changesFrom?: SyntheticRelease;
  /** Generate smq_list.asc / smq_content.asc (default true). */
  withSmq?: boolean;
}
