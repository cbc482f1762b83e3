// Import progress: a bar on a terminal, plain throttled lines otherwise (CI logs, pipes).
import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';
import type { ImportProgress } from '../importer/import.ts';

/** Where progress goes: the process's stderr, or a capture of it (src/cli/index.ts runCli). */
export type ProgressStream = { isTTY?: boolean; write(s: string): unknown };

export function progressReporter(label: string, stream: ProgressStream = process.stderr) {
  if (stream.isTTY) {
    // Loaded for a terminal only: every other command (and `serve`) starts without it.
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% | {value}/{total} rows | {phase}`, stream: stream as NodeJS.WriteStream, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(p: ImportProgress) {
        if (p.phase === 'write') {
          if (!started) bar.start(p.total, 0, { phase: p.phase });
          started = true;
          bar.update(p.done, { phase: p.phase });
        } else if (p.phase === 'done' && started) {
          bar.update(p.total, { phase: 'done' });
          bar.stop();
        } else if (!started) stream.write(`${label}: ${p.message}\n`);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastDecile = -1;
  return {
    update(p: ImportProgress) {
      if (p.phase === 'write') {
        const decile = p.total ? Math.floor((p.done / p.total) * 10) : 10;
        if (decile === lastDecile) return;
        lastDecile = decile;
      }
      stream.write(`${label}: ${p.message}\n`);
    },
    stop() {},
  };
}
