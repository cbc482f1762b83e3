// The store templates of a run, built in a process of their own (test/setup/global.ts starts
// it): PGlite's initdb and the demo import are seconds of CPU on one thread, which in the test
// runner's main process would stall the workers that already run the files needing no store.
// Argument: JSON { embedded?: root, postgres?: { adminUrl, templates } }. Each part writes its
// `ready` file (`ok` or the error) when done, so a test file waits only for what it uses.
import { writeFileSync } from 'node:fs';
import { buildEmbeddedTemplates, buildPostgresTemplates, embeddedTemplates, type Templates } from './templates.ts';

const job = JSON.parse(process.argv[2]!) as { embedded?: string; postgres?: { adminUrl: string; templates: Templates } };

async function part(ready: string, build: () => Promise<void>): Promise<boolean> {
  try {
    await build();
    writeFileSync(ready, 'ok');
    return true;
  } catch (e) {
    writeFileSync(ready, (e as Error).stack ?? String(e));
    return false;
  }
}

const done = await Promise.all([
  job.embedded ? part(embeddedTemplates(job.embedded).ready!, () => buildEmbeddedTemplates(job.embedded!)) : true,
  job.postgres ? part(job.postgres.templates.ready!, () => buildPostgresTemplates(job.postgres!.adminUrl, job.postgres!.templates)) : true,
]);
process.exitCode = done.every(Boolean) ? 0 : 1;
