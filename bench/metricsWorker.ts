// What the traces' export worker costs a span, live (issue 30 item 5, session 24's open question: 16–24 µs a
// span live against 4.5 µs in bench/traceHandoff.ts). Traced servers (10 % by default) under wrk, one at a time
// in A B B A order, pinned to CPU 1 (wrk on CPU 0); per window, each thread's CPU from /proc schedstat and the
// spans the collector received (counted in the OTLP protobuf), so the export worker's thread is read as ns a
// span of real CPU (not profile samples, which count time off the core).
//
//   npx tsx bench/metricsWorker.ts [--variants base,noflush] [--windows 4] [--duration 10] [--compare DIR]
//
// Variants: `base` this checkout's bundle; `main` the bundle of --compare DIR; `noflush` this checkout with
// node's --no-flush-bytecode (V8 keeps the bytecode of functions idle between batches); `delayN` this checkout
// with OTEL_BSP_SCHEDULE_DELAY=N; `stgc` with --single-threaded-gc (V8's GC work on the thread whose heap it is, not
// its platform threads: says which isolate the helpers' CPU is for); `nocr` --no-concurrent-recompilation (likewise
// for optimizing compiles); `ratioR` this checkout at ratio R; `traces0` nothing sampled (threads'
// floor). A suffix `@main` runs that variant from --compare DIR.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runWrk } from './lib/load.ts';
import { mixedWarmUp, type ObservedServer } from './lib/observedServers.ts';
import { ensureTool, pinned, pinPlan } from './lib/pinning.ts';
import { alive, cleanupAll, freePort, makeTempDir, spawnTracked, stopChild } from './lib/procs.ts';
import { loadAverage, threadCpuNs } from './lib/fairShare.ts';
import { projectRoot } from '../src/paths.ts';

