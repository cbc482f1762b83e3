// The order test files start in. Two workers take files from one queue, so a long file that
// starts last keeps one core busy alone at the end: within each project (one after the other, as
// vitest has them: a worker is reused only for files of its own project) the longest files start
// first — by this checkout's last run of the file (test-results/file-times.json: its work, not
// its wait for the run's setup, which vitest's own cache of durations counts), else
// test/setup/file-times.json (a fresh clone has no run of its own), else the file's size. The
// files that need no store template start before the others: the templates build in the
// background meanwhile (global.ts), and a file that needs one waits for it (wait-templates.ts),
// holding its worker.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { FILE_TIMES, fileKey } from './file-times.ts';
import { needsStore } from './needs-store.ts';

/** Checked-in times of a whole run (test-results/file-times.json of a run, copied): relative weights only. */
const KNOWN: Record<string, number> = JSON.parse(readFileSync(new URL('./file-times.json', import.meta.url), 'utf8'));

/** This checkout's last figures (file-times.ts), when it has run the suite. */
const LAST: Record<string, number> = existsSync(FILE_TIMES) ? JSON.parse(readFileSync(FILE_TIMES, 'utf8')) : {};

export default class LongestFirstSequencer extends BaseSequencer {
  /** Milliseconds the file is expected to take. */
  private expected(s: TestSpecification): number {
    const key = fileKey(s.project.name, s.moduleId);
    const last = LAST[key];
    if (last !== undefined) return last;
    // A file's time on PGlite stands in for its time on the PostgreSQL pass when that is not known.
    const known = KNOWN[key] ?? KNOWN[fileKey('pglite', s.moduleId)];
    if (known !== undefined) return known;
    // A new file: about what the known ones take per byte of test code.
    try {
      return statSync(s.moduleId).size;
    } catch {
      return 0;
    }
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = new Map(
      files.map((s) => [s, { group: s.project.config.sequence.groupOrder, project: s.project.name, store: needsStore(s.moduleId) ? 1 : 0, ms: this.expected(s) }]),
    );
    return [...files].sort((a, b) => {
      const x = key.get(a)!;
      const y = key.get(b)!;
      return x.group - y.group || x.project.localeCompare(y.project) || x.store - y.store || y.ms - x.ms;
    });
  }
}
