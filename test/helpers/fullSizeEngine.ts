// Run as a process of its own by test/assessment/engine-full-size.test.ts (`node --import tsx
// test/helpers/fullSizeEngine.ts`): an engine pool codes narratives for full-size releases while
// this thread — a serving thread's stand-in, with nothing else on it — times its event loop's
// turns. Not in the test's own process: the test runner's heap and RPC add pauses of their own
// (0.6 s turns seen there, ≤ 0.08 s here on the same loaded machine). Prints one JSON line.
import path from 'node:path';
import { loadRelease } from '../../src/importer/import.ts';
import { projectRoot } from '../../src/paths.ts';
import { LEVELS } from '../../src/domain/levels.ts';
import { EnginePool } from '../../src/assessment/enginePool.ts';
import { lessWait, threadCpu } from './cpuWait.ts';

export const PTS = 26_000;
export const LLTS = 85_000;

/** A full-size index's columns (what the engine pool reads): names of 2–4 demo words, LLTs under PTs. */
export function fullSizeIndex(releaseId: number) {
  const words = [...new Set(loadRelease(path.join(projectRoot, 'data', 'demo', '5.0.1')).concepts.flatMap((c) => c.name.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length > 2))];
  let seed = 20261126 + releaseId;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const size = PTS + LLTS;
  const level = new Uint8Array(size);
  const code = new Int32Array(size);
  const ptCode = new Int32Array(size);
  const current = new Uint8Array(size);
  const name: string[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const isPt = i < PTS;
    level[i] = LEVELS.indexOf(isPt ? 'PT' : 'LLT');
    code[i] = 90_000_000 + i;
    ptCode[i] = isPt ? code[i]! : 90_000_000 + Math.floor(next() * PTS);
    current[i] = isPt || next() < 0.9 ? 1 : 0;
    const n = 2 + Math.floor(next() * 3);
    name[i] = `${Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ')} ${i}`;
  }
  return { releaseId, size, level, code, ptCode, current, name };
}

/**
 * The longest gap between two turns of this thread's event loop while `work` runs, in ms: as seen
 * (`seenMs`), and less what the kernel kept this thread waiting for a CPU within that gap (`ms`,
 * schedstat, test/helpers/cpuWait.ts): on a host shared with other work a long gap is mostly that
 * wait, not the engine's hand-off (the rule of test/shipped/uploads-probe.test.ts).
 */
async function longestTurn<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; seenMs: number; runMs: number }> {
  let longest = 0;
  let longestRun = 0;
  let longestSeen = 0;
  let last = performance.now();
  let lastWait = threadCpu(process.pid)?.waitMs ?? 0;
  let lastRun = threadCpu(process.pid)?.runMs ?? NaN;
  let done = false;
  const tick = () => {
    const now = performance.now();
    const cpu = threadCpu(process.pid);
    const wait = cpu?.waitMs ?? 0;
    const run = cpu?.runMs ?? NaN;
    longestSeen = Math.max(longestSeen, now - last);
    const own = lessWait(now - last, [wait - lastWait]);
    if (own > longest) [longest, longestRun] = [own, run - lastRun];
    last = now;
    lastWait = wait;
    lastRun = run;
    if (!done) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  try {
    return { value: await work(), ms: longest, seenMs: longestSeen, runMs: longestRun };
  } finally {
    done = true;
  }
}

async function main() {
  const indexes = new Map([1, 2].map((id) => [id, fullSizeIndex(id)]));
  // Grade definitions are the only rows a source takes from the store (a few hundred): none here.
  const store = { $queryRawUnsafe: async () => [] } as unknown as ConstructorParameters<typeof EnginePool>[0];
  // One worker with room for one of these vocabularies (~55 MB counted each): each alternation builds again.
  const pool = new EnginePool(store, { workers: 1, timeoutMs: 120_000, maxQueue: 4, vocabularyBytes: 64 * 2 ** 20 }, { index: async (id) => indexes.get(id)! });
  try {
    const idle = await longestTurn(() => new Promise((r) => setTimeout(r, 1_000)));
    const runs: { release: number; ms: number; longestTurnMs: number; seenTurnMs: number; longestTurnRunMs: number; events: number }[] = [];
    for (const release of [1, 2, 1]) {
      const t0 = performance.now();
      const { value, ms, seenMs, runMs } = await longestTurn(() => pool.run(release, { op: 'identify', text: 'The patient had watering eyes and a headache, then vomited.' }));
      runs.push({ release, ms: Math.round(performance.now() - t0), longestTurnMs: Math.round(ms), seenTurnMs: Math.round(seenMs), longestTurnRunMs: Math.round(runMs), events: value.length });
    }
    process.stdout.write(`${JSON.stringify({ terms: indexes.get(1)!.size, idleLongestTurnMs: Math.round(idle.ms), vocabularyBytes: pool.vocabularyBytesHeld(), runs })}\n`);
  } finally {
    await pool.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
