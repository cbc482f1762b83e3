// CodeSystem/$subsumes: codeA and codeB (or codingA/codingB) → outcome, following every
// hierarchy path (services/subsumption.ts). An unknown code makes the operation impossible:
// 422, not 404, since the code system and version exist.
import type { Parameters } from 'fhir/r4.js';
import type { ReleaseInfo } from '../domain/releases.ts';
import { domainErrorOf } from '../domain/errors.ts';
import type { RequestScope } from '../services/scope.ts';
import { subsumption } from '../services/subsumption.ts';
import { codedInput } from './coded.ts';
import { cannotPerform, invalidParam } from './outcome.ts';
import type { Params } from './params.ts';

export const SUBSUMES_PARAMS = ['codeA', 'codeB', 'system', 'version', 'codingA', 'codingB'];

export async function subsumes(scope: RequestScope, p: Params, fixed?: ReleaseInfo): Promise<Parameters> {
  p.only(SUBSUMES_PARAMS);
  const a = await codedInput(scope, p, { code: 'codeA', system: 'system', version: 'version', coding: 'codingA' }, fixed);
  const b = await codedInput(scope, p, { code: 'codeB', system: 'system', version: 'version', coding: 'codingB' }, fixed);
  if (a.release.id !== b.release.id) throw invalidParam('codingB', `names release ${b.release.version}, codingA ${a.release.version}: subsumption is tested within one release`);
  try {
    const r = await subsumption(scope, a.release, a.code, b.code);
    return { resourceType: 'Parameters', parameter: [{ name: 'outcome', valueCode: r.outcome }] };
  } catch (e) {
    const d = domainErrorOf(e);
    if (d?.code === 'CODE_NOT_FOUND') throw cannotPerform(`${d.message} Subsumption cannot be tested.`, 'not-found');
    throw e;
  }
}
