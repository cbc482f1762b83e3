// The round-robin proxy of the scale-out scenario: a Debian haproxy with a config written
// here (one thread, keep-alive to the servers, no header rewriting: the load generator's
// X-Forwarded-For reaches the servers, which trust loopback as their proxy).
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { freePort, spawnTracked, type Tracked } from './procs.ts';
import { request } from './http.ts';
import { pinned, type Cpu } from './pinning.ts';

export async function startHaproxy(haproxyPath: string, dir: string, servers: string[], cpu: Cpu | undefined): Promise<{ base: string; proc: Tracked }> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const cfg = [
    'global',
    '  maxconn 4096',
    '  nbthread 1',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  option http-keep-alive',
    'frontend fe',
    `  bind 127.0.0.1:${port}`,
    '  default_backend be',
    'backend be',
    '  balance roundrobin',
    '  http-reuse always',
    ...servers.map((s, i) => `  server s${i + 1} ${new URL(s).host}`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, cfg);
  const [cmd, argv] = pinned(haproxyPath, ['-f', file, '-db'], cpu);
  const proc = spawnTracked(cmd, argv, {});
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`haproxy exited (${proc.child.exitCode}): ${proc.stderr.toString().slice(-1500)}`);
    try {
      if ((await request(base, { path: '/versions' }, { timeoutMs: 2_000 })).status === 200) return { base, proc };
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > 15_000) throw new Error(`haproxy did not answer within 15 s: ${proc.stderr.toString().slice(-1500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
