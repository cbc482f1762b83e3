// The order test files start in: vitest's own (projects one after the other, longest or
// largest first), except that the files that need no store template start first. The templates
// build in the background while these run (global.ts); a file that needs one waits for it
// (templatesReady), holding its worker, so it goes after them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What gives a file a store: the helpers that copy a template, the browser session, templates.ts itself. */
const STORE_USERS = /\/(?:helpers\/(?:db|app|cli|server|shippedWithKey)|web\/session|setup\/templates)\.ts$/;
const RELATIVE_IMPORT = /\bfrom\s+'(\.{1,2}\/[^']+\.ts)'/g;

function needsStore(file: string, seen = new Set<string>()): boolean {
  if (STORE_USERS.test(file)) return true;
  if (seen.has(file) || !file.includes(`${path.sep}test${path.sep}`)) return false;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return true; // unknown: keep vitest's place for it
  }
  for (const m of text.matchAll(RELATIVE_IMPORT)) if (needsStore(path.resolve(path.dirname(file), m[1]!), seen)) return true;
  return false;
}

export default class StoreLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = sorted[0]?.project;
    // Only the first project's files are moved: the others start after it anyway.
    const early = sorted.filter((s) => s.project === first && !needsStore(s.moduleId));
    return [...early, ...sorted.filter((s) => !early.includes(s))];
  }
}
