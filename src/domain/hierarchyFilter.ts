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
    // One EXISTS per level, each on an indexed column; an LLT's PT by a join. (A CASE inside one
    // EXISTS looked the LLT's PT up again for every path row of the node: 139,239 lookups for one
    // SOC's LLTs on the demo release, 3.8 s.)
    const under = conds.join(' AND ');
    const paths = (column: string) => `EXISTS (SELECT 1 FROM hierarchy_path_at(${releaseExpr}) hp WHERE ${under} AND hp.${column} = ${codeExpr})`;
    parts.push(`CASE ${levelExpr}
        WHEN 'PT' THEN ${paths('pt_code')}
        WHEN 'LLT' THEN EXISTS (SELECT 1 FROM concept_at(${releaseExpr}) l JOIN hierarchy_path_at(${releaseExpr}) hp ON hp.pt_code = l.pt_code
          WHERE l.level = 'LLT' AND l.code = ${codeExpr} AND ${under})
        WHEN 'HLT' THEN ${paths('hlt_code')}
        WHEN 'HLGT' THEN ${paths('hlgt_code')}
        ELSE ${paths('soc_code')} END`);
  }
  return parts.length ? parts.join(' AND ') : 'true';
}
