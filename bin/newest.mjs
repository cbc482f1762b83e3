// The newest modification time under a file or a folder (0 when missing): a bundle newer than
// every one of its sources is fresh. bin/terminology.mjs decides with it whether to run the
// bundle; the test run's setup (test/setup/bundle.ts) whether to build it again.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const e of readdirSync(p)) t = Math.max(t, newestMtime(path.join(p, e)));
  return t;
}
