// Load and latency primitives: one request (capture), a sequential latency loop over
// a keep-alive connection (exact percentiles). Throughput runs are in load.ts.
import http from 'node:http';

export interface Req {
  method?: 'GET' | 'POST';
  /** Path with query string. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Captured {
  status: number;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

/** A request failed or answered outside 2xx: the benchmark is broken, not slow. */
export class BenchRequestError extends Error {}

export function request(base: string, r: Req, opts: { agent?: http.Agent; timeoutMs?: number } = {}): Promise<Captured> {
  const url = new URL(r.path, base);
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      url,
      {
        method: r.method ?? 'GET',
        agent: opts.agent,
        headers: { ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}), ...r.headers },
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - t0,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new BenchRequestError(`timeout after ${opts.timeoutMs ?? 30_000} ms: ${r.method ?? 'GET'} ${r.path.slice(0, 120)}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** One request that must succeed with 2xx; returns the response. */
export async function capture(base: string, r: Req, timeoutMs = 60_000): Promise<Captured> {
  const res = await request(base, r, { timeoutMs });
  if (res.status < 200 || res.status > 299) {
    throw new BenchRequestError(`${r.method ?? 'GET'} ${r.path.slice(0, 120)} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
  }
  return res;
}

export interface LatencyStats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
  /** Sequential requests per second over the measured loop. */
  rps: number;
  bytes: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  // Nearest-rank: the smallest value with at least p% of the samples at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export function stats(samples: number[], wallMs: number, bytes: number): LatencyStats {
  const s = [...samples].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    n: s.length,
    p50: r(percentile(s, 50)),
    p95: r(percentile(s, 95)),
    p99: r(percentile(s, 99)),
    min: r(s[0] ?? NaN),
    max: r(s[s.length - 1] ?? NaN),
    mean: r(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
    rps: r((s.length / wallMs) * 1000),
    bytes,
  };
}

/**
 * Two kinds of request over the same inputs, interleaved per input on one keep-alive connection
 * (which goes first alternates), so both see the same moments of the machine: run one after the
 * other, the first loop took every hiccup of the seconds it ran in. Returns [a's stats, b's stats].
 */
export async function interleavedLatencyLoops(
  base: string,
  pairs: [Req, Req][],
  opts: { warmupPairs?: [Req, Req][]; maxMs: number; timeoutMs?: number },
): Promise<[LatencyStats, LatencyStats]> {
  if (pairs.length === 0) throw new Error('interleavedLatencyLoops: no requests');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const [a, b] of opts.warmupPairs ?? []) {
      await capture(base, a, opts.timeoutMs);
      await capture(base, b, opts.timeoutMs);
    }
    const samples: [number[], number[]] = [[], []];
    const bytes = [0, 0];
    const t0 = performance.now();
    for (let i = 0; i < pairs.length; i++) {
      if (i >= 3 && performance.now() - t0 > opts.maxMs) break;
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const r = pairs[i]![k]!;
        const res = await request(base, r, { agent, timeoutMs: opts.timeoutMs });
        if (res.status < 200 || res.status > 299) {
          throw new BenchRequestError(`${r.method ?? 'GET'} ${r.path.slice(0, 120)} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
        }
        samples[k]!.push(res.ms);
        bytes[k]! += res.body.length;
      }
    }
    // Each kind's own time (its requests' sum), not the shared wall time, for its requests per second.
    const of = (k: 0 | 1) => stats(samples[k], samples[k].reduce((a, b) => a + b, 0), Math.round(bytes[k]! / (samples[k].length || 1)));
    return [of(0), of(1)];
  } finally {
    agent.destroy();
  }
}

/**
 * Sequential requests over one keep-alive connection: `warmup` unmeasured requests, then
 * up to `count` measured ones, stopping early after `maxMs` (at least `minCount` are made).
 * `reqs` are used in turn (request i uses reqs[i % reqs.length]). Non-2xx throws.
 */
export async function latencyLoop(
  base: string,
  reqs: Req[],
  opts: { count: number; warmup: number; maxMs: number; minCount?: number; timeoutMs?: number; warmupReqs?: Req[] },
): Promise<LatencyStats> {
  if (reqs.length === 0) throw new Error('latencyLoop: no requests');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const warm = opts.warmupReqs?.length ? opts.warmupReqs : reqs;
    for (let i = 0; i < opts.warmup; i++) await capture(base, warm[i % warm.length]!, opts.timeoutMs);
    const samples: number[] = [];
    let bytes = 0;
    const t0 = performance.now();
    for (let i = 0; i < opts.count; i++) {
      if (i >= (opts.minCount ?? 3) && performance.now() - t0 > opts.maxMs) break;
      const r = reqs[i % reqs.length]!;
      const res = await request(base, r, { agent, timeoutMs: opts.timeoutMs });
      if (res.status < 200 || res.status > 299) {
        throw new BenchRequestError(`${r.method ?? 'GET'} ${r.path.slice(0, 120)} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
      }
      samples.push(res.ms);
      bytes += res.body.length;
    }
    return stats(samples, performance.now() - t0, Math.round(bytes / (samples.length || 1)));
  } finally {
    agent.destroy();
  }
}
