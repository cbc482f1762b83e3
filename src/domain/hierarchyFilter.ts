// "Is this concept under that node?" as SQL, shared by search and change listings:
// a concept lies under a SOC/HLGT/HLT when any of its paths (not only the primary
// one) passes through it; the llt filter selects an LLT and its PT.

export interface HierarchyFilter {
  soc?: number | undefined;
  hlgt?: number | undefined;
  hlt?: number | undefined;
  llt?: number | undefined;
}

export const hasHierarchyFilter = (f: HierarchyFilter) =>
  f.soc !== undefined || f.hlgt !== undefined || f.hlt !== undefined || f.llt !== undefined;

/**
 * SQL condition (true when no filter is set) for the concept (levelExpr, codeExpr) of release
 * releaseExpr. `p` adds a parameter and returns its placeholder.
 */
export function underNodeSql(f: HierarchyFilter, releaseExpr: string, levelExpr: string, codeExpr: string, p: (v: unknown) => string): string {
  const parts: string[] = [];
  if (f.llt !== undefined) {
    const llt = p(f.llt);
    parts.push(`((${levelExpr} = 'LLT' AND ${codeExpr} = ${llt}) OR (${levelExpr} = 'PT' AND ${codeExpr} = (
      SELECT pt_code FROM concept_at(${releaseExpr}) WHERE level = 'LLT' AND code = ${llt})))`);
  }
  if (f.soc !== undefined || f.hlgt !== undefined || f.hlt !== undefined) {
    const conds = [
      f.soc !== undefined ? `hp.soc_code = ${p(f.soc)}` : null,
      f.hlgt !== undefined ? `hp.hlgt_code = ${p(f.hlgt)}` : null,
      f.hlt !== undefined ? `hp.hlt_code = ${p(f.hlt)}` : null,
    ].filter(Boolean);
    parts.push(`EXISTS (SELECT 1 FROM hierarchy_path_at(${releaseExpr}) hp WHERE ${conds.join(' AND ')} AND CASE ${levelExpr}
        WHEN 'PT' THEN hp.pt_code = ${codeExpr}
        WHEN 'LLT' THEN hp.pt_code = (SELECT pt_code FROM concept_at(${releaseExpr}) WHERE level = 'LLT' AND code = ${codeExpr})
        WHEN 'HLT' THEN hp.hlt_code = ${codeExpr}
        WHEN 'HLGT' THEN hp.hlgt_code = ${codeExpr}
        ELSE hp.soc_code = ${codeExpr} END)`);
  }
  return parts.length ? parts.join(' AND ') : 'true';
}
