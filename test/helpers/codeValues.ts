// Codes are strings in every answer (issue 26): a code is an identifier — "10027787" — and a
// number in JSON invites arithmetic, loses leading zeros elsewhere and types differently in
// each client. numericCodes() walks an answer and names every numeric value under a key that
// names a code, wherever it is nested (REST bodies, GraphQL data and JSON scalars, FHIR).

/** Keys that hold a code or a list of codes: code, codes, ptCode, primarySocCode, socCode…, parents, children. */
const CODE_KEY = /^(code|codes|parents|children)$|[a-z](Code|Codes)$/;

/** JSON paths ($.a.b[0]) of the numbers under code keys, in document order. */
export function numericCodes(value: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown, path: string, underCodeKey: boolean) => {
    if (typeof v === 'number') {
      if (underCodeKey) found.push(`${path} = ${v}`);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${path}[${i}]`, underCodeKey));
    } else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) walk(item, `${path}.${k}`, CODE_KEY.test(k));
    }
  };
  walk(value, '$', false);
  return found;
}
