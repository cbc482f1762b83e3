// Codes in change metadata are strings, as everywhere in the API (a code is an identifier,
// not a quantity). Change sets stored before this rule have numbers under these keys:
// releases are immutable and their stored change sets are never recomputed, so every read
// converts (idempotent) instead of a data migration that would rewrite every stored row.

/** The metadata keys that hold a code (ptCode, primarySocCode) or a list of codes (parents). */
const CODE_KEYS = new Set(['ptCode', 'primarySocCode']);
const CODE_LIST_KEYS = new Set(['parents']);

const asCode = (v: unknown) => (typeof v === 'number' ? String(v) : v);

/** One side (before / after) with every code as a string. */
export function sideWithStringCodes(side: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(side)) {
    const s = CODE_KEYS.has(k) ? asCode(v) : CODE_LIST_KEYS.has(k) && Array.isArray(v) && v.some((c) => typeof c === 'number') ? v.map(asCode) : v;
    if (s !== v) (out ??= { ...side })[k] = s;
  }
  return out ?? side;
}

/** Change metadata ({kinds, before, after}) with every code as a string, whatever format it was stored in. */
export function metadataWithStringCodes<M extends { before: Record<string, unknown>; after: Record<string, unknown> }>(m: M): M {
  if (!m || typeof m !== 'object') return m;
  const before = m.before && typeof m.before === 'object' ? sideWithStringCodes(m.before) : m.before;
  const after = m.after && typeof m.after === 'object' ? sideWithStringCodes(m.after) : m.after;
  return before === m.before && after === m.after ? m : { ...m, before, after };
}
