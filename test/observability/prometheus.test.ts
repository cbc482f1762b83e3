// A real Prometheus (the Debian package; .ci/run installs it) scrapes the shipped server's
// METRICS_PORT with the bearer token while requests arrive, and its HTTP API answers rate()
// and histogram_quantile() over the service's series. Skipped where Prometheus is not
// installed, except in CI (CI set), where its absence fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshStore, type Store } from '../helpers/cli.ts';
import { usingPostgres } from '../helpers/db.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server.ts';

const installed = spawnSync('prometheus', ['--version']).status === 0;
const inCi = Boolean(process.env.CI);
if (!installed && !inCi) console.warn('test/observability/prometheus.test.ts skipped: the `prometheus` binary is not installed (apt-get install prometheus; .ci/run does)');
// The database does not change what is scraped: the PGlite pass alone.
const run = !usingPostgres && (installed || inCi);

const TOKEN = `t-${randomBytes(16).toString('hex')}`;
let store: Store;
let server: ServerProcess;
let prometheus: ChildProcess | undefined;
let promUrl = '';
let dir = '';
let promLog = '';

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

beforeAll(async () => {
  if (!run) return;
  expect(installed, 'CI is set but the prometheus binary is missing: .ci/run installs the Debian package').toBe(true);
  store = await freshStore('demo');
  server = await startServerProcess({ ...store.env, LOG_LEVEL: 'info', METRICS_PORT: '0', METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: '0' }, 120_000);
  const metricsUrl = new URL(/"metricsUrl":"([^"]+)"/.exec(server.logs())![1]!);
  dir = mkdtempSync(path.join(tmpdir(), 'te-prometheus-'));
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
      `      credentials: ${TOKEN}`,
      '    static_configs:',
      `      - targets: ['${metricsUrl.host}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    'prometheus',
    [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout!.on('data', (d) => (promLog += d));
  prometheus.stderr!.on('data', (d) => (promLog += d));
  for (let i = 0; ; i++) {
    const ready = await fetch(`${promUrl}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (i > 120) throw new Error(`prometheus did not start:\n${promLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 180_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus!.once('close', r));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await server?.stop();
  await store?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Vector = { metric: Record<string, string>; value: [number, string] }[];
async function query(q: string): Promise<Vector> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as { status: string; data: { resultType: string; result: Vector }; error?: string };
  expect(body.status, body.error).toBe('success');
  return body.data.result;
}

describe.skipIf(!run)('Prometheus scraping the service', () => {
  it('answers rate() and histogram_quantile() over the service series', async () => {
    // Requests until Prometheus answers: rate() needs two scrapes (1 s apart) in its window with the
    // counters grown between them, so the requests go on while it is asked, twice a second (a fixed
    // 6 s of requests before asking was most of this test's time and of the server's CPU).
    let sent = 0;
    let up: Vector = [];
    let rate: Vector = [];
    let p99: Vector = [];
    let asked = 0;
    for (const until = Date.now() + 60_000; Date.now() < until; ) {
      for (const p of ['/versions', '/codes/10047700', '/codes?q=vomiting']) {
        const r = await fetch(`${server.url}${p}`);
        await r.arrayBuffer();
        expect(r.status).toBe(200);
        sent++;
      }
      await new Promise((r) => setTimeout(r, 20));
      if (Date.now() - asked < 500) continue;
      asked = Date.now();
      up = await query('up{job="terminology"}');
      rate = await query('sum by (route) (rate(http_server_request_duration_seconds_count{job="terminology",method="GET"}[20s]))');
      p99 = await query('histogram_quantile(0.99, sum by (le) (rate(http_server_request_duration_seconds_bucket{job="terminology",route="/versions"}[20s])))');
      if (up[0]?.value[1] === '1' && rate.length >= 3 && p99.length === 1 && Number.isFinite(Number(p99[0]!.value[1]))) break;
    }
    expect(sent).toBeGreaterThan(10);
    expect(up[0]?.value[1], promLog).toBe('1');
    const byRoute = Object.fromEntries(rate.map((r) => [r.metric.route, Number(r.value[1])]));
    for (const route of ['/versions', '/codes/:code', '/codes']) expect(byRoute[route], route).toBeGreaterThan(0);
    const q = Number(p99[0]!.value[1]);
    expect(q).toBeGreaterThan(0);
    expect(q).toBeLessThanOrEqual(10); // within the histogram's buckets
    // The build_info series and the service's own counters arrive too.
    expect((await query('build_info{job="terminology"}'))[0]?.metric.store).toBe('embedded');
    expect(Number((await query('sum(cache_lookups_total{job="terminology",cache="warm_answer",result="hit"})'))[0]?.value[1])).toBeGreaterThan(0);
  }, 120_000);
});
