// The FHIR endpoints in /openapi.json (documentation only: FHIR parameters are parsed by
// params.ts, failures are OperationOutcome). Merged under /fhir when the router is mounted.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { CANONICAL } from './system.ts';

const FHIR = 'application/fhir+json';
const resource = (name: string) => z.object({ resourceType: z.literal(name) }).passthrough().openapi(`Fhir${name}`);
const Outcome = resource('OperationOutcome');
const str = (description: string) => z.string().optional().openapi({ description });

const errors = {
  400: { description: 'Invalid parameters (OperationOutcome)', content: { [FHIR]: { schema: Outcome } } },
  404: { description: 'Unknown code system, version, value set or resource (OperationOutcome)', content: { [FHIR]: { schema: Outcome } } },
  422: { description: 'The operation cannot be performed on this input (OperationOutcome)', content: { [FHIR]: { schema: Outcome } } },
};

const system = str(`${CANONICAL} (or http://terminology.hl7.org/CodeSystem/mdr)`);
const version = str('Release identifier, e.g. 5.0.1 (default: X-Terminology-Version, else the latest)');
const displayLanguage = str(
  'BCP 47 tag of a language the release hosts, for displays (default: Accept-Language, else the release\'s primary language); one it does not host: 404 LANGUAGE_NOT_FOUND',
);

type Op = { path: string; summary: string; description?: string; query: Record<string, z.ZodTypeAny>; returns: string; post?: boolean };

const OPS: Op[] = [
  { path: '/metadata', summary: 'FHIR CapabilityStatement (mode=terminology: TerminologyCapabilities)', query: { mode: str('full | normative | terminology') }, returns: 'CapabilityStatement' },
  { path: '/CodeSystem', summary: 'Search the CodeSystem of each hosted release', query: { url: system, version, name: str('MedDRA'), status: str('active'), _id: str('meddra-{version}') }, returns: 'Bundle' },
  { path: '/CodeSystem/{id}', summary: 'One release as a CodeSystem (content not-present)', query: {}, returns: 'CodeSystem' },
  { path: '/CodeSystem/$lookup', summary: 'Display, properties and designations of a code', query: { system, code: str('Code'), version, displayLanguage, property: str('parent, child, inactive, level, primarySOC, socAbbreviation, designation') }, returns: 'Parameters', post: true },
  { path: '/CodeSystem/$validate-code', summary: 'Is the code (and display) valid in the release', query: { url: system, code: str('Code'), version, display: str('Display to check (in displayLanguage when given, else in any hosted language)'), displayLanguage }, returns: 'Parameters', post: true },
  { path: '/CodeSystem/$subsumes', summary: 'Subsumption of codeA and codeB over every hierarchy path', query: { system, codeA: str('Code A'), codeB: str('Code B'), version }, returns: 'Parameters', post: true },
  {
    path: '/ValueSet/$expand',
    summary: 'Expand an implicit value set (typeahead: filter is the ranked search of GET /codes?q=)',
    query: {
      url: str(`${CANONICAL}?fhir_vs, ?fhir_vs=isa/{code}, ?fhir_vs=level/{level}, ?fhir_vs=smq/{code}[/narrow|/broad]`),
      filter: str('Search text'),
      count: str('Page size (default 100, max 1000)'),
      offset: str('Entries to skip'),
      activeOnly: str('true: no non-current LLTs'),
      includeDesignations: str('true: LLTs of each PT'),
      valueSetVersion: version,
      'system-version': str(`${CANONICAL}|{version}`),
      displayLanguage,
    },
    returns: 'ValueSet',
    post: true,
  },
  { path: '/ValueSet/$validate-code', summary: 'Is the code in the implicit value set', query: { url: str('Implicit value set URL'), system, code: str('Code'), display: str('Display to check (in displayLanguage when given, else in any hosted language)'), valueSetVersion: version, displayLanguage }, returns: 'Parameters', post: true },
];

export function documentFhirRoutes(r: OpenAPIHono<any>): void {
  for (const op of OPS) {
    const ok = { 200: { description: op.returns, content: { [FHIR]: { schema: resource(op.returns) } } }, ...errors };
    const params = op.path.includes('{id}') ? { params: z.object({ id: z.string().openapi({ example: 'meddra-5.0.1' }) }) } : {};
    r.openAPIRegistry.registerPath({ method: 'get', path: op.path, tags: ['FHIR'], summary: op.summary, request: { query: z.object(op.query), ...params }, responses: ok });
    if (op.post) {
      r.openAPIRegistry.registerPath({
        method: 'post',
        path: op.path,
        tags: ['FHIR'],
        summary: `${op.summary} (Parameters body)`,
        request: { body: { content: { [FHIR]: { schema: resource('Parameters') }, 'application/json': { schema: resource('Parameters') } } } },
        responses: ok,
      });
    }
  }
}
