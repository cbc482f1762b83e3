// The CodeSystem resource of one hosted release. content = not-present: a full release
// is ~80,000 LLTs plus hierarchy (tens of MB as FHIR JSON), which no terminology client
// downloads; concepts are reached through $lookup, $validate-code, $subsumes and $expand.
import type { Bundle, CodeSystem, CodeSystemProperty } from 'fhir/r4.js';
import type { Level } from '../domain/levels.ts';
import type { ReleaseInfo } from '../domain/releases.ts';
import { CANONICAL, CODE_SYSTEM_NAME, codeSystemId } from './system.ts';
import { ALL_CODES_VS } from './valueSetUrls.ts';

/** The properties $lookup reports (FHIR's standard parent/child/inactive plus MedDRA's own). */
export const PROPERTIES: CodeSystemProperty[] = [
  { code: 'parent', uri: 'http://hl7.org/fhir/concept-properties#parent', type: 'code', description: 'A direct parent (is-a). Multiaxial: a PT has one parent HLT per path; an LLT has its PT.' },
  { code: 'child', uri: 'http://hl7.org/fhir/concept-properties#child', type: 'code', description: 'A direct child (is-a).' },
  { code: 'inactive', uri: 'http://hl7.org/fhir/concept-properties#inactive', type: 'boolean', description: 'True for a non-current LLT.' },
  { code: 'level', type: 'code', description: 'Hierarchy level: SOC, HLGT, HLT, PT or LLT.' },
  { code: 'primarySOC', type: 'code', description: 'The primary System Organ Class (of the PT; for an LLT, of its PT).' },
  { code: 'socAbbreviation', type: 'string', description: "Abbreviation of the concept's primary SOC." },
];

/** Distinct codes: a PT and its own LLT share one code and are one concept. */
const conceptCount = (n: Record<Level, number>) => n.SOC + n.HLGT + n.HLT + n.LLT;

export function codeSystemResource(r: ReleaseInfo, counts: Record<Level, number>): CodeSystem {
  return {
    resourceType: 'CodeSystem',
    id: codeSystemId(r),
    url: CANONICAL,
    identifier: [{ system: 'urn:ietf:rfc:3986', value: 'urn:oid:2.16.840.1.113883.6.163' }],
    version: r.version,
    name: CODE_SYSTEM_NAME,
    title: 'Medical Dictionary for Regulatory Activities',
    status: 'active',
    experimental: false,
    ...(r.releaseDate ? { date: r.releaseDate } : {}),
    // The primary language; the others are designations ($lookup, $expand with includeDesignations).
    language: r.languages[0]!,
    description:
      `Release ${r.version} (${r.languages.join(', ')}; primary ${r.languages[0]}) as imported into this server. ` +
      'Displays in another hosted language: displayLanguage or Accept-Language. Concepts are not enumerated here ' +
      '(content not-present): use $lookup, $validate-code, $subsumes and ValueSet/$expand.',
    caseSensitive: true,
    valueSet: ALL_CODES_VS,
    hierarchyMeaning: 'is-a',
    compositional: false,
    versionNeeded: false,
    content: 'not-present',
    count: conceptCount(counts),
    property: PROPERTIES,
  };
}

export function searchBundle(self: string, base: string, resources: CodeSystem[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: resources.length,
    link: [{ relation: 'self', url: self }],
    entry: resources.map((resource) => ({ fullUrl: `${base}/CodeSystem/${resource.id}`, resource, search: { mode: 'match' } })),
  };
}
