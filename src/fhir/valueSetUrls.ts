// Implicit value sets (FHIR's `?fhir_vs` convention), per release:
//   https://www.meddra.org?fhir_vs              every code
//   https://www.meddra.org?fhir_vs=isa/{code}   a node and everything below it on any path
//   https://www.meddra.org?fhir_vs=level/{LEVEL} every code of one level (SOC … LLT; this
//                                                server's convention, MedDRA has no refsets)
//   https://www.meddra.org?fhir_vs=smq/{code}/narrow  an SMQ's narrow-scope terms (sub-SMQs included)
//   https://www.meddra.org?fhir_vs=smq/{code}/broad   its broad search: narrow and broad terms
//                                                (`smq/{code}` alone is the broad search)
import { isLevel, type Level } from '../domain/levels.ts';
import { CODE_SYNTAX } from '../domain/formats.ts';
import { clip } from '../domain/clientText.ts';
import { invalidParam, notFound } from './outcome.ts';
import { CANONICAL, isOurSystem, splitCanonical } from './system.ts';

export const ALL_CODES_VS = `${CANONICAL}?fhir_vs`;

export type SmqScopeName = 'narrow' | 'broad';

export type ImplicitValueSet =
  | { kind: 'all' }
  | { kind: 'isa'; code: string }
  | { kind: 'level'; level: Level }
  | { kind: 'smq'; code: string; scope: SmqScopeName };

/** The value set a URL names, and a version carried as `url|version`. */
export function parseValueSetUrl(value: string, field = 'url'): { vs: ImplicitValueSet; version: string | undefined } {
  const { uri, version } = splitCanonical(value);
  const q = uri.indexOf('?');
  const base = q < 0 ? uri : uri.slice(0, q);
  const query = q < 0 ? '' : uri.slice(q + 1);
  if (!isOurSystem(base) || !/^fhir_vs(=|$)/.test(query)) {
    throw notFound(`Value set '${clip(value)}' is not hosted here. Implicit value sets: ${ALL_CODES_VS}, ${ALL_CODES_VS}=isa/{code}, ${ALL_CODES_VS}=level/{SOC|HLGT|HLT|PT|LLT}, ${ALL_CODES_VS}=smq/{code}[/narrow|/broad].`);
  }
  const spec = decodeURIComponent(query.slice('fhir_vs'.length).replace(/^=/, ''));
  if (spec === '') return { vs: { kind: 'all' }, version };
  const [kind, arg = '', extra] = spec.split('/', 3) as [string, string?, string?];
  if (kind === 'isa') {
    if (!CODE_SYNTAX.test(arg)) throw invalidParam(field, `isa/{code} needs a code of 1 to 12 digits, not '${clip(arg)}'`);
    return { vs: { kind: 'isa', code: arg }, version };
  }
  if (kind === 'level') {
    const level = arg.toUpperCase();
    if (!isLevel(level)) throw invalidParam(field, `level/{level} needs one of SOC, HLGT, HLT, PT, LLT, not '${clip(arg)}'`);
    return { vs: { kind: 'level', level }, version };
  }
  if (kind === 'smq') {
    if (!CODE_SYNTAX.test(arg)) throw invalidParam(field, `smq/{code} needs an SMQ code of 1 to 12 digits, not '${clip(arg)}'`);
    const scope = (extra ?? 'broad').toLowerCase();
    if (scope !== 'narrow' && scope !== 'broad') throw invalidParam(field, `smq/{code}/{scope} needs narrow or broad, not '${clip(extra ?? '')}'`);
    return { vs: { kind: 'smq', code: arg, scope }, version };
  }
  throw notFound(`Implicit value set '${clip(spec)}' is not defined here; use isa/{code}, level/{level} or smq/{code}[/narrow|/broad].`);
}

export function valueSetUrl(vs: ImplicitValueSet): string {
  switch (vs.kind) {
    case 'all':
      return ALL_CODES_VS;
    case 'isa':
      return `${ALL_CODES_VS}=isa/${vs.code}`;
    case 'level':
      return `${ALL_CODES_VS}=level/${vs.level}`;
    case 'smq':
      return `${ALL_CODES_VS}=smq/${vs.code}/${vs.scope}`;
  }
}
