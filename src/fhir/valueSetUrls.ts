// Implicit value sets (FHIR's `?fhir_vs` convention), per release:
//   https://www.meddra.org?fhir_vs              every code
//   https://www.meddra.org?fhir_vs=isa/{code}   a node and everything below it on any path
//   https://www.meddra.org?fhir_vs=level/{LEVEL} every code of one level (SOC … LLT; this
//                                                server's convention, MedDRA has no refsets)
// SMQ value sets (one per SMQ and scope) are a later issue.
import { isLevel, type Level } from '../domain/levels.ts';
import { CODE_SYNTAX } from '../domain/formats.ts';
import { clip } from '../domain/clientText.ts';
import { invalidParam, notFound } from './outcome.ts';
import { CANONICAL, isOurSystem, splitCanonical } from './system.ts';

export const ALL_CODES_VS = `${CANONICAL}?fhir_vs`;

export type ImplicitValueSet = { kind: 'all' } | { kind: 'isa'; code: string } | { kind: 'level'; level: Level };

/** The value set a URL names, and a version carried as `url|version`. */
export function parseValueSetUrl(value: string, field = 'url'): { vs: ImplicitValueSet; version: string | undefined } {
  const { uri, version } = splitCanonical(value);
  const q = uri.indexOf('?');
  const base = q < 0 ? uri : uri.slice(0, q);
  const query = q < 0 ? '' : uri.slice(q + 1);
  if (!isOurSystem(base) || !/^fhir_vs(=|$)/.test(query)) {
    throw notFound(`Value set '${clip(value)}' is not hosted here. Implicit value sets: ${ALL_CODES_VS}, ${ALL_CODES_VS}=isa/{code}, ${ALL_CODES_VS}=level/{SOC|HLGT|HLT|PT|LLT}.`);
  }
  const spec = decodeURIComponent(query.slice('fhir_vs'.length).replace(/^=/, ''));
  if (spec === '') return { vs: { kind: 'all' }, version };
  const [kind, arg = ''] = spec.split('/', 2) as [string, string?];
  if (kind === 'isa') {
    if (!CODE_SYNTAX.test(arg)) throw invalidParam(field, `isa/{code} needs a code of 1 to 12 digits, not '${clip(arg)}'`);
    return { vs: { kind: 'isa', code: arg }, version };
  }
  if (kind === 'level') {
    const level = arg.toUpperCase();
    if (!isLevel(level)) throw invalidParam(field, `level/{level} needs one of SOC, HLGT, HLT, PT, LLT, not '${clip(arg)}'`);
    return { vs: { kind: 'level', level }, version };
  }
  throw notFound(`Implicit value set '${clip(spec)}' is not defined here; use isa/{code} or level/{level}.`);
}

export function valueSetUrl(vs: ImplicitValueSet): string {
  return vs.kind === 'all' ? ALL_CODES_VS : vs.kind === 'isa' ? `${ALL_CODES_VS}=isa/${vs.code}` : `${ALL_CODES_VS}=level/${vs.level}`;
}
