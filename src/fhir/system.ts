// The code system's identity in FHIR: canonical URL (and the legacy one accepted as an
// alias), resource ids per release, and `system|version` canonicals.
import type { ReleaseInfo } from '../domain/releases.ts';

/** HL7's current URI for MedDRA (terminology.hl7.org lists it); what every answer uses. */
export const CANONICAL = 'https://www.meddra.org';
/** The older HL7 URI; accepted wherever a system is given, never returned. */
export const LEGACY_CANONICAL = 'http://terminology.hl7.org/CodeSystem/mdr';
export const SYSTEMS = [CANONICAL, LEGACY_CANONICAL];

export const FHIR_VERSION = '4.0.1';
export const CODE_SYSTEM_NAME = 'MedDRA';
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** A trailing slash is a common slip; anything else is another system. */
export const isOurSystem = (uri: string) => SYSTEMS.includes(uri.replace(/\/+$/, ''));

/** CodeSystem id of a release: `meddra-5.0.1` (FHIR ids allow letters, digits, '-' and '.'). */
export const codeSystemId = (r: ReleaseInfo) => `meddra-${r.version}`;
export const ID_PREFIX = 'meddra-';

/** Splits `uri|version` (R4 canonical references may carry the version after a bar). */
export function splitCanonical(value: string): { uri: string; version: string | undefined } {
  const bar = value.indexOf('|');
  return bar < 0 ? { uri: value, version: undefined } : { uri: value.slice(0, bar), version: value.slice(bar + 1) || undefined };
}
