// Once per test run: the CLI bundle, then the store templates the test files copy (see
// templates.ts). Vitest calls this once per project, one project after the other; the first
// call starts every build at once (the bundle in a child process, PGlite on this thread,
// PostgreSQL waiting on its server), so the run waits for the slowest, not for their sum.
// The embedded templates are shared by the projects that run on PGlite, and removed when the
// last of them is done.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import buildBundle from './bundle.ts';
import { buildEmbeddedTemplates, buildPostgresTemplates, type Templates } from './templates.ts';

type Built = { templates: Templates; remove: () => void | Promise<void> };
const shared = globalThis as {
  __teEmbedded?: Promise<Built>;
  __teEmbeddedUsers?: number;
  __tePostgres?: Promise<Built>;
  __tePostgresClaimed?: boolean;
  __teBundle?: Promise<void>;
  __teChromium?: Promise<unknown>;
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

function startBuilds(project: TestProject): void {
  runTempDir();
  shared.__teBundle ??= buildBundle();
  // The browser tests' Chromium, extracted once into the run's directory before any worker
  // starts: two browser test files extracting it at once ran a half-written binary (ETXTBSY).
  shared.__teChromium ??= process.env.CHROMIUM_PATH ? Promise.resolve() : import('@sparticuz/chromium').then((m) => m.default.executablePath());
  shared.__teEmbedded ??= buildEmbeddedTemplates();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl && project.vitest.projects.some((p) => p.name === 'postgres')) shared.__tePostgres ??= buildPostgresTemplates(adminUrl);
  // Awaited below by the project that needs each; a failure surfaces there, not as unhandled.
  for (const p of [shared.__teBundle, shared.__teEmbedded, shared.__tePostgres, shared.__teChromium]) p?.catch(() => {});
}

export default async function setup(project: TestProject) {
  startBuilds(project);
  await shared.__teBundle;
  await shared.__teChromium;
  if (project.name === 'postgres' && shared.__tePostgres) {
    shared.__tePostgresClaimed = true;
    const built = await shared.__tePostgres;
    project.provide('templates', built.templates);
    return () => built.remove();
  }
  shared.__teEmbeddedUsers = (shared.__teEmbeddedUsers ?? 0) + 1;
  const built = await shared.__teEmbedded!;
  project.provide('templates', built.templates);
  return async () => {
    if (--shared.__teEmbeddedUsers! > 0) return;
    built.remove();
    // Built at the start but no PostgreSQL file ran (a filtered run): its templates go too.
    if (shared.__tePostgres && !shared.__tePostgresClaimed) await (await shared.__tePostgres.catch(() => null))?.remove();
  };
}
