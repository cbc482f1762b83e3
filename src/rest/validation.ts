// Zod issues → the documented `errors` map (field → messages), unknown parameters included.
import type { ZodError } from 'zod';

export function zodErrors(error: ZodError): Record<string, string[]> {
  // A Map, not an object literal: parameter names such as __proto__ or toString are client input.
  const out = new Map<string, string[]>();
  const add = (k: string, m: string) => out.set(k, [...(out.get(k) ?? []), m]);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) add(k, `unknown parameter '${k}'`);
      continue;
    }
    const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
    add(field, issue.message);
  }
  return Object.fromEntries(out);
}