const { values } = parseArgs({
  options: {
    variants: { type: 'string', default: 'base,noflush' },
    windows: { type: 'string', default: '4' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    ratio: { type: 'string', default: '0.1' },
    compare: { type: 'string' },
    json: { type: 'string' },
  },
});

const PATH = '/codes/10047700';
const log = (s: string) => process.stderr.write(`${s}\n`);

/** Length-delimited fields `field` of a protobuf message (wire type 2), as [start, end) ranges; others skipped. */
function fields(b: Buffer, from: number, to: number, field: number): [number, number][] {
  const out: [number, number][] = [];
  let i = from;
  const varint = (): number => {
    let v = 0;
    let s = 1;
    for (;;) {
      const c = b[i++]!;
      v += (c & 0x7f) * s;
      if (c < 0x80) return v;
      s *= 128;
    }
  };
  while (i < to) {
    const key = varint();
    const wire = key & 7;
    if (wire === 0) varint();
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const len = varint();
      if (key >>> 3 === field) out.push([i, i + len]);
      i += len;
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}

/** Spans in an ExportTraceServiceRequest: resource_spans (1) › scope_spans (2) › spans (2). */
function countSpans(b: Buffer): number {
  let n = 0;
  for (const [a, z] of fields(b, 0, b.length, 1)) for (const [c, d] of fields(b, a, z, 2)) n += fields(b, c, d, 2).length;
  return n;
}

interface Sink {
  url: string;
  spans: number;
  exports: number;
  close(): void;
}

async function startSink(): Promise<Sink> {
  let server: Server | undefined;
  const sink: Sink = { url: '', spans: 0, exports: 0, close: () => server?.close() };
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      sink.exports++;
      sink.spans += countSpans(Buffer.concat(parts));
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}

interface Variant {
  name: string;
  root: string;
  env: Record<string, string>;
  nodeArgs: string[];
}

function variantOf(spec: string, sinkUrl: string, compare: string | undefined): Variant {
  const [name, where] = spec.split('@') as [string, string | undefined];
  const root = name === 'main' || where === 'main' ? compare : projectRoot;
  if (!root) throw new Error(`${spec} needs --compare DIR`);
  const ratio = name === 'traces0' ? '0' : name.startsWith('ratio') ? name.slice(5) : values.ratio!;
  const env: Record<string, string> = { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio };
  if (name.startsWith('delay')) env.OTEL_BSP_SCHEDULE_DELAY = name.slice(5);
  // V8 flags for the whole process (workers share them): which thread pays for GC and compilation.
  const flags: Record<string, string[]> = { noflush: ['--no-flush-bytecode'], stgc: ['--single-threaded-gc'], nocr: ['--no-concurrent-recompilation'] };
  const nodeArgs = flags[name] ?? [];
  return { name: spec, root, env, nodeArgs };
}

async function start(v: Variant, cpu: string | undefined): Promise<ObservedServer> {
  const port = await freePort();
  const dataDir = makeTempDir(`bench-worker-${v.name.replace(/\W/g, '_')}-`);
  const [cmd, argv] = pinned(process.execPath, [...v.nodeArgs, path.join(v.root, 'bin/terminology.mjs'), 'serve'], cpu);
  const proc = spawnTracked(cmd, argv, {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', TERMINOLOGY_DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_FORMAT: 'json', RATE_LIMIT_PER_MINUTE: '1000000', ...v.env },
  });
  const deadline = Date.now() + 300_000;
  for (;;) {
    const out = proc.stderr.toString();
    if (/warmed the latest release/.test(out)) {
      const pid = Number(/"pid":(\d+)[^\n]*is listening/.exec(out)?.[1] ?? proc.child.pid);
      return { base: `http://127.0.0.1:${port}`, proc, pid };
    }
    if (Date.now() > deadline || !alive(proc.child)) throw new Error(`${v.name} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const comm = (pid: number, tid: number) => {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
};

interface Window {
  variant: string;
  requests: number;
  spans: number;
  exports: number;
  mainNs: number;
  /** The busiest thread other than the main one (the export worker when spans flow), its CPU. */
  workerNs: number;
  workerTid: number;
  /** Every other thread (V8's platform threads: concurrent GC of both isolates; libuv's pool). */
  restNs: number;
  load: number;
}

async function main(): Promise<void> {
  const specs = values.variants!.split(',');
  const nWindows = Number(values.windows);
  const durationS = Number(values.duration);
  const connections = Number(values.connections);
  const pin = pinPlan();
  const wrk = await ensureTool('wrk', log);
  const sinks = new Map<string, Sink>();
  const servers = new Map<string, ObservedServer>();
  const windows: Window[] = [];
  try {
    for (const spec of specs) {
      const sink = await startSink();
      sinks.set(spec, sink);
      const v = variantOf(spec, sink.url, values.compare && path.resolve(values.compare));
      servers.set(spec, await start(v, pin.server));
    }
    for (const [n, s] of servers) {
      await mixedWarmUp(s.base);
      await runWrk(wrk, { url: s.base + PATH, connections, durationS: 5 }, pin.load);
      log(`${n}: warmed (pid ${s.pid})`);
    }
    const order: string[] = [];
    for (let w = 0; w < nWindows; w++) order.push(...(w % 2 === 0 ? specs : [...specs].reverse()));
    for (const n of order) {
      const s = servers.get(n)!;
      const sink = sinks.get(n)!;
      // Let the last window's batches drain, so that each window's spans are its own requests'.
      await new Promise((r) => setTimeout(r, 1_000));
      const spans0 = sink.spans;
      const exports0 = sink.exports;
      const t0 = threadCpuNs(s.pid);
      const r = await runWrk(wrk, { url: s.base + PATH, connections, durationS }, pin.load);
      // What the window's requests queued is exported within the batch delay (5 s) or when 512 wait.
      await new Promise((res) => setTimeout(res, 6_000));
      const t1 = threadCpuNs(s.pid);
      const deltas = [...t1].map(([tid, ns]) => [tid, ns - (t0.get(tid) ?? 0)] as const).filter(([tid]) => tid !== s.pid);
      deltas.sort((a, b) => b[1] - a[1]);
      const [workerTid, workerNs] = deltas[0] ?? [0, 0];
      const restNs = deltas.slice(1).reduce((a, [, ns]) => a + ns, 0);
      const w: Window = {
        variant: n,
        requests: r.requests,
        spans: sink.spans - spans0,
        exports: sink.exports - exports0,
        mainNs: (t1.get(s.pid) ?? 0) - (t0.get(s.pid) ?? 0),
        workerNs,
        workerTid,
        restNs,
        load: loadAverage(),
      };
      windows.push(w);
      log(
        `${n}: ${Math.round(r.rps)} req/s, ${w.spans} spans in ${w.exports} exports; main ${(w.mainNs / 1e3 / w.requests).toFixed(2)} µs/req; ` +
          `busiest other thread (${comm(s.pid, workerTid)} ${workerTid}) ${w.spans ? (w.workerNs / w.spans).toFixed(0) : '-'} ns/span, ${(w.workerNs / 1e3 / w.requests).toFixed(2)} µs/req; the rest ${(w.restNs / 1e3 / w.requests).toFixed(2)} µs/req ` +
          `(${deltas.slice(1, 6).map(([tid, ns]) => `${comm(s.pid, tid)}:${tid}:${(ns / 1e3 / w.requests).toFixed(2)}`).join(' ')}); load ${w.load}`,
      );
    }
  } finally {
    for (const s of servers.values()) await stopChild(s.proc.child, 30_000);
    for (const s of sinks.values()) s.close();
    await cleanupAll();
  }
  const med = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  console.log('| variant | windows | spans a batch | worker thread ns a span (median; range) | other threads µs a request | main µs a request |');
  console.log('|---|---|---|---|---|---|');
  for (const n of specs) {
    const ws = windows.filter((w) => w.variant === n);
    const perSpan = ws.map((w) => (w.spans ? w.workerNs / w.spans : NaN));
    console.log(
      `| ${n} | ${ws.length} | ${Math.round(med(ws.map((w) => w.spans / Math.max(1, w.exports))))} | ${Math.round(med(perSpan))} (${Math.round(Math.min(...perSpan))}–${Math.round(Math.max(...perSpan))}) | ${med(ws.map((w) => w.restNs / 1e3 / w.requests)).toFixed(2)} | ${med(ws.map((w) => w.mainNs / 1e3 / w.requests)).toFixed(2)} |`,
    );
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ specs, windows }, null, 1));
}

await main();
