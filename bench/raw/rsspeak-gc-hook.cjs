// rsspeak: on SIGUSR2 write memoryUsage before/after a forced gc to $RSSPEAK_OUT
const wt = require('node:worker_threads');
if (wt.isMainThread && process.env.RSSPEAK_OUT) {
  const fs = require('node:fs');
  const mb = (u) => Object.fromEntries(Object.entries(u).map(([k, v]) => [k, Math.round(v / 2 ** 20)]));
  process.on('SIGUSR2', () => {
    const before = mb(process.memoryUsage());
    if (global.gc) { global.gc(); global.gc(); }
    setTimeout(() => {
      const after = mb(process.memoryUsage());
      fs.appendFileSync(process.env.RSSPEAK_OUT, JSON.stringify({ pid: process.pid, before, after }) + '\n');
    }, 500);
  });
}
