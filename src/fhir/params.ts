// Operation parameters from either form a FHIR client sends them in: the query string
// (GET) or a Parameters resource (POST). Both become one bag of named values; getters
// check type, repetition and bounds and throw 400 OperationOutcomes naming the parameter.
import type { Coding, Parameters } from 'fhir/r4.js';
import { clip } from '../domain/clientText.ts';
import { FhirError, invalidParam } from './outcome.ts';

type Value = string | boolean | number | Coding;

/** Accepted on every interaction: JSON is the only format served. */
const GENERAL = ['_format', '_pretty'];
const JSON_FORMATS = ['json', 'application/json', 'application/fhir+json'];
/** Longest string a parameter may carry (codes, URLs, displays, filters are all far shorter). */
const MAX_VALUE = 1000;
/** Parameters per request: real operations take a handful. */
const MAX_PARAMS = 50;

export class Params {
  private constructor(private readonly values: Map<string, Value[]>) {}

  static fromQuery(url: URL): Params {
    const values = new Map<string, Value[]>();
    let n = 0;
    for (const [k, v] of url.searchParams) {
      if (++n > MAX_PARAMS) throw new FhirError(400, 'too-long', `At most ${MAX_PARAMS} parameters are accepted.`);
      values.set(k, [...(values.get(k) ?? []), v]);
    }
    return new Params(values);
  }

  /** A POST body: must be a Parameters resource whose parameters carry value[x]. */
  static fromBody(body: unknown, url: URL): Params {
    const p = body as Parameters | null;
    if (!p || typeof p !== 'object' || Array.isArray(p) || p.resourceType !== 'Parameters') {
      throw new FhirError(400, 'structure', "The body must be a FHIR Parameters resource ({\"resourceType\":\"Parameters\",\"parameter\":[…]}).");
    }
    if (p.parameter !== undefined && !Array.isArray(p.parameter)) throw new FhirError(400, 'structure', 'Parameters.parameter must be an array.');
    const params = p.parameter ?? [];
    if (params.length > MAX_PARAMS) throw new FhirError(400, 'too-long', `At most ${MAX_PARAMS} parameters are accepted.`);
    // _format may still come in the query string of a POST.
    const values = Params.fromQuery(url).values;
    for (const [i, item] of params.entries()) {
      if (!item || typeof item !== 'object' || typeof item.name !== 'string') throw new FhirError(400, 'structure', `Parameters.parameter[${i}] needs a name.`);
      const keys = Object.keys(item).filter((k) => k.startsWith('value'));
      if (keys.length !== 1) throw invalidParam(clip(item.name), 'needs exactly one value[x] (resources and parts are not accepted here)');
      const v = (item as unknown as Record<string, unknown>)[keys[0]!];
      if (!['string', 'boolean', 'number'].includes(typeof v) && !(keys[0] === 'valueCoding' && v && typeof v === 'object' && !Array.isArray(v))) {
        throw invalidParam(clip(item.name), `${keys[0]} has an unexpected type`);
      }
      values.set(item.name, [...(values.get(item.name) ?? []), v as Value]);
    }
    return new Params(values);
  }

  /** Refuses parameters the operation does not define (a typo must not be silently ignored). */
  only(allowed: readonly string[]): this {
    for (const name of this.values.keys()) {
      if (!allowed.includes(name) && !GENERAL.includes(name)) {
        throw invalidParam(clip(name), `is not a parameter of this interaction; accepted: ${allowed.join(', ')}`);
      }
    }
    const format = this.string('_format');
    if (format !== undefined && !JSON_FORMATS.includes(format.toLowerCase())) {
      throw new FhirError(406, 'not-supported', `_format '${clip(format)}' is not served: this server answers JSON only (application/fhir+json).`, '_format');
    }
    return this;
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** One string value; repeated or non-string is a 400. */
  string(name: string): string | undefined {
    const all = this.values.get(name);
    if (!all) return undefined;
    if (all.length > 1) throw invalidParam(name, 'may be given once');
    const v = all[0];
    if (typeof v !== 'string') throw invalidParam(name, 'must be a string');
    if (v.length > MAX_VALUE) throw invalidParam(name, `must be at most ${MAX_VALUE} characters`);
    return v;
  }

  required(name: string): string {
    const v = this.string(name);
    if (v === undefined || v === '') throw invalidParam(name, 'is required');
    return v;
  }

  /** Every value of a repeatable string parameter (also comma-separated, as FHIR search allows). */
  strings(name: string): string[] {
    const out: string[] = [];
    for (const v of this.values.get(name) ?? []) {
      if (typeof v !== 'string') throw invalidParam(name, 'must be a string');
      out.push(...v.split(',').map((s) => s.trim()).filter(Boolean));
    }
    if (out.length > MAX_PARAMS) throw invalidParam(name, `at most ${MAX_PARAMS} values`);
    return out;
  }

  boolean(name: string): boolean | undefined {
    const all = this.values.get(name);
    if (!all) return undefined;
    if (all.length > 1) throw invalidParam(name, 'may be given once');
    const v = all[0];
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    throw invalidParam(name, 'must be true or false');
  }

  integer(name: string, min: number, max: number): number | undefined {
    const all = this.values.get(name);
    if (!all) return undefined;
    if (all.length > 1) throw invalidParam(name, 'may be given once');
    const v = all[0];
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?[0-9]{1,10}$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) throw invalidParam(name, `must be an integer from ${min} to ${max}`);
    return n;
  }

  coding(name: string): Coding | undefined {
    const all = this.values.get(name);
    if (!all) return undefined;
    if (all.length > 1) throw invalidParam(name, 'may be given once');
    const v = all[0];
    if (!v || typeof v !== 'object') throw invalidParam(name, 'must be a Coding (POST a Parameters resource with valueCoding)');
    for (const k of ['system', 'code', 'version', 'display'] as const) {
      if (v[k] !== undefined && (typeof v[k] !== 'string' || v[k].length > MAX_VALUE)) throw invalidParam(`${name}.${k}`, 'must be a string');
    }
    return v;
  }
}
