// Generators of malformed requests shared by the in-process fuzz (test/http/fuzz.test.ts)
// and the shipped-product fuzz (test/shipped). Deterministic, so a failure can be replayed.

/** How many generated requests a fuzz run sends; FUZZ_ITERATIONS=50000 for a deep run. */
export const FUZZ_ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 1500);

// Deterministic PRNG (mulberry32).
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export const NASTY = [
  '', ' ', '0', '-1', '1e9', '1.5', 'NaN', 'Infinity', 'null', 'true', '[]', '{}', '%00', '%0d%0a', '..', '../..', '%2e%2e%2f',
  '\u0000', '\u202e', '\ud83d\ude00', 'é', "' OR 1=1 --", '"; DROP TABLE concept; --', '<script>alert(1)</script>', '${jndi:ldap://x}',
  '%', '%%', '%zz', '&', '=', '?', '#', '\\', '/', '10047700', '999999999', '1234567890123', 'x'.repeat(300), 'ä'.repeat(5000),
  '__proto__', 'constructor', 'toString', 'SOC', 'llt', 'added', 'ADDED', '5.0', '99.9', '4.03', '5.0.1',
];
const PARAMS = ['q', 'page', 'limit', 'level', 'soc', 'hlgt', 'hlt', 'llt', 'changeType', 'version', 'synonymsPage', 'synonymsLimit', 'against', 'fromVersionId', 'foo', '__proto__', ''];
const PATHS = [
  '/versions', '/codes', '/codes/{x}', '/codes/{x}/changes', '/versions/{x}/changes', '/codes/{x}/{x}', '/versions/{x}', '/graphql',
  '/openapi.json', '/docs', '/problems/{x}', '/{x}', '/codes/', '//codes', '/codes/../versions',
  '/identify', '/classify', '/labels/classify', '/identify', '/classify', '/labels/classify',
  '/impact', '/impact', '/codes/validate', '/codes/analyse',
  '/smqs', '/smqs/{x}', '/smqs/90500005', '/smqs/{x}/apply', '/smqs/90500005/apply', '/versions/{x}/smq-changes',
];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

export function pick<T>(r: () => number, a: readonly T[]): T {
  return a[Math.floor(r() * a.length)]!;
}

