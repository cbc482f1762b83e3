// Before a file that uses a store template, the CLI bundle or Chromium runs its own hooks, it
// waits here until they are built (they build while the files that need none run: global.ts).
// The wait has a timeout of its own, so the first files of a run — the longest, sequencer.ts —
// do not spend their hooks' and tests' timeouts on it.
import { afterAll, beforeAll, inject } from 'vitest';
import { needsBuild, needsStore } from './needs-store.ts';
import { takeWaited, waitReady } from './ready.ts';
import { templatesReady } from './templates.ts';

// The second argument is the file's suite (the first: vitest's fixtures, none used).
beforeAll(async ({}, file) => {
  takeWaited(); // a wait of the worker's previous file is not this one's
  const filepath = (file as { filepath?: string }).filepath;
  if (!filepath) return;
  const store = needsStore(filepath);
  if (!store && !needsBuild(filepath)) return;
  // Nearly every file that starts a `terminology` process or a browser uses a store too; the
  // loader's test and the benchmark smoke tests start the bundle with none.
  await waitReady(inject('built'), 'the CLI bundle and Chromium');
  // The migrated template is the first built: a file using the demo one waits the rest of the way in
  // the helper that copies it (seconds, within its hook's timeout).
  if (store) await templatesReady(inject('templates'), 'migrated');
}, 600_000);

// For test-results/file-timeline.json and file-times.json (file-times.ts): the time a worker held the file
// idle, waiting for the run's setup — here, and in the file's own hooks (the demo template, waited for
// where it is copied).
afterAll(({}, file) => {
  (file as { meta: { setupWaitMs?: number } }).meta.setupWaitMs = takeWaited();
});
