// Issue 32 (no request waits more than 150 ms for an index load; the first request after a start
// ≤ 150 ms): the first search in another language on the oldest release after a start — `GET
// /codes?q=a&limit=100&lang=de&version=4.03` on the demo store, its German index snapshots stored
// by an earlier life of the store — makes its index from its delta over the newest's, its German
// names from theirs, and searches: code run for the first time. The start's warm-up now runs those
// paths once on another older release and lets go of what they loaded
// (src/services/olderReleaseWarming.ts), and the shipped server is held here to: no turn of its
// serving thread over 150 ms of CPU while that warm-up runs nor while the first such request is
// answered, and the same answer as an earlier life gave. (Main's bundle measured 52–115 ms for that
// turn, the branch 45–73: bench/results.md; at the demo's size the bound guards against a
// regression past it rather than separating the two.)
//
// Turns are measured inside the server (bench/lib/turnMonitor.mjs preloaded, NODE_OPTIONS): each
// gap between two 1 ms timer callbacks with the serving thread's time on a CPU across it (Linux
// schedstat). CPU, not wall: on a host with more runnable threads than cores a turn's wall time is
// mostly the run queue's (test/helpers/cpuWait.ts); both are reported. Where the kernel has no
// schedstat the test has nothing to measure and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshStore, withStoreDb, type Store } from '../helpers/cli.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';
import { threadCpu } from '../helpers/cpuWait.ts';
import type { MonitoredTurn } from '../../bench/lib/shippedTurns.ts';
import { projectRoot } from '../../src/paths.ts';
import { compose } from '../../src/compose.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createApp } from '../../src/http/app.ts';

const TURN_BOUND_MS = 150;
const MONITOR = path.join(projectRoot, 'bench', 'lib', 'turnMonitor.mjs');
const QUERY = '/codes?q=a&limit=100&lang=de';

let store: Store;
let server: ServerProcess | undefined;
let work: string;
let oldest: string;
let oldestId: number;
/** The answer an earlier life of the store gave (in process, its German indexes built from rows then). */
let earlier: string;

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

beforeAll(async () => {
  store = await freshStore('demo');
  work = mkdtempSync(path.join(tmpdir(), 'te-first-search-'));
  // An earlier life: each release searched in German once, its German index snapshots stored.
  ({ oldest, oldestId, earlier } = await withStoreDb(store, async (db) => {
    const composed = compose(loadConfig({ ...store.env, LOG_LEVEL: 'silent', NLP_WORKERS: '0', RATE_LIMIT_PER_MINUTE: '0' }), db, createLogger('silent'));
    try {
      const app = createApp(composed.services, composed.appOptions);
      const releases = await db.prisma.release.findMany({ orderBy: { ordinal: 'asc' } });
      let first = '';
      for (const r of releases) {
        const res = await app.fetch(new Request(`http://test${QUERY}&version=${encodeURIComponent(r.version)}`));
        expect(res.status).toBe(200);
        const text = await res.text();
        if (r === releases[0]) first = text;
      }
      await composed.services.catalog.searchIndexes.flushed();
      return { oldest: releases[0]!.version, oldestId: releases[0]!.id, earlier: first };
    } finally {
      await composed.close();
    }
  }));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the first search in another language on the oldest release after a start (issue 32)', () => {
  it('holds the serving thread no turn over 150 ms of CPU, during the warm-up nor during the request, and answers as before', async () => {
    const out = path.join(work, 'turns.json');
    server = await startServerProcess(
      { ...store.env, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', NLP_WORKERS: '0', NODE_OPTIONS: `--import ${MONITOR}`, TURN_MONITOR_OUT: out },
      120_000,
      { shipped: true },
    );
    const s = server;
    if (!threadCpu(s.serverPid)) return void console.log('no schedstat on this kernel: nothing to measure');
    const warmed = () =>
      s
        .logs()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => typeof l.msg === 'string' && /load paths of an older release|older-release load paths not warmed/.test(l.msg));
    const latestWarmed = () => s.logs().includes('"msg":"warmed the latest release');
    for (let i = 0; i < 600 && !latestWarmed(); i++) await new Promise((r) => setTimeout(r, 20));
    const latestWarmedAt = nowUs();
    for (let i = 0; i < 600 && !warmed(); i++) await new Promise((r) => setTimeout(r, 100));
    // It warmed one older release (the newest but one) with its German names, and let go of it.
    expect(warmed(), s.logs().slice(-3000)).toMatchObject({ warmed: true, languages: expect.arrayContaining(['de']) });
    expect(warmed()!.release).not.toBe(oldest);

    // The server's first request of all compiles its HTTP, GraphQL and Prisma paths (~0.1–0.2 s of
    // CPU whatever it asks: bench/results.md); a client's first, as the bench's probe's, goes first.
    const tVersions = nowUs();
    expect((await fetch(`${s.url}/versions?limit=100`)).status).toBe(200);
    // Its turn over (what it does after answering too), so the request's turns are the request's own.
    await new Promise((r) => setTimeout(r, 300));
    const t0 = nowUs();
    const res = await fetch(`${s.url}${QUERY}&version=${encodeURIComponent(oldest)}`);
    const body = await res.text();
    const t1 = nowUs();
    expect(res.status).toBe(200);
    expect(body).toBe(earlier);
    // The oldest's German index was loaded by this request, from its snapshot (the warm-up loaded another release's).
    const loads = s
      .logs()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'release index ready' && l.release === oldestId && l.language === 'de');
    expect(loads.length, s.logs().slice(-3000)).toBeGreaterThanOrEqual(1);
    expect(loads.every((l) => l.source === 'snapshot')).toBe(true);

    // The monitor runs in the serving process (under Node 20 a child of the CLI's: bin/heap-limit.mjs).
    process.kill(s.serverPid, 'SIGUSR2');
    for (let i = 0; i < 50 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 200));
    const turns = (JSON.parse(readFileSync(out, 'utf8')) as { pid: number; turns: MonitoredTurn[] }).turns;
    const longest = (from: number, to: number) => turns.filter((t) => t.to > from && t.from < to).sort((a, b) => b.runMs - a.runMs)[0];
    const during = longest(t0, t1);
    // The older-release warm-up's turns: from the latest release's warm-up line to the request (nothing else runs then).
    const warming = longest(latestWarmedAt, tVersions);
    console.log(
      `first lang=de search on ${oldest}: ${((t1 - t0) / 1000).toFixed(0)} ms; longest turn ${JSON.stringify(during)}; during the warm-up ${JSON.stringify(warming)}`,
    );
    expect(during?.runMs ?? 0).toBeLessThanOrEqual(TURN_BOUND_MS);
    expect(warming?.runMs ?? 0).toBeLessThanOrEqual(TURN_BOUND_MS);
  }, 240_000);
});
