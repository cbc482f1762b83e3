// Hierarchy filters (soc, hlgt, hlt, llt) as clients send them: each must be a code, and
// name a node of one of the releases the listing reads.
import type { HierarchyFilter } from '../domain/hierarchyFilter.ts';
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNotFound } from '../domain/errors.ts';
import { optionalCode } from './arguments.ts';
import type { RequestScope } from './scope.ts';

export interface HierarchyFilterArgs {
  soc?: string | null | undefined;
  hlgt?: string | null | undefined;
  hlt?: string | null | undefined;
  llt?: string | null | undefined;
}

const FILTER_LEVELS = [['SOC', 'soc'], ['HLGT', 'hlgt'], ['HLT', 'hlt'], ['LLT', 'llt']] as const satisfies readonly [Level, keyof HierarchyFilter][];

/** Parses the filters and checks each names a node in at least one of `releases`. */
export async function hierarchyFilter(scope: RequestScope, releases: ReleaseInfo[], args: HierarchyFilterArgs): Promise<HierarchyFilter> {
  const f: HierarchyFilter = {
    soc: optionalCode(args.soc, 'soc'),
    hlgt: optionalCode(args.hlgt, 'hlgt'),
    hlt: optionalCode(args.hlt, 'hlt'),
    llt: optionalCode(args.llt, 'llt'),
  };
  await Promise.all(
    FILTER_LEVELS.map(async ([level, field]) => {
      const code = f[field];
      if (code === undefined) return;
      const found = await Promise.all(releases.map((r) => scope.loaders.concept.load({ releaseId: r.id, level, code })));
      if (!found.some(Boolean)) throw codeNotFound(`${code} (${field} filter)`, releases.map((r) => r.version).join(' or '));
    }),
  );
  return f;
}
