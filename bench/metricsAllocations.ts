// What the metrics allocate per warm answer (bench/results.md › Cost of the metrics, session 16): two
// servers started alike from the bundle on a fresh PostgreSQL database (DATABASE_URL), metrics off and
// on, at full speed; after a warm-up, windows of --requests warm answers alternate between the two
// servers, and in each window V8's sampling heap profiler runs in the server with the objects that
// scavenges and mark-compacts collected kept in the profile (bench/lib/heapSampling.mjs, toggled by
// SIGUSR2), so the profile is everything the window allocated. Reports bytes allocated and GCs per
// request, and the functions whose allocations differ most between the two (per request, summed over
// the windows).
//
//   DATABASE_URL=postgres://… npx tsx bench/metricsAllocations.ts [--warmup 20000 --requests 20000 --windows 3 --scrape-every 4000 --top 25]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent } from 'node:http';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/paths.ts';
import { observedEnvs, type ServerName } from './lib/observedServers.ts';
import { createFreshPostgres } from './lib/pgdb.ts';
import { cleanupAll, freePort, makeTempDir, spawnTracked, stopChild } from './lib/procs.ts';
import { baseEnv, CONNECTIONS, drive, HEAP_FLAG, ready, request } from './metricsInstructions.ts';

const { values: args } = parseArgs({
  options: {
    warmup: { type: 'string', default: '20000' },
    requests: { type: 'string', default: '20000' },
    windows: { type: 'string', default: '3' },
    'scrape-every': { type: 'string', default: '4000' },
    top: { type: 'string', default: '25' },
    interval: { type: 'string', default: '512' },
  },
});
const warmup = Number(args.warmup);
const requests = Number(args.requests);
const windows = Number(args.windows);
const scrapeEvery = Number(args['scrape-every']);
const log = (s: string) => process.stderr.write(`${s}\n`);

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Frames of the scrape (prom-client's registry and the /metrics answer). */
const SCRAPE = /prom-client|getMetricsAsString|serveMetrics|^metrics$|collect/;

/** Bytes by function (name, file, line) of one sampled profile; `scrape` gets the bytes allocated under a scrape. */
function byFunction(root: ProfileNode, into: Map<string, number>, scrape: { bytes: number }): number {
  let total = 0;
  const walk = (n: ProfileNode, inScrape: boolean) => {
    inScrape ||= SCRAPE.test(n.callFrame.functionName) || n.callFrame.url.includes('prom-client');
    if (n.selfSize) {
      if (inScrape) scrape.bytes += n.selfSize;
      const f = n.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^file:\/\/.*\/(node_modules|dist|src)\//, '$1/')}:${f.lineNumber + 1}`;
      into.set(key, (into.get(key) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c, inScrape);
  };
  walk(root, false);
  return total;
}

async function waitFor(file: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    if (existsSync(file)) {
      const s = readFileSync(file, 'utf8');
      try {
        JSON.parse(s);
        return s;
      } catch {
        /* still being written */
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no profile ${file}`);
}

const admin = process.env.DATABASE_URL;
if (!admin) throw new Error('needs DATABASE_URL (postgres://…): the servers run on a fresh database beside it');
const pg = await createFreshPostgres(admin);
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const bin = path.join(projectRoot, 'bin/terminology.mjs');
const preload = path.join(projectRoot, 'bench/lib/heapSampling.mjs');
try {
  {
    const proc = spawnTracked(process.execPath, [HEAP_FLAG, bin, 'serve'], { env: baseEnv(await freePort(), pg.url, makeTempDir('bench-alloc-import-')) });
    await ready(proc, 'the importing server', 300_000);
    await stopChild(proc.child);
  }
  const envs = await observedEnvs('http://127.0.0.1:9', 0, false);
  const names: ServerName[] = ['off', 'on'];
  const servers = [];
  for (const name of names) {
    const port = await freePort();
    const out = path.join(makeTempDir(`bench-alloc-${name}-`), 'heap');
    const proc = spawnTracked(process.execPath, [HEAP_FLAG, '--import', preload, bin, 'serve'], { env: { ...baseEnv(port, pg.url, makeTempDir(`bench-alloc-data-${name}-`)), ...envs[name], HEAP_SAMPLING_OUT: out, HEAP_SAMPLING_INTERVAL: args.interval } });
    servers.push({ name, base: `http://127.0.0.1:${port}`, proc, out, metrics: undefined as string | undefined, sent: { n: 0 }, dumps: 0, bytes: [] as number[], gcs: [] as Record<string, number>[], fns: new Map<string, number>(), scrape: [] as number[] });
  }
  for (const s of servers) s.metrics = /"metricsUrl":"([^"]+)"/.exec(await ready(s.proc, s.name, 300_000))?.[1];
  for (const s of servers) {
    for (let i = 0; i < 100; i++) await request(`${s.base}/graphql`, agent, JSON.stringify({ query: `{ code(code: "10047700") { name } q${i}: __typename }` }));
    await drive(agent, s.base, 1, undefined, scrapeEvery);
    await drive(agent, s.base, warmup, s.metrics, scrapeEvery, s.sent);
  }
  log(`warmed up (${warmup} requests each); ${windows} windows of ${requests}, alternating`);
  for (let w = 0; w < windows; w++) {
    for (const s of servers) {
      s.proc.child.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 200));
      await drive(agent, s.base, requests, s.metrics, scrapeEvery, s.sent);
      s.proc.child.kill('SIGUSR2');
      const { gcs, profile } = JSON.parse(await waitFor(`${s.out}.${++s.dumps}.json`)) as { gcs: Record<string, number>; profile: { head: ProfileNode } };
      const scrape = { bytes: 0 };
      s.bytes.push(byFunction(profile.head, s.fns, scrape) / requests);
      s.scrape.push(scrape.bytes / requests);
      s.gcs.push(gcs);
      log(`${s.name} window ${w + 1}: ${(s.bytes.at(-1)! / 1024).toFixed(2)} KB allocated per request (${s.scrape.at(-1)!.toFixed(0)} B under a scrape); GCs ${JSON.stringify(gcs)}`);
    }
  }
  const [off, on] = servers as [(typeof servers)[0], (typeof servers)[0]];
  const per = (x: number) => x / (requests * windows);
  const keys = new Set([...off.fns.keys(), ...on.fns.keys()]);
  const diff = [...keys].map((k) => ({ k, off: per(off.fns.get(k) ?? 0), on: per(on.fns.get(k) ?? 0) })).sort((a, b) => Math.abs(b.on - b.off) - Math.abs(a.on - a.off));
  const lines = [
    `| server | bytes allocated per request, each window | of which under a scrape | scavenges per 10,000 requests | young generation at the window's start → end (MB) |`,
    '|---|---|---|---|---|',
    ...servers.map((s) => `| metrics ${s.name} | ${s.bytes.map((b) => b.toFixed(0)).join(', ')} | ${s.scrape.map((b) => b.toFixed(0)).join(', ')} | ${s.gcs.map((g) => (((g.scavenge ?? 0) * 10_000) / requests).toFixed(1)).join(', ')} | ${s.gcs.map((g) => `${((g.newSpaceBefore ?? 0) / 2 ** 20).toFixed(1)} → ${((g.newSpaceAfter ?? 0) / 2 ** 20).toFixed(1)}`).join(', ')} |`),
    '',
    `| function (on − off, the largest differences) | off B/request | on B/request | on − off |`,
    '|---|---|---|---|',
    ...diff.slice(0, Number(args.top)).map((d) => `| \`${d.k}\` | ${d.off.toFixed(1)} | ${d.on.toFixed(1)} | ${(d.on - d.off).toFixed(1)} |`),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  for (const s of servers) await stopChild(s.proc.child);
} finally {
  agent.destroy();
  await cleanupAll();
  await pg.drop();
}
