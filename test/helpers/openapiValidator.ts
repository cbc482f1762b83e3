// Validates an HTTP answer against the service's own /openapi.json with ajv (JSON Schema
// 2020-12, the dialect of OpenAPI 3.1): the operation is found by method and path template,
// the schema by status and Content-Type. An answer the document does not describe (an
// undocumented status, a path or method it does not list) is a failure, except problem
// answers to methods a path does not serve (405) and to unknown paths (404), which must match
// the document's Problem schema. /graphql is not a REST path (schema.graphql describes it).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

export interface Answer {
  method: string;
  /** Request path with or without its query. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

export interface OpenApiValidator {
  /** Error messages (empty when the answer is valid), or null when the answer is not a REST answer (GraphQL). */
  check(a: Answer): string[] | null;
}

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

export function openApiValidator(doc: Doc): OpenApiValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();
  const compile = (pointer: string) => {
    let v = compiled.get(pointer);
    if (!v) compiled.set(pointer, (v = ajv.compile({ $ref: `openapi.json#${pointer}` })));
    return v;
  };
  const templates = Object.keys(doc.paths).map((t) => ({
    template: t,
    re: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const run = (pointer: string, body: unknown, what: string) => {
    const v = compile(pointer);
    if (v(body)) return [];
    return (v.errors ?? []).map((e) => `${what}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };
  return {
    check(a) {
      const path = a.path.split('?')[0]!;
      if (path === '/graphql') return null;
      if (a.status === 304 || a.body === null || a.body === undefined) return [];
      const media = (a.contentType ?? '').split(';')[0]!.trim();
      const method = a.method.toLowerCase();
      // A literal path (/fhir/CodeSystem/$lookup) before a template that also matches it.
      const found = templates.filter((t) => t.re.test(path)).sort((x, y) => Number(x.template.includes('{')) - Number(y.template.includes('{')));
      const op = found.map((t) => ({ t: t.template, op: doc.paths[t.template]![method] })).find((x) => x.op);
      if (!op) {
        if (media === 'application/problem+json' && (a.status === 404 || a.status === 405)) return run('/components/schemas/Problem', a.body, `${a.method} ${path} ${a.status}`);
        return [`${a.method} ${path}: no such operation in /openapi.json (status ${a.status})`];
      }
      const response = op.op!.responses?.[String(a.status)] ?? op.op!.responses?.default;
      if (!response) return [`${a.method} ${op.t}: status ${a.status} is not documented`];
      if (!response.content?.[media]) return [`${a.method} ${op.t} ${a.status}: Content-Type ${media} is not documented (${Object.keys(response.content ?? {}).join(', ')})`];
      const pointer = `/paths/${escapePointer(op.t)}/${method}/responses/${a.status in (op.op!.responses ?? {}) ? a.status : 'default'}/content/${escapePointer(media)}/schema`;
      return run(pointer, a.body, `${a.method} ${op.t} ${a.status}`);
    },
  };
}

const cache = new Map<string, Promise<OpenApiValidator>>();
/** The validator of the server at `base` (its /openapi.json read once). */
export function validatorFor(base: string): Promise<OpenApiValidator> {
  let v = cache.get(base);
  if (!v) {
    v = fetch(`${base}/openapi.json`).then(async (r) => openApiValidator((await r.json()) as Doc));
    cache.set(base, v);
  }
  return v;
}
