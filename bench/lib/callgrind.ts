// A process run under valgrind's callgrind, counting the instructions it executes: a cost that does
// not depend on what else runs on the machine (bench/metrics.ts --instructions). Instrumentation
// starts off (the process runs at valgrind's uninstrumented speed through its start and warm-up) and
// is switched on, zeroed and dumped by `callgrind_control`, each dump one file per thread
// (`--separate-threads=yes`): thread 1 is Node's main thread (JavaScript, the event loop, the main
// thread's share of GC and compilation), the others V8's compiler and GC helpers and libuv's pool.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runToEnd, spawnTracked, type Tracked } from './procs.ts';

export interface ThreadInstructions {
  /** Instructions of Node's main thread. */
  main: number;
  /** Instructions of every thread. */
  all: number;
}

export interface UnderCallgrind {
  proc: Tracked;
  pid: number;
  /** Instrumentation on (a new translation of every block: slow for a while), counters zeroed, or a dump written. */
  control(action: 'instrument' | 'zero' | 'dump'): Promise<void>;
  /** The counts of the last dump (counters are zeroed by each dump). */
  lastDump(): ThreadInstructions;
}

const FLAGS = { instrument: ['-i', 'on'], zero: ['-z'], dump: ['-d'] } as const;

export function spawnUnderCallgrind(valgrind: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, outDir: string): UnderCallgrind {
  const proc = spawnTracked(valgrind, ['--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${path.join(outDir, 'cg.%p')}`, cmd, ...args], { env });
  const pid = proc.child.pid!;
  let dumps = 0;
  return {
    proc,
    pid,
    async control(action) {
      // vgdb finds the process by a file name holding $LOGNAME/$USER and $HOST as valgrind saw them (a server's
      // HOST is its bind address): callgrind_control runs with the process's own environment.
      const r = await runToEnd('callgrind_control', [...FLAGS[action], String(pid)], { env, timeoutMs: 300_000 });
      if (r.code !== 0 || !/OK/.test(r.stdout)) throw new Error(`callgrind_control ${action} failed (exit ${r.code}): ${r.stdout}${r.stderr}`);
      if (action === 'dump') dumps++;
    },
    lastDump() {
      const prefix = `cg.${pid}.${dumps}-`;
      const counts = readdirSync(outDir)
        .filter((f) => f.startsWith(prefix))
        .map((f) => ({ thread: Number(f.slice(prefix.length)), ir: Number(/^totals:\s+(\d+)/m.exec(readFileSync(path.join(outDir, f), 'utf8'))?.[1] ?? NaN) }));
      if (!counts.length) throw new Error(`no callgrind dump ${prefix}* in ${outDir}`);
      return { main: counts.find((c) => c.thread === 1)?.ir ?? NaN, all: counts.reduce((n, c) => n + c.ir, 0) };
    },
  };
}
