// Preloaded into a server process by a benchmark (`node --import ./bench/lib/turnMonitor.mjs
// bin/terminology.mjs serve`, TURN_MONITOR_OUT=<file>): the bundle runs as shipped, and this
// records its event loop's long turns from inside. Every gap between two 1 ms timer callbacks
// longer than TURN_MONITOR_MIN_MS (default 5) is kept with what it cost: the serving thread's
// time on a CPU and on the run queue across it (Linux schedstat: on a loaded host a long gap is
// often the kernel's wait, not the server's work) and the process's CPU (every thread: GC helpers
// and compilers included). Written as JSON to TURN_MONITOR_OUT on SIGUSR2 (the benchmark asks) and
// at exit. Times are µs of the monotonic clock (process.hrtime), which other processes on the host
// read too, so the benchmark can pick the turns within its own windows. Plain JavaScript: the
// shipped server loads no TypeScript loader.
import { readFileSync, writeFileSync } from 'node:fs';

const out = process.env.TURN_MONITOR_OUT;
// The wrapper of an older Node (bin/heap-limit.mjs) runs no server: only the process it starts is watched.
const watched = out && !(process.argv[2] === 'serve' && process.env.TERMINOLOGY_HEAP_WRAPPED !== '1' && !process.execArgv.some((a) => a.startsWith('--max-old-space-size')));
if (watched) {
  const minMs = Number(process.env.TURN_MONITOR_MIN_MS ?? 5);
  const statPath = `/proc/${process.pid}/task/${process.pid}/schedstat`;
  const thread = () => {
    try {
      const [run, wait] = readFileSync(statPath, 'utf8').split(' ').map(Number);
      return { run: run / 1e6, wait: wait / 1e6 };
    } catch {
      return { run: NaN, wait: 0 };
    }
  };
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const now = () => Number(process.hrtime.bigint() / 1000n);
  const turns = [];
  let last = { at: now(), cpu: cpu(), ...thread() };
  const tick = setInterval(() => {
    const at = now();
    const gap = (at - last.at) / 1000;
    if (gap >= minMs) {
      const c = cpu();
      const t = thread();
      turns.push({ from: last.at, to: at, wallMs: gap, runMs: t.run - last.run, waitMs: t.wait - last.wait, cpuMs: c - last.cpu });
      last = { at, cpu: c, ...t };
    } else last = { at, cpu: cpu(), ...thread() };
  }, 1);
  tick.unref();
  const write = () => writeFileSync(out, JSON.stringify({ pid: process.pid, turns }));
  process.on('SIGUSR2', write);
  process.on('exit', write);
}
