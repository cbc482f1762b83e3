// The code, system and version of an operation, given as separate parameters or as one
// Coding, and the release they select (an instance-level call fixes the release).
import type { ReleaseInfo } from '../domain/releases.ts';
import type { RequestScope } from '../services/scope.ts';
import { clip } from '../domain/clientText.ts';
import { FhirError, invalidParam } from './outcome.ts';
import type { Params } from './params.ts';
import { checkSystem, releaseFor } from './release.ts';

export interface Coded {
  code: string;
  display: string | undefined;
  release: ReleaseInfo;
  /** The version the client named (parameter, coding or `system|version`), if any. */
  version: string | undefined;
}

export interface CodedNames {
  code: string;
  system: string;
  version: string;
  display?: string;
  coding: string;
  /** True when the system may be left out (FHIR requires it with a bare code in $lookup). */
  systemOptional?: boolean;
}

export async function codedInput(scope: RequestScope, p: Params, n: CodedNames, fixed?: ReleaseInfo): Promise<Coded> {
  const coding = p.coding(n.coding);
  const bare = p.string(n.code);
  if (coding && bare !== undefined) throw invalidParam(n.coding, `give either ${n.code} or ${n.coding}, not both`);
  const code = coding ? coding.code : bare;
  if (code === undefined || code === '') throw invalidParam(n.code, 'is required');
  const system = coding ? coding.system : p.string(n.system);
  if (system === undefined && !n.systemOptional && !fixed) throw invalidParam(n.system, `is required with ${n.code}`);
  const fromSystem = checkSystem(system, coding ? `${n.coding}.system` : n.system);
  const version = (coding ? coding.version : undefined) ?? p.string(n.version) ?? fromSystem;
  const display = coding ? coding.display : n.display ? p.string(n.display) : undefined;
  if (fixed) {
    if (version !== undefined && version !== fixed.version) {
      throw new FhirError(400, 'invalid', `Version '${clip(version)}' contradicts the CodeSystem instance (release ${fixed.version}).`, n.version);
    }
    return { code, display, release: fixed, version };
  }
  return { code, display, release: await releaseFor(scope, version), version };
}
