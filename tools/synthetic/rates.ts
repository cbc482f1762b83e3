/**
 * Change volumes for a next release. Absolute numbers are full-size (scale 1) counts and are
 * multiplied by the scale; *Rate values are fractions of the previous release's counts
 * (PTs, LLTs, PT↔HLT links, or the eligible pool for the currency changes).
 * Every kind of change happens at least once, even at tiny scales.
 */
export const FULL_SIZE_CHANGES = {
  demotedPts: 20,
  promotedLlts: 20,
  newHlts: 5,
  newPts: 1000,
  newLltsOnExistingPts: 3000,
  /** of PTs */
  renamedPtsRate: 0.005,
  /** of LLTs (only non-own LLTs are picked; own LLTs follow their PT) */
  renamedLltsRate: 0.01,
  /** of current non-own LLTs */
  madeNonCurrentRate: 0.015,
  /** of LLTs (capped at half the non-current pool) */
  madeCurrentRate: 0.002,
  /** of PTs */
  primaryMovesRate: 0.003,
  /** of PT↔HLT links */
  linksAddedRate: 0.01,
  /** of PT↔HLT links */
  linksRemovedRate: 0.005,
  /** of LLTs */
  lltsMovedRate: 0.005,
} as const;
