// The first requests after a start (issue 32: the first request after a start within 150 ms), on
// the product as shipped (bin/terminology.mjs serve, the bundle: `node scripts/build.mjs` first),
// with the start's route warm-up (ROUTE_WARM_UP, src/http/routeWarming.ts) on and off, alternated
// round by round (on off off on …) in one run: the same host, the same noise. Each round starts a
// server over a fresh copy of a demo store (imported and started once before the rounds, so every
// round's start finds its index snapshots), waits for the start's background warm-ups (the "load
// paths" line, then 300 ms), then asks each path once, then once again. Per request: the serving
// thread's CPU (schedstat: what the host's load moves far less than the wall time) and the wall
// time; per start: ms to listening (the server's own figure) and the serving thread's CPU until then.
//
//   node scripts/build.mjs && npx tsx bench/firstRequests.ts [--rounds 6]
import { cpSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.ts';
import { removeTempDir } from './lib/procs.ts';
import { median } from './lib/stats.ts';
import { get, startShipped, threadStat } from './lib/shippedTurns.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '6' } } });
const rounds = Number(values.rounds);
if (!(rounds >= 2)) throw new Error('--rounds must be 2 or more');

const BIN = path.join(projectRoot, 'bin', 'terminology.mjs');
const PATHS = ['/versions', '/codes?q=head', '/codes/10019211', '/codes/10019211/changes?against=5.0', '/versions/5.0.1/changes', '/codes/10028813'];
const settle = () => new Promise((r) => setTimeout(r, 200));

interface Round {
  warm: boolean;
  listenMs: number;
  startCpu: number;
  /** Per path: [first, second] serving-thread CPU ms and wall ms. */
  cpu: number[][];
  wall: number[][];
}

async function round(store: string, warm: boolean, monitorOut: string): Promise<Round> {
  const s = await startShipped(BIN, { TERMINOLOGY_DATA_DIR: store, RATE_LIMIT_PER_MINUTE: '0', ROUTE_WARM_UP: String(warm) }, monitorOut);
  try {
    const listening = await s.logged(/is listening/);
    const startCpu = threadStat(s.pid)?.run ?? NaN;
    await s.logged(/load paths/, 60_000);
    await new Promise((r) => setTimeout(r, 300));
    const cpu: number[][] = [];
    const wall: number[][] = [];
    for (const p of PATHS) {
      const c: number[] = [];
      const w: number[] = [];
      for (let k = 0; k < 2; k++) {
        const before = threadStat(s.pid)!.run;
        const t0 = performance.now();
        const status = await get(`${s.url}${p}`);
        w.push(performance.now() - t0);
        if (status !== 200) throw new Error(`${p}: ${status}`);
        // What the request does after its answer (a log line, a background write) counts too.
        await settle();
        c.push(threadStat(s.pid)!.run - before);
      }
      cpu.push(c);
      wall.push(w);
    }
    return { warm, listenMs: Number(listening.ms), startCpu, cpu, wall };
  } finally {
    await s.stop();
  }
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'te-first-'));
  const pristine = path.join(work, 'pristine');
  try {
    // The demo store, imported by a first start (as `npm start` does), its warm-ups run once.
    const first = await startShipped(BIN, { TERMINOLOGY_DATA_DIR: pristine }, path.join(work, 'turns-0.json'));
    await first.logged(/load paths/, 120_000);
    await first.stop();
    const results: Round[] = [];
    const load0 = loadavg()[0]!;
    for (let i = 0; i < rounds; i++) {
      // on off off on …: neither side always goes first.
      const warm = [true, false, false, true][i % 4]!;
      const store = path.join(work, `round-${i}`);
      cpSync(pristine, store, { recursive: true });
      results.push(await round(store, warm, path.join(work, `turns-${i + 1}.json`)));
      removeTempDir(store);
      process.stderr.write(`round ${i + 1}/${rounds} (${warm ? 'on' : 'off'}) done\n`);
    }
    const on = results.filter((r) => r.warm);
    const off = results.filter((r) => !r.warm);
    const med = (rs: Round[], f: (r: Round) => number) => median(rs.map(f));
    const fmt = (n: number) => n.toFixed(1);
    const lines = [
      `First requests after a start, the bundle, demo store, ${rounds} rounds (${on.length} with ROUTE_WARM_UP on, ${off.length} off, alternated); load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}.`,
      'Serving thread CPU ms (schedstat), medians; wall ms beside.',
      '',
      '| request | first: on | first: off | on / off | second: on | second: off | first wall: on / off |',
      '|---|---|---|---|---|---|---|',
      ...PATHS.map((p, i) => {
        const a = med(on, (r) => r.cpu[i]![0]!);
        const b = med(off, (r) => r.cpu[i]![0]!);
        return `| \`GET ${p}\` | ${fmt(a)} | ${fmt(b)} | ${(a / b).toFixed(2)}× | ${fmt(med(on, (r) => r.cpu[i]![1]!))} | ${fmt(med(off, (r) => r.cpu[i]![1]!))} | ${fmt(med(on, (r) => r.wall[i]![0]!))} / ${fmt(med(off, (r) => r.wall[i]![0]!))} |`;
      }),
      `| the start until listening (ms, the server's figure) | ${fmt(med(on, (r) => r.listenMs))} | ${fmt(med(off, (r) => r.listenMs))} | ${(med(on, (r) => r.listenMs) / med(off, (r) => r.listenMs)).toFixed(2)}× | | | |`,
      `| serving thread CPU until listening (ms) | ${fmt(med(on, (r) => r.startCpu))} | ${fmt(med(off, (r) => r.startCpu))} | ${(med(on, (r) => r.startCpu) / med(off, (r) => r.startCpu)).toFixed(2)}× | | | |`,
    ];
    console.log(lines.join('\n'));
  } finally {
    removeTempDir(work);
  }
}

await main();
