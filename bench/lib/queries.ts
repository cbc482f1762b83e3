// GraphQL documents used by the benchmark (kept free of imports: the bench process loads it).

/** A SOC's whole subtree down to LLTs, one request (as test/graphql/hierarchy-sql.test.ts). */
export const SUBTREE_QUERY = `query SocTree($code: String!, $version: String) {
  code(code: $code, version: $version) { code term
    children { relationshipType isPrimary code { code term level
      children { relationshipType code { code term level
        children { isPrimary code { code term level status
          children { code { code term status isPrimary } } } } } } } } } }`;

/** Code detail with parents, children and synonyms for many codes in one request (aliases c0…). */
export function codes100Query(codes: (string | number)[]): string {
  const fields = codes.map((c, i) => `c${i}: code(code: "${c}", version: $version) { ...Detail }`).join('\n  ');
  return `query Codes100($version: String) {
  ${fields}
}
fragment Detail on Code {
  code term level status isPrimary primarySocCode
  parents { relationshipType isPrimary code { code term level } }
  children { relationshipType isPrimary code { code term level status } }
  synonyms(first: 20) { totalCount edges { node { code term status } } }
}`;
}
