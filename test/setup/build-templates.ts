// The store templates of a run, built in a process of their own (test/setup/global.ts starts
// it): PGlite's initdb and the demo import are seconds of CPU on one thread, which in the test
// runner's main process would stall the workers that already run the files needing no store.
// Argument: JSON { embedded?: root, postgres?: { adminUrl, templates } }. Each part writes its
// `ready` file (`ok` or the error) when done, and each template its own as soon as it is built, so
// a test file waits only for what it uses.
import { existsSync } from 'node:fs';
import { writeReady } from './ready.ts';
import { buildEmbeddedTemplates, buildPostgresTemplates, embeddedTemplates, type Templates } from './templates.ts';

const job = JSON.parse(process.argv[2]!) as { embedded?: string; postgres?: { adminUrl: string; templates: Templates } };

/** Builds one part; its own `ready` file when all is built, and on a failure each template's not yet written too. */
async function part(t: Templates, build: () => Promise<void>): Promise<boolean> {
  try {
    await build();
    writeReady(t.ready!, 'ok');
    return true;
  } catch (e) {
    const why = (e as Error).stack ?? String(e);
    for (const f of [t.ready!, ...Object.values(t.readyOf ?? {})]) if (!existsSync(f)) writeReady(f, why);
    return false;
  }
}

// The embedded templates first: the PGlite pass's files wait for them from the start, while the
// PostgreSQL pass starts after every PGlite file has (sequencer.ts). Built at the same time, the
// PostgreSQL part took this thread's turns (and the server's CPU) from the embedded one.
const done = [
  job.embedded ? await part(embeddedTemplates(job.embedded), () => buildEmbeddedTemplates(job.embedded!)) : true,
  job.postgres ? await part(job.postgres.templates, () => buildPostgresTemplates(job.postgres!.adminUrl, job.postgres!.templates)) : true,
];
process.exitCode = done.every(Boolean) ? 0 : 1;
