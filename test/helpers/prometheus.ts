// Reads the Prometheus text exposition format (version 0.0.4) strictly: every line is a
// comment, blank, or `name{label="value",…} value`; anything else throws. (The npm parser
// parse-prometheus-text-format 1.1.1 merges a histogram's series and drops their labels.)
// Tests also run Prometheus's own parser over the same text where promtool is installed, and a
// real Prometheus scrapes the shipped server (startPrometheus).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

function parseLabels(s: string, at: number, line: string): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (s[i] !== '}') {
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(s.slice(i));
    if (!m) throw new Error(`bad label in: ${line}`);
    i += m[0].length;
    let v = '';
    for (;;) {
      const c = s[i++];
      if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (c === '"') break;
      if (c === '\\') {
        const e = s[i++];
        v += e === 'n' ? '\n' : e;
      } else v += c;
    }
    labels[m[1]!] = v;
    if (s[i] === ',') i++;
    else if (s[i] !== '}') throw new Error(`bad label list in: ${line}`);
  }
  return [labels, i + 1];
}

export function parsePrometheus(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = NAME.exec(line)?.[0];
    if (!name) throw new Error(`bad sample line: ${line}`);
    let labels: Record<string, string> = {};
    let i = name.length;
    if (line[i] === '{') [labels, i] = parseLabels(line, i, line);
    const rest = line.slice(i).trim().split(' ');
    if (rest.length < 1 || rest.length > 2) throw new Error(`bad value in: ${line}`);
    // As Prometheus reads it (Go's ParseFloat): NaN and Inf in any case (prom-client writes `Nan`).
    const raw = rest[0]!.toLowerCase();
    const value = raw === '+inf' || raw === 'inf' ? Infinity : raw === '-inf' ? -Infinity : raw === 'nan' ? NaN : Number(raw);
    if (Number.isNaN(value) && raw !== 'nan') throw new Error(`bad value in: ${line}`);
    out.push({ name, labels, value });
  }
  return out;
}

/** Sum of the samples named `name` whose labels include `match`. */
export function total(samples: Sample[], name: string, match: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
}

/** Every series as `name{k="v",…}` (labels sorted). */
export function seriesOf(samples: Sample[]): Set<string> {
  return new Set(samples.map((s) => `${s.name}{${Object.keys(s.labels).sort().map((k) => `${k}="${s.labels[k]}"`).join(',')}}`));
}

export const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

/**
 * Prometheus's own parser and linter (`promtool check metrics`) over `text`: the problems it
 * reports, one per line ([] when clean). Throws when the text does not parse at all.
 */
export function promtoolProblems(text: string): string[] {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  const lines = `${r.stdout}${r.stderr}`.split('\n').filter(Boolean);
  if (r.status !== 0 && r.status !== 3) throw new Error(`promtool check metrics: ${lines.join('\n')}`);
  return lines;
}

export const hasPrometheus = spawnSync('prometheus', ['--version']).status === 0;

export type Vector = { metric: Record<string, string>; value: [number, string] }[];

export interface Prometheus {
  url: string;
  /** An instant query through Prometheus's HTTP API: its result vector. */
  query(q: string): Promise<Vector>;
  /** What Prometheus printed so far. */
  log(): string;
  stop(): Promise<void>;
}

/** A free TCP port of 127.0.0.1 (Prometheus has no "any port" setting). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A real Prometheus (the Debian package) scraping `target` (a METRICS_PORT's host:port) every
 * second with the bearer token, in a directory of its own; resolves once it is ready.
 */
export async function startPrometheus(target: string, token: string): Promise<Prometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'te-prometheus-'));
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: terminology',
      '    metrics_path: /metrics',
      '    authorization:',
      '      type: Bearer',
      `      credentials: ${token}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child = spawn(
    'prometheus',
    [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('close', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/-/ready`).then((r) => r.ok, () => false)) break;
    if (i > 120) {
      await stop();
      throw new Error(`prometheus did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    async query(q) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = (await res.json()) as { status: string; data: { result: Vector }; error?: string };
      if (body.status !== 'success') throw new Error(`prometheus query ${q}: ${body.error}`);
      return body.data.result;
    },
    log: () => log,
    stop,
  };
}
