// Whether a test file uses a store template: it imports, directly or through other test modules,
// one of the helpers that copy one (or the browser session, or templates.ts itself).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const STORE_USERS = /\/(?:helpers\/(?:db|app|cli|server|shippedWithKey)|web\/session|setup\/templates)\.ts$/;
const RELATIVE_IMPORT = /\bfrom\s+'(\.{1,2}\/[^']+\.ts)'/g;

export function needsStore(file: string, seen = new Set<string>()): boolean {
  if (STORE_USERS.test(file)) return true;
  if (seen.has(file) || !file.includes(`${path.sep}test${path.sep}`)) return false;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return true; // unknown: as if it did
  }
  for (const m of text.matchAll(RELATIVE_IMPORT)) if (needsStore(path.resolve(path.dirname(file), m[1]!), seen)) return true;
  return false;
}

/**
 * Whether a test file itself runs the CLI bundle, a build script or the benchmark script (which
 * starts `terminology` processes), with or without a store template.
 */
export function needsBuild(file: string): boolean {
  try {
    return /bin\/terminology|scripts\/build|bench\/run\.ts/.test(readFileSync(file, 'utf8'));
  } catch {
    return true;
  }
}
