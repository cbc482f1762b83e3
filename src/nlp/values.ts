// Laboratory and vital-sign values written as comparisons with a threshold:
// "platelets below 80,000/mm3", "Hb < 9 g/dL", "ALT > 5 × ULN", "ANC ≤ 1.0 × 10⁹/L",
// "creatinine clearance under 30 mL/min", "haematocrit below the normal range".
// The comparison's direction is what a coded finding needs ("… decreased" / "… increased"):
// a value below a threshold is a decrease, above one an increase. A threshold written as a
// multiple of the upper limit of normal ("< 2 × ULN", "3 times the ULN") describes an elevation
// whatever the comparison (grade bands of an increased value). Percentages ("> 10% of
// patients") are not thresholds of a value and are left alone. General clinical convention,
// no terminology content.

export type Direction = '+inc' | '+dec';

export interface Comparison {
  direction: Direction;
  /** Character range of the comparison (operator and threshold) in the text. */
  start: number;
  end: number;
}

const NUM = String.raw`[-−]?\d[\d,]*(?:\.\d+)?`;
const REF = String.raw`(?:(?:the|a|an|extended|reference|normal|lower|upper|limit|limits|of|institutional)\s+){0,4}(?:normal(?:\s+range)?|range|limit|lln|uln|baseline|reference\s+range)\b`;
const BELOW = String.raw`(?:<\s*=?|=\s*<|≤|⩽|\bless\s+than(?:\s+or\s+equal\s+to)?|\blower\s+than|\bbelow|\bunder|\bfewer\s+than|\bsmaller\s+than|\bdropp?(?:ed|ing)?\s+(?:below|under)|\bfell\s+(?:below|under)|\bfalls?\s+(?:below|under))`;
const ABOVE = String.raw`(?:>\s*=?|=\s*>|≥|⩾|\bgreater\s+than(?:\s+or\s+equal\s+to)?|\bmore\s+than|\bhigher\s+than|\babove|\bover|\bexceed(?:s|ed|ing)?|\bin\s+excess\s+of|\brose\s+(?:above|over)|\brising\s+(?:above|over))`;
const THRESHOLD = String.raw`\s*(?:(${NUM})(?!\s*%|\d)|${REF})`;
const BELOW_RE = new RegExp(BELOW + THRESHOLD, 'giu');
const ABOVE_RE = new RegExp(ABOVE + THRESHOLD, 'giu');
/** "5 × ULN", "5.0*ULN", "10 times ULN", "two times the upper limit of normal". */
const ULN_MULTIPLE = new RegExp(
  String.raw`(?:${NUM}|\b(?:one|two|three|four|five|ten)\b)\s*(?:x|×|\*|-?\s*times|-?\s*fold)\s*(?:the\s+)?(?:uln\b|upper\s+limit(?:s)?\s+of\s+(?:the\s+)?normal)`,
  'giu',
);

/**
 * Comparisons with a threshold in a text, each with its direction. When the text holds
 * comparisons in both directions (a range, "between 50 and 100", "< 50 or > 100") nothing is
 * returned: the direction is not decided by the wording.
 */
export function findComparisons(text: string): Comparison[] {
  const out: Comparison[] = [];
  for (const m of text.matchAll(ULN_MULTIPLE)) out.push({ direction: '+inc', start: m.index, end: m.index + m[0].length });
  const inUln = (s: number, e: number) => out.some((c) => s < c.end + 12 && e > c.start - 12);
  const uln = out.length;
  for (const [re, direction] of [[BELOW_RE, '+dec'], [ABOVE_RE, '+inc']] as const) {
    for (const m of text.matchAll(re)) {
      const s = m.index;
      const e = s + m[0].length;
      // "less than 2 × ULN": the multiple of ULN decides (an elevation).
      if (uln > 0 && inUln(s, e)) continue;
      out.push({ direction, start: s, end: e });
    }
  }
  const dirs = new Set(out.map((c) => c.direction));
  if (dirs.size > 1) return [];
  return out.sort((a, b) => a.start - b.start);
}

/** The single direction the text's value comparisons state, if any. */
export function comparisonDirection(text: string): Direction | undefined {
  return findComparisons(text)[0]?.direction;
}
