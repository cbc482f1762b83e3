// Before a file that uses a store template runs its own hooks, it waits here until the run's
// templates are built (they build while the files that need none run: global.ts). The wait has a
// timeout of its own, so the first files of a run — the longest, sequencer.ts — do not spend
// their hooks' and tests' timeouts on it.
import { beforeAll, inject } from 'vitest';
import { needsStore } from './needs-store.ts';
import { templatesReady } from './templates.ts';

// The second argument is the file's suite (the first: vitest's fixtures, none used).
beforeAll(async ({}, file) => {
  const filepath = (file as { filepath?: string }).filepath;
  if (!filepath || !needsStore(filepath)) return;
  const t0 = Date.now();
  await templatesReady(inject('templates'));
  // For test-results/file-timeline.json (file-times.ts): time a worker held a file idle.
  (file as { meta: { templateWaitMs?: number } }).meta.templateWaitMs = Date.now() - t0;
}, 600_000);
