// GraphQL documents used by the benchmark (kept free of imports: the bench process loads it).

/** A SOC's whole subtree down to LLTs, one request (as test/graphql/hierarchy-sql.test.ts). */
export const SUBTREE_QUERY = `query SocTree($code: String!, $version: String) {
  code(code: $code, version: $version) { code term
    children { relationshipType isPrimary code { code term level
      children { relationshipType code { code term level
        children { isPrimary code { code term level status
          children { code { code term status isPrimary } } } } } } } } } }`;
