// Once per test run: the CLI bundle, Chromium and the store templates the test files copy (see
// templates.ts). Vitest calls this once per project, one project after the other; the first
// call starts every build at once (the bundle and the templates each in a child process), so
// the run waits for the slowest, not for their sum. None is waited for here: the test files
// that need none of them (the coding engine's, configuration, the architecture test, …) start at
// once and run while they build; a file that uses a store, a CLI or server process, or a
// browser waits for what it needs in a hook of its own (wait-templates.ts), and the sequencer
// (sequencer.ts) starts the others first. The bundle and Chromium are the quick part (a few
// seconds); the templates (PGlite's initdb and the demo import) the longest.
// The embedded templates are shared by the projects that run on PGlite, and removed when the
// last of them is done.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { projectRoot } from '../../src/paths.ts';
import buildBundle from './bundle.ts';
import { embeddedTemplates, postgresTemplates, removePostgresTemplates, type Templates } from './templates.ts';
import { writeReady } from './ready.ts';
import { CHILD_NODE_FLAGS } from './node-flags.ts';

interface TemplateBuild {
  root: string;
  embedded: Templates;
  postgres?: Templates;
  adminUrl?: string;
  /** The builder process has exited (each part's `ready` file written either way). */
  finished: Promise<void>;
}

const shared = globalThis as {
  __teTemplates?: TemplateBuild;
  __teEmbeddedUsers?: number;
  __tePostgresClaimed?: boolean;
  __teBundle?: Promise<void>;
  __teChromium?: Promise<unknown>;
  /** The `ready` file of the bundle and Chromium together (`ok`, or why not). */
  __teBuilt?: { ready: string; done: Promise<void> };
};

/**
 * Every temporary file of the run (test files' fixtures and stores, the processes they start)
 * under one directory of this run, removed when the run ends however it ends: test files create
 * theirs with os.tmpdir(), which reads TMPDIR, and the workers inherit this process's environment.
 */
function runTempDir(): void {
  if (process.env.TE_RUN_TMPDIR) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'te-run-'));
  process.env.TE_RUN_TMPDIR = dir;
  process.env.TMPDIR = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}

/**
 * TE_CPU_PROF=DIR: a V8 CPU profile of every Node process of the run, for
 * scripts/cpu-profile-summary.mjs (README › Testing › Profile). Each test file is profiled in its
 * worker (file-profile.ts); what starts after this (the template builder, CLI and server processes,
 * tsx scripts) preloads cpu-prof.mjs through NODE_OPTIONS, which the workers' children inherit.
 */
function profileProcesses(): void {
  const dir = process.env.TE_CPU_PROF;
  if (!dir || process.env.NODE_OPTIONS?.includes('cpu-prof.mjs')) return;
  mkdirSync(dir, { recursive: true });
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(path.join(projectRoot, 'test', 'setup', 'cpu-prof.mjs')).href}`.trim();
}

/** Starts test/setup/build-templates.ts; a builder that dies without a word still marks its parts failed. */
function buildTemplates(job: { embedded: string; postgres?: { adminUrl: string; templates: Templates } }, readyFiles: string[]): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CHILD_NODE_FLAGS, '--import', 'tsx', path.join(projectRoot, 'test', 'setup', 'build-templates.ts'), JSON.stringify(job)], {
      cwd: projectRoot,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
      process.stderr.write(d);
    });
    const end = (why: string) => {
      for (const f of readyFiles) if (!existsSync(f)) writeReady(f, `the template builder ${why}:\n${err.slice(-4000)}`);
      resolve();
    };
    child.on('error', (e) => end(`could not start (${e.message})`));
    child.on('close', (code, signal) => end(`exited (${signal ?? code})`));
  });
}

/** The projects of the PostgreSQL pass (`postgres` in npm test, `load-postgres` in test:bench). */
const onPostgres = (p: TestProject) => p.config.env?.TEST_DB === 'postgres';

function startBuilds(project: TestProject): void {
  runTempDir();
  profileProcesses();
  shared.__teBundle ??= buildBundle();
  // The browser tests' Chromium, extracted once into the run's directory before any browser test
  // starts (they wait for it): two browser test files extracting it at once ran a half-written
  // binary (ETXTBSY).
  shared.__teChromium ??= process.env.CHROMIUM_PATH ? Promise.resolve() : import('@sparticuz/chromium').then((m) => m.default.executablePath());
  if (!shared.__teTemplates) {
    const root = mkdtempSync(path.join(tmpdir(), 'te-templates-'));
    const embedded = embeddedTemplates(root);
    const adminUrl = process.env.TEST_DATABASE_URL;
    const postgres = adminUrl && project.vitest.projects.some(onPostgres) ? postgresTemplates(root, randomBytes(4).toString('hex')) : undefined;
    const job = { embedded: root, ...(postgres ? { postgres: { adminUrl: adminUrl!, templates: postgres } } : {}) };
    const finished = buildTemplates(job, [embedded, ...(postgres ? [postgres] : [])].flatMap((t) => [t.ready!, ...Object.values(t.readyOf!)]));
    shared.__teTemplates = { root, embedded, postgres, adminUrl, finished };
  }
  if (!shared.__teBuilt) {
    // Beside the templates: a directory of this run's own, whatever TMPDIR the run was given.
    const ready = path.join(shared.__teTemplates!.root, 'built.ready');
    // The files that use them wait for this file (wait-templates.ts): the failure is theirs to report.
    const done = Promise.all([shared.__teBundle, shared.__teChromium]).then(
      () => writeReady(ready, 'ok'),
      (e: Error) => writeReady(ready, e.stack ?? String(e)),
    );
    shared.__teBuilt = { ready, done };
  }
}

export default async function setup(project: TestProject) {
  startBuilds(project);
  project.provide('built', shared.__teBuilt!.ready);
  const t = shared.__teTemplates!;
  if (onPostgres(project) && t.postgres) {
    shared.__tePostgresClaimed = true;
    project.provide('templates', t.postgres);
    return async () => {
      await Promise.all([t.finished, shared.__teBuilt!.done]);
      await removePostgresTemplates(t.adminUrl!, t.postgres!);
    };
  }
  shared.__teEmbeddedUsers = (shared.__teEmbeddedUsers ?? 0) + 1;
  project.provide('templates', t.embedded);
  return async () => {
    if (--shared.__teEmbeddedUsers! > 0) return;
    await Promise.all([t.finished, shared.__teBuilt!.done]);
    rmSync(t.root, { recursive: true, force: true });
    // Built at the start but no PostgreSQL file ran (a filtered run): its templates go too.
    if (t.postgres && !shared.__tePostgresClaimed) await removePostgresTemplates(t.adminUrl!, t.postgres).catch(() => {});
  };
}
