// $validate-code on the CodeSystem (is it a code of the release, does the display name
// it) and on the implicit ValueSets (is it also inside the value set). Answers are
// Parameters: result, message, display. An unknown code is result=false, not an error;
// a wrong display is result=false with a message naming the right one, as HL7's servers do.
import type { Parameters, ParametersParameter } from 'fhir/r4.js';
import type { Concept } from '../domain/concepts.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { clip } from '../domain/clientText.ts';
import type { RequestScope } from '../services/scope.ts';
import { validateCode } from '../services/validation.ts';
import { codedInput } from './coded.ts';
import { invalidParam } from './outcome.ts';
import type { Params } from './params.ts';
import { releaseFor } from './release.ts';
import { CANONICAL } from './system.ts';
import { inValueSet, resolveValueSet } from './valueSets.ts';
import { parseValueSetUrl, valueSetUrl } from './valueSetUrls.ts';

export const CS_VALIDATE_PARAMS = ['url', 'system', 'code', 'version', 'display', 'coding', 'date', 'abstract', 'displayLanguage'];
export const VS_VALIDATE_PARAMS = ['url', 'valueSetVersion', 'code', 'system', 'systemVersion', 'version', 'display', 'coding', 'date', 'abstract', 'displayLanguage', 'activeOnly'];

function answer(result: boolean, message: string | undefined, concept: Concept | null, release: ReleaseInfo, code: string): Parameters {
  const parameter: ParametersParameter[] = [{ name: 'result', valueBoolean: result }];
  if (message) parameter.push({ name: 'message', valueString: message });
  if (concept) parameter.push({ name: 'display', valueString: concept.name });
  parameter.push({ name: 'code', valueCode: code }, { name: 'system', valueUri: CANONICAL }, { name: 'version', valueString: release.version });
  // As R5 and the HL7 terminology servers answer (R4 servers add it too): the code exists but is not active.
  if (concept && !concept.current) parameter.push({ name: 'inactive', valueBoolean: true });
  return { resourceType: 'Parameters', parameter };
}

/** The concept with its name in the display language (displayLanguage > Accept-Language > primary). */
const displayed = (v: { concept: Concept | null; display: string | null }): Concept => ({ ...v.concept!, name: v.display ?? v.concept!.name });

const wrongDisplay = (display: string, c: Concept) => `The display '${clip(display)}' is not the display of code ${c.code}; it is '${c.name}'.`;
const unknownCode = (code: string, r: ReleaseInfo) => `Unknown code '${clip(code)}' in ${CANONICAL} release ${r.version}.`;
/** A non-current LLT is still a code of the release (recorded data uses it); clients are told it is inactive. */
const nonCurrent = (c: Concept, r: ReleaseInfo) => `Code ${c.code} ('${c.name}') is non-current (inactive) in release ${r.version}; its use should be reviewed.`;

/** The answer for a known code: display check, with the inactive warning joined to any other message. */
function known(v: { concept: Concept; displayMatches: boolean }, display: string | undefined, r: ReleaseInfo, code: string): Parameters {
  const messages = [v.displayMatches ? undefined : wrongDisplay(display!, v.concept), v.concept.current ? undefined : nonCurrent(v.concept, r)].filter(Boolean);
  return answer(v.displayMatches, messages.join(' ') || undefined, v.concept, r, code);
}

export async function validateCodeInCodeSystem(scope: RequestScope, p: Params, fixed?: ReleaseInfo): Promise<Parameters> {
  p.only(CS_VALIDATE_PARAMS);
  // The code system is `url` in this operation; `system` is accepted as an alias.
  if (p.has('url') && p.has('system')) throw invalidParam('system', 'give url or system, not both');
  const { code, display, release } = await codedInput(scope, p, { code: 'code', system: p.has('system') ? 'system' : 'url', version: 'version', display: 'display', coding: 'coding' }, fixed);
  const v = await validateCode(scope, release, code, display, p.string('displayLanguage'));
  if (!v.concept) return answer(false, unknownCode(code, release), null, release, code);
  return known({ concept: displayed(v), displayMatches: v.displayMatches }, display, release, code);
}

export async function validateCodeInValueSet(scope: RequestScope, p: Params): Promise<Parameters> {
  p.only(VS_VALIDATE_PARAMS);
  const { vs, version: fromUrl } = parseValueSetUrl(p.required('url'));
  const vsVersion = p.string('valueSetVersion') ?? fromUrl;
  const coded = await codedInput(scope, p, { code: 'code', system: 'system', version: p.has('systemVersion') ? 'systemVersion' : 'version', display: 'display', coding: 'coding' });
  const { code, display } = coded;
  // Both name the release; they must agree when both are given.
  if (vsVersion !== undefined && coded.version !== undefined && vsVersion !== coded.version) {
    throw invalidParam('valueSetVersion', `'${clip(vsVersion)}' contradicts the code system version '${clip(coded.version)}'`);
  }
  const r = vsVersion !== undefined ? await releaseFor(scope, vsVersion) : coded.release;
  const set = await resolveValueSet(scope, r, vs);
  const v = await validateCode(scope, r, code, display, p.string('displayLanguage'));
  if (!v.concept) return answer(false, unknownCode(code, r), null, r, code);
  v.concept = displayed(v);
  const activeOnly = p.boolean('activeOnly') ?? false;
  const member = await inValueSet(scope, set, v.concept, false);
  if (!member) return answer(false, `Code ${v.concept.code} is not in the value set ${valueSetUrl(vs)} (release ${r.version}).`, v.concept, r, code);
  if (activeOnly && !v.concept.current) {
    return answer(false, `${nonCurrent(v.concept, r)} The value set is asked for active codes only (activeOnly).`, v.concept, r, code);
  }
  return known({ concept: v.concept, displayMatches: v.displayMatches }, display, r, code);
}
