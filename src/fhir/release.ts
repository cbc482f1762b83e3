// Which release a FHIR request reads: a version parameter (or `system|version`), else the
// X-Terminology-Version header, else the latest — the same precedence as every surface.
import type { ReleaseInfo } from '../domain/releases.ts';
import { clip } from '../domain/clientText.ts';
import type { RequestScope } from '../services/scope.ts';
import { notFound } from './outcome.ts';
import { CANONICAL, isOurSystem, splitCanonical } from './system.ts';

/** A system URI the client gave must be ours (either canonical); anything else is not hosted. */
export function checkSystem(system: string | undefined, field = 'system'): string | undefined {
  if (system === undefined) return undefined;
  const { uri, version } = splitCanonical(system);
  if (!isOurSystem(uri)) throw notFound(`Code system '${clip(system)}' (parameter '${field}') is not hosted here; this server hosts ${CANONICAL}.`);
  return version;
}

export function releaseFor(scope: RequestScope, version: string | undefined): Promise<ReleaseInfo> {
  return scope.selectRelease(version || undefined);
}
