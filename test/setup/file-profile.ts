// TE_CPU_PROF=DIR (README › Testing › Profile; a whole run profiled: docs/testing.md): a V8 CPU profile of each test file in its worker
// (its import, hooks and tests), DIR/file.<project>.<path>.cpuprofile, for
// scripts/cpu-profile-summary.mjs. The processes a file starts are profiled by cpu-prof.mjs.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { afterAll } from 'vitest';

const dir = process.env.TE_CPU_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  afterAll(async ({}, file) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const f = file as unknown as { filepath: string; projectName?: string };
    const name = `${f.projectName ?? ''}.${path.relative(process.cwd(), f.filepath)}`.replace(/[^\w.-]+/g, '_');
    writeFileSync(path.join(dir, `file.${name}.cpuprofile`), JSON.stringify(profile));
  });
}
