// The three servers bench/metrics.ts compares (metrics off, metrics on, metrics on with traces sampled
// at a ratio), their environments, and the OTLP sink the traced one exports to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { pinned, type Cpu } from './pinning.ts';
import { alive, freePort, makeTempDir, spawnTracked, type Tracked } from './procs.ts';

export type ServerName = 'off' | 'on' | 'traces';
export const SERVER_NAMES: readonly ServerName[] = ['off', 'on', 'traces'];

/** The servers' own environments (beside PORT, HOST, the store and logs); `calibrate`: all three off (an A/A run). */
export async function observedEnvs(sinkUrl: string, ratio: number, calibrate: boolean): Promise<Record<ServerName, Record<string, string>>> {
  if (calibrate) return { off: {}, on: {}, traces: {} };
  return {
    off: {},
    on: { METRICS_PORT: String(await freePort()) },
    traces: {
      METRICS_PORT: String(await freePort()),
      OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(ratio),
    },
  };
}

/** The traces' collector: every export accepted (an empty ExportTraceServiceResponse) and counted, with its bytes. */
export interface OtlpSink {
  url: string;
  exports: number;
  bytes: number;
  close(): void;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let server: Server | undefined;
  const sink: OtlpSink = {
    url: '',
    exports: 0,
    bytes: 0,
    close: () => server?.close(),
  };
  server = createServer((req, res) => {
    req.on('data', (b: Buffer) => (sink.bytes += b.length));
    req.on('end', () => {
      sink.exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}

export interface ObservedServer {
  base: string;
  proc: Tracked;
  /** The metrics URL when the server serves them. */
  metrics?: string;
  /** The serving process (on Node 20 `terminology serve` runs it as a child: bin/heap-limit.mjs), whose CPU is measured. */
  pid: number;
}

/**
 * One server started from the shipped bundle on the demo store (a data directory of its own), pinned to `cpu` when given;
 * `root`: another checkout's bundle (its bin/terminology.mjs and dist/), for a same-run comparison of two versions.
 */
/** `nodeArgs`: node's own arguments before the script (--cpu-prof is not allowed in NODE_OPTIONS: bench/metricsProfile.ts). */
export async function startObserved(name: string, env: Record<string, string>, cpu: Cpu | undefined, root = projectRoot, nodeArgs: string[] = []): Promise<ObservedServer> {
  const port = await freePort();
  const dir = makeTempDir(`bench-metrics-${name}-`);
  const [cmd, argv] = pinned(process.execPath, [...nodeArgs, path.join(root, 'bin/terminology.mjs'), 'serve'], cpu);
  const proc = spawnTracked(cmd, argv, {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', TERMINOLOGY_DATA_DIR: dir, LOG_LEVEL: 'info', LOG_FORMAT: 'json', RATE_LIMIT_PER_MINUTE: '1000000', ...env },
  });
  const deadline = Date.now() + 300_000;
  for (;;) {
    const out = proc.stderr.toString();
    if (/warmed the latest release/.test(out)) {
      const metrics = /"metricsUrl":"([^"]+)"/.exec(out)?.[1];
      const pid = Number(/"pid":(\d+)[^\n]*is listening/.exec(out)?.[1] ?? proc.child.pid);
      return { base: `http://127.0.0.1:${port}`, proc, metrics, pid };
    }
    if (Date.now() > deadline || !alive(proc.child)) throw new Error(`${name} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Requests that are not warm answers, as a real server also gets: a traced server samples some of them,
 *  which turns Node's async hooks on (AsyncLocalStorage) for the rest of the run, as in production. */
export async function mixedWarmUp(base: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ code(code: "10047700") { name } q${i}: __typename }` }) }).then((r) => r.arrayBuffer());
  }
}

/** A scraper like Prometheus's (every second by default) of a metrics URL; returns its stop. */
export function scraping(url: string | undefined, everyMs = 1_000): () => void {
  if (!url) return () => {};
  const t = setInterval(() => void fetch(url).then((r) => r.arrayBuffer()).catch(() => undefined), everyMs);
  return () => clearInterval(t);
}
