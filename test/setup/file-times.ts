// Each test file's time in the last run, per project, written to test-results/file-times.json
// (the longest first) when a run ends: the source of the table in README › Testing and, copied
// to test/setup/file-times.json, of the order a fresh clone starts its files in (sequencer.ts).
// A file's time is its import, hooks and tests in its worker, not the time it waited for one nor
// for the run's templates, bundle or Chromium. A
// run of some files updates theirs and keeps the others'.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import type {} from './file-cpu.ts'; // TaskMeta's cpuMs
import { projectRoot } from '../../src/paths.ts';

export const FILE_TIMES = path.join(projectRoot, 'test-results', 'file-times.json');
/** Each file's CPU milliseconds (its worker and the processes it started: file-cpu.ts), same keys. */
export const FILE_CPU = path.join(projectRoot, 'test-results', 'file-cpu.json');

/**
 * When each file of the last run was handed to a worker and when it ended (ms since the run
 * started), and how long it waited for the store templates, bundle or Chromium (wait-templates.ts): the run's
 * critical path — a core idle at the start or the end — is read from these.
 */
export const FILE_TIMELINE = path.join(projectRoot, 'test-results', 'file-timeline.json');

/** `project:test/…` as sequencer.ts and test/setup/file-times.json key files. */
export const fileKey = (project: string, moduleId: string) => `${project}:${path.relative(projectRoot, moduleId)}`;

export default class FileTimesReporter implements Reporter {
  private runStart = Date.now();
  private ended = new Map<string, number>();

  onTestRunStart(): void {
    this.runStart = Date.now();
    this.ended.clear();
  }

  onTestModuleEnd(m: TestModule): void {
    this.ended.set(fileKey(m.project.name, m.moduleId), Date.now() - this.runStart);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const ran = modules.filter((m) => !['skipped', 'pending', 'queued'].includes(m.state()));
    if (ran.length === 0) return;
    const ended = Date.now() - this.runStart;
    const timeline = ran.map((m) => {
      const key = fileKey(m.project.name, m.moduleId);
      const d = m.diagnostic();
      const end = this.ended.get(key) ?? ended;
      const took = d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      return { file: key, start: Math.round(end - took), end, setupWaitMs: m.meta().setupWaitMs ?? 0 };
    });
    mkdirSync(path.dirname(FILE_TIMELINE), { recursive: true });
    const setupReadyMs = setupReady(this.runStart);
    writeFileSync(FILE_TIMELINE, `${JSON.stringify({ runMs: ended, setupReadyMs, files: timeline.sort((a, b) => a.start - b.start) }, null, 1)}\n`);
    // Without the wait for the run's setup (wait-templates.ts): the order of the next run
    // (sequencer.ts) is by the work in each file, not by where it happened to start.
    update(FILE_TIMES, ran, (m) => {
      const d = m.diagnostic();
      return d.prepareDuration + d.collectDuration + d.setupDuration + d.duration - (m.meta().setupWaitMs ?? 0);
    });
    update(FILE_CPU, ran, (m) => m.meta().cpuMs);
  }
}

/**
 * When each part of the run's setup (global.ts, in this process) was ready, in ms since the run
 * started: the time its `ready` file was written. A part not built in this run is left out.
 */
function setupReady(runStart: number): Record<string, number> {
  type Parts = { readyOf?: Record<string, string> };
  const shared = globalThis as { __teTemplates?: { embedded: Parts; postgres?: Parts }; __teBuilt?: { ready: string } };
  const files: Record<string, string | undefined> = { 'bundle and Chromium': shared.__teBuilt?.ready };
  for (const [db, t] of Object.entries({ embedded: shared.__teTemplates?.embedded, postgres: shared.__teTemplates?.postgres })) {
    for (const [name, file] of Object.entries(t?.readyOf ?? {})) files[`${db} ${name}`] = file;
  }
  const out: Record<string, number> = {};
  for (const [part, file] of Object.entries(files)) {
    if (file && existsSync(file)) out[part] = Math.round(statSync(file).mtimeMs - runStart);
  }
  return out;
}

/** Sets each module's figure in the JSON file at `file`, keeping the other files' figures; the largest first. */
function update(file: string, modules: TestModule[], figure: (m: TestModule) => number | undefined): void {
  const figures = new Map(Object.entries(existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>) : {}));
  for (const m of modules) {
    const value = figure(m);
    if (value !== undefined) figures.set(fileKey(m.project.name, m.moduleId), Math.round(value));
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(Object.fromEntries([...figures].sort((a, b) => b[1] - a[1])), null, 1)}\n`);
}
