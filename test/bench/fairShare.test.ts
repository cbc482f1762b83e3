// `npm run bench:metrics -- --fair` (bench/metricsFair.ts) rests on three things checked here: the
// kernel gives each cgroup of equal cpu.shares an equal share of a core whatever the number of its
// threads (a process with an export worker gets no more than one without); the ratios are taken
// against the right baseline; the intervals widen with the spread between runs. The cgroup check
// needs root and cgroup v1's cpu and cpuacct controllers, and skips saying so elsewhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fairGroups, medianWithInterval, pooledMedianWithInterval } from '../../bench/lib/fairShare.ts';
import { which } from '../../bench/lib/pinning.ts';
import { median } from '../../bench/lib/stats.ts';
import { fairRatios, type FairRound, type FairSample } from '../../bench/metricsFair.ts';

const groups = fairGroups('test-fair', 2);
const taskset = which('taskset');
const why = typeof groups === 'string' ? groups : !taskset ? 'taskset is not installed' : undefined;
if (typeof groups !== 'string') for (const g of groups) g.remove();

/** A CPU-bound process on core 0 spinning in `threads` threads (its main thread and worker threads). */
function spinner(threads: number): ChildProcess {
  const code = `const { Worker } = require('node:worker_threads');
for (let i = 1; i < ${threads}; i++) new Worker('for (;;) {}', { eval: true });
for (;;) {}`;
  return spawn(taskset!, ['-c', '0', process.execPath, '-e', code], { stdio: 'ignore' });
}

describe('fair shares of one core', () => {
  it.skipIf(why !== undefined)(`splits the core between processes, not threads${why ? ` (skipped: ${why})` : ''}`, async () => {
    const made = fairGroups('test-fair', 2);
    if (typeof made === 'string') throw new Error(made);
    const one = spinner(1);
    const four = spinner(4);
    try {
      await new Promise((r) => setTimeout(r, 500)); // the workers started
      made[0]!.add(one.pid!);
      made[1]!.add(four.pid!);
      const before = made.map((g) => g.usageNs());
      await new Promise((r) => setTimeout(r, 2_000));
      const used = made.map((g, i) => g.usageNs() - before[i]!);
      // Without the groups the four-thread process would get four fifths of the core.
      expect(used[0]).toBeGreaterThan(0.05e9); // on a busy host each group gets its share of what is left
      expect(used[1]! / used[0]!).toBeGreaterThan(0.8);
      expect(used[1]! / used[0]!).toBeLessThan(1.25);
    } finally {
      one.kill('SIGKILL');
      four.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
      for (const g of made) g.remove();
    }
  });
});

const sample = (requests: number, groupMs: number, mainMs: number): FairSample => ({ group: 'g', requests, rps: requests / 5, p99Ms: 1, groupNs: groupMs * 1e6, mainNs: mainMs * 1e6, otherNs: (groupMs - mainMs) * 1e6 });

describe('fair-share ratios', () => {
  it('takes the A/A server against "off" and the others against both off servers (geometric mean)', () => {
    const round: FairRound = {
      load1: 1,
      coreBusy: 1,
      coreSteal: 0,
      servers: { off: sample(10_000, 400, 380), offAgain: sample(12_100, 400, 380), on: sample(11_000, 400, 390), traces: sample(11_000, 500, 400) },
    };
    const aa = fairRatios([round], 'offAgain');
    expect(aa.throughput[0]).toBeCloseTo(1.21, 6);
    const on = fairRatios([round], 'on');
    expect(on.throughput[0]).toBeCloseTo(1, 6); // √(10,000 × 12,100) = 11,000
    expect(on.process[0]).toBeCloseTo(1, 6);
    expect(on.main[0]).toBeCloseTo(380 / 390, 6);
    const traces = fairRatios([round], 'traces');
    expect(traces.process[0]).toBeCloseTo(400 / 500, 6);
    expect(traces.share[0]).toBeCloseTo(500 / 400, 6);
    // Less the idle rate: 20 ms a second over a 5 s round taken off "on"'s 400 ms of CPU.
    const idle = fairRatios([{ ...round, wallS: 5 }], 'on', { off: 0, offAgain: 0, on: 20e6, traces: 0 });
    expect(idle.busy[0]).toBeCloseTo(400 / 300, 6);
  });

  it('gives a seeded interval around the median, wider for runs that differ than for the same values as one run', () => {
    const runs = [0.9, 0.95, 1, 1.05, 1.1].map((shift) => Array.from({ length: 12 }, (_, i) => shift + (i - 6) * 0.002));
    const one = medianWithInterval(runs.flat(), median);
    expect(one).toEqual(medianWithInterval(runs.flat(), median));
    expect(one.low).toBeLessThanOrEqual(one.median);
    expect(one.high).toBeGreaterThanOrEqual(one.median);
    const pooled = pooledMedianWithInterval(runs, median);
    expect(pooled.median).toBeCloseTo(one.median, 9);
    expect(pooled.high - pooled.low).toBeGreaterThan(one.high - one.low);
    // Identical runs: the two-level interval is no wider than a round's spread allows.
    const same = pooledMedianWithInterval([runs[2]!, runs[2]!, runs[2]!], median);
    expect(same.high - same.low).toBeLessThan(0.03);
  });
});
