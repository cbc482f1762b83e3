// Throughput runs: wrk (a native load generator, the full benchmark) or autocannon (in this
// Node process: the quick smoke variant, which must work where wrk is not installed). Both
// take the same LoadSpec: one URL, or a rotating list of paths (no answer repeats), and an
// optional X-Forwarded-For rotating over N client addresses.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { projectRoot } from '../../src/paths.ts';
import { BenchRequestError } from './http.ts';
import { pinned, type Cpu } from './pinning.ts';

export interface LoadSpec {
  /** Origin and path (the path is used when `pathsFile` is not given). */
  url: string;
  connections: number;
  durationS: number;
  /** A file of paths, one a line, requested in turn from index `offset`. */
  pathsFile?: string;
  offset?: number;
  /** Distinct X-Forwarded-For addresses to rotate over (0/undefined: none sent). */
  xff?: number;
  method?: 'GET' | 'POST';
  /** A POST body file and its content type. */
  bodyFile?: string;
  contentType?: string;
}

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  connections: number;
  durationS: number;
  /** Requests per second over the run. */
  rps: number;
  requests: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Socket errors and timeouts. */
  errors: number;
  /** Answers with status ≥ 400 (wrk's status errors; autocannon's non-2xx). */
  non2xx: number;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/** Throws when any request failed or answered ≥ 400: a run of 429s measures the limiter's refusals, not the service. */
function check(spec: LoadSpec, r: LoadResult): LoadResult {
  if (r.errors || r.non2xx) throw new BenchRequestError(`load on ${spec.url}: ${r.errors} socket errors/timeouts, ${r.non2xx} answers ≥ 400 of ${r.requests}`);
  return r;
}

const WRK_SCRIPT = path.join(projectRoot, 'bench/lib/wrk/bench.lua');

/** One wrk run (one thread: the load generator gets one core), pinned to `cpu` when given. */
export async function runWrk(wrkPath: string, spec: LoadSpec, cpu: Cpu | undefined): Promise<LoadResult> {
  const scriptArgs = ['threads=1', `offset=${spec.offset ?? 0}`];
  if (spec.pathsFile) scriptArgs.push(`paths=${spec.pathsFile}`);
  if (spec.xff) scriptArgs.push(`xff=${spec.xff}`);
  if (spec.method) scriptArgs.push(`method=${spec.method}`);
  if (spec.bodyFile) scriptArgs.push(`body=${spec.bodyFile}`, `ctype=${spec.contentType ?? 'application/json'}`);
  const args = ['-t1', `-c${spec.connections}`, `-d${Math.max(1, Math.round(spec.durationS))}s`, '--timeout', '10s', '--latency', '-s', WRK_SCRIPT, spec.url, '--', ...scriptArgs];
  const [cmd, argv] = pinned(wrkPath, args, cpu);
  const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), (spec.durationS + 30) * 1000);
    child.on('error', (e) => resolve({ code: 127, stdout, stderr: `${stderr}${e.message}` }));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
  const line = out.stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (out.code !== 0 || !line) throw new Error(`wrk failed (exit ${out.code}): ${out.stderr.slice(-1000)}${out.stdout.slice(-1000)}`);
  const j = JSON.parse(line.slice('WRK_JSON '.length)) as Record<string, number>;
  const durationS = j.durationUs! / 1e6;
  return check(spec, {
    tool: 'wrk',
    connections: spec.connections,
    durationS: r2(durationS),
    rps: Math.round((j.requests! / durationS) * 10) / 10,
    requests: j.requests!,
    latencyMs: { p50: r2(j.p50! / 1000), p90: r2(j.p90! / 1000), p99: r2(j.p99! / 1000), max: r2(j.max! / 1000), mean: r2(j.mean! / 1000) },
    errors: j.connect! + j.read! + j.write! + j.timeout!,
    non2xx: j.status!,
  });
}

/** The same spec run by autocannon in this process (quick variant: no native tool needed). */
export async function runAutocannon(spec: LoadSpec, paths: string[] | undefined): Promise<LoadResult> {
  let i = spec.offset ?? 0;
  const u = new URL(spec.url);
  const r = await autocannon({
    url: u.origin,
    connections: spec.connections,
    duration: spec.durationS,
    pipelining: 1,
    timeout: 10,
    method: spec.method ?? 'GET',
    requests: [
      {
        setupRequest: (req) => {
          const n = i++;
          const headers: Record<string, string> = { ...(req.headers as Record<string, string>) };
          if (spec.xff) {
            const a = n % spec.xff;
            headers['x-forwarded-for'] = `10.${Math.floor(a / 65536) % 256}.${Math.floor(a / 256) % 256}.${a % 256}`;
          }
          return { ...req, path: paths?.length ? paths[n % paths.length]! : u.pathname + u.search, headers };
        },
      },
    ],
  });
  return check(spec, {
    tool: 'autocannon',
    connections: r.connections,
    durationS: r.duration,
    rps: Math.round(r.requests.average * 10) / 10,
    requests: r.requests.total,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: r2(r.latency.mean) },
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  });
}

/** Writes a path list for the wrk script. */
export function writePaths(file: string, paths: string[]): string {
  writeFileSync(file, `${paths.join('\n')}\n`);
  return file;
}
