// Once per test run: the CLI bundle, then the store templates the test files copy (see
// templates.ts). Vitest calls this once per project; the embedded templates are shared by
// the projects that run on PGlite, and removed when the last of them is done.
import type { TestProject } from 'vitest/node';
import buildBundle from './bundle.ts';
import { buildEmbeddedTemplates, buildPostgresTemplates, type Templates } from './templates.ts';

type Built = { templates: Templates; remove: () => void | Promise<void> };
const shared = globalThis as { __teEmbedded?: Promise<Built>; __teEmbeddedUsers?: number; __teBundle?: boolean };

export default async function setup(project: TestProject) {
  if (!shared.__teBundle) {
    buildBundle();
    shared.__teBundle = true;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (project.name === 'postgres' && adminUrl) {
    const built = await buildPostgresTemplates(adminUrl);
    project.provide('templates', built.templates);
    return () => built.remove();
  }
  shared.__teEmbedded ??= buildEmbeddedTemplates();
  shared.__teEmbeddedUsers = (shared.__teEmbeddedUsers ?? 0) + 1;
  const built = await shared.__teEmbedded;
  project.provide('templates', built.templates);
  return () => {
    if (--shared.__teEmbeddedUsers! === 0) built.remove();
  };
}
