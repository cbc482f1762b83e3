// Zod issues → the documented `errors` map (field → messages), unknown parameters included.
import type { ZodError } from 'zod';
import { clip } from '../domain/clientText.ts';

export function zodErrors(error: ZodError): Record<string, string[]> {
  // A Map, not an object literal: parameter names such as __proto__ or toString are client input.
  const out = new Map<string, string[]>();
  const add = (k: string, m: string) => out.set(k, [...(out.get(k) ?? []), m]);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // The name is the client's: a 10 KB parameter name is not repeated back whole.
      for (const k of issue.keys) add(clip(k), `unknown parameter '${clip(k)}'`);
      continue;
    }
    const field = issue.path.length ? clip(issue.path.map(String).join('.')) : 'body';
    add(field, issue.message);
  }
  return Object.fromEntries(out);
}
