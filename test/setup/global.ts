// Once per project of a test run: the CLI bundle, then the store templates that project's
// test files copy (see templates.ts).
import type { TestProject } from 'vitest/node';
import buildBundle from './bundle.ts';
import { buildEmbeddedTemplates, buildPostgresTemplates } from './templates.ts';

export default async function setup(project: TestProject) {
  buildBundle();
  const adminUrl = process.env.TEST_DATABASE_URL;
  const built = project.name === 'postgres' && adminUrl ? await buildPostgresTemplates(adminUrl) : await buildEmbeddedTemplates();
  project.provide('templates', built.templates);
  return () => built.remove();
}
