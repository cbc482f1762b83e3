// zod-to-openapi writes a nullable reference to a named schema as
//   allOf: [{ $ref }, { type: ['object', 'null'] }]
// which no null satisfies (allOf needs the $ref too): validators reject real answers and
// openapi-typescript generates `X & (Record<string, never> | null)`. OpenAPI 3.1 (JSON Schema
// 2020-12) spells it
//   anyOf: [{ $ref }, { type: 'null' }]
// so the document is rewritten that way once, after generation.

/** Keys that only annotate a schema (kept beside the anyOf). */
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

type Json = unknown;

function rewrite(node: Record<string, Json>): Record<string, Json> | undefined {
  const all = node.allOf;
  if (!Array.isArray(all) || all.length !== 2) return undefined;
  const [ref, extra] = all as [Record<string, Json>, Record<string, Json>];
  if (typeof ref?.$ref !== 'string' || Object.keys(ref).length !== 1) return undefined;
  if (!extra || !Array.isArray(extra.type) || !extra.type.includes('null')) return undefined;
  // Only the nullable marker and annotations: anything else (properties…) is a real extension.
  if (Object.keys(extra).some((k) => k !== 'type' && !ANNOTATIONS.has(k))) return undefined;
  if ((extra.type as string[]).some((t) => t !== 'null' && t !== 'object')) return undefined;
  const rest = Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'allOf'));
  const notes = Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'type'));
  return { anyOf: [ref, { type: 'null' }], ...rest, ...notes };
}

/** The document with every nullable reference written as OpenAPI 3.1 does (a new object; the input is not changed). */
export function withNullableRefs<T>(doc: T): T {
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const node = Object.fromEntries(Object.entries(v as Record<string, Json>).map(([k, x]) => [k, walk(x)]));
    return rewrite(node) ?? node;
  };
  return walk(doc) as T;
}
