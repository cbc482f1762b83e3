// Each test file's time in the last run, per project, written to test-results/file-times.json
// (the longest first) when a run ends: the source of the table in README › Testing and, copied
// to test/setup/file-times.json, of the order a fresh clone starts its files in (sequencer.ts).
// A file's time is its import, hooks and tests in its worker, not the time it waited for one. A
// run of some files updates theirs and keeps the others'.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { projectRoot } from '../../src/paths.ts';

export const FILE_TIMES = path.join(projectRoot, 'test-results', 'file-times.json');

/** `project:test/…` as sequencer.ts and test/setup/file-times.json key files. */
export const fileKey = (project: string, moduleId: string) => `${project}:${path.relative(projectRoot, moduleId)}`;

export default class FileTimesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    const previous = existsSync(FILE_TIMES) ? (JSON.parse(readFileSync(FILE_TIMES, 'utf8')) as Record<string, number>) : {};
    const times = new Map(Object.entries(previous));
    for (const m of modules) {
      const d = m.diagnostic();
      if (m.state() === 'skipped' || m.state() === 'pending' || m.state() === 'queued') continue;
      times.set(fileKey(m.project.name, m.moduleId), Math.round(d.prepareDuration + d.collectDuration + d.setupDuration + d.duration));
    }
    mkdirSync(path.dirname(FILE_TIMES), { recursive: true });
    writeFileSync(FILE_TIMES, `${JSON.stringify(Object.fromEntries([...times].sort((a, b) => b[1] - a[1])), null, 1)}\n`);
  }
}
