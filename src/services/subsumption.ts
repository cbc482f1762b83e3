// Subsumption of two codes of one release, following every hierarchy path (the terminology
// is multiaxial: a PT may sit under several HLTs and SOCs, not only its primary one).
import type { Concept } from '../domain/concepts.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNotFound } from '../domain/errors.ts';
import { parseCode } from './arguments.ts';
import { conceptAt } from './codes.ts';
import type { RequestScope } from './scope.ts';

/** FHIR's vocabulary for the four answers ($subsumes outcome). */
export type Subsumption = 'equivalent' | 'subsumes' | 'subsumed-by' | 'not-subsumed';

export interface SubsumptionResult {
  outcome: Subsumption;
  a: Concept;
  b: Concept;
}

const keyOf = (c: { level: string; code: number }) => `${c.level}:${c.code}`;

/** Every node above a concept on any of its paths (the concept itself excluded). */
export async function ancestorKeys(scope: RequestScope, c: Concept): Promise<Set<string>> {
  const paths = await scope.loaders.paths.load({ releaseId: c.releaseId, level: c.level, code: c.code });
  const out = new Set<string>();
  for (const p of paths) for (const n of p.nodes) if (n.level !== c.level || n.code !== c.code) out.add(keyOf(n));
  return out;
}

/** Whether `ancestor` is `c` or lies above it on any path. */
export async function isSameOrBelow(scope: RequestScope, c: Concept, ancestor: Concept): Promise<boolean> {
  if (c.code === ancestor.code) return true;
  return (await ancestorKeys(scope, c)).has(keyOf(ancestor));
}

/**
 * A code at several levels is its highest (a PT and its own LLT are one concept), so equal
 * codes are equivalent. Unknown codes are CODE_NOT_FOUND.
 */
export async function subsumption(scope: RequestScope, release: ReleaseInfo, codeA: string, codeB: string): Promise<SubsumptionResult> {
  const [na, nb] = [parseCode(codeA, 'codeA'), parseCode(codeB, 'codeB')];
  const [a, b] = await Promise.all([conceptAt(scope, release, na), conceptAt(scope, release, nb)]);
  if (!a) throw codeNotFound(codeA, release.version);
  if (!b) throw codeNotFound(codeB, release.version);
  if (a.code === b.code) return { outcome: 'equivalent', a, b };
  // Both ancestor sets load in one batch (the paths loader).
  const [aboveA, aboveB] = await Promise.all([ancestorKeys(scope, a), ancestorKeys(scope, b)]);
  if (aboveB.has(keyOf(a))) return { outcome: 'subsumes', a, b };
  if (aboveA.has(keyOf(b))) return { outcome: 'subsumed-by', a, b };
  return { outcome: 'not-subsumed', a, b };
}
