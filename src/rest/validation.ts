// Zod issues → the documented `errors` map (field → messages), unknown parameters included.
import type { ZodError } from 'zod';

export function zodErrors(error: ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (k: string, m: string) => (out[k] ??= []).push(m);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) add(k, `unknown parameter '${k}'`);
      continue;
    }
    const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
    add(field, issue.message);
  }
  return out;
}
