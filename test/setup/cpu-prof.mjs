// Preloaded into every Node process a profiled run starts (TE_CPU_PROF=DIR npm test; global.ts puts
// it in NODE_OPTIONS, which refuses --cpu-prof itself): a V8 CPU profile of the process's main
// thread, written to DIR at exit (servers exit on SIGTERM by themselves). Vitest's workers are
// profiled per test file instead (file-profile.ts): a worker's whole-run profile is hundreds of MB,
// and vitest kills a worker that takes seconds to exit.
// Summarise with `node scripts/cpu-profile-summary.mjs DIR`.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const dir = process.env.TE_CPU_PROF;
if (dir && !process.argv[1]?.includes('vitest')) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  let written = false;
  process.on('exit', () => {
    if (written) return;
    written = true;
    // Same-thread inspector sessions answer synchronously, so this runs before the process ends.
    session.post('Profiler.stop', (err, r) => {
      if (err || !r) return;
      const what = (process.argv[1] ?? 'node').replace(/^.*\//, '').replace(/[^\w.-]+/g, '_');
      try {
        writeFileSync(`${dir}/${what}.${process.pid}.cpuprofile`, JSON.stringify(r.profile));
      } catch {
        // A profile is a measurement aid: never a reason for a process to fail.
      }
    });
  });
}
