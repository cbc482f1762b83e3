// GET /fhir/metadata: the CapabilityStatement (what this server does), and with
// mode=terminology the TerminologyCapabilities (which releases it hosts, the latest as
// the default version).
import type { CapabilityStatement, TerminologyCapabilities } from 'fhir/r4.js';
import type { ReleaseInfo } from '../domain/releases.ts';
import { PROPERTIES } from './codeSystem.ts';
import { CANONICAL, FHIR_VERSION } from './system.ts';

const op = (name: string, resource: string) => ({ name, definition: `http://hl7.org/fhir/OperationDefinition/${resource}-${name}` });

const DESCRIPTION = 'Terminology Explorer: a FHIR R4 terminology service over the hosted releases of a MedDRA-shaped terminology.';

/** The date of the newest import: the capability changes when the hosted releases do. */
const dateOf = (releases: ReleaseInfo[]) => (releases[0]?.importedAt ?? new Date(0)).toISOString();

export function capabilityStatement(base: string, releases: ReleaseInfo[]): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    name: 'TerminologyExplorer',
    title: 'Terminology Explorer FHIR terminology service',
    status: 'active',
    date: dateOf(releases),
    description: DESCRIPTION,
    kind: 'instance',
    instantiates: ['http://hl7.org/fhir/CapabilityStatement/terminology-server'],
    software: { name: 'Terminology Explorer' },
    implementation: { description: DESCRIPTION, url: base },
    fhirVersion: FHIR_VERSION,
    format: ['json'],
    rest: [
      {
        mode: 'server',
        documentation: 'Errors are OperationOutcome: 400 invalid parameters, 404 unknown code system, version or resource, 422 an operation that cannot be performed.',
        resource: [
          {
            type: 'CodeSystem',
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              { name: 'url', type: 'uri' },
              { name: 'version', type: 'token' },
              { name: 'name', type: 'string' },
              { name: 'status', type: 'token' },
              { name: '_id', type: 'token' },
            ],
            operation: [op('lookup', 'CodeSystem'), op('validate-code', 'CodeSystem'), op('subsumes', 'CodeSystem')],
          },
          {
            type: 'ValueSet',
            documentation: `Implicit value sets only: ${CANONICAL}?fhir_vs, ?fhir_vs=isa/{code}, ?fhir_vs=level/{level}, ?fhir_vs=smq/{code}[/narrow|/broad].`,
            operation: [op('expand', 'ValueSet'), op('validate-code', 'ValueSet')],
          },
        ],
      },
    ],
  };
}

export function terminologyCapabilities(base: string, releases: ReleaseInfo[]): TerminologyCapabilities {
  return {
    resourceType: 'TerminologyCapabilities',
    name: 'TerminologyExplorer',
    title: 'Terminology Explorer terminology capabilities',
    status: 'active',
    date: dateOf(releases),
    description: DESCRIPTION,
    kind: 'instance',
    software: { name: 'Terminology Explorer' },
    implementation: { description: DESCRIPTION, url: base },
    codeSystem: [
      {
        uri: CANONICAL,
        version: releases.map((r) => ({
          code: r.version,
          isDefault: r.isLatest,
          compositional: false,
          language: [...r.languages],
          property: PROPERTIES.map((p) => p.code),
        })),
        subsumption: true,
      },
    ],
    expansion: {
      hierarchical: false,
      paging: true,
      incomplete: false,
      parameter: ['filter', 'count', 'offset', 'activeOnly', 'includeDesignations', 'valueSetVersion', 'system-version'].map((name) => ({ name })),
      textFilter: 'Ranked, typo-tolerant search over names and LLT synonyms, the same as GET /codes?q=.',
    },
    validateCode: { translations: false },
  };
}
