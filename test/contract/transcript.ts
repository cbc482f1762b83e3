// One HTTP exchange as a readable transcript, for the contract tests' inline snapshots:
//
//   GET /codes/10027787                       request line, then the request headers sent
//   X-Terminology-Version: 5.0
//                                             blank line, then the request body (if any)
//   HTTP/1.1 200 OK                           status line
//   Content-Type: application/json           the response headers worth documenting (below)
//   …
//   { "code": "10027787", … }                 the response body, JSON in the order sent
//
// Bodies are printed as JSON with the keys in the order the service sent them; an object or
// array that fits on one line (WIDTH) is printed on one line. A GraphQL request body
// ({query, variables}) is shown as its query text as written, then its variables.
//
// Response headers: Content-Type, Cache-Control, ETag, X-Terminology-Version and X-Request-Id are
// always listed, `(none)` when not sent; Content-Language, X-AI-Notice, WWW-Authenticate, Allow and Retry-After only
// when sent. Everything else (security headers, CORS, Date, Content-Length) is left out.
//
// The normaliser masks only what differs from one run to the next, and keeps its shape visible:
//   - the request id (a fresh UUID per request): `<request-id>` wherever it appears, header and
//     body alike, so a body whose `requestId` differed from the header would show the raw value;
//   - the API key (created per test run): `sk-<key>` in the request headers;
//   - the ETag value (a hash of the body, which the snapshot already shows in full): `"<etag>"`,
//     keeping its presence and whether it is weak (`W/`); the same in an If-None-Match request header.
// Nothing else is masked: release data, confidences and messages are deterministic.
//
// Every answer is also validated against the server's own /openapi.json (ajv, JSON Schema
// 2020-12; test/helpers/openapiValidator.ts): a transcript whose answer the document rejects fails.
// And every code in it is a string: a number under a key naming a code (code, ptCode, parents…,
// at any depth, JSON scalars included) fails the transcript (test/helpers/codeValues.ts).

import { numericCodes } from '../helpers/codeValues.ts';
import { validatorFor } from '../helpers/openapiValidator.ts';

const WIDTH = 120;

const ALWAYS = ['Content-Type', 'Cache-Control', 'ETag', 'X-Terminology-Version', 'X-Request-Id'];
const WHEN_SENT = ['Content-Language', 'X-AI-Notice', 'WWW-Authenticate', 'Allow', 'Retry-After'];

export interface ContractRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  /** A JSON body; for POST /graphql, `{ query, variables }`. */
  body?: unknown;
}

export interface Exchange {
  /** The transcript (request and response), normalised: what the snapshot shows. */
  text: string;
  status: number;
  headers: Headers;
  body: any;
}

/** Sends the request over HTTP to `base` and returns the normalised transcript. */
export async function exchange(base: string, req: ContractRequest): Promise<Exchange> {
  const method = req.method ?? (req.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...req.headers };
  const res = await fetch(`${base}${req.path}`, { method, headers, body: req.body === undefined ? undefined : JSON.stringify(req.body) });
  const raw = await res.text();
  const body = raw ? JSON.parse(raw) : null;

  const lines = [`${method} ${req.path}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${maskRequestHeader(name, value)}`);
  if (req.body !== undefined) lines.push('', ...requestBody(req).split('\n'));
  lines.push('', `HTTP/1.1 ${res.status} ${res.statusText}`);
  for (const name of ALWAYS) lines.push(`${name}: ${maskResponseHeader(name, res.headers.get(name))}`);
  for (const name of WHEN_SENT) if (res.headers.has(name)) lines.push(`${name}: ${res.headers.get(name)}`);
  if (body !== null) lines.push('', json(body));

  const invalid = (await validatorFor(base)).check({ method, path: req.path, status: res.status, contentType: res.headers.get('content-type'), body });
  if (invalid?.length) throw new Error(`The answer does not match /openapi.json:\n${invalid.join('\n')}`);
  const numeric = numericCodes(body);
  if (numeric.length) throw new Error(`Codes must be strings in every answer; numbers found at:\n${numeric.join('\n')}`);

  let text = lines.join('\n');
  const requestId = res.headers.get('x-request-id');
  if (requestId) text = text.replaceAll(requestId, '<request-id>');
  return { text, status: res.status, headers: res.headers, body };
}

function maskRequestHeader(name: string, value: string): string {
  const n = name.toLowerCase();
  if (n === 'x-api-key' && value.startsWith('sk-')) return 'sk-<key>';
  if (n === 'if-none-match') return value.startsWith('W/') ? 'W/"<etag>"' : '"<etag>"';
  return value;
}

function maskResponseHeader(name: string, value: string | null): string {
  if (value === null) return '(none)';
  if (name === 'ETag') return value.startsWith('W/') ? 'W/"<etag>"' : '"<etag>"';
  return value;
}

function requestBody(req: ContractRequest): string {
  const b = req.body as { query?: unknown; variables?: unknown };
  if (req.path.startsWith('/graphql') && typeof b?.query === 'string') {
    return [dedent(b.query), ...(b.variables === undefined ? [] : [`variables: ${json(b.variables)}`])].join('\n');
  }
  return json(req.body);
}

function dedent(text: string): string {
  const lines = text.replace(/^\s*\n/, '').trimEnd().split('\n');
  const margin = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(margin)).join('\n');
}

/** JSON, key order kept; objects and arrays that fit within WIDTH on one line. */
export function json(value: unknown, indent = '', column = 0): string {
  const flat = inline(value);
  if (value === null || typeof value !== 'object' || column + flat.length <= WIDTH) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((v, i) => `${inner}${json(v, inner, inner.length)}${i < value.length - 1 ? ',' : ''}`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const body = entries.map(([k, v], i) => {
    const prefix = `${inner}${JSON.stringify(k)}: `;
    return `${prefix}${json(v, inner, prefix.length + 1)}${i < entries.length - 1 ? ',' : ''}`;
  });
  return `{\n${body.join('\n')}\n${indent}}`;
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return value.length ? `[${value.map(inline).join(', ')}]` : '[]';
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length ? `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}