function encodeLoose(r: () => number, s: string): string {
  // Mostly encoded, sometimes raw-ish (but valid for a URL object).
  return r() < 0.8 ? encodeURIComponent(s) : s.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch)).replace(/[#?]/g, '');
}

export function graphqlBody(r: () => number): string {
  const choices = [
    () => '{"query": ',
    () => JSON.stringify({ query: 42 }),
    () => JSON.stringify({ query: '{ code(code: ' + JSON.stringify(pick(r, NASTY)) + ') { term } }' }),
    () => JSON.stringify({ query: '{ codes(first: ' + Math.floor(r() * 1e6 - 5e5) + ') { totalCount } }' }),
    () => JSON.stringify({ query: 'query($v: String) { version(version: $v) { version } }', variables: { v: pick(r, NASTY) } }),
    () => JSON.stringify({ query: 'query($v: Int) { versions(first: $v) { totalCount } }', variables: { v: pick(r, NASTY) } }),
    () => JSON.stringify({ query: '{'.repeat(500) + '}'.repeat(500) }),
    () => JSON.stringify({ query: '{ versions { totalCount } }', variables: 'not an object' }),
    () => JSON.stringify({ query: '{ __typename }', operationName: 123 }),
    () => JSON.stringify({ query: 'mutation { x }' }),
    () => JSON.stringify({ query: '{ code(code: "10017947") { ' + 'children { code { '.repeat(30) + 'code' + ' } }'.repeat(30) + ' } }' }),
    () => JSON.stringify({ query: '{ codes(q: ' + JSON.stringify('x'.repeat(5000)) + ') { totalCount } }' }),
    () => JSON.stringify([{ query: '{ __typename }' }, 5]),
    () => pick(r, NASTY),
    () => JSON.stringify({ query: '{ node(id: ' + JSON.stringify(pick(r, NASTY)) + ') { id } }' }),
    () => JSON.stringify({ query: '{ code(code: "10047700") { compare(against: ' + JSON.stringify(pick(r, NASTY)) + ') { differences } } }' }),
  ];
  return pick(r, choices)();
}

export function narrativeBody(r: () => number): string {
  const text = pick(r, NASTY);
  const choices = [
    () => JSON.stringify({ description: text }),
    () => JSON.stringify({ description: text.repeat(Math.floor(r() * 50) + 1), options: { page: pick(r, [0, 1, -1, 1.5, '2', null]), limit: pick(r, [0, 1, 100, 101, 'x']) } }),
    () => JSON.stringify({ description: 'The patient vomited; ' + text, assessments: { seriousness: { enabled: pick(r, [true, 'yes', 1]) }, severity: { enabled: true, systems: [pick(r, ['5-level', '3-level', '4-level', 5, null])] } } }),
    () => JSON.stringify({ description: text, maxResults: pick(r, [0, 1, 100, 101, -5, 'ten', 1e9]), minConfidence: pick(r, [-1, 0, 0.5, 1, 2, 'x']) }),
    () => JSON.stringify({ description: text, version: pick(r, NASTY), assessments: { terminology: { version: pick(r, NASTY), enabled: pick(r, [true, false, 'no']) } } }),
    () => JSON.stringify({ description: { nested: text } }),
    () => JSON.stringify([text]),
    () => '{"description": ' + JSON.stringify(text),
    () => JSON.stringify({ description: 'x', [pick(r, ['__proto__', 'constructor', 'extra'])]: 1 }),
    () => 'ADVERSE REACTIONS\n' + text,
  ];
  return pick(r, choices)();
}

/** Bodies of the safety-data workflows: coded rows (JSON or CSV) and coded lists. */
export function codedRowsBody(r: () => number): string {
  const text = pick(r, NASTY);
  const choices = [
    () => JSON.stringify({ from: pick(r, NASTY), to: pick(r, NASTY), rows: [{ rowId: text, code: pick(r, NASTY), term: text }] }),
    () => JSON.stringify({ from: '5.0', to: '5.0.1', rows: [{ rowId: text, code: pick(r, [...NASTY, 10047848, -1, 1e300, null]), term: text }, text, null], validateOnly: pick(r, [true, 'x', 1]) }),
    () => JSON.stringify({ codes: [text, { code: pick(r, NASTY), term: text }, null], version: pick(r, NASTY), allPaths: pick(r, [true, 'x']) }),
    () => `rowId,code,term\n${text},${pick(r, NASTY)},${text}\n`,
    () => `"${text}`,
  ];
  return pick(r, choices)();
}

export function fuzzRequest(r: () => number, KEY: string): { url: string; init: RequestInit } {
  const path = pick(r, PATHS).replaceAll('{x}', () => encodeLoose(r, pick(r, NASTY)) || 'x');
  const qs = new URLSearchParams();
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) qs.append(pick(r, PARAMS), pick(r, NASTY));
  const method = pick(r, METHODS);
  const headers: Record<string, string> = {};
  if (r() < 0.2) headers['X-API-Version'] = pick(r, ['1', '2', '', ' 1 ', 'abc', '1.0']);
  if (r() < 0.2) headers['X-Terminology-Version'] = pick(r, ['5.0', '99', '', 'x'.repeat(200), '4.03']);
  if (r() < 0.1) headers['If-None-Match'] = pick(r, ['*', '"x"', 'W/"abc"', '']);
  let body: string | undefined;
  if (r() < 0.5) headers['X-API-Key'] = pick(r, [KEY, KEY, 'sk-', 'sk-' + 'x'.repeat(500), '', 'Bearer x']);
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const coded = path === '/impact' || path === '/codes/validate' || path === '/codes/analyse' || path.endsWith('/apply');
    body = path.startsWith('/graphql') ? graphqlBody(r) : coded ? codedRowsBody(r) : narrativeBody(r);
    headers['content-type'] = pick(r, ['application/json', 'application/json', 'text/plain', 'application/graphql', 'application/x-www-form-urlencoded', 'multipart/form-data', ...(coded ? ['text/csv', 'text/csv'] : [])]);
  }
  const query = qs.toString();
  return { url: `${path}${query ? `?${query}` : ''}`, init: { method, headers, body } };
}

export const STACK = /\bat [\w.<>]+ \(|\.ts:\d+:\d+|node_modules\/|Error: .*\n\s+at /;


/** Problems with one answer: a 5xx, a stack trace, or an error without the documented code. */
export function answerProblems(label: string, status: number, contentType: string, text: string, method: string | undefined, isDocs = false): string[] {
  const out: string[] = [];
  if (status >= 500) out.push(`${label}: ${status} ${text.slice(0, 200)}`);
  if (STACK.test(text) && !isDocs) out.push(`${label}: stack trace in body`);
  if (status >= 400 && contentType.includes('json') && method !== 'HEAD') {
    const body = JSON.parse(text);
    const err = body.code ? body : body.errors?.[0]?.extensions;
    if (!err?.code) out.push(`${label}: error without code: ${text.slice(0, 200)}`);
  }
  return out;
}
