// Which chunks of dist/chunks a build may delete. A server started from an earlier build imports
// some chunks only when first needed (tracing, an import, the engine): deleting them at once broke a
// running `npm start` on its next lazy import after an `npm run build`. So a chunk goes only once
// `keep` newer builds no longer reference it; the ledger (.builds.json) lists each build's files.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const LEDGER = '.builds.json';

/** Records this build's chunk files (names relative to `dir`) and removes those of no kept build. */
export function pruneChunks(dir, written, keep = 3) {
  let builds = [];
  try {
    builds = JSON.parse(readFileSync(path.join(dir, LEDGER), 'utf8')).filter((b) => Array.isArray(b));
  } catch {
    builds = []; // first build, or a ledger from nowhere: only this build's files are known
  }
  // The same build again (sources unchanged) is not a newer build: it must not push older ones out.
  const same = builds[0] && builds[0].length === written.length && written.every((f) => builds[0].includes(f));
  builds = [written, ...builds.slice(same ? 1 : 0)].slice(0, keep + 1);
  const kept = new Set(builds.flat());
  writeFileSync(path.join(dir, LEDGER), JSON.stringify(builds));
  const removed = [];
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    // `*.tmp`: a file another build (a bench script's, a test run's) is writing right now; it renames it itself.
    if (name === LEDGER || kept.has(name) || name.endsWith('.tmp')) continue;
    rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
