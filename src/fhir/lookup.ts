// CodeSystem/$lookup: name, version, display, properties (parent, child, inactive, level,
// primarySOC, socAbbreviation) and, when asked for, designations (a PT's LLTs).
import type { Parameters, ParametersParameter } from 'fhir/r4.js';
import type { Concept } from '../domain/concepts.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { codeNotFound } from '../domain/errors.ts';
import { parseCode } from '../services/arguments.ts';
import { childrenOf, conceptAt, conceptByKey, nameIn, namesOf, parentsOf, primarySocCode, synonymsOf, withVersion, type ReleaseConcept } from '../services/codes.ts';
import { LOOKUP_DESIGNATIONS } from '../services/limits.ts';
import type { RequestScope } from '../services/scope.ts';
import { codedInput } from './coded.ts';
import { PROPERTIES } from './codeSystem.ts';
import type { Params } from './params.ts';
import { CODE_SYSTEM_NAME } from './system.ts';

export const LOOKUP_PARAMS = ['code', 'system', 'version', 'coding', 'date', 'displayLanguage', 'property'];

/** SNOMED CT's "Synonym" designation use, what terminology clients recognise. */
export const SYNONYM_USE = { system: 'http://snomed.info/sct', code: '900000000000013009', display: 'Synonym' };
/** The code's display in another language (HL7's designation-usage "display"). */
export const DISPLAY_USE = { system: 'http://terminology.hl7.org/CodeSystem/designation-usage', code: 'display', display: 'Display' };

/** The language of displays: displayLanguage (a hosted language; LANGUAGE_NOT_FOUND otherwise) > Accept-Language > primary. */
export const displayLanguageOf = (scope: RequestScope, r: ReleaseInfo, p: Params): string => scope.chooseLanguage(r, p.string('displayLanguage'), { allowAll: false });

const property = (code: string, value: Omit<ParametersParameter, 'name'>, description?: string): ParametersParameter => ({
  name: 'property',
  part: [{ name: 'code', valueCode: code }, { name: 'value', ...value }, ...(description ? [{ name: 'description', valueString: description }] : [])],
});

export async function lookup(scope: RequestScope, p: Params, fixed?: ReleaseInfo): Promise<Parameters> {
  p.only(LOOKUP_PARAMS);
  const { code, release } = await codedInput(scope, p, { code: 'code', system: 'system', version: 'version', coding: 'coding' }, fixed);
  const found = await conceptAt(scope, release, parseCode(code));
  if (!found) throw codeNotFound(code, release.version);
  const c = withVersion(found, release.version);
  const lang = displayLanguageOf(scope, release, p);
  const named = (x: ReleaseConcept) => nameIn(scope, x, lang, release);
  const asked = new Set(p.strings('property'));
  // No property named: every property, but designations only on request (a PT may have hundreds).
  const want = (name: string) => (asked.size === 0 ? name !== 'designation' : asked.has(name));

  const [parents, children, socCode, synonyms] = await Promise.all([
    want('parent') ? parentsOf(scope, c) : [],
    want('child') ? childrenOf(scope, c) : [],
    want('primarySOC') || want('socAbbreviation') ? primarySocCode(scope, c) : null,
    want('designation') ? synonymsOf(scope, c, { offset: 0, limit: LOOKUP_DESIGNATIONS + 1 }) : null,
  ]);
  const soc = socCode === null ? null : c.level === 'SOC' ? c : await conceptByKey(scope, { releaseId: c.releaseId, level: 'SOC', code: socCode }, release.version);

  const out: ParametersParameter[] = [
    { name: 'name', valueString: CODE_SYSTEM_NAME },
    { name: 'version', valueString: release.version },
    { name: 'display', valueString: await named(c) },
  ];
  // The PT's own LLT carries the PT's name: it is the display, not a designation.
  for (const s of (synonyms?.items ?? []).filter((x) => x.code !== c.code).slice(0, LOOKUP_DESIGNATIONS)) {
    out.push({ name: 'designation', part: [{ name: 'language', valueCode: lang }, { name: 'use', valueCoding: SYNONYM_USE }, { name: 'value', valueString: await named(s) }] });
  }
  // Then the code's name in every other hosted language (issue 28).
  if (want('designation')) {
    for (const n of await namesOf(scope, c, release)) {
      if (n.language !== lang) out.push({ name: 'designation', part: [{ name: 'language', valueCode: n.language }, { name: 'use', valueCoding: DISPLAY_USE }, { name: 'value', valueString: n.name }] });
    }
  }
  if (want('level')) out.push(property('level', { valueCode: c.level }));
  if (want('inactive')) out.push(property('inactive', { valueBoolean: !c.current }));
  // The synthetic SOC_TO_PT item is the primary SOC (its own property), not an is-a parent.
  for (const x of parents) if (x.relationshipType !== 'SOC_TO_PT') out.push(property('parent', { valueCode: String(x.concept.code) }, await named(x.concept)));
  for (const x of children) if (!isOwnLlt(c, x.concept)) out.push(property('child', { valueCode: String(x.concept.code) }, await named(x.concept)));
  if (want('primarySOC') && soc && c.level !== 'SOC') out.push(property('primarySOC', { valueCode: String(soc.code) }, await named(soc)));
  if (want('socAbbreviation') && soc?.socAbbrev) out.push(property('socAbbreviation', { valueString: soc.socAbbrev }));
  return { resourceType: 'Parameters', parameter: out };
}

/** A PT's own LLT (same code) is the PT itself in FHIR: one code, one concept. */
const isOwnLlt = (c: Concept, child: Concept) => c.level === 'PT' && child.level === 'LLT' && child.code === c.code;

export const KNOWN_PROPERTIES = PROPERTIES.map((x) => x.code);
